"""Moves: a person's, a bot seat's, a batch's, the server's; one step at a time.

Every step goes through ``apply_step`` under the match's row lock: the move
rule (``gameplay.moverule``, which the live owner applies to its copy too)
decides it, then ``_write_step`` bumps the version, logs the step, charges
the clocks and moves the match's timers with the new state; the broadcast
and what follows are queued for after the commit. A person's move
(``match_act``) is decided whole by the rule's ``decide_move``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from accounts.models import User
from gameplay import broadcast
from gameplay.clocks import clock_start, timers_after
from gameplay.errors import (
    BadRequest,
    Forbidden,
    IllegalMove,
    NotActive,
    NotYourTurn,
    StaleVersion,
    refused,
)
from gameplay.models import (
    ActionKind,
    Match,
    MatchAction,
    MatchSnapshot,
    MatchStatus,
    Seat,
)
from gameplay.moverule import (
    Refusal,
    Step,
    advance,
    decide_move,
    is_realtime,
    version_stands,
)
from gameplay.rules import Game, GameError, get_game
from gameplay.selectors import stepped_since
from gameplay.services.finish import finish_match, forfeit_seat
from gameplay.services.hooks import announce_step
from gameplay.services.locking import locked_match, seat_numbered
from gameplay.services.outdated import CALLED_OFF_MESSAGE, match_call_off_outdated
from gameplay.timecontrol import TimeControl

logger = logging.getLogger(__name__)

MAX_ACTION_ID_LENGTH = 80


@dataclass(frozen=True)
class ActOutcome:
    """What a move did: the version it made, its events, whether it ended play."""

    version: int
    events: list[dict[str, Any]]
    finished: bool


@dataclass(frozen=True)
class SystemMove:
    """One bot seat's answer in a batch (``match_system_act_many``)."""

    seat: int
    action_id: str
    kind: str = ActionKind.MOVE


@dataclass(frozen=True)
class RefusedIntent:
    """A bot seat's intent refused at a real-time table: ``code`` is the
    engine's refusal code (or the move rule's, ``not_your_turn``), ``params``
    what it names, ``reason`` the engine's English detail (for logs)."""

    seat: int
    action_id: str
    code: str
    params: dict[str, Any]
    reason: str


def _charge_clock(match: Match, seat: Seat, now: datetime) -> None:
    """Take the time since the mover's decision began off its total clock,
    then add the Fischer increment (the move was made in time: a seat whose
    clock ran out was forfeited by the clock check instead)."""
    control = TimeControl.from_json(match.time_control)
    start = clock_start(match=match, seat=seat)
    if control.total and start and seat.clock_ms is not None:
        spent = int((now - start).total_seconds() * 1000)
        left = max(0, seat.clock_ms - spent)
        seat.clock_ms = left + control.increment_ms if left else 0
        seat.save(update_fields=["clock_ms"])


def _restart_clocks(
    match: Match,
    mover: Seat,
    before: list[int],
    after: list[int],
    seats: list[Seat] | None,
) -> None:
    """Keep the clocks of the seats still choosing; the others start now.

    Called before ``turn_started_at`` moves to this step. The mover's next
    decision and every seat that has just come to act start with the step
    (``acting_since`` cleared); a seat that was choosing and still is (another
    seat's simultaneous commit) keeps its start, stored if it was the match's.
    """
    keep = (set(before) & set(after)) - {mover.number}
    fresh = (set(after) - set(before)) | {mover.number}
    if keep and match.turn_started_at is not None:
        Seat.objects.filter(
            match=match, number__in=keep, acting_since__isnull=True
        ).update(acting_since=match.turn_started_at)
    # Seats read under the lock tell whether any start is stored at all.
    if seats is None or keep or any(s.acting_since for s in seats):
        Seat.objects.filter(
            match=match, number__in=fresh, acting_since__isnull=False
        ).update(acting_since=None)
    mover.acting_since = None


def track_timers(*, match: Match, engine: Game, now: datetime) -> None:
    """Keep ``match.timers`` in step with the engine's timers for its state.

    A timer's due time is set when its key first appears (now + its delay)
    and kept for as long as the engine lists that key; keys no longer listed
    are dropped. Engines without ``timers`` keep an empty dict.
    """
    listed = getattr(engine, "timers", None)
    if listed is None or match.state is None:
        return
    match.timers = timers_after(
        engine=engine, state=match.state, old=match.timers, now=now
    )


