"""Request guards that run before any view reads the request.

``BodySizeLimit`` is ASGI middleware around the whole Django application: it
refuses a body whose ``Content-Length`` is over ``REQUEST_MAX_BODY_BYTES`` before
a byte of it is read, and cuts off a body sent without a length (chunked) as
soon as it passes the limit. Django itself would first spool the whole body to
a temporary file (a 300 MB upload was read to disk before being refused).

``BadInputMiddleware`` answers numbers that do not fit a database column (an id
of 10**20: OverflowError on SQLite, "out of range" on PostgreSQL) with a 400
instead of a 500.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from django.conf import settings
from django.db import DataError
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)


def _too_large_body(scope: dict, limit: int) -> tuple[bytes, bytes]:
    detail = f"The request body is larger than this server accepts ({limit} bytes)."
    if scope.get("path", "").startswith("/api/"):
        body = json.dumps({"code": "too_large", "detail": detail}).encode()
        return body, b"application/json"
    return detail.encode(), b"text/plain; charset=utf-8"


async def _send_413(scope: dict, send, limit: int) -> None:
    body, content_type = _too_large_body(scope, limit)
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodySizeLimit:
    """ASGI middleware: HTTP bodies over ``REQUEST_MAX_BODY_BYTES`` get a 413."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.application(scope, receive, send)
        limit = settings.REQUEST_MAX_BODY_BYTES
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (
                not value.isdigit() or int(value) > limit
            ):
                return await _send_413(scope, send, limit)
        received = 0
        refused = False

        async def limited_receive():
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request" and not refused:
                received += len(message.get("body", b""))
                if received > limit:
                    refused = True
                    await _send_413(scope, send, limit)
                    # Django stops reading and answers nothing (RequestAborted).
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message):
            if not refused:
                await send(message)

        return await self.application(scope, limited_receive, guarded_send)


def _out_of_range(exc: Exception) -> bool:
    if isinstance(exc, OverflowError):
        return True
    return isinstance(exc, DataError) and "out of range" in str(exc).lower()


def _has_nul(request) -> bool:
    if "\x00" in request.path:
        return True
    return any(
        "\x00" in key or any("\x00" in value for value in values)
        for key, values in request.GET.lists()
    )


class BadInputMiddleware:
    """Django middleware: out-of-range numbers and NUL characters are the client's
    error (400)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        if _has_nul(request):
            # PostgreSQL refuses NUL in text values, so a lookup with one would
            # end as a DataError (500); no valid name, slug or filter holds one.
            from config.error_pages import api_error, bad_request, is_api

            if is_api(request):
                return api_error(400, "The request contains a NUL character.")
            return bad_request(request, ValueError("NUL character in the request"))
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not _out_of_range(exception):
            return None
        logger.info("out-of-range number in %s: %s", request.path, exception)
        from config.error_pages import api_error, is_api

        if is_api(request):
            return api_error(400, "A number in the request is out of range.")
        from config.error_pages import bad_request

        return bad_request(request, exception)


class UserTimeZoneMiddleware:
    """Shows every time to a signed-in user in the zone of their profile.

    Django renders aware datetimes in the active zone; a user without one (or
    a visitor) reads UTC, the site's ``TIME_ZONE``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        from django.utils import timezone

        user = getattr(request, "user", None)
        zone_name = getattr(user, "time_zone", "") if user is not None else ""
        if zone_name:
            try:
                timezone.activate(ZoneInfo(zone_name))
            except (ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
