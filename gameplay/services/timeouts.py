"""What the wall clock does to a match: expired clocks and due table timers.

Both are checked by tasks armed after each step (and by beat's sweeps), and
both write through the move path (``apply_step``) under the match's lock,
logged as a timeout or the table's own step.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from gameplay.agents import is_uploaded_bot, played_by_bots_runner
from gameplay.clocks import (
    MAX_TIMER_STEPS,
    clock_start,
    competition_decides_no_show,
    first_due_timer,
    seat_deadline,
)
from gameplay.models import ActionKind, Match, MatchStatus, Seat
from gameplay.rules import Game, get_game
from gameplay.services.finish import forfeit_seat
from gameplay.services.hooks import announce_step
from gameplay.services.locking import locked_match
from gameplay.services.moves import apply_step
from gameplay.timecontrol import TimeControl

logger = logging.getLogger(__name__)


def match_expire_clocks(*, match_id: int, now: datetime | None = None) -> list[str]:
    """Apply what an expired clock means; returns what was done (for the log).

    A per-move limit that runs out plays the rules doc's default action for the
    seat, logged as a timeout. A total clock that runs out forfeits the seat,
    and so do days per move of a correspondence game (a loss by time).
    Never a silent random move. Every seat to act has its own clock: each
    expired one is handled, in seat order, and the others' clocks run on.
    """
    now = now or timezone.now()
    done: list[str] = []
    with transaction.atomic():
        match = locked_match(match_id)
        engine = get_game(match.game)
        control = TimeControl.from_json(match.time_control)
        handled: set[int] = set()
        # One default per expired seat and call: the seat's next decision has
        # a fresh clock, which the check armed after this commit covers.
        for _ in range(match.seats.count()):
            if match.status != MatchStatus.ACTIVE:
                break
            expired = _first_expired_seat(match, engine, now, handled)
            if expired is None:
                break
            seat = expired
            start = clock_start(match=match, seat=seat)
            total_left = (
                seat.clock_ms - int((now - start).total_seconds() * 1000)
                if control.total and seat.clock_ms is not None and start is not None
                else None
            )
            if control.is_correspondence:
                # Days per move run out: a loss by time (docs/time-controls.md),
                # never a default move that would start another days-long wait.
                forfeit_seat(match, seat, reason="time forfeit")
                handled.add(seat.number)
                done.append(f"seat {seat.number}: time forfeit (correspondence)")
            elif total_left is not None and total_left <= 0:
                seat.clock_ms = 0
                seat.save(update_fields=["clock_ms"])
                forfeit_seat(match, seat, reason="time forfeit")
                handled.add(seat.number)
                done.append(f"seat {seat.number}: time forfeit")
            else:
                action_id = engine.timeout_action(match.state, seat.number)
                apply_step(match, seat, action_id, kind=ActionKind.TIMEOUT)
                handled.add(seat.number)
                done.append(f"seat {seat.number}: timeout, played {action_id}")
    for line in done:
        logger.info("match %s clock: %s", match_id, line)
    return done


def _first_expired_seat(
    match: Match, engine: Game, now: datetime, handled: set[int]
) -> Seat | None:
    """The first seat to act whose clock has run out (people, uploaded bots)."""
    actors = engine.actors(match.state)
    for seat in Seat.objects.filter(match=match, number__in=actors).order_by("number"):
        if seat.number in handled or seat.forfeited:
            continue
        if seat.is_bot and not is_uploaded_bot(seat):
            continue  # built-in bots move at once; uploaded ones may not
        if competition_decides_no_show(match=match, seat=seat):
            continue  # forfeited as a no-show at the competition's deadline
        deadline = seat_deadline(match=match, seat=seat, actors=actors)
        if deadline is not None and now >= deadline:
            return seat
    return None


def _any_timer_due(timers: dict[str, Any] | None, now: datetime) -> bool:
    return any(
        datetime.fromisoformat(timer["due"]) <= now for timer in (timers or {}).values()
    )


def match_apply_timers(*, match_id: int, now: datetime | None = None) -> list[str]:
    """Apply the engine's timers that are due; returns what was done (the log).

    Under the match's lock, one at a time in order of due time, each
    re-checked against the state the previous one left: a timer whose action
    is not legal now (a pause) stays and fires after the next step. A timer
    of the table (seat None) is logged as the table's step (kind ``table``,
    no seat); a seat's (an unanswered offer declined, a draft dropped, a
    severe-punishment default) as that seat's ``timeout``. Idempotent: a
    second check finds nothing due.
    """
    now = now or timezone.now()
    done: list[str] = []
    # A check that finds the timers fired already (by the live owner, or by
    # an earlier check): a read of one column, no row lock, no write.
    timers = (
        Match.objects.filter(pk=match_id, status=MatchStatus.ACTIVE)
        .values_list("timers", flat=True)
        .first()
    )
    if not _any_timer_due(timers, now):
        return done
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != MatchStatus.ACTIVE or not match.timers:
            return done
        engine = get_game(match.game)
        seats = {seat.number: seat for seat in match.seats.all()}
        if played_by_bots_runner(list(seats.values())):
            return done  # the runner's virtual clock ends it, not wall time
        last: tuple[int | None, str, list[dict[str, Any]]] | None = None
        for _ in range(MAX_TIMER_STEPS):
            if match.status != MatchStatus.ACTIVE:
                break
            found = first_due_timer(
                engine=engine, state=match.state, timers=match.timers, now=now
            )
            if found is None:
                break
            key, timer = found
            number = timer["seat"]
            kind = ActionKind.TABLE if number is None else ActionKind.TIMEOUT
            seat = None if number is None else seats[number]
            outcome = apply_step(
                match, seat, timer["action"], kind=kind, announce=False, now=now
            )
            last = (number, kind, outcome.events)
            done.append(f"timer {key}: {timer['action']}")
        if last is not None:
            announce_step(match, last[0], last[1], last[2], list(seats.values()))
    for line in done:
        logger.info("match %s %s", match_id, line)
    return done
