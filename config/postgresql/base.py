"""Django's PostgreSQL backend, its connection health check made at most once a
second per connection.

With ``CONN_HEALTH_CHECKS`` Django pings a kept connection (``SELECT 1``, a
round trip) before its first query after every ``close_old_connections``: after
each HTTP request and, under Channels, around each ``database_sync_to_async``
call. A live socket's connect makes two such calls (its session and user, its
open) and its close one, so at 400 games (ten games ending a second, each
closing two sockets and opening two) the pings were about one round trip in
four on Channels' database thread, on connections used a few milliseconds
before.

Here a connection opened or found healthy less than ``HEALTH_CHECK_EVERY_S``
ago is not pinged again. A connection idle for longer, the kind a database
restart, a failover or an idle timeout leaves dead, is still checked before
its first query and replaced when dead. One that breaks within the second
after a check fails the query that meets it; Django marks it
(``errors_occurred``), and the next ``close_old_connections`` (the end of that
call or request) tests it and closes it, so the next call opens a new one: the
live moves' own threads already work so (``gameplay.live.copies.guarded``).
"""

from __future__ import annotations

import time

from django.db.backends.postgresql import base

# Seconds a connection is trusted after it was opened or passed a check.
HEALTH_CHECK_EVERY_S = 1.0


class DatabaseWrapper(base.DatabaseWrapper):
    # Django's own (``BaseDatabaseWrapper.__init__``), which the stubs omit.
    health_check_enabled: bool
    health_check_done: bool
    # When the connection was opened or last passed a check (monotonic).
    checked_at = float("-inf")

    def connect(self) -> None:
        super().connect()
        self.checked_at = time.monotonic()

    def close_if_health_check_failed(self) -> None:
        if (
            self.connection is None
            or not self.health_check_enabled
            or self.health_check_done
        ):
            return
        now = time.monotonic()
        if now - self.checked_at < HEALTH_CHECK_EVERY_S:
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
        if self.connection is not None:  # it passed (a failed one is closed)
            self.checked_at = now
