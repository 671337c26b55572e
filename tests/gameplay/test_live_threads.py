"""The live owner's database threads close their connections when stopped
(``copies.close_threads``): a test session can then drop its PostgreSQL
database, which PostgreSQL refuses while a session still uses it."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import override_settings

from gameplay.live import copies


@pytest.mark.django_db(transaction=True)
def test_every_database_thread_closes_its_connection(monkeypatch):
    copies.close_threads()  # a pool of the size set here
    closed_by: list[str] = []
    close_all = connections.close_all

    def spy() -> None:
        closed_by.append(threading.current_thread().name)
        close_all()

    monkeypatch.setattr(connections, "close_all", spy)
    with override_settings(LIVE_DB_THREADS=3):
        pool = copies.executor()
        arrived = threading.Barrier(3)
        held: dict[str, object] = {}

        def use() -> None:
            connection.ensure_connection()
            held[threading.current_thread().name] = connections["default"]
            arrived.wait(10)  # three threads at once: each opens its own

        for future in [pool.submit(use) for _ in range(3)]:
            future.result(10)
        assert len(held) == 3
        copies.close_threads()
        # Each thread closed its own, once (SQLite's in-memory test database
        # ignores a close; on PostgreSQL the connection is gone).
        assert sorted(closed_by) == sorted(held)
        if connection.vendor == "postgresql":
            assert all(conn.connection is None for conn in held.values())
        assert copies._pool is None  # the next move starts them again
        assert copies.executor() is not pool
        copies.close_threads()


def test_thread_count_follows_the_setting():
    """``threads()`` is kept between moves, never past a change of the setting."""
    default = copies.threads()
    with override_settings(LIVE_DB_THREADS=3):
        assert copies.threads() == 3
        with override_settings(LIVE_DB_THREADS=0):
            assert copies.threads() == 0
        assert copies.threads() == 3
    assert copies.threads() == default
