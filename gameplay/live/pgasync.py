"""The live owner's PostgreSQL connections on the event loop: a move's append
awaited there (``owner``'s path in the loop), not on a database thread.

A move that went to a ``live-db`` thread for its one round trip paid a hand-off
each way (the executor's queue and a futex to wake the thread, the loop's
wake-up to take the answer back, the GIL passed between them) on top of the
round trip itself: in isolation (one connection, the append's shape) about
50-90 µs of CPU a move more than awaiting the same statement on an
``AsyncConnection`` in the loop (docs/performance.md, "The move's path in the
event loop").

A few connections per event loop (as many as ``copies.threads()``: moves of
different matches overlap their round trips; one match's moves are already in
order, its lock), kept open, reused last-in first-out so the busy ones stay
warm. Health as ``config.postgresql`` keeps Django's: a connection idle for
longer than ``HEALTH_CHECK_EVERY_S`` is pinged before its next statement and
replaced when dead; one that breaks under a statement fails that move (it may
have committed: it is not retried, and the owner's copy is dropped, so the
next move reads and its compare-and-set sees what happened) and is closed, so
the next move opens a new one. A move cancelled while its statement is out
closes its connection too: its state is unknown.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import psycopg
from django.db import connections
from psycopg import errors, pq

from config.postgresql.base import HEALTH_CHECK_EVERY_S

logger = logging.getLogger(__name__)

# How long a cancelled append waits for the server to cancel its statement.
CANCEL_WAIT_S = 5.0


class _Pool:
    """The connections of one event loop (tests run a loop per test)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, size: int) -> None:
        self.loop = loop
        self.slots = asyncio.Semaphore(size)
        # (connection, when it was last known healthy: monotonic seconds)
        self.idle: list[tuple[psycopg.AsyncConnection[Any], float]] = []
        self.opened = 0  # connections opened, for tests and the benchmark


_pools: list[_Pool] = []


def _pool(size: int) -> _Pool:
    loop = asyncio.get_running_loop()
    if _pools and _pools[0].loop is loop:
        return _pools[0]
    close_all()  # a new loop (a test's): the old one's connections are dead weight
    pool = _Pool(loop, size)
    _pools[:] = [pool]
    return pool


async def _open() -> psycopg.AsyncConnection[Any]:
    """A connection as Django's settings describe it (the test database in
    tests), in autocommit, binding client-side as Django's cursor does."""
    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)
    return await psycopg.AsyncConnection.connect(
        autocommit=True, cursor_factory=psycopg.AsyncClientCursor, **params
    )


async def _healthy(conn: psycopg.AsyncConnection[Any], checked_at: float) -> bool:
    if conn.closed or conn.broken:
        return False
    if time.monotonic() - checked_at < HEALTH_CHECK_EVERY_S:
        return True
    try:
        await conn.execute("SELECT 1")
    except psycopg.Error:
        await conn.close()
        return False
    except BaseException:  # cancelled mid-ping: its state is unknown
        await conn.close()
        raise
    return True


@asynccontextmanager
async def connection(size: int) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
    """One of this loop's connections, for one statement; at most ``size``
    in use at once."""
    pool = _pool(size)
    async with pool.slots:
        conn = None
        while pool.idle:
            candidate, checked_at = pool.idle.pop()
            if await _healthy(candidate, checked_at):
                conn = candidate
                break
        if conn is None:
            conn = await _open()
            pool.opened += 1
        try:
            yield conn
        except BaseException:
            # Broken, or cancelled with the statement out: its state is unknown.
            await conn.close()
            raise
        if conn.broken or conn.closed:
            await conn.close()
        elif pool.loop is asyncio.get_running_loop() and _pools[:1] == [pool]:
            pool.idle.append((conn, time.monotonic()))
        else:
            await conn.close()


async def execute_simple(
    conn: psycopg.AsyncConnection[Any], query: bytes
) -> list[pq.abc.PGresult]:
    """Send ``query`` (already bound: one simple-query message, any number of
    statements) on ``conn`` and return each statement's result.

    What ``AsyncCursor.execute`` does for such a message, without its
    generators: psycopg's wait adds and removes the socket's reader for each
    thing it waits for (the flush, then each result), and the cursor wraps
    every result; here the loop watches the socket once for the whole
    exchange. About 15-20 µs less CPU an append on this machine (psycopg's
    cursor 115-158 µs, this 98-101 µs: docs/performance.md, "Kung Fu (2009)
    live intents"), on the path of every live move. The caller owns
    ``conn`` for the call (``connection``); an error result raises its
    psycopg error class, as a cursor would; a cancelled call cancels the
    statement in the server first (``_stop_statement``) and leaves the
    connection in an unknown state, which ``connection`` closes.
    """
    pgconn = conn.pgconn
    loop = asyncio.get_running_loop()
    pgconn.send_query(query)
    fd = pgconn.socket
    while pgconn.flush():  # the message did not fit the socket's buffer
        await _writable(loop, fd)
    results: list[pq.abc.PGresult] = []
    done = loop.create_future()

    def readable() -> None:
        if done.done():
            return
        try:
            pgconn.consume_input()
            while not pgconn.is_busy():
                result = pgconn.get_result()
                if result is None:
                    done.set_result(None)
                    break
                results.append(result)
        except Exception as exc:  # the connection broke under the statement
            done.set_exception(exc)

    loop.add_reader(fd, readable)
    try:
        # Shielded: a cancelled caller leaves ``done`` to tell when the
        # statement is over (``_stop_statement``).
        await asyncio.shield(done)
    except asyncio.CancelledError:
        if not done.done():
            await _stop_statement(conn, done)
        raise
    finally:
        loop.remove_reader(fd)
    for result in results:
        if result.status == pq.ExecStatus.FATAL_ERROR:
            # The error a cursor raises for it (its class, message and diag).
            raise errors.error_from_result(result, encoding=conn.info.encoding)
    return results


