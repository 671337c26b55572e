"""What runs after a match write commits: broadcast, bots, clock and timer checks.

Nothing here runs inside the writer's transaction: every hook is registered
with ``transaction.on_commit``, so nobody is told about (or queues work for) a
step that was rolled back.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import transaction

from gameplay import broadcast, enqueue
from gameplay.agents import is_uploaded, is_uploaded_bot, plays_builtin
from gameplay.clocks import next_timer_due
from gameplay.models import Match, MatchStatus, Seat
from gameplay.moverule import is_realtime
from gameplay.rules import get_game


def after_commit(hook: Callable[[], object]) -> None:
    """Run ``hook`` after the commit; in production its failure is only logged.

    The hooks enqueue follow-up work (bot moves, clock checks, the finish
    announcement). When the broker is away they fail, but the change has
    committed: the mover must still get the ack, and the beat sweeps (clocks,
    announcements, absent seats) catch up. With eager tasks (tests) the hook *is*
    the work, so its errors propagate.
    """
    from django.conf import settings

    transaction.on_commit(hook, robust=not settings.CELERY_TASK_ALWAYS_EAGER)


def after_change(match_id: int) -> None:
    """After a committed change: let bots move, re-arm the clock and timers.

    Each hook reads the match again: for callers that do not hold it as
    committed (bulk changes, forfeits). A step whose writer holds the match
    and its seats goes through ``after_step`` instead.
    """
    enqueue.schedule_bot_turns(match_id=match_id)
    enqueue.schedule_uploaded_bot_turns(match_id=match_id)
    enqueue.schedule_clock_check(match_id=match_id)
    enqueue.schedule_timer_check(match_id=match_id)


def after_step(
    *,
    match: Match,
    seats: list[Seat],
    arm_timers: bool = True,
    due_standing: datetime | None = None,
) -> datetime | None:
    """After a committed step, from the match as committed and its seats:
    only the hooks the match has work for run, and the timers' check is
    armed from ``match.timers`` without a read (``enqueue.arm_timer_check``,
    one armed check per due time). Returns the due time of the earliest
    timer that can fire now (None: none), for callers that remember what
    they armed (the live owner arms only when it changes: ``arm_timers``).

    Bots: built-in seats of a real-time table act on ticks (the chain is
    started or found running: a cache read); of a turn-based one their turn
    is queued; uploaded bots' turns are announced; a clock's check is armed.

    ``due_standing``: the earliest due time as the caller found it before a
    step that left the timers as they were (None: work it out).
    """
    if match.status != MatchStatus.ACTIVE:
        return None
    # Either kind of bot plays a seat with an agent or a takeover bot: a table
    # of people alone (most live steps) skips both questions of every seat.
    if _has_bot_seat(seats):
        if any(plays_builtin(seat) for seat in seats):
            if is_realtime(get_game(match.game)):
                enqueue.schedule_realtime_bots(match=match)
            else:
                enqueue.schedule_bot_turns(match_id=match.pk)
        if any(is_uploaded_bot(seat) for seat in seats):
            enqueue.schedule_uploaded_bot_turns(match_id=match.pk)
    if match.time_control:
        enqueue.schedule_clock_check(match_id=match.pk)
    if due_standing is not None:
        due: datetime | None = due_standing
    else:
        due = next_timer_due(match=match) if match.timers else None
    if arm_timers:
        enqueue.arm_timer_check(match_id=match.pk, due=due)
    return due


def _has_bot_seat(seats: list[Seat]) -> bool:
    # A loop, not any(...): asked at every live step.
    for seat in seats:  # noqa: SIM110
        if seat.agent or seat.replaced_by_bot:
            return True
    return False


def _may_have_work_after_change(match: Match, seats: list[Seat]) -> bool:
    """Whether ``after_step`` could schedule anything for this match.

    It queues bot moves (only for bot or bot-replaced seats), arms clock
    checks (only with a time control) and timer checks (only with timers);
    for a match with none of these the hook is not even registered. Those
    facts change only under the match lock, which the caller holds.
    """
    return bool(match.time_control or match.timers) or any(
        plays_builtin(seat) or is_uploaded(seat.agent) for seat in seats
    )


def announce_step(
    match: Match,
    seat_number: int | None,
    kind: str,
    events: list[dict[str, Any]],
    seats: list[Seat] | None,
) -> None:
    """After the commit: broadcast the match's newest step, queue what follows."""
    match_pk, version, state = match.pk, match.version, match.state
    step = {"kind": str(kind), "seat": seat_number}
    transaction.on_commit(
        lambda: broadcast.match_changed(
            match_id=match_pk,
            state=state,
            events=events,
            version=version,
            step=step,
        )
    )
    if seats is None:
        after_commit(lambda: after_change(match_pk))
    elif _may_have_work_after_change(match, seats):
        # The match as this transaction committed it (the hook runs after the
        # commit; a later writer's own hook covers its version).
        after_commit(lambda: after_step(match=match, seats=seats))
