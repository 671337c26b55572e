"""Who a socket's user is: the session cookie's session and its user, read on
the database thread in one call, without the ORM.

Channels' ``AuthMiddlewareStack`` (its cookie, session and auth middleware)
made every socket's connect parse the cookies, load the session and the user
through the ORM and hop to the database thread for it: about 3,000 Python
calls of a live match socket's 8,000 (``bench/live_move_cpu.py``). At 400
live Duelo games about ten games end a second and their players open twenty
sockets, so that was some 150 calls a move. Here the same decision, by the
same rules, reads two rows with SQL written once per process:

- the session: the cookie's key (at least 8 characters, as Django's session
  stores require), its row in Django's database session table if it has not
  expired, its data decoded (signature checked) by the session store itself;
- the user: the session's user id and backend, the backend one of
  ``AUTHENTICATION_BACKENDS``; for Django's ``ModelBackend`` the user's row
  read here and refused when inactive (``user_can_authenticate``), for any
  other backend that backend's own ``get_user``;
- the session's auth hash compared with the user's current one
  (``get_session_auth_hash``: a changed password signs every other session
  out): on a mismatch the session is flushed (its row deleted) and the socket
  is anonymous, as Channels' ``get_user`` does (no fallback-key hashes: a page
  rotates those before its socket opens).

Nothing is cached between connects: each reads both rows afresh, so a
sign-out (the row deleted), an expiry, a password change or a deactivated
account holds from the next connect on, as on a page. A cookie without a
session key is anonymous without a database call. Consumers get
``scope["user"]`` (no ``scope["session"]``: no consumer writes to the session,
sign-in and sign-out are pages). With another session engine the sockets keep
Channels' stack (``socket_auth_stack``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from channels.auth import AuthMiddleware
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.core.exceptions import ValidationError
from django.db import connection
from django.http import parse_cookie
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from config.rows import Columns, columns_of
from config.ws_session import socket_session_stack

DB_SESSIONS = "django.contrib.sessions.backends.db"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
# Django's session stores refuse shorter keys (``SessionBase._validate_session_key``).
MIN_KEY_LENGTH = 8


@cache
def _plan(vendor: str) -> tuple[Columns[Any], str, str, str]:
    """The user's columns and the three statements, once per process and
    database vendor."""
    user_model = get_user_model()
    users = columns_of(user_model)
    quote = connection.ops.quote_name
    sessions = quote(SessionStore.get_model_class()._meta.db_table)
    table = quote(user_model._meta.db_table)
    pk = quote(user_model._meta.pk.column)
    return (
        users,
        f"SELECT session_data FROM {sessions} "
        "WHERE session_key = %s AND expire_date > %s",
        f"SELECT {users.sql} FROM {table} WHERE {table}.{pk} = %s",
        f"DELETE FROM {sessions} WHERE session_key = %s",
    )


@cache
def _store() -> SessionStore:
    """A session store for its ``decode`` alone (the salt and the serializer:
    nothing of one session)."""
    return SessionStore()


def session_key_of(headers: Any) -> str | None:
    """The session cookie's value from a scope's headers (the last ``cookie``
    header, as Channels' ``CookieMiddleware`` reads them), or None."""
    header = None
    for name, value in headers:
        if name == b"cookie":
            header = value
    if header is None:
        return None
    return parse_cookie(header.decode("latin1")).get(settings.SESSION_COOKIE_NAME)


def _active_user(user_id: Any) -> Any:
    """``ModelBackend.get_user``: the user, or None when there is no such user
    or it may not authenticate (inactive)."""
    users, _session_sql, user_sql, _flush_sql = _plan(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(user_sql, [user_id])
        row = cursor.fetchone()
    if row is None:
        return None
    user = users.build(list(row))
    return user if getattr(user, "is_active", True) else None


def session_user(session_key: str | None) -> Any:
    """The user the session ``session_key`` is signed in as, else an
    ``AnonymousUser`` (run on the database thread; the rules: module
    docstring)."""
    if not session_key or len(session_key) < MIN_KEY_LENGTH:
        return AnonymousUser()
    _users, session_sql, _user_sql, flush_sql = _plan(connection.vendor)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(session_sql, [session_key, now])
        row = cursor.fetchone()
    if row is None:  # no such session, or expired
        return AnonymousUser()
    session = _store().decode(row[0])  # {} when tampered with or unreadable
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except (KeyError, ValidationError):
        return AnonymousUser()
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return AnonymousUser()
    if backend_path == MODEL_BACKEND:
        user = _active_user(user_id)
    else:
        user = load_backend(backend_path).get_user(user_id)
    if user is None:
        return AnonymousUser()
    if hasattr(user, "get_session_auth_hash"):
        session_hash = session.get(HASH_SESSION_KEY)
        if not (
            session_hash
            and constant_time_compare(session_hash, user.get_session_auth_hash())
        ):
            # Signed in before the password changed: the session is over.
            with connection.cursor() as cursor:
                cursor.execute(flush_sql, [session_key])
            return AnonymousUser()
    return user


_session_user_in_db_thread = database_sync_to_async(session_user)


class SocketAuthMiddleware:
    """``scope["user"]`` for a WebSocket from its session cookie (module
    docstring): Channels' cookie, session and auth middleware in one."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SocketAuthMiddleware serves WebSockets only")
        key = session_key_of(scope.get("headers", ()))
        user = await _session_user_in_db_thread(key) if key else AnonymousUser()
        return await self.inner(dict(scope, user=user), receive, send)


def socket_auth_stack(inner: Any) -> Any:
    """The sockets' authentication: ``SocketAuthMiddleware`` with Django's
    database sessions, else Channels' cookie, session and auth middleware
    (``config.ws_session``)."""
    if settings.SESSION_ENGINE == DB_SESSIONS:
        return SocketAuthMiddleware(inner)
    return socket_session_stack(AuthMiddleware(inner))
