"""The sockets' authentication (config/ws_auth.py): the session cookie's user
read without the ORM, refused in every case Channels' ``get_user`` refuses,
and the same user or refusal as Channels' for each case (the stack it
replaces)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from channels.auth import get_user as channels_get_user
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.test import Client, override_settings
from django.utils import timezone

from config import ws_auth
from config.ws_auth import SocketAuthMiddleware, session_key_of, session_user
from tests.factories import UserFactory
from tests.gameplay.conftest import start_match

pytestmark = pytest.mark.django_db(transaction=True)

OTHER_BACKEND = "tests.config.test_ws_auth.OtherBackend"


class OtherBackend(ModelBackend):
    """A listed backend other than ModelBackend: its own ``get_user`` decides."""

    asked: list[Any] = []

    def get_user(self, user_id: Any) -> Any:
        OtherBackend.asked.append(user_id)
        return super().get_user(user_id)


def _signed_in(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _edit_session(key: str, **changes: Any) -> None:
    """Rewrite the session's data (``None`` removes a key), signed as Django
    signs it."""
    store = SessionStore(key)
    for name, value in changes.items():
        if value is None:
            store.pop(name, None)
        else:
            store[name] = value
    store.save()


def _valid(user) -> str:
    return _signed_in(user)


def _unknown(user) -> str:
    _signed_in(user)
    return "x" * 32


def _short(user) -> str:
    return _signed_in(user)[:7]


def _expired(user) -> str:
    key = _signed_in(user)
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    return key


def _tampered(user) -> str:
    key = _signed_in(user)
    session = Session.objects.get(session_key=key)
    data = session.session_data
    # The payload changed, its signature left as it was.
    Session.objects.filter(session_key=key).update(session_data="x" + data[1:])
    return key


def _anonymous_session(user) -> str:
    store = SessionStore()
    store["cart"] = 1
    store.create()
    assert store.session_key is not None
    return store.session_key


def _backend_not_listed(user) -> str:
    key = _signed_in(user)
    _edit_session(key, **{BACKEND_SESSION_KEY: "django.contrib.auth.backends.Gone"})
    return key


def _bad_user_id(user) -> str:
    key = _signed_in(user)
    _edit_session(key, **{SESSION_KEY: "not-a-number"})
    return key


def _user_deleted(user) -> str:
    key = _signed_in(user)
    user.delete()
    return key


def _inactive(user) -> str:
    key = _signed_in(user)
    user.is_active = False
    user.save(update_fields=["is_active"])
    return key


def _password_changed(user) -> str:
    key = _signed_in(user)
    user.set_password("a whole new secret")
    user.save(update_fields=["password"])
    return key


def _no_hash(user) -> str:
    key = _signed_in(user)
    _edit_session(key, **{HASH_SESSION_KEY: None})
    return key


def _logged_out(user) -> str:
    client = Client()
    client.force_login(user)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    client.logout()
    return key


# Each case: how the session comes to be, whether its user is signed in, and
# whether the session row is left (a flushed session is deleted).
CASES: dict[str, tuple[Callable[[Any], str], bool, bool]] = {
    "valid": (_valid, True, True),
    "unknown key": (_unknown, False, False),
    "short key": (_short, False, False),
    "expired": (_expired, False, True),
    "tampered data": (_tampered, False, True),
    "no user in the session": (_anonymous_session, False, True),
    "backend not listed": (_backend_not_listed, False, True),
    "bad user id": (_bad_user_id, False, True),
    "user deleted": (_user_deleted, False, True),
    "inactive user": (_inactive, False, True),
    "password changed": (_password_changed, False, False),
    "no auth hash": (_no_hash, False, False),
    "signed out": (_logged_out, False, False),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_case_signs_in_or_refuses(case):
    make, signed_in, row_left = CASES[case]
    user = UserFactory(username=f"wsauth-{len(case)}-{case[:3]}")
    key = make(user)
    found = session_user(key)
    assert found.is_authenticated is signed_in
    if signed_in:
        assert found.pk == user.pk
        assert found.username == user.username
        assert found.password == user.password
    assert Session.objects.filter(session_key=key).exists() is row_left


@pytest.mark.parametrize("case", [c for c in CASES if c != "bad user id"])
def test_the_same_verdict_as_channels_get_user(case):
    """Channels' ``get_user`` on the same session (before this module the
    sockets' auth) finds the same user, or none. (A session whose user id is
    not a number makes Channels' raise; here it is refused: that case is above.)"""
    make = CASES[case][0]
    user = UserFactory(username=f"wschan-{len(case)}-{case[:3]}")
    key = make(user)
    # Each side on its own copy of the session: a flush deletes the row.
    data = Session.objects.filter(session_key=key).values_list(
        "session_data", "expire_date"
    )
    saved = list(data)
    ours = session_user(key)
    if saved:
        Session.objects.update_or_create(
            session_key=key,
            defaults={"session_data": saved[0][0], "expire_date": saved[0][1]},
        )
    theirs = channels_get_user.func({"session": SessionStore(key)})
    assert ours.is_authenticated == theirs.is_authenticated
    assert ours.pk == theirs.pk