async def _stop_statement(conn: psycopg.AsyncConnection[Any], done: Any) -> None:
    """The caller was cancelled with the statement out: ask the server to
    cancel it and wait (``CANCEL_WAIT_S`` at most) until it is over, as
    psycopg's cursor does. A move's append cancelled while it waits for the
    row lock must not commit later, after the owner dropped its copy and
    the next move read the match. (``connection`` closes the connection
    afterwards either way: its state is unknown.)"""
    try:
        await conn.cancel_safe(timeout=CANCEL_WAIT_S)
        await asyncio.wait_for(asyncio.shield(done), CANCEL_WAIT_S)
    except (psycopg.Error, TimeoutError) as exc:
        logger.warning("cancelling a live append's statement failed: %s", exc)


async def _writable(loop: asyncio.AbstractEventLoop, fd: int) -> None:
    writable = loop.create_future()

    def ready() -> None:
        if not writable.done():
            writable.set_result(None)

    loop.add_writer(fd, ready)
    try:
        await writable
    finally:
        loop.remove_writer(fd)


_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


class Statement:
    """A statement with ``%(name)s`` parameter marks (``%%`` for a percent
    sign, as a cursor takes it), split once into its text and its
    parameters' names, then bound to literals for each call (``bind``).

    Why not the cursor's ``mogrify``, which binds the same way: psycopg
    looks up a dumper for each parameter through its adapters' maps and
    quotes through its own transformer every call. A live append has about
    twenty parameters of five plain types (numbers, text, JSON text,
    timestamps, None), and ``mogrify`` was about 90 µs of each Kung Fu
    (2009) intent's server CPU (docs/performance.md, "Kung Fu (2009) live
    intents"); here each value goes straight to libpq's own quoting
    (``PQescapeLiteral``, through psycopg's ``pq.Escaping``), which knows
    the connection's encoding and string settings.
    """

    __slots__ = ("names", "texts")

    def __init__(self, sql: str) -> None:
        parts = _PLACEHOLDER.split(sql)
        for text in parts[0::2]:
            if "%" in text.replace("%%", ""):
                raise ValueError(f"only %(name)s parameter marks are bound: {sql!r}")
        self.texts = [text.replace("%%", "%").encode() for text in parts[0::2]]
        self.names = parts[1::2]

    def bind(
        self, conn: psycopg.AsyncConnection[Any], params: Mapping[str, Any]
    ) -> bytes:
        """The statement as one simple-query message, every parameter a
        literal: ``None`` NULL, ``bool`` and ``int`` as written, ``str``
        quoted, an aware ``datetime`` a quoted ``timestamptz``; any other
        type is refused (``TypeError``), never bound some other way."""
        escaping = pq.Escaping(conn.pgconn)
        encoding = conn.info.encoding
        texts = self.texts
        out = [texts[0]]
        for i, name in enumerate(self.names, 1):
            out.append(_literal(escaping, encoding, params[name]))
            out.append(texts[i])
        return b"".join(out)


@functools.lru_cache(maxsize=64)
def statement(sql: str) -> Statement:
    """``Statement(sql)``, split once per distinct text (an append has a few
    shapes: with or without timers, a snapshot, the finish)."""
    return Statement(sql)


def _literal(escaping: pq.abc.Escaping, encoding: str, value: Any) -> bytes:
    kind = type(value)
    if kind is str:
        if "\x00" in value:
            # libpq sends the message as a C string: a NUL would cut it.
            raise psycopg.DataError("a text value may not contain NUL characters")
        return escaping.escape_literal(value.encode(encoding))
    if kind is int:
        # A space before a minus sign: "x -%(n)s" must not read as a comment.
        return b"%d" % value if value >= 0 else b" %d" % value
    if value is None:
        return b"NULL"
    if kind is bool:
        return b"true" if value else b"false"
    if kind is datetime and value.tzinfo is not None:
        return escaping.escape_literal(value.isoformat().encode()) + b"::timestamptz"
    raise TypeError(f"cannot bind a {kind.__name__} here")


def opened() -> int:
    """Connections this loop's pool opened (tests)."""
    return _pools[0].opened if _pools else 0


def close_all() -> None:
    """Close every kept connection, without a loop (a test session before it
    drops its database; ``copies.close_threads``)."""
    for pool in _pools:
        for conn, _checked_at in pool.idle:
            conn.pgconn.finish()
        pool.idle.clear()
    _pools.clear()
