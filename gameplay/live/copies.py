"""The matches a web process holds (``gameplay.live``), and what both the
moves (``owner``) and the owner's own timer firing (``timers``) do with them.

Kept apart so the two import this module and never each other (``owner``
imports ``timers``; nothing here imports either): the copy (``LiveMatch``),
a step's answer (``Applied``), this process's copies by match, the read that
renews a copy, what the fast path leaves to the services, what follows a
committed step, the worker's timer check armed off the loop, and the
database threads moves and firings run on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.conf import settings
from django.core.signals import setting_changed
from django.db import DatabaseError, connection, connections
from django.dispatch import receiver
from django.utils.translation import gettext_noop as N_

from gameplay import agents, broadcast, enqueue, moverule, selectors, services
from gameplay.errors import MatchNotFound
from gameplay.live import pgasync, reader
from gameplay.models import Match
from gameplay.rules import Game

logger = logging.getLogger(__name__)

T = TypeVar("T")

# A move refused by a compare-and-set is retried against a fresh read this
# many times (another writer moved in between) before the client is told.
MAX_ATTEMPTS = 3


@dataclass
class LiveMatch:
    """One match as this process holds it; ``match`` None = read it again."""

    pk: int
    match: Match | None = None
    sockets: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # The due time this process last armed (or found armed) a timer check
    # for (``services.after_step``): None = unknown, arm at the next step.
    armed_due: Any = None
    # Counters, for tests and the benchmark's profile.
    reads: int = 0
    fast_moves: int = 0
    loop_moves: int = 0  # of those, made on the event loop (``owner._act_in_loop``)
    finishes: int = 0  # matches this copy finished (the last move made here)
    timer_arms: int = 0  # times a step asked to arm a timer check
    timer_steps: int = 0  # timer steps this copy applied (``timers.fire_timers``)
    # This process's own firing of the match's timers (``timers.fire_at``): the
    # loop's handle and the due time it is for.
    fire_handle: Any = None
    fire_due: Any = None


@dataclass(frozen=True)
class Applied:
    version: int
    messages: broadcast.Messages
    # The new earliest due time of the match's timers after the step
    # (``after_step``): the owner's loop fires them then (``timers.fire_at``);
    # the path without a loop (``owner.act_sync``) arms the worker's check.
    arm: Any = None


# This process's matches. Touched by the event loop (attach, detach, saw) and
# by the database thread (reads, moves) while the loop holds the match's lock.
matches: dict[int, LiveMatch] = {}


def read(live: LiveMatch) -> Match:
    match = reader.read_match(live.pk)
    if match is None:
        raise MatchNotFound(N_("no such match"))
    live.reads += 1
    live.match = match
    # Someone else may have armed or fired a timer check since: ask again.
    live.armed_due = None
    return match


def needs_full_path(match: Match, engine: Game) -> bool:
    """Moves that need more than the log append: clocks, bot seats' turns.

    A real-time table's built-in bots act on ticks, not after a move: the
    owner only keeps their tick chain running (``services.after_step``), so
    such a table stays here. Uploaded bots and turn-based bot seats are
    queued after each commit by the services (their turn follows a move).
    """
    if match.time_control:
        return True  # clocks: charged and armed in services
    realtime = moverule.is_realtime(engine)
    for seat in selectors.seats_of(match):
        if not (seat.agent or seat.replaced_by_bot or not seat.user_id):
            continue  # a person
        builtin = agents.plays_builtin(seat)
        if not (realtime and builtin):
            return True
    return False


def fits_loop(match: Match) -> bool:
    """Whether a move of ``match`` may be made on the event loop (its append
    awaited there, ``owner``): nothing after its step waits on Redis or the
    broker (a real-time table's built-in bots' tick chain does: such a
    table's moves keep the database thread)."""
    for seat in selectors.seats_of(match):
        if (seat.agent or seat.replaced_by_bot) and agents.plays_builtin(seat):
            return False
    return True


def after_step(live: LiveMatch, match: Match, *, timers_stand: bool = False) -> Any:
    """What follows a committed step, decided from the copy (no read): the
    bots' tick chain of a real-time table kept running, and the due time
    whose timer check is to be armed (returned; None: nothing to arm), only
    when the earliest due time changed since this process last armed one
    (each arm is a cache write and a broker message, two Redis round trips;
    a busy table's steps mostly leave the earliest due time where it was).

    Never raises: the step is committed and its ack must go out. A check
    that could not be armed (broker or cache away) is beat's sweep's
    (``tasks.sweep_timers``), from the timers committed with the step.

    ``timers_stand``: the step left the timers and their actions' legality
    as they were (the engine's ``timer_quiet_events``), so the due time
    found at the step before still holds and is not worked out again.
    """
    try:
        seats = selectors.seats_of(match)
        standing = live.armed_due if timers_stand else None
        due = services.after_step(
            match=match, seats=seats, arm_timers=False, due_standing=standing
        )
        to_arm = None
        if due is not None and due != live.armed_due:
            live.timer_arms += 1
            to_arm = due
        live.armed_due = due
        return to_arm
    except Exception:
        logger.exception("after-step hooks of match %s failed", match.pk)
        live.armed_due = None  # try again at the next step
        return None


def arm(live: LiveMatch, due: Any) -> None:
    """Arm the worker's timer check for ``due``. Never raises: a check not
    armed is beat's sweep's, and the next step tries again."""
    try:
        enqueue.arm_timer_check(match_id=live.pk, due=due)
    except Exception:
        logger.warning("arming the timer check of match %s failed", live.pk)
        live.armed_due = None


# Arms run on a thread of their own, off the event loop and the match's lock
# (two Redis round trips: a cache write and a broker message).
_arm_pool: ThreadPoolExecutor | None = None
_pool_size = 0


def arm_soon(live: LiveMatch, due: Any) -> None:
    """Hand the timers due at ``due`` to the worker's check (the owner lets
    the match go, or its own firing failed)."""
    global _arm_pool
    if _arm_pool is None:
        _arm_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-arm")
    _arm_pool.submit(arm, live, due)


def guarded(live: LiveMatch, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` on a move thread: a database error drops the copy and
    a broken connection, so the next call reads and reconnects."""
    try:
        return work(*args)
    except DatabaseError:
        live.match = None
        if not connection.in_atomic_block and not connection.is_usable():
            connection.close()
        raise


# Moves run on their own few threads, each with its own connection, without
# ``database_sync_to_async``'s connection check around each call (a connection
# is closed and reopened only when a call finds it broken). Channels runs all
# database calls of a process on one thread: every match's move then waits for
# every other match's round trip, and on a loaded machine a round trip is long.
# Moves of one match stay in order (its lock); different matches overlap their
# waits. SQLite (one writer anyway; tests share an in-memory database) keeps
# Channels' single thread. ``LIVE_DB_THREADS`` overrides the count (0 = that
# single thread).
DEFAULT_THREADS_POSTGRESQL = 4
_pool: ThreadPoolExecutor | None = None


# ``threads()``'s answer, kept: every move asks (``owner._in_db_thread``), and
# the lazy settings and the connection proxy's vendor cost the event loop
# about a dozen Python calls each time (1.5% of its samples at 400 games).
_threads: list[int] = []


def threads() -> int:
    if _threads:
        return _threads[0]
    configured = getattr(settings, "LIVE_DB_THREADS", None)
    if configured is not None:
        count = int(configured)
    else:
        count = DEFAULT_THREADS_POSTGRESQL if connection.vendor == "postgresql" else 0
    _threads[:] = [count]
    return count


# ``in_loop()``'s answer, kept likewise.
_in_loop: list[bool] = []


def in_loop() -> bool:
    """Whether moves append from the event loop (``owner``, ``pgasync``): on
    PostgreSQL with move threads, unless ``LIVE_LOOP_APPENDS`` is False (then
    every move takes a database thread, the path before)."""
    if _in_loop:
        return _in_loop[0]
    answer = (
        threads() > 0
        and connection.vendor == "postgresql"
        and bool(getattr(settings, "LIVE_LOOP_APPENDS", True))
    )
    _in_loop[:] = [answer]
    return answer


@receiver(setting_changed)
def _threads_setting_changed(*, setting: str, **kwargs: Any) -> None:
    if setting in ("LIVE_DB_THREADS", "DATABASES", "LIVE_LOOP_APPENDS"):
        _threads.clear()
        _in_loop.clear()


def executor() -> ThreadPoolExecutor:
    global _pool, _pool_size
    if _pool is None:
        _pool_size = threads()
        _pool = ThreadPoolExecutor(max_workers=_pool_size, thread_name_prefix="live-db")
    return _pool


def close_threads(*, timeout: float = 10.0) -> None:
    """Stop the database threads, each closing its connection first (a test
    session before it drops its database, which PostgreSQL refuses while
    a connection is open; a process that winds down). The next move starts
    them again.

    Each thread closes its own connection (Django's connections are per
    thread): one close per thread, held at a barrier until every thread has
    taken one, so no thread takes two and none is left out.
    """
    global _pool
    pool, _pool = _pool, None
    pgasync.close_all()
    if pool is None:
        return
    count = _pool_size
    barrier = threading.Barrier(count)

    def close() -> None:
        connections.close_all()
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout)

    for _ in range(count):
        pool.submit(close)
    pool.shutdown(wait=True)