def apply_step(
    match: Match,
    seat: Seat | None,
    action_id: str,
    *,
    kind: str = ActionKind.MOVE,
    seats: list[Seat] | None = None,
    announce: bool = True,
    now: datetime | None = None,
) -> ActOutcome:
    """Apply one action to a locked match (inside a transaction): the move
    rule's ``advance`` decides the step (whose turn: none in a real-time
    game; the engine's legality), ``_write_step`` writes it; a refusal
    raises. ``seat`` None is the table itself (a server timer's step,
    logged with no seat)."""
    step = advance(
        engine=get_game(match.game),
        state=match.state,
        version=match.version,
        seat=seat.number if seat is not None else None,
        action_id=action_id,
    )
    if isinstance(step, Refusal):
        raise refused(step, seats=seats or ())
    return _write_step(
        match, seat, step, kind=kind, seats=seats, announce=announce, now=now
    )


def _write_step(
    match: Match,
    seat: Seat | None,
    step: Step,
    *,
    kind: str = ActionKind.MOVE,
    seats: list[Seat] | None = None,
    announce: bool = True,
    now: datetime | None = None,
) -> ActOutcome:
    """Write a step the move rule decided to the locked match (inside a
    transaction): clocks, state, timers, log, snapshot, finish.

    ``now``: the moment of the step (default: the clock's). ``seats``, when
    the caller already read them under the lock, lets the after-commit hook
    decide what to schedule without reading them again. ``announce=False``:
    the caller applies several steps and broadcasts once, after the last. A
    step that changes nothing (the engine returned the state itself, e.g. a
    real-time "pass") is answered with the current version and logs nothing.
    """
    if not step.changed:
        return ActOutcome(version=match.version, events=[], finished=False)
    engine = get_game(match.game)
    now = now or timezone.now()
    if seat is not None and match.time_control:
        # Only clocks read a seat's start (``clock_start``): without a time
        # control there is nothing to charge or keep (a real-time table would
        # otherwise write every other seat's start on every intent). A timed
        # game is never real-time (``validate_time_control``), so the rule
        # asked the engine who was to act before the step.
        _charge_clock(match, seat, now)
        _restart_clocks(
            match, seat, step.actors_before or [], engine.actors(step.state), seats
        )
    match.state = step.state
    match.version = step.version
    match.turn_started_at = now
    track_timers(match=match, engine=engine, now=now)
    MatchAction.objects.create(
        match=match,
        version=match.version,
        seat=step.seat,
        action_id=step.action_id,
        kind=kind,
        events=step.events,
        created_at=now,
    )
    if step.snapshot:
        MatchSnapshot.objects.create(
            match=match, version=match.version, state=step.state
        )
    if step.over:
        finish_match(match, reason="completed")
    else:
        match.save(update_fields=["state", "version", "turn_started_at", "timers"])
    if announce:
        announce_step(match, step.seat, kind, step.events, seats)
    return ActOutcome(version=match.version, events=step.events, finished=step.over)


def simultaneous_version_ok(
    *, match: Match, seat_number: int, expected_version: int
) -> bool:
    """Whether a move chosen at an older version may still be applied to
    ``match`` as read (the move rule's ``version_stands``, the log asked
    about the seat's steps since): bot seats' commits of one round."""
    return version_stands(
        engine=get_game(match.game),
        state=match.state,
        version=match.version,
        seat=seat_number,
        expected_version=expected_version,
        stepped_since=stepped_since(match.pk),
    )


def check_act_input(*, action_id: Any, expected_version: Any) -> None:
    """The shape of a move request, before anything is read."""
    if not isinstance(action_id, str) or not action_id:
        raise BadRequest(N_("action must be a non-empty string id"))
    if len(action_id) > MAX_ACTION_ID_LENGTH:
        raise BadRequest(N_("action id is too long"))
    if expected_version is not None and not broadcast.frame_int(expected_version):
        raise BadRequest(
            N_("version must be an integer from 0 to %(max)s"),
            params={"max": broadcast.MAX_FRAME_INT},
        )


def match_act(
    *,
    match_id: int,
    user: User | None,
    action_id: Any,
    expected_version: Any = None,
    seat_number: int | None = None,
) -> ActOutcome:
    """A person's move. Every refusal raises a MatchError and changes nothing.

    Live sockets go through their process's owner of the match
    (``gameplay.live.owner``), which comes here for the moves it does not
    make itself (the last move, clocks, bot seats).
    """
    check_act_input(action_id=action_id, expected_version=expected_version)
    try:
        with transaction.atomic():
            match = locked_match(match_id)
            # All seats in one read (the mover's among them), for the rule and
            # for _write_step to reuse.
            seats = list(match.seats.all())
            step = decide_move(
                engine=get_game(match.game),
                active=match.status == MatchStatus.ACTIVE,
                version=match.version,
                state=match.state,
                seats=seats,
                user_id=user.pk if user is not None and user.is_authenticated else None,
                action_id=action_id,
                expected_version=expected_version,
                stepped_since=stepped_since(match.pk),
                seat_number=seat_number,
            )
            if isinstance(step, Refusal):
                raise refused(step, seats=seats)
            seat = next(seat for seat in seats if seat.number == step.seat)
            return _write_step(match, seat, step, seats=seats)
    except GameError:
        raise_if_called_off(match_id=match_id)
        raise


