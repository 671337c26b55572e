"""``pgasync.execute_simple``: one simple-query message on the loop's own
connection, as the live append sends it (``store.append_async``)."""

from __future__ import annotations

import socket
from typing import Any

import psycopg
import pytest
from django.db import connection

from gameplay.live import pgasync

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def postgresql() -> Any:
    if connection.vendor != "postgresql":
        pytest.skip("the loop's connections are PostgreSQL's")
    yield
    pgasync.close_all()


async def test_each_statement_of_the_message_gives_its_result(postgresql):
    async with pgasync.connection(1) as conn:
        results = await pgasync.execute_simple(
            conn, b"SELECT 1 WHERE false; SELECT 40 + 2, 'x'"
        )
        assert [r.ntuples for r in results] == [0, 1]
        assert results[1].get_value(0, 0) == b"42"
        assert results[1].get_value(0, 1) == b"x"
        # The connection is left ready for the next statement.
        again = await pgasync.execute_simple(conn, b"SELECT 7")
        assert again[0].get_value(0, 0) == b"7"


async def test_an_error_raises_the_class_a_cursor_raises(postgresql):
    async with pgasync.connection(1) as conn:
        with pytest.raises(psycopg.errors.DivisionByZero, match="division by zero"):
            await pgasync.execute_simple(conn, b"SELECT 1; SELECT 1 / 0")
        with pytest.raises(psycopg.errors.UndefinedTable):
            await pgasync.execute_simple(conn, b"SELECT * FROM no_such_table")
        # The failed implicit transaction is over: the connection goes on.
        (result,) = await pgasync.execute_simple(conn, b"SELECT 'still here'")
        assert result.get_value(0, 0) == b"still here"


async def test_a_message_larger_than_the_socket_buffer_is_sent_whole(
    postgresql, monkeypatch
):
    """The flush waits for the socket to take the rest (a snapshot-bearing
    append of a big state can outgrow the kernel's buffer)."""
    waits: list[int] = []
    writable = pgasync._writable

    async def counted(loop: Any, fd: int) -> None:
        waits.append(fd)
        await writable(loop, fd)

    monkeypatch.setattr(pgasync, "_writable", counted)
    big = "a" * 4_000_000
    async with pgasync.connection(1) as conn:
        # A small send buffer: the kernel takes the message a little at a time.
        with socket.fromfd(conn.pgconn.socket, socket.AF_INET, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        (result,) = await pgasync.execute_simple(
            conn, f"SELECT length('{big}')".encode()
        )
        assert result.get_value(0, 0) == b"4000000"
    assert waits  # the socket's buffer was full at least once
