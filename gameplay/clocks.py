"""Timing reads: seats' clocks, the table's timers, presence.

Everything here only reads (a match, its seats, the engine): the move
services, the frames sent to the table, the tasks that arm checks and the
live owner all ask the same questions the same way, so a deadline or a
"Claim win" countdown shown to a player is the one the services enforce.
"""

from __future__ import annotations

import operator
from datetime import datetime, timedelta
from typing import Any, cast

from django.core.signals import setting_changed
from django.db.models import Q
from django.dispatch import receiver
from django.utils import timezone

from gameplay.agents import is_uploaded_bot
from gameplay.contexts import context_keeps_absent_seats, describe_match_context
from gameplay.models import Match, MatchAction, MatchStatus, Seat
from gameplay.rules import Game, TimedGame, get_game
from gameplay.timecontrol import TimeControl

# How long a person may be away (or an uploaded bot silent on its turn)
# before the others may claim, or a bot takes the seat at three or more.
GRACE_SECONDS = 60
NEVER_CONNECTED = ""  # the disconnect stamp of a seat that never connected


# ``presence_ttl`` as last read from the settings: asked for every seat of
# every frame, and the lazy settings' lookup is several calls each time.
# Emptied when the setting changes (tests).
_presence_ttl: list[timedelta] = []


def presence_ttl() -> timedelta:
    """How long a web process's word that a socket is open stays good.

    Each web process refreshes ``Seat.seen_at`` for its open sockets every third
    of this (``gameplay.presence``); a process that dies stops vouching, so its
    seats turn absent within the TTL and the grace period runs from the last
    refresh. Must stay well under GRACE_SECONDS.
    """
    if _presence_ttl:
        return _presence_ttl[0]
    from django.conf import settings

    ttl = timedelta(seconds=getattr(settings, "PRESENCE_TTL", 30))
    _presence_ttl[:] = [ttl]
    return ttl


@receiver(setting_changed)
def _presence_ttl_changed(*, setting: str, **kwargs: Any) -> None:
    if setting == "PRESENCE_TTL":
        _presence_ttl.clear()


def seat_is_present(seat: Seat, now: datetime | None = None) -> bool:
    """A live socket holds the seat: counted open and vouched for recently."""
    if seat.connected <= 0 or seat.seen_at is None:
        return False
    return (now or timezone.now()) - seat.seen_at < presence_ttl()


def clock_start(*, match: Match, seat: Seat) -> datetime | None:
    """When ``seat``'s current decision began: its clock runs from here.

    Several seats may be choosing at once, and a commit by one must not restart
    the others' clocks. A seat's own start (``Seat.acting_since``) is stored
    only while it differs from the match's last change (``turn_started_at``):
    for a seat that was already choosing when someone else moved. One seat at
    a time (every turn-based game) never stores one.
    """
    return seat.acting_since or match.turn_started_at


def run_clock(
    *,
    start: datetime,
    allowance: timedelta,
    pauses: list[tuple[datetime, datetime]] = [],  # noqa: B006 - never mutated
) -> datetime:
    """When a clock started at ``start`` with ``allowance`` to spend runs out,
    not running during ``pauses`` (a player's vacations: (from, until) pairs,
    any order, may overlap): the allowance is spent only outside them."""
    now = start
    left = allowance
    for since, until in sorted(pauses):
        if until <= now:
            continue
        if since > now:
            if since - now >= left:
                break
            left -= since - now
        now = max(now, until)
    return now + left


def seat_deadline(
    *, match: Match, seat: Seat, actors: list[int] | None = None
) -> datetime | None:
    """When ``seat``'s clock runs out for its current decision, if it has one.

    Only seats to act have a running clock, each from its own start
    (``clock_start``): several may run at once. The nearer of the move limit
    (seconds or days per move) and the seat's total clock. A correspondence
    clock stands still while its player is on vacation (``gameplay.vacation``).
    ``actors``: the engine's actors, when the caller already has them.
    """
    if not match.time_control or match.state is None:
        return None
    control = TimeControl.from_json(match.time_control)
    if actors is None:
        actors = get_game(match.game).actors(match.state)
    start = clock_start(match=match, seat=seat)
    if start is None or seat.number not in actors:
        return None
    limits: list[timedelta] = []
    move_limit = control.move_limit
    if move_limit is not None:
        limits.append(move_limit)
    if control.total and seat.clock_ms is not None:
        limits.append(timedelta(milliseconds=seat.clock_ms))
    if not limits:
        return None
    if control.is_correspondence:
        from gameplay.vacation import clock_pauses

        pauses = clock_pauses(match=match, seat=seat, since=start)
        deadline = run_clock(start=start, allowance=min(limits), pauses=pauses)
        first = competition_first_move_deadline(match=match, seat=seat)
        return max(deadline, first) if first is not None else deadline
    return start + min(limits)