def test_the_user_is_the_one_the_orm_reads():
    user = UserFactory(username="wsauth-fields", display_name="Shown Name")
    found = session_user(_signed_in(user))
    fresh = type(user).objects.get(pk=user.pk)
    for field in type(user)._meta.concrete_fields:
        assert getattr(found, field.attname) == getattr(fresh, field.attname)
    assert found._state.adding is False
    assert found._state.db == "default"


@override_settings(
    AUTHENTICATION_BACKENDS=[*settings.AUTHENTICATION_BACKENDS, OTHER_BACKEND]
)
def test_another_listed_backend_decides_through_its_own_get_user():
    user = UserFactory(username="wsauth-other")
    key = _signed_in(user)
    _edit_session(key, **{BACKEND_SESSION_KEY: OTHER_BACKEND})
    OtherBackend.asked.clear()
    found = session_user(key)
    assert OtherBackend.asked == [user.pk]
    assert found.pk == user.pk
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert not session_user(key).is_authenticated


def test_the_session_cookie_is_read_from_the_last_cookie_header():
    name = settings.SESSION_COOKIE_NAME.encode()
    headers = [
        (b"cookie", name + b"=first"),
        (b"host", b"arena.example"),
        (b"cookie", b"lang=fr; " + name + b'="second"'),
    ]
    assert session_key_of(headers) == "second"
    assert session_key_of([(b"cookie", b"lang=fr")]) is None
    assert session_key_of([]) is None


@pytest.mark.asyncio
async def test_the_middleware_puts_the_user_in_the_scope(monkeypatch):
    user = await database_sync_to_async(UserFactory)(username="wsauth-scope")
    key = await database_sync_to_async(_signed_in)(user)
    seen: list[Any] = []

    async def inner(scope, receive, send):
        seen.append(scope)

    cookie = f"{settings.SESSION_COOKIE_NAME}={key}".encode()
    await SocketAuthMiddleware(inner)(
        {"type": "websocket", "headers": [(b"cookie", cookie)]}, None, None
    )
    assert seen[0]["user"].pk == user.pk
    assert "session" not in seen[0]

    # No session cookie: anonymous, and the database is not asked.
    def not_called(key):
        raise AssertionError("no database call without a session key")

    monkeypatch.setattr(ws_auth, "_session_user_in_db_thread", not_called)
    await SocketAuthMiddleware(inner)(
        {"type": "websocket", "headers": [(b"cookie", b"lang=fr")]}, None, None
    )
    assert not seen[1]["user"].is_authenticated

    with pytest.raises(ValueError):
        await SocketAuthMiddleware(inner)({"type": "http"}, None, None)


def test_other_session_engines_keep_channels_stack():
    from channels.sessions import CookieMiddleware

    def app(scope, receive, send):
        raise AssertionError("not called")

    assert isinstance(ws_auth.socket_auth_stack(app), SocketAuthMiddleware)
    with override_settings(SESSION_ENGINE="django.contrib.sessions.backends.cache"):
        assert isinstance(ws_auth.socket_auth_stack(app), CookieMiddleware)


async def _first_state(comm) -> dict[str, Any]:
    while True:
        frame = json.loads(await comm.receive_from(timeout=10))
        if frame["type"] == "state":
            return frame


def _socket(application, match, key: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application,
        f"/ws/match/{match.public_id}/",
        headers=[
            (b"host", b"arena.example"),
            (b"origin", b"http://arena.example"),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={key}".encode()),
        ],
    )


@pytest.mark.asyncio
@override_settings(ALLOWED_HOSTS=["arena.example"], CSRF_TRUSTED_ORIGINS=[])
async def test_through_the_application_a_seat_then_a_spectator_once_signed_out():
    from config.asgi import application

    users = [
        await database_sync_to_async(UserFactory)(username=f"wsauthseat{i}")
        for i in range(2)
    ]
    match = await database_sync_to_async(start_match)(users)
    client = Client()
    await database_sync_to_async(client.force_login)(users[1])
    key = client.cookies[settings.SESSION_COOKIE_NAME].value

    comm = _socket(application, match, key)
    assert (await comm.connect(timeout=10))[0]
    assert (await _first_state(comm))["seat"] == 1
    await comm.disconnect()

    # Signed out on a page: the same cookie opens a spectator's socket.
    await database_sync_to_async(client.logout)()
    comm = _socket(application, match, key)
    assert (await comm.connect(timeout=10))[0]
    assert (await _first_state(comm)).get("seat") is None
    await comm.disconnect()
