"""WebSocket handshake checks: same origin (scheme, host and port) and unknown paths.

Browsers send cookies with a WebSocket handshake from any site, so a socket
authenticated by the session must refuse pages of other origins (cross-site
WebSocket hijacking). Channels' ``AllowedHostsOriginValidator`` compares only
the host name: ``http://arena.example`` could open a socket to
``https://arena.example``, and any port of an allowed host was accepted. Here the
``Origin`` must be the socket's own origin exactly (the scheme the connection
arrived with, the ``Host`` header's host and port), or one listed in
``CSRF_TRUSTED_ORIGINS``, and the host must be in ``ALLOWED_HOSTS``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_tuple(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin URL with the default port filled in."""
    try:
        parts = urlsplit(url.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            try:
                return value.decode("latin1")
            except UnicodeDecodeError:  # pragma: no cover - latin1 decodes all
                return None
    return None


def own_origin(scope: dict) -> tuple[str, str, int] | None:
    """The origin the socket was opened at: its scheme and its Host header."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host.lower())
    allowed = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed:
        allowed = ["localhost", "127.0.0.1", "[::1]"]
    if not domain or not validate_host(domain, allowed):
        return None
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return _origin_tuple(f"{scheme}://{host}")


def origin_allowed(scope: dict) -> bool:
    """Whether the handshake's ``Origin`` is this site's (scheme, host and port)."""
    header = _header(scope, b"origin")
    origin = _origin_tuple(header) if header else None
    if origin is None:
        return False
    if origin == own_origin(scope):
        return True
    trusted = {_origin_tuple(url) for url in settings.CSRF_TRUSTED_ORIGINS}
    return origin in trusted - {None}


class RefusedHandshake(AsyncWebsocketConsumer):
    """Closing before accepting answers the handshake with HTTP 403."""

    async def connect(self) -> None:
        await self.close()


class UnknownPathConsumer(RefusedHandshake):
    """Paths no route knows: refuse the handshake instead of a server error."""


class SameOriginValidator:
    """ASGI middleware: refuse (HTTP 403) handshakes from another origin."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await RefusedHandshake()(scope, receive, send)
        return await self.application(scope, receive, send)