def has_moved(*, match: Match, seat: Seat) -> bool:
    return MatchAction.objects.filter(match=match, seat=seat.number).exists()


def competition_first_move_deadline(*, match: Match, seat: Seat) -> datetime | None:
    """A correspondence competition game (a tournament round, a season) gives
    a seat's first move at least until the competition's deadline for the
    game: a no-show is decided there, at the deadline and not before
    (docs/time-controls.md). None otherwise."""
    if not context_keeps_absent_seats(match.context) or has_moved(
        match=match, seat=seat
    ):
        return None
    info = describe_match_context(match)
    return info.deadline if info is not None else None


def competition_decides_no_show(*, match: Match, seat: Seat) -> bool:
    """A correspondence competition seat whose player never came (never
    connected, never moved): its competition forfeits it at its deadline as
    a no-show; the clock check leaves it alone."""
    if not TimeControl.from_json(match.time_control).is_correspondence:
        return False
    if not context_keeps_absent_seats(match.context) or seat.user_id is None:
        return False
    if seat.connected or seat.disconnected_at is not None:
        return False
    return not has_moved(match=match, seat=seat)


def seat_time_left(
    *,
    match: Match,
    seat: Seat,
    now: datetime | None = None,
    actors: list[int] | None = None,
) -> timedelta | None:
    """How long ``seat`` has left for its current decision (never negative);
    None when it has no running clock (not to act, or an untimed game).

    For "your move" reminders and the urgency order of a player's games
    (issue 30 §3): the time the clock check (``services.match_expire_clocks``)
    enforces, vacation pauses included. A seat on vacation has its whole
    remaining allowance counted from the vacation's end.
    """
    deadline = seat_deadline(match=match, seat=seat, actors=actors)
    if deadline is None:
        return None
    return max(timedelta(0), deadline - (now or timezone.now()))


def match_has_expired_clock(*, match: Match, now: datetime | None = None) -> bool:
    """Whether any seat to act (a person or an uploaded bot) is past its
    deadline: a read, for the sweep to lock only the matches with work."""
    if match.status != MatchStatus.ACTIVE or match.state is None:
        return False
    now = now or timezone.now()
    actors = get_game(match.game).actors(match.state)
    for seat in match.seats.all():
        if seat.forfeited or (seat.is_bot and not is_uploaded_bot(seat)):
            continue
        deadline = seat_deadline(match=match, seat=seat, actors=actors)
        if (
            deadline is not None
            and now >= deadline
            and not competition_decides_no_show(match=match, seat=seat)
        ):
            return True
    return False


def timers_after(
    *, engine: Game, state: dict[str, Any], old: dict[str, Any] | None, now: datetime
) -> dict[str, dict[str, Any]]:
    """The match's timers once it is at ``state``, computed without touching
    the match (``services.moves.track_timers`` stores them on it): the live
    owner writes them in the same compare-and-set as the step
    (``store.append_move``)."""
    old = old or {}
    new: dict[str, dict[str, Any]] = {}
    # The callers ask only engines that have ``timers`` (a cast checks nothing
    # at run time: the move path pays no isinstance).
    for timer in cast(TimedGame, engine).timers(state):
        key = timer["key"]
        kept = old.get(key)
        if kept is not None and (
            kept["seat"] == timer["seat"] and kept["action"] == timer["action"]
        ):
            new[key] = kept
        else:
            due = now + timedelta(seconds=float(timer["delay"]))
            new[key] = {
                "due": due.isoformat(),
                "seat": timer["seat"],
                "action": timer["action"],
            }
    return new


def _timer_legal(engine: Game, state: dict[str, Any], timer: dict[str, Any]) -> bool:
    return timer["action"] in engine.legal_action_ids(state, timer["seat"])