def raise_if_called_off(*, match_id: int) -> None:
    """After the engine refused a match's state: if the match is of an
    earlier rules version, call it off and say so (``NotActive``) instead of
    failing; otherwise return, and the caller re-raises."""
    if match_call_off_outdated(match_id=match_id):
        raise NotActive(CALLED_OFF_MESSAGE)


def match_system_act(
    *,
    match_id: int,
    seat_number: int,
    action_id: str,
    expected_version: int,
    kind: str = ActionKind.MOVE,
) -> ActOutcome:
    """A move by a bot seat (built-in or uploaded), driven by the server.

    In a real-time game the version is not checked (arrival order: the
    engine judges the intent against the state it meets)."""
    try:
        with transaction.atomic():
            match = locked_match(match_id)
            if match.status != MatchStatus.ACTIVE:
                raise NotActive(N_("this match is not in play"))
            if expected_version != match.version and not is_realtime(
                get_game(match.game)
            ):
                raise StaleVersion(
                    N_("the match moved on to version %(version)s"),
                    params={"version": match.version},
                )
            seat = seat_numbered(match, seat_number)
            if not seat.is_bot:
                raise Forbidden(N_("only bot seats are played by the server"))
            return apply_step(match, seat, action_id, kind=kind)
    except GameError:
        raise_if_called_off(match_id=match_id)
        raise


def match_system_act_many(
    *, match_id: int, moves: list[SystemMove], expected_version: int
) -> list[ActOutcome]:
    """Bot seats that chose at the same time (all at ``expected_version``).

    When several bot seats must act at once (simultaneous commits) they are
    asked in parallel, each on the same state, and their answers go in here
    together: one lock, one transaction, each move re-validated by the engine
    against the state it is applied to, one broadcast after the last. A move
    the earlier ones made illegal ends the batch there (the bot is asked
    again); the first move's refusal raises like ``match_system_act``. In a
    real-time game the version is not checked (arrival order).
    """
    applied: list[ActOutcome] = []
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != MatchStatus.ACTIVE:
            raise NotActive(N_("this match is not in play"))
        if expected_version != match.version and not is_realtime(get_game(match.game)):
            raise StaleVersion(
                N_("the match moved on to version %(version)s"),
                params={"version": match.version},
            )
        seats = list(match.seats.all())
        by_number = {seat.number: seat for seat in seats}
        last: SystemMove | None = None
        for move in moves:
            seat = by_number.get(move.seat)
            if seat is None:
                raise BadRequest(
                    N_("seat %(seat)s does not exist at this match"),
                    params={"seat": move.seat},
                )
            if not seat.is_bot:
                raise Forbidden(N_("only bot seats are played by the server"))
            if match.status != MatchStatus.ACTIVE:
                break
            try:
                outcome = apply_step(
                    match, seat, move.action_id, kind=move.kind, announce=False
                )
            except (NotYourTurn, IllegalMove):
                if not applied:
                    raise
                break
            applied.append(outcome)
            last = move
        if last is not None:
            announce_step(match, last.seat, last.kind, applied[-1].events, None)
    return applied


def match_system_commit(
    *,
    match_id: int,
    seat_number: int,
    action_id: str,
    expected_version: int,
    kind: str = ActionKind.MOVE,
) -> ActOutcome:
    """A bot seat's move chosen at ``expected_version`` while others chose too.

    Like ``match_system_act``, but an older version is accepted by the rule
    people's simultaneous moves follow (``simultaneous_version_ok``): the
    others' commits since do not make this one stale, a second commit of this
    seat from the same version does.
    """
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != MatchStatus.ACTIVE:
            raise NotActive(N_("this match is not in play"))
        if expected_version != match.version and not simultaneous_version_ok(
            match=match, seat_number=seat_number, expected_version=expected_version
        ):
            raise StaleVersion(
                N_("the match moved on to version %(version)s"),
                params={"version": match.version},
            )
        seat = seat_numbered(match, seat_number)
        if not seat.is_bot:
            raise Forbidden(N_("only bot seats are played by the server"))
        return apply_step(match, seat, action_id, kind=kind)


