"""``pgasync.execute_simple``: one simple-query message on the loop's own
connection, as the live append sends it (``store.append_async``)."""

from __future__ import annotations

import socket
from datetime import UTC, datetime
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


# Values a live append binds, with what makes quoting hard: quotes,
# backslashes (E'' literals), non-ASCII text, JSON text, negative numbers.
BOUND = {
    "quote": "it's a 'trap'; DROP TABLE x; --",
    "backslash": "C:\\path\\n and \\' too",
    "unicode": "Tigre 虎 🐉 ü",
    "json": '{"say": "O\'Brien", "path": "a\\\\b", "n": [1, -2]}',
    "negative": -7,
    "big": 2**40,
    "none": None,
    "yes": True,
    "no": False,
    "when": datetime(2026, 12, 5, 22, 50, 1, 123456, tzinfo=UTC),
}
TYPED = (
    "SELECT %(quote)s::text, %(backslash)s::text, %(unicode)s::text, "
    "%(json)s::jsonb, 1 -%(negative)s, %(big)s::bigint, %(none)s::int, "
    "%(yes)s, %(no)s, %(when)s, '100%%'"
)


async def test_a_bound_statement_reads_back_what_the_cursor_binds(postgresql):
    """``Statement.bind`` gives the server the values psycopg's own
    client-side binding (``mogrify``) gives it, byte for byte as read back."""
    async with pgasync.connection(1) as conn:
        query = pgasync.statement(TYPED).bind(conn, BOUND)
        (ours,) = await pgasync.execute_simple(conn, query)
        theirs = conn.cursor().mogrify(TYPED, BOUND).encode()
        (reference,) = await pgasync.execute_simple(conn, theirs)
    columns = range(reference.nfields)
    assert [ours.get_value(0, i) for i in columns] == [
        reference.get_value(0, i) for i in columns
    ]
    assert ours.get_value(0, 0) == BOUND["quote"].encode()
    assert ours.get_value(0, 1) == BOUND["backslash"].encode()
    assert ours.get_value(0, 2) == BOUND["unicode"].encode()
    assert ours.get_value(0, 4) == b"8"  # 1 - (-7), not a comment
    assert ours.get_value(0, 6) is None
    assert ours.get_value(0, 10) == b"100%"


async def test_binding_refuses_what_it_cannot_quote_safely(postgresql):
    async with pgasync.connection(1) as conn:
        statement = pgasync.statement("SELECT %(x)s")
        with pytest.raises(psycopg.DataError, match="NUL"):
            statement.bind(conn, {"x": "cut\x00here'; DROP TABLE x; --"})
        with pytest.raises(TypeError, match="float"):
            statement.bind(conn, {"x": 1.5})
        with pytest.raises(TypeError, match="datetime"):
            statement.bind(conn, {"x": datetime(2026, 12, 5)})  # naive: no zone
        with pytest.raises(KeyError):
            statement.bind(conn, {})
    with pytest.raises(ValueError, match="parameter marks"):
        pgasync.Statement("SELECT %s")