def next_timer_due(*, match: Match) -> datetime | None:
    """The earliest due time among the match's timers whose action is legal
    now (a timer due during a pause waits for the next step); None: none.

    Taken in order of due time, so only the timers before the first legal
    one have their seat's menu computed (after every live step: usually one).
    """
    if match.status != MatchStatus.ACTIVE or not match.timers or not match.state:
        return None
    engine = get_game(match.game)
    dues = [(datetime.fromisoformat(t["due"]), t) for t in match.timers.values()]
    # The earliest is legal at most steps: found without sorting them all.
    due, timer = min(dues, key=_FIRST)
    if _timer_legal(engine, match.state, timer):
        return due
    for due, timer in sorted(dues, key=_FIRST):
        if _timer_legal(engine, match.state, timer):
            return due
    return None


_FIRST = operator.itemgetter(0)


MAX_TIMER_STEPS = 50  # steps one timer check applies at most (then re-armed)


def first_due_timer(
    *,
    engine: Game,
    state: dict[str, Any],
    timers: dict[str, Any] | None,
    now: datetime,
) -> tuple[str, dict[str, Any]] | None:
    """(key, timer) of the timer to fire first at ``state``: due by ``now``
    and legal there, earliest due time first (then key); None: none. The
    rule of both writers of timer steps (the locked check,
    ``services.timeouts.match_apply_timers``, and the live owner's)."""
    due = [
        (timer["due"], key, timer)
        for key, timer in (timers or {}).items()
        if datetime.fromisoformat(timer["due"]) <= now
        and _timer_legal(engine, state, timer)
    ]
    if not due:
        return None
    _, key, timer = min(due, key=lambda d: (d[0], d[1]))
    return key, timer


def matches_with_timers_due(*, now: datetime | None = None, limit: int = 500):
    """Beat's net: active matches whose timers include one due (lost checks)."""
    now = now or timezone.now()
    rows = (
        Match.objects.filter(status=MatchStatus.ACTIVE)
        .exclude(Q(timers={}) | Q(timers__isnull=True))
        .values_list("pk", "timers")
    )
    due = []
    for pk, timers in rows[:limit]:
        if any(datetime.fromisoformat(t["due"]) <= now for t in timers.values()):
            due.append(pk)
    return due


def _absent_since(match: Match, seat: Seat) -> datetime | None:
    """Since when a person's seat has had no connection; None if connected or a bot.

    A player who never connected is away since the match started: otherwise an
    opponent who never shows up could never be claimed against. A seat still
    counted as connected whose sockets nobody vouched for within the TTL (its
    web process died) is away since the last time one did.
    """
    if seat.is_bot:
        return None
    if seat.connected > 0:
        if seat_is_present(seat):
            return None
        return seat.seen_at or seat.disconnected_at or match.started_at
    return seat.disconnected_at or match.started_at


def absent_until_claimable(*, match: Match, seat: Seat) -> datetime | None:
    """When an absent person's seat may be claimed against (None: not absent).

    The table shows its "Claim win" countdown to this instant, so the button
    appears exactly when ``match_claim`` accepts. Never in a correspondence
    game (people are away between moves there). In a competition game
    (``contexts.context_keeps_absent_seats``) that is not before the
    competition's deadline for the game (a tournament round's).
    """
    if is_uploaded_bot(seat):
        # An uploaded bot is "absent" when its turn has gone unanswered: the same
        # rule match_claim applies to stalled bots (``services.claims``).
        start = clock_start(match=match, seat=seat)
        if match.status != MatchStatus.ACTIVE or start is None:
            return None
        if seat.number not in get_game(match.game).actors(match.state):
            return None
        return start + timedelta(seconds=GRACE_SECONDS)
    if TimeControl.from_json(match.time_control).is_correspondence:
        # Correspondence players are away between moves by design: only their
        # clock (days per move) ends their game, never an absence.
        return None
    since = _absent_since(match, seat)
    if since is None:
        return None
    claimable = since + timedelta(seconds=GRACE_SECONDS)
    if context_keeps_absent_seats(match.context):
        # A tournament round's absent player keeps the round's deadline (the
        # competition decides no-shows), at two seats as at more: no claim
        # before it. A competition that names no deadline keeps the grace.
        info = describe_match_context(match)
        if info is not None and info.deadline is not None:
            claimable = max(claimable, info.deadline)
    return claimable


def absent_past_grace(seat: Seat, now: datetime) -> bool:
    # Seats read through match.seats know their match without a query.
    claimable = absent_until_claimable(match=seat.match, seat=seat)
    return claimable is not None and now >= claimable
