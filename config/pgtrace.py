"""What a call exchanged with PostgreSQL, read from libpq's protocol trace.

The rating update's benchmark and its test count round trips this way: each
turn from the client's messages to the server's is one wait for the server's
process (and, on a busy machine, for a core), which a query count does not
show when several statements go out in one pipeline.
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Callable


def protocol_messages(run: Callable[[], object]) -> list[list[str]]:
    """The messages ``run`` exchanged on the default connection: [sender ("F"
    client, "B" server), length, type, ...] each. PostgreSQL only."""
    from django.db import connection
    from psycopg.pq import Trace

    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with tempfile.TemporaryFile("w+") as trace:
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(Trace.SUPPRESS_TIMESTAMPS)
        try:
            run()
        finally:
            pgconn.untrace()
        trace.seek(0)
        return [line.rstrip("\n").split("\t") for line in trace if line.strip()]


def round_trips(messages: list[list[str]]) -> int:
    """How many times the client sent and then waited for the server's answer:
    the turns from the client's messages to the server's."""
    senders = [m[0] for m in messages]
    return sum(1 for a, b in itertools.pairwise(senders) if (a, b) == ("F", "B"))
