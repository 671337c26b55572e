"""The sockets' session middleware (config/ws_session.py): the signed-in
user's session reaches the consumers, and their frames go to the server's
own ``send``, not through Channels' per-frame session-save check."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.sessions import CookieMiddleware
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.test import Client, override_settings

from config.ws_auth import socket_auth_stack
from config.ws_session import SocketSessionMiddleware
from tests.factories import UserFactory
from tests.gameplay.conftest import start_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def test_the_session_is_the_cookies_and_send_is_the_servers():
    user = await database_sync_to_async(UserFactory)(username="sockses")
    key = await database_sync_to_async(_cookie)(user)
    seen: dict[str, Any] = {}

    async def inner(scope, receive, send):
        seen["session"] = scope["session"]
        seen["send"] = send

    async def server_send(message):
        return None

    scope = {
        "type": "websocket",
        "headers": [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={key}".encode())],
    }
    await CookieMiddleware(SocketSessionMiddleware(inner))(scope, None, server_send)
    assert seen["send"] is server_send
    session = seen["session"]
    assert isinstance(session._wrapped, SessionBase)
    assert session.session_key == key
    assert await session.aget("_auth_user_id") == str(user.pk)


async def test_other_scopes_are_refused():
    async def inner(scope, receive, send):
        raise AssertionError("not reached")

    with pytest.raises(ValueError):
        await SocketSessionMiddleware(inner)({"type": "http"}, None, None)


@override_settings(ALLOWED_HOSTS=["arena.example"], CSRF_TRUSTED_ORIGINS=[])
async def test_a_signed_in_seat_gets_its_own_frame_through_the_stack():
    from channels.routing import URLRouter

    from config.routing import websocket_urlpatterns
    from config.ws_security import SameOriginValidator

    # The sockets' stack with a session engine other than the database's
    # (config.ws_auth.socket_auth_stack): origin check, cookies, this session
    # middleware, Channels' auth.
    with override_settings(SESSION_ENGINE="django.contrib.sessions.backends.cache"):
        stack = socket_auth_stack(URLRouter(websocket_urlpatterns))
    assert isinstance(stack, CookieMiddleware)
    assert isinstance(stack.inner, SocketSessionMiddleware)
    application = SameOriginValidator(stack)

    users = [
        await database_sync_to_async(UserFactory)(username=f"sockseat{i}")
        for i in range(2)
    ]
    match = await database_sync_to_async(start_match)(users)
    key = await database_sync_to_async(_cookie)(users[1])
    comm = WebsocketCommunicator(
        application,
        f"/ws/match/{match.public_id}/",
        headers=[
            (b"host", b"arena.example"),
            (b"origin", b"http://arena.example"),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={key}".encode()),
        ],
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected
    while True:
        frame = json.loads(await comm.receive_from(timeout=10))
        if frame["type"] == "state":
            break
    assert frame["seat"] == 1
    await comm.disconnect()
