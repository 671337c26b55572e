"""Sessions for WebSockets: the session in the scope, the sends left alone.

The sockets' stack with a session engine other than Django's database one
(``config.ws_auth.socket_auth_stack``; with the database engine, the
project's setting, ``config.ws_auth`` reads the session and the user itself).

Channels' ``SessionMiddleware`` wraps ``send`` so that an HTTP response
saves a modified session and sets its cookie. A socket never sends such a
message (its types are ``websocket.*``), yet the wrapper still asks the lazy
session whether it was modified and is empty on every frame: two lazy
attribute lookups and one more coroutine per frame sent. A live Kung Fu
(2009) step sends eight frames from one process, and that wrapper was about
a fifth of the sending's Python work there (``bench/live_realtime.py`` under
py-spy). No consumer here writes to the session (sign-in and sign-out are
pages), so the socket stack resolves the session as Channels does and hands
the server's own ``send`` inward.
"""

from __future__ import annotations

from typing import Any

from channels.sessions import CookieMiddleware, InstanceSessionWrapper


class SocketSessionMiddleware:
    """``channels.sessions.SessionMiddleware`` for sockets: ``scope["session"]``
    is the cookie's session (lazily loaded, as there), ``send`` unwrapped."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SocketSessionMiddleware serves WebSockets only")
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def socket_session_stack(inner: Any) -> CookieMiddleware:
    """Cookies, then the session: what ``SessionMiddlewareStack`` gives a
    socket, without its per-frame save check."""
    return CookieMiddleware(SocketSessionMiddleware(inner))
