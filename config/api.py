"""The REST API root: every app's endpoints listed in one browsable index."""

from __future__ import annotations

from collections import OrderedDict

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.urls import NoReverseMatch, reverse
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.exceptions import APIException
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

# (label, url name): apps append to this in their urls modules.
API_INDEX: list[tuple[str, str]] = []


def register_api_index(label: str, url_name: str) -> None:
    if (label, url_name) not in API_INDEX:
        API_INDEX.append((label, url_name))


class ApiRootView(APIView):
    """Kung Fu Arena's public API. Authenticate with `Authorization: Token <key>`."""

    permission_classes = [AllowAny]

    @extend_schema(exclude=True)
    def get(self, request: Request) -> Response:
        index = OrderedDict()
        for label, url_name in API_INDEX:
            try:
                index[label] = request.build_absolute_uri(reverse(url_name))
            except NoReverseMatch:
                continue
        return Response(index)


# DRF's own codes, renamed where the services already use another word for
# the same refusal, so a client reads one vocabulary (config.errors).
_CODE_NAMES = {"permission_denied": "forbidden"}


def _first_message(errors) -> str:
    """The first message of a (possibly nested) validation error, with its field."""
    if isinstance(errors, dict):
        for field, value in errors.items():
            message = _first_message(value)
            if field in ("non_field_errors", "detail"):
                return message
            return f"{field}: {message}"
        return "Invalid input."
    if isinstance(errors, list):
        return _first_message(errors[0]) if errors else "Invalid input."
    return str(errors)


def _code_of(exc: APIException) -> str:
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else exc.default_code
    return _CODE_NAMES.get(code, code)


def api_exception_handler(exc, context):
    """Every API error answers ``{"code", "detail"}`` with its status.

    Service refusals (``config.errors.ServiceError``) carry their own code
    (and an engine's refusal its ``reason`` code and ``params``);
    DRF's errors (validation, authentication, permission, not found, method
    not allowed, throttling, parse errors, media types) keep DRF's status and
    headers (``WWW-Authenticate``, ``Allow``, ``Retry-After``) and get the code
    DRF gives them. A validation error also lists every field's messages
    under ``errors`` (``{"field": ["message", ...]}``; errors not tied to a
    field under ``non_field_errors``), and ``detail`` is the first of them.
    """
    from rest_framework.views import exception_handler

    from config.errors import ServiceError

    if isinstance(exc, ServiceError):
        # Worded in the request's language; a view for programs (the bot API,
        # ``english_errors``) keeps the English detail, as the bot protocol does.
        english = getattr(context.get("view"), "english_errors", False)
        worded = str(exc) if english else exc.worded()
        body = {"code": exc.code, "detail": worded, **exc.extra()}
        return Response(body, status=exc.status)
    response = exception_handler(exc, context)
    if response is None:
        return None  # not an API error: a crash, answered by config.error_pages
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    if isinstance(exc, exceptions.ValidationError):
        errors = exc.detail
        if not isinstance(errors, dict):
            errors = {"non_field_errors": errors}
        response.data = {
            "code": "invalid",
            "detail": _first_message(errors),
            "errors": errors,
        }
    else:
        detail = exc.detail if isinstance(exc, APIException) else response.data
        response.data = {"code": _code_of(exc), "detail": _first_message(detail)}
    return response
