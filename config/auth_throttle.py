"""Login throttling (django-axes): lockout answers, the client address, the name.

Wrong passwords are counted per account and per address
(``AXES_LOCKOUT_PARAMETERS``); past ``AUTH_LOCKOUT_FAILURES`` the account or the
address is locked out for ``AUTH_LOCKOUT_MINUTES``, on the sign-in page, the
admin and ``POST /api/auth/token/`` alike. The answer is a 429 that says so and
when to retry: JSON under /api/, the site's page elsewhere.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.settings import api_settings


def _minutes() -> int:
    return max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))


def lockout_message() -> str:
    minutes = _minutes()
    return (
        "Too many failed sign-ins for this account or from your address. "
        f"Signing in is locked for {minutes} minute{'s' if minutes != 1 else ''}; "
        "try again later or reset your password."
    )


def lockout_response(
    request: HttpRequest | Request,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """What a locked-out sign-in gets (django-axes' AXES_LOCKOUT_CALLABLE)."""
    request = getattr(request, "_request", request)  # a DRF Request wraps one
    retry_after = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"code": "locked_out", "detail": lockout_message()}, status=429
        )
    else:
        response = render(
            request,
            "accounts/locked_out.html",
            {"message": lockout_message(), "minutes": _minutes()},
            status=429,
        )
    response["Retry-After"] = retry_after
    return response


def client_ip(request: HttpRequest) -> str | None:
    """The peer address as the server resolved it (AXES_CLIENT_IP_CALLABLE).

    Behind a reverse proxy uvicorn replaces REMOTE_ADDR with the forwarded
    client address only when the proxy is one of TRUSTED_PROXIES; a client's own
    X-Forwarded-For is never believed here.
    """
    request = getattr(request, "_request", request)
    return request.META.get("REMOTE_ADDR") or None


def attempted_username(request, credentials=None) -> str | None:
    """The account a sign-in tried, normalised so case variants count together."""
    name = None
    if credentials:
        name = credentials.get("username")
    if name is None:
        data = getattr(request, "data", None) or getattr(request, "POST", {})
        name = data.get("username") if hasattr(data, "get") else None
    if not isinstance(name, str):
        return None
    return name.strip().casefold()[:150] or None


class ThrottledObtainAuthToken(ObtainAuthToken):
    """``POST /api/auth/token/``: DRF's token view, with the lockout answer.

    A locked-out attempt fails like a wrong password inside ``authenticate``;
    this says why instead ("unable to log in" would invite more guesses).
    """

    # DRF's view names its parsers itself; use the project's (bounded JSON).
    # api_settings imports the dotted paths; the stubs type the raw setting.
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment]

    def post(self, request, *args, **kwargs):
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:
            if getattr(request, "axes_locked_out", False) or getattr(
                request._request, "axes_locked_out", False
            ):
                return lockout_response(request)
            raise


obtain_auth_token = ThrottledObtainAuthToken.as_view()
