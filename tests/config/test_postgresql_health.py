"""The PostgreSQL backend's health check (``config.postgresql``): at most once a
second per connection, and a dead connection is still replaced.

Django pings a kept connection before its first query after every
``close_old_connections`` (each request, each ``database_sync_to_async`` call).
Here a connection opened or checked within the last second is trusted; one
idle longer is pinged and replaced when dead; one that dies within the second
fails the query that meets it and is replaced at the next call.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import OperationalError, close_old_connections, connections

from config.postgresql.base import HEALTH_CHECK_EVERY_S

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def conn() -> Any:
    conn = connections["default"]
    if conn.vendor != "postgresql":
        pytest.skip("the health check's policy is the PostgreSQL backend's")
    assert conn.settings_dict["CONN_HEALTH_CHECKS"]
    conn.close()
    conn.ensure_connection()  # opened now: trusted for the next second
    return conn


@pytest.fixture
def pings(conn: Any, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each health check's ``SELECT 1``, with whether it found the connection
    usable."""
    seen: list[bool] = []
    usable = type(conn).is_usable

    def counted(self: Any) -> bool:
        seen.append(usable(self))
        return seen[-1]

    monkeypatch.setattr(type(conn), "is_usable", counted)
    return seen


def _backend_pid(conn: Any) -> int:
    with conn.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _kill(conn: Any) -> None:
    """End ``conn``'s server process from another session, as a database
    restart or an idle timeout does, and wait until it is gone."""
    pid = conn.connection.info.backend_pid
    other = conn.copy()
    try:
        with other.cursor() as cursor:
            # With a timeout PostgreSQL waits until the backend has ended.
            cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])
            (ended,) = cursor.fetchone()
        assert ended, f"backend {pid} did not end"
    finally:
        other.close()


def _call(conn: Any) -> int:
    """One database call as Channels and requests make it: old connections
    closed before and after (``database_sync_to_async``)."""
    close_old_connections()
    try:
        return _backend_pid(conn)
    finally:
        close_old_connections()


def test_calls_within_the_second_are_not_pinged(conn, pings) -> None:
    pid = _call(conn)
    assert [_call(conn) for _ in range(5)] == [pid] * 5
    assert pings == []
    conn.checked_at -= HEALTH_CHECK_EVERY_S  # idle for a second: pinged
    assert _call(conn) == pid
    assert _call(conn) == pid
    assert pings == [True]


def test_a_dead_connection_idle_for_a_second_is_replaced_before_use(
    conn, pings
) -> None:
    pid = _call(conn)
    _kill(conn)
    conn.checked_at -= HEALTH_CHECK_EVERY_S
    assert _call(conn) != pid  # no error: the check found it dead
    assert pings == [False]


def test_a_connection_dying_within_the_second_fails_one_call_only(conn, pings) -> None:
    pid = _call(conn)
    _kill(conn)
    with pytest.raises(OperationalError):
        _call(conn)
    # The failed call marked it; the check at its end closed it.
    assert conn.connection is None
    assert _call(conn) != pid
    assert pings == [False]