def match_system_intents(
    *,
    match_id: int,
    moves: list[SystemMove],
    refused: list[RefusedIntent] | None = None,
) -> int:
    """Bot seats' intents at a real-time table, applied in the order given.

    One lock, one transaction, one broadcast after the last; each intent is
    judged by the engine against the state it meets (no version: real time),
    and one it refuses (gone stale) is skipped, and appended to ``refused``
    (a :class:`RefusedIntent`: its code and the engine's reason) when given:
    an uploaded bot hears of it in its next ``act``. Returns the intents
    applied.
    """
    applied = 0
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != MatchStatus.ACTIVE:
            return 0
        by_number = {seat.number: seat for seat in match.seats.all()}
        last = None
        for move in moves:
            seat = by_number.get(move.seat)
            if seat is None or not seat.is_bot:
                raise Forbidden(N_("only bot seats are played by the server"))
            if match.status != MatchStatus.ACTIVE:
                break
            try:
                outcome = apply_step(
                    match, seat, move.action_id, kind=move.kind, announce=False
                )
            except (NotYourTurn, IllegalMove) as exc:
                logger.debug("match %s bot intent refused: %s", match_id, exc)
                if refused is not None:
                    refused.append(
                        RefusedIntent(
                            seat=move.seat,
                            action_id=move.action_id,
                            code=exc.reason or exc.code,
                            params=dict(exc.params),
                            reason=str(exc),
                        )
                    )
                continue
            applied += 1
            last = (move, outcome)
        if last is not None:
            move, outcome = last
            announce_step(match, move.seat, move.kind, outcome.events, None)
    return applied


def match_record_steps(
    *,
    match_id: int,
    steps: Sequence[tuple[int | None, str]],
    expected_version: int,
    forfeit: tuple[int, str] | None = None,
) -> ActOutcome:
    """Apply many server-driven moves under one lock, in one transaction.

    Bot-vs-bot matches are played in a worker at machine speed; writing each
    move in its own transaction would cost more than playing it. The moves still
    go through the engine one by one, the log gets every step, and the match
    finishes through the same path (result, seed reveal, one announcement).
    ``forfeit`` (seat, reason) ends the match afterwards, e.g. a crashed bot.
    """
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != MatchStatus.ACTIVE:
            raise NotActive(N_("this match is not in play"))
        if expected_version != match.version:
            raise StaleVersion(
                N_("the match moved on to version %(version)s"),
                params={"version": match.version},
            )
        engine = get_game(match.game)
        state = match.state
        rows = []
        all_events: list[dict[str, Any]] = []
        now = timezone.now()
        for seat_number, action_id in steps:
            # Seat None: the table's own step (real-time games). Decided by
            # the move rule, as every other step: its turn check (none in real
            # time: the engine alone judges an intent) and the engine's.
            step = advance(
                engine=engine,
                state=state,
                version=match.version,
                seat=seat_number,
                action_id=action_id,
            )
            if isinstance(step, Refusal):
                raise refused(step)
            if not step.changed:
                continue  # changes nothing: logged nowhere (``Step``)
            state = step.state
            match.version = step.version
            rows.append(
                MatchAction(
                    match=match,
                    version=match.version,
                    seat=seat_number,
                    action_id=action_id,
                    kind=ActionKind.TABLE if seat_number is None else ActionKind.MOVE,
                    events=step.events,
                    created_at=now,
                )
            )
            if step.snapshot:
                MatchSnapshot.objects.create(
                    match=match, version=match.version, state=state
                )
            all_events = step.events
        MatchAction.objects.bulk_create(rows)
        match.state = state
        match.turn_started_at = now
        # Server-driven matches play at machine speed: every decision now
        # pending starts now (``clock_start``).
        Seat.objects.filter(match=match, acting_since__isnull=False).update(
            acting_since=None
        )
        finished = engine.is_over(state)
        if finished:
            finish_match(match, reason="completed")
        else:
            match.save(update_fields=["state", "version", "turn_started_at"])
            if forfeit is not None:
                seat = seat_numbered(match, forfeit[0])
                forfeit_seat(match, seat, reason=forfeit[1])
                finished = match.status == MatchStatus.FINISHED
        match_pk, version = match.pk, match.version
        transaction.on_commit(
            lambda: broadcast.match_changed(
                match_id=match_pk, state=state, events=all_events, version=version
            )
        )
        return ActOutcome(version=match.version, events=all_events, finished=finished)
