"""Match writes: create, start, act, finish, resign, abort, forfeit, clocks, bots.

One writer per match: every function that changes a match locks its row with
``select_for_update``, re-validates through the rules engine, applies, bumps
``version`` and appends to the ordered log inside one transaction. Broadcasting
and the "match finished" announcement happen only after the commit, so nobody is
ever told about a move that was rolled back.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from gameplay import broadcast
from gameplay.bot_thinking import BuiltinAsk, Thinker, builtin_seed, think_in_turn
from gameplay.errors import (
    BadRequest,
    Forbidden,
    IllegalMove,
    MatchError,
    MatchNotFound,
    NotActive,
    NotYourTurn,
    StaleVersion,
)
from gameplay.models import (
    ActionKind,
    Match,
    MatchAction,
    MatchSnapshot,
    MatchStatus,
    Seat,
)
from gameplay.rules import GameError, IllegalAction, get_game
from gameplay.signals import match_finished, match_started

logger = logging.getLogger(__name__)

SNAPSHOT_EVERY = 25
MAX_ACTION_ID_LENGTH = 80
BUILTIN_PREFIX = "builtin:"
# The bot that plays on for a person who left a table of three or more.
TAKEOVER_BOT = "builtin:heuristic"
# Seats of uploaded bots; the bots app drives them (``signals.uploaded_bot_turn``).
UPLOADED_PREFIX = "bot:"


def is_uploaded_bot(seat: Seat) -> bool:
    """An uploaded bot still playing its own seat (not forfeited, not replaced).

    Unlike built-in bots these run elsewhere (a sandboxed worker) and can fail
    to move, so their seats are subject to clocks and claims like people's.
    """
    return (
        seat.agent.startswith(UPLOADED_PREFIX)
        and not seat.replaced_by_bot
        and not seat.forfeited
    )


def played_by_bots_runner(seats: list[Seat]) -> bool:
    """A match of bots only, one of them uploaded: the bots app's runner plays
    it whole, every seat included (real-time games on its virtual clock), so
    nothing here moves it: no built-in bot ticks, no server timers. The same
    rule as ``bots.services.bot_matches_waiting_for_a_runner``.
    """
    return all(seat.agent for seat in seats) and any(
        seat.agent.startswith(UPLOADED_PREFIX) for seat in seats
    )


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in one seat when a match is created (all empty = open seat)."""

    user: User | None = None
    agent: str = ""
    label: str = ""


@dataclass(frozen=True)
class ActOutcome:
    version: int
    events: list[dict[str, Any]]
    finished: bool


def seed_commitment(*, public_id: str, seed: int) -> str:
    """The published hash of a match's seed: sha256 of "<match uuid>:<seed>"."""
    return hashlib.sha256(f"{public_id}:{seed}".encode()).hexdigest()


def validate_time_control(time_control: dict[str, Any] | None) -> dict[str, Any]:
    time_control = dict(time_control or {})
    unknown = set(time_control) - {"per_move", "total"}
    if unknown:
        raise BadRequest(f"unknown time-control field(s): {', '.join(sorted(unknown))}")
    clean: dict[str, Any] = {}
    for key, low, high in (("per_move", 5, 3600), ("total", 30, 7 * 86400)):
        value = time_control.get(key)
        if value in (None, "", 0):
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadRequest(f"time control {key} must be a whole number of seconds")
        if not low <= value <= high:
            raise BadRequest(f"time control {key} must be between {low} and {high} s")
        clean[key] = value
    return clean


def _seat_base_name(*, user: User | None, agent: str, label: str) -> str:
    if label:
        return label
    if user is not None:
        return user.public_name
    return Seat(agent=agent).display_name


def bot_seat_label(*, taken: list[str], agent: str, label: str = "") -> str:
    """A bot seat's name, distinct from the names already at the table.

    Two bots of one kind at a table must be told apart in the seats, the
    target buttons and the log: the second "Heuristic bot" is "Heuristic bot 2".
    ``taken`` are the display names of the seats already there.
    """
    base = _seat_base_name(user=None, agent=agent, label=label)
    if base not in taken:
        return label
    number = 2
    while f"{base} {number}" in taken:
        number += 1
    return f"{base} {number}"


def distinct_seat_labels(seats: list[SeatSpec]) -> list[str]:
    """The labels to store for ``seats`` so that no two bot seats share a name."""
    labels: list[str] = []
    taken: list[str] = []
    for spec in seats:
        label = spec.label
        # An unlabelled uploaded bot is named by the bots app (its own name and
        # version), which this app cannot see; numbering "Uploaded bot" would
        # hide that name, so only built-in and labelled bots are numbered here.
        numbered = spec.label or spec.agent.startswith(BUILTIN_PREFIX)
        if spec.agent and spec.user is None and numbered:
            label = bot_seat_label(taken=taken, agent=spec.agent, label=spec.label)
        labels.append(label)
        taken.append(_seat_base_name(user=spec.user, agent=spec.agent, label=label))
    return labels


def validate_agent(agent: str, engine: Any = None) -> None:
    """A seat's agent is a known bot (able to play ``engine``'s game, if given)."""
    if not agent:
        return
    if agent.startswith(BUILTIN_PREFIX):
        from gameplay.rules.bots import available_bots, bot_display_name, bot_plays

        name = agent.removeprefix(BUILTIN_PREFIX)
        if name not in available_bots():
            raise BadRequest(
                f"unknown built-in bot {name!r}; choose from "
                + ", ".join(available_bots())
            )
        if engine is not None and not bot_plays(name, engine):
            raise BadRequest(f"the {bot_display_name(name)} cannot play {engine.name}")
    elif not agent.startswith("bot:"):
        raise BadRequest(f"unknown seat agent {agent!r}")


@transaction.atomic
def match_create(
    *,
    game: str,
    seats: list[SeatSpec],
    config: dict[str, Any] | None = None,
    rated: bool = False,
    time_control: dict[str, Any] | None = None,
    host: User | None = None,
    context: str = "",
    spectator_delay: int = 0,
    private_options: bool = False,
) -> Match:
    """Create a match in the waiting state; seats may be left open for a lobby.

    Only the game's public options are accepted (``gameplay.options``), whoever
    calls. ``private_options=True`` admits engine-only options (a stacked deck, a
    fixed first seat) for tests, tutorials and staff set-ups, never rated.
    """
    from gameplay.options import OptionError, clean_table_options

    try:
        engine = get_game(game)
    except GameError as exc:
        raise BadRequest(str(exc)) from exc
    if not isinstance(config or {}, dict):
        raise BadRequest("options must be a JSON object")
    if private_options and rated:
        raise BadRequest("private options (a stacked deck) are never used rated")
    if not private_options:
        try:
            config = clean_table_options(game, config, players=len(seats))
        except OptionError as exc:
            raise BadRequest(str(exc)) from exc
    try:
        clean_config = engine.validate_config({**(config or {}), "players": len(seats)})
    except GameError as exc:
        raise BadRequest(str(exc)) from exc
    if not 0 <= spectator_delay <= 50:
        raise BadRequest("spectator delay must be between 0 and 50 moves")
    users = [spec.user.pk for spec in seats if spec.user is not None]
    if len(users) != len(set(users)):
        raise BadRequest("a player can take only one seat at a match")
    for spec in seats:
        validate_agent(spec.agent, engine)
    clean_time_control = validate_time_control(time_control)
    if clean_time_control and is_realtime(engine):
        raise BadRequest(
            "a real-time game has no turns to time: its time limit is a table "
            "option of the game"
        )
    match = Match.objects.create(
        game=game,
        config=clean_config,
        rated=rated,
        host=host,
        time_control=clean_time_control,
        context=context,
        spectator_delay=spectator_delay,
    )
    labels = distinct_seat_labels(seats)
    Seat.objects.bulk_create(
        Seat(
            match=match,
            number=number,
            user=spec.user,
            agent=spec.agent,
            label=labels[number],
        )
        for number, spec in enumerate(seats)
    )
    return match


def _locked(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist as exc:
        raise MatchNotFound("no such match") from exc


@transaction.atomic
def match_start(*, match_id: int, seed: int | None = None) -> Match:
    """Deal: draw a secret seed, publish its hash, set up the engine state.

    ``seed`` is for server-made matches only (bot ladders replay one deal with
    the seats rotated); people's matches always get a freshly drawn seed.
    """
    match = _locked(match_id)
    if match.status != MatchStatus.WAITING:
        raise NotActive("this match has already started")
    seats = list(match.seats.all())
    if any(seat.is_open for seat in seats):
        raise BadRequest("every seat must be filled before the match starts")
    engine = get_game(match.game)
    if seed is None:
        seed = secrets.randbits(62)
    match.seed = seed
    match.seed_hash = seed_commitment(public_id=str(match.public_id), seed=seed)
    match.state = engine.setup(match.config, seed)
    match.version = 0
    match.status = MatchStatus.ACTIVE
    now = timezone.now()
    match.started_at = match.turn_started_at = now
    track_timers(match=match, engine=engine, now=now)
    total = match.time_control.get("total")
    if total:
        Seat.objects.filter(match=match).update(clock_ms=total * 1000)
    match.save()
    MatchSnapshot.objects.create(match=match, version=0, state=match.state)
    state = match.state
    transaction.on_commit(
        lambda: broadcast.match_changed(match_id=match.pk, state=state)
    )
    _after_commit(lambda: _after_change(match.pk))
    match_pk = match.pk
    _after_commit(lambda: match_announce_started(match_id=match_pk))
    # A player who never connects is away from the start: check after the grace.
    people = [seat.number for seat in seats if seat.user_id and not seat.is_bot]
    _after_commit(lambda: _arm_no_show_checks(match_pk, people))
    return match


NEVER_CONNECTED = ""  # the disconnect stamp of a seat that never connected


def _arm_no_show_checks(match_id: int, numbers: list[int]) -> None:
    from django.conf import settings

    from gameplay import tasks

    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    for number in numbers:
        tasks.seat_grace_expired.apply_async(
            (match_id, number, NEVER_CONNECTED), countdown=GRACE_SECONDS + 1
        )


def match_announce_started(*, match_id: int) -> None:
    """Tell the apps that bring players to their games that this match began.

    Every start passes through ``match_start``, which succeeds once per match,
    so this is sent once; receivers key what they create on the match anyway.
    A receiver's failure is logged, never raised into the starter's request.
    """
    for receiver, outcome in match_started.send_robust(sender=Match, match_id=match_id):
        if isinstance(outcome, Exception):
            logger.error(
                "match_started receiver %r failed for match %s",
                receiver,
                match_id,
                exc_info=outcome,
            )


def _seat_of(match: Match, number: int) -> Seat:
    try:
        return match.seats.get(number=number)
    except Seat.DoesNotExist as exc:
        raise BadRequest(f"seat {number} does not exist at this match") from exc


def seat_for_user(*, match: Match, user: User | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return match.seats.filter(user=user).first()


def clock_start(*, match: Match, seat: Seat) -> datetime | None:
    """When ``seat``'s current decision began: its clock runs from here.

    Several seats may be choosing at once, and a commit by one must not restart
    the others' clocks. A seat's own start (``Seat.acting_since``) is stored
    only while it differs from the match's last change (``turn_started_at``):
    for a seat that was already choosing when someone else moved. One seat at
    a time (every turn-based game) never stores one.
    """
    return seat.acting_since or match.turn_started_at


def _charge_clock(match: Match, seat: Seat, now: datetime) -> None:
    """Take the time since the mover's decision began off its total clock."""
    start = clock_start(match=match, seat=seat)
    if match.time_control.get("total") and start and seat.clock_ms:
        spent = int((now - start).total_seconds() * 1000)
        seat.clock_ms = max(0, seat.clock_ms - spent)
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


def is_realtime(engine: Any) -> bool:
    """A real-time engine (``realtime`` true): no turns, every seat in
    ``actors`` may act at any moment, intents apply in arrival order."""
    return bool(getattr(engine, "realtime", False))


def has_timers(game: str) -> bool:
    """Whether the game's engine asks for server-side timers (``timers``)."""
    return getattr(get_game(game), "timers", None) is not None


def track_timers(*, match: Match, engine: Any, now: datetime) -> None:
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


def timers_after(
    *, engine: Any, state: dict[str, Any], old: dict[str, Any] | None, now: datetime
) -> dict[str, dict[str, Any]]:
    """The match's timers once it is at ``state`` (``track_timers``' rule),
    computed without touching the match: the live owner writes them in the
    same compare-and-set as the step (``store.append_move``)."""
    old = old or {}
    new: dict[str, dict[str, Any]] = {}
    for timer in engine.timers(state):
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


def _timer_legal(engine: Any, state: dict[str, Any], timer: dict[str, Any]) -> bool:
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
    for due, timer in sorted(dues, key=lambda pair: pair[0]):
        if _timer_legal(engine, match.state, timer):
            return due
    return None


def _apply(
    match: Match,
    seat: Seat | None,
    action_id: str,
    *,
    kind: str = ActionKind.MOVE,
    seats: list[Seat] | None = None,
    announce: bool = True,
    now: datetime | None = None,
) -> ActOutcome:
    """Apply one validated action to a locked match (inside a transaction).

    ``now``: the moment of the step (default: the clock's). ``seat`` None
    is the table itself (a server timer's step, logged with no seat).
    ``seats``, when the caller already read them under the lock, lets the
    after-commit hook decide what to schedule without reading them again.
    ``announce=False``: the caller applies several steps and broadcasts once,
    after the last. In a real-time game the engine alone decides whether an
    intent stands (no turn to check); an intent that changes nothing (the
    engine returns the state itself, e.g. "pass") is answered with the
    current version and logs nothing.
    """
    engine = get_game(match.game)
    before = engine.actors(match.state)
    number = seat.number if seat is not None else None
    if (
        seat is not None
        and number not in before
        and not is_realtime(engine)
        and not may_retract(engine, match.state, number, action_id)
    ):
        raise NotYourTurn("it is not your turn to act")
    try:
        new_state, events = engine.apply(match.state, number, action_id)
    except IllegalAction as exc:
        raise IllegalMove(str(exc)) from exc
    if new_state is match.state:
        return ActOutcome(version=match.version, events=[], finished=False)
    now = now or timezone.now()
    if seat is not None and match.time_control:
        # Only clocks read a seat's start (``clock_start``): without a time
        # control there is nothing to charge or keep (a real-time table would
        # otherwise write every other seat's start on every intent).
        _charge_clock(match, seat, now)
        _restart_clocks(match, seat, before, engine.actors(new_state), seats)
    match.state = new_state
    match.version += 1
    match.turn_started_at = now
    track_timers(match=match, engine=engine, now=now)
    MatchAction.objects.create(
        match=match,
        version=match.version,
        seat=number,
        action_id=action_id,
        kind=kind,
        events=events,
        created_at=now,
    )
    if match.version % SNAPSHOT_EVERY == 0:
        MatchSnapshot.objects.create(
            match=match, version=match.version, state=new_state
        )
    finished = engine.is_over(new_state)
    if finished:
        _finish(match, reason="completed")
    else:
        match.save(update_fields=["state", "version", "turn_started_at", "timers"])
    if announce:
        _announce_step(match, number, kind, events, seats)
    return ActOutcome(version=match.version, events=events, finished=finished)


def _announce_step(
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
        _after_commit(lambda: _after_change(match_pk))
    elif _may_have_work_after_change(match, seats):
        # The match as this transaction committed it (the hook runs after the
        # commit; a later writer's own hook covers its version).
        _after_commit(lambda: after_step(match=match, seats=seats))


def retract_ids(engine: Any, state: dict[str, Any], seat: int) -> list[str]:
    """Ids of the seat's take-backs of a hidden commit (engine's optional
    ``retract_actions``): a seat that has committed may change its choice until
    the last commit is in. Not among ``legal_actions``: no clock runs for
    them, no timeout plays them and bots are never offered them."""
    retract = getattr(engine, "retract_actions", None)
    if retract is None:
        return []
    return [action["id"] for action in retract(state, seat)]


def may_retract(engine: Any, state: dict[str, Any], seat: int, action_id: str) -> bool:
    return action_id in retract_ids(engine, state, seat)


def simultaneous_version_ok(
    *, match: Match, seat_number: int, expected_version: int
) -> bool:
    """Whether a move chosen at an older version may still be applied.

    Seats choosing at the same time (hidden commits) would otherwise refuse
    each other's moves: every commit bumps the version. A move chosen at
    ``expected_version`` still stands when every step since was another
    seat's (so this seat's own decision is the one it saw; a double click or a
    second tab made a step of its own and is refused) and the seat is still
    to act; the engine re-validates the action itself. In a real-time game
    always: intents apply in arrival order and the engine judges each against
    the state it meets (a stale one is refused with the engine's reason).
    """
    if expected_version >= match.version or expected_version < 0:
        return False
    engine = get_game(match.game)
    if is_realtime(engine):
        return True
    if seat_number not in engine.actors(match.state) and not retract_ids(
        engine, match.state, seat_number
    ):
        return False
    return not MatchAction.objects.filter(
        match=match, version__gt=expected_version, seat=seat_number
    ).exists()


def check_act_input(*, action_id: Any, expected_version: Any) -> None:
    """The shape of a move request, before anything is read."""
    if not isinstance(action_id, str) or not action_id:
        raise BadRequest("action must be a non-empty string id")
    if len(action_id) > MAX_ACTION_ID_LENGTH:
        raise BadRequest("action id is too long")
    if expected_version is not None and (
        not isinstance(expected_version, int) or isinstance(expected_version, bool)
    ):
        raise BadRequest("version must be an integer")


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
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != MatchStatus.ACTIVE:
            raise NotActive("this match is not in play")
        # All seats in one read (the mover's among them), for _apply to reuse.
        seats = list(match.seats.all())
        seat = _user_seat(seats, user)
        if seat is None:
            raise Forbidden("you have no seat at this match")
        if seat_number is not None and seat_number != seat.number:
            raise Forbidden("that seat is not yours")
        if seat.replaced_by_bot or seat.forfeited:
            raise Forbidden("you left this match; a bot plays your seat")
        if (
            expected_version is not None
            and expected_version != match.version
            and not simultaneous_version_ok(
                match=match,
                seat_number=seat.number,
                expected_version=expected_version,
            )
        ):
            raise StaleVersion(
                f"the match is at version {match.version}, not {expected_version}"
            )
        return _apply(match, seat, action_id, seats=seats)


def _user_seat(seats: list[Seat], user: User | None) -> Seat | None:
    """``seat_for_user`` over seats already read."""
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == user.pk), None)


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
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != MatchStatus.ACTIVE:
            raise NotActive("this match is not in play")
        if expected_version != match.version and not is_realtime(get_game(match.game)):
            raise StaleVersion(f"the match moved on to version {match.version}")
        seat = _seat_of(match, seat_number)
        if not seat.is_bot:
            raise Forbidden("only bot seats are played by the server")
        return _apply(match, seat, action_id, kind=kind)


@dataclass(frozen=True)
class SystemMove:
    """One bot seat's answer in a batch (``match_system_act_many``)."""

    seat: int
    action_id: str
    kind: str = ActionKind.MOVE


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
        match = _locked(match_id)
        if match.status != MatchStatus.ACTIVE:
            raise NotActive("this match is not in play")
        if expected_version != match.version and not is_realtime(get_game(match.game)):
            raise StaleVersion(f"the match moved on to version {match.version}")
        seats = list(match.seats.all())
        by_number = {seat.number: seat for seat in seats}
        last: SystemMove | None = None
        for move in moves:
            seat = by_number.get(move.seat)
            if seat is None:
                raise BadRequest(f"seat {move.seat} does not exist at this match")
            if not seat.is_bot:
                raise Forbidden("only bot seats are played by the server")
            if match.status != MatchStatus.ACTIVE:
                break
            try:
                outcome = _apply(
                    match, seat, move.action_id, kind=move.kind, announce=False
                )
            except (NotYourTurn, IllegalMove):
                if not applied:
                    raise
                break
            applied.append(outcome)
            last = move
        if last is not None:
            _announce_step(match, last.seat, last.kind, applied[-1].events, None)
    return applied


def _final_result(match: Match, engine_result: dict[str, Any] | None) -> dict[str, Any]:
    """The engine's result, with forfeited seats placed last (a leaver loses)."""
    seats = list(match.seats.all())
    n = len(seats)
    forfeited = sorted(seat.number for seat in seats if seat.forfeited)
    if engine_result and engine_result.get("placements"):
        placements = list(engine_result["placements"])
    else:
        placements = [1] * n
    if forfeited:
        survivors = [s for s in range(n) if s not in forfeited]
        order = sorted(survivors, key=lambda s: placements[s])
        ranked: list[int] = [0] * n
        for s in survivors:
            # Rank among survivors keeps their ties: 1 + number strictly better.
            ranked[s] = 1 + sum(1 for o in order if placements[o] < placements[s])
        worst = len(survivors) + 1
        for s in forfeited:
            ranked[s] = worst
        placements = ranked
    winners = [s for s in range(n) if placements[s] == 1]
    result = {
        "placements": placements,
        "winners": winners,
        "forfeited": forfeited,
        "engine": engine_result,
    }
    return result


def final_result(*, match: Match, state: dict[str, Any] | None) -> dict[str, Any]:
    """The result ``match`` ends with at ``state``, from its seats as held
    (``match.seats.all()``: a prefetched copy needs no read). The live owner
    finishes a match from its copy with it (``gameplay.live.owner``)."""
    engine = get_game(match.game)
    return _final_result(match, engine.result(state) if state else None)


def _finish(match: Match, *, reason: str) -> None:
    """Close a locked match: store the result, reveal the seed, announce once."""
    match.result = final_result(match=match, state=match.state)
    match.status = MatchStatus.FINISHED
    match.end_reason = reason
    match.finished_at = timezone.now()
    match.timers = {}
    match.save()
    for number, place in enumerate(match.result["placements"]):
        Seat.objects.filter(match=match, number=number).update(placement=place)
    match_pk = match.pk
    _after_commit(lambda: match_announce_finished(match_id=match_pk))


def _after_commit(hook) -> None:
    """Run ``hook`` after the commit; in production its failure is only logged.

    The hooks enqueue follow-up work (bot moves, clock checks, the finish
    announcement). When the broker is away they fail, but the change has
    committed: the mover must still get the ack, and the beat sweeps (clocks,
    announcements, absent seats) catch up. With eager tasks (tests) the hook *is*
    the work, so its errors propagate.
    """
    from django.conf import settings

    transaction.on_commit(hook, robust=not settings.CELERY_TASK_ALWAYS_EAGER)


def match_announce_finished(*, match_id: int) -> bool:
    """Send ``match_finished``, and mark it sent only once every receiver succeeded.

    A finished match whose ``finish_announced_at`` is null is an outbox entry,
    written by the finishing transaction itself. This runs after that commit
    and again from beat (``announce_finished_matches``) until it succeeds:
    receivers enqueue their work (rating, tournament pairing) inside this
    transaction and raise if the broker refuses, which leaves the entry for the
    next sweep. A receiver may thus run more than once for a match; the tasks it
    queues are idempotent, so the match is still rated exactly once. The row
    lock (skipped when held) keeps two sweeps from announcing at the same time.

    Its two statements are written as SQL: every finished match runs them
    right after its last move, and the ORM building them was about 1,300
    Python calls, most of what the finish costs beyond an ordinary move.
    """
    table = Match._meta.db_table
    # The ORM drops the lock where the database has none (SQLite: one writer).
    lock = (
        " FOR UPDATE SKIP LOCKED"
        if connection.features.has_select_for_update_skip_locked
        else ""
    )
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"SELECT rated, context FROM {table} WHERE id = %s AND status = %s "
            f"AND finish_announced_at IS NULL{lock}",
            [match_id, MatchStatus.FINISHED.value],
        )
        row = cursor.fetchone()
        if row is None:
            return False
        rated, context = bool(row[0]), row[1]
        failed = [
            (receiver, outcome)
            for receiver, outcome in match_finished.send_robust(
                sender=Match, match_id=match_id, rated=rated, context=context
            )
            if isinstance(outcome, Exception)
        ]
        for receiver, outcome in failed:
            logger.warning(
                "match_finished receiver %r failed for match %s; beat retries",
                receiver,
                match_id,
                exc_info=outcome,
            )
        if failed:
            return False
        cursor.execute(
            f"UPDATE {table} SET finish_announced_at = %s WHERE id = %s",
            [connection.ops.adapt_datetimefield_value(timezone.now()), match_id],
        )
    return True


def announce_finished_matches(*, older_than: float = 10.0, limit: int = 200) -> int:
    """Beat: announce finished matches whose announcement has not gone through.

    ``older_than`` seconds leaves fresh matches to their own after-commit hook.
    """
    cutoff = timezone.now() - timedelta(seconds=older_than)
    pending = Match.objects.filter(
        status=MatchStatus.FINISHED,
        finish_announced_at__isnull=True,
        finished_at__lte=cutoff,
    ).order_by("finished_at")
    return sum(
        match_announce_finished(match_id=pk)
        for pk in list(pending.values_list("pk", flat=True)[:limit])
    )


def _forfeit_seat(match: Match, seat: Seat, *, reason: str) -> None:
    """A seat gives up: two players end the match; more let a bot play on."""
    active_people = [
        s for s in match.seats.all() if not s.forfeited and s.number != seat.number
    ]
    seat.forfeited = True
    seat.forfeit_reason = reason
    if len(match.seats.all()) <= 2 or len(active_people) <= 1:
        seat.save(update_fields=["forfeited", "forfeit_reason"])
        _finish(match, reason=reason)
    else:
        seat.replaced_by_bot = True
        seat.save(update_fields=["forfeited", "forfeit_reason", "replaced_by_bot"])
        match.save(update_fields=["state"])
    match_pk, state = match.pk, match.state
    transaction.on_commit(
        lambda: broadcast.match_changed(match_id=match_pk, state=state)
    )
    _after_commit(lambda: _after_change(match_pk))


@transaction.atomic
def match_resign(*, match_id: int, user: User) -> Match:
    match = _locked(match_id)
    if match.status != MatchStatus.ACTIVE:
        raise NotActive("this match is not in play")
    seat = seat_for_user(match=match, user=user)
    if seat is None or seat.forfeited:
        raise Forbidden("you have no seat to resign at this match")
    _forfeit_seat(match, seat, reason="resigned")
    return match


@transaction.atomic
def match_forfeit(*, match_id: int, seat_number: int, reason: str) -> Match:
    """The server forfeits a seat (clock exhausted, bot fault, no-show)."""
    match = _locked(match_id)
    if match.status != MatchStatus.ACTIVE:
        raise NotActive("this match is not in play")
    seat = _seat_of(match, seat_number)
    if seat.forfeited:
        return match
    _forfeit_seat(match, seat, reason=reason)
    return match


@transaction.atomic
def match_abort(*, match_id: int, user: User | None, reason: str = "aborted") -> Match:
    """Call a match off without a result (no rating change).

    The host may abort a table that has not started; a seated player may abort a
    started match only before anyone has moved. ``user=None`` is the server.
    """
    match = _locked(match_id)
    if match.is_over:
        raise NotActive("this match is already over")
    if user is not None:
        seat = seat_for_user(match=match, user=user)
        is_host = match.host_id == user.pk
        if match.status == MatchStatus.WAITING and not is_host:
            raise Forbidden("only the host can call off this table")
        if match.status == MatchStatus.ACTIVE and (seat is None or match.version > 0):
            raise Forbidden("a match can be aborted only before the first move")
    match.status = MatchStatus.ABORTED
    match.end_reason = reason
    match.finished_at = timezone.now()
    match.save()
    match_pk, state = match.pk, match.state
    transaction.on_commit(
        lambda: broadcast.match_changed(match_id=match_pk, state=state)
    )
    return match


# --- Clocks -----------------------------------------------------------------


def seat_deadline(
    *, match: Match, seat: Seat, actors: list[int] | None = None
) -> datetime | None:
    """When ``seat``'s clock runs out for its current decision, if it has one.

    Only seats to act have a running clock, each from its own start
    (``clock_start``): several may run at once. ``actors``: the engine's
    actors, when the caller already has them.
    """
    if not match.time_control or match.state is None:
        return None
    if actors is None:
        actors = get_game(match.game).actors(match.state)
    start = clock_start(match=match, seat=seat)
    if start is None or seat.number not in actors:
        return None
    limits = []
    per_move = match.time_control.get("per_move")
    if per_move:
        limits.append(per_move * 1000)
    if match.time_control.get("total") and seat.clock_ms is not None:
        limits.append(seat.clock_ms)
    if not limits:
        return None
    return start + timedelta(milliseconds=min(limits))


def match_expire_clocks(*, match_id: int, now: datetime | None = None) -> list[str]:
    """Apply what an expired clock means; returns what was done (for the log).

    A per-move limit that runs out plays the rules doc's default action for the
    seat, logged as a timeout. A total clock that runs out forfeits the seat.
    Never a silent random move. Every seat to act has its own clock: each
    expired one is handled, in seat order, and the others' clocks run on.
    """
    now = now or timezone.now()
    done: list[str] = []
    with transaction.atomic():
        match = _locked(match_id)
        engine = get_game(match.game)
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
                if match.time_control.get("total")
                and seat.clock_ms is not None
                and start is not None
                else None
            )
            if total_left is not None and total_left <= 0:
                seat.clock_ms = 0
                seat.save(update_fields=["clock_ms"])
                _forfeit_seat(match, seat, reason="time forfeit")
                handled.add(seat.number)
                done.append(f"seat {seat.number}: time forfeit")
            else:
                action_id = engine.timeout_action(match.state, seat.number)
                _apply(match, seat, action_id, kind=ActionKind.TIMEOUT)
                handled.add(seat.number)
                done.append(f"seat {seat.number}: timeout, played {action_id}")
    for line in done:
        logger.info("match %s clock: %s", match_id, line)
    return done


def _first_expired_seat(
    match: Match, engine: Any, now: datetime, handled: set[int]
) -> Seat | None:
    """The first seat to act whose clock has run out (people, uploaded bots)."""
    actors = engine.actors(match.state)
    for seat in Seat.objects.filter(match=match, number__in=actors).order_by("number"):
        if seat.number in handled or seat.forfeited:
            continue
        if seat.is_bot and not is_uploaded_bot(seat):
            continue  # built-in bots move at once; uploaded ones may not
        deadline = seat_deadline(match=match, seat=seat, actors=actors)
        if deadline is not None and now >= deadline:
            return seat
    return None


# --- Server timers (engines with ``timers``: real-time table steps) ---------------

MAX_TIMER_STEPS = 50  # steps one timer check applies at most (then re-armed)


def first_due_timer(
    *,
    engine: Any,
    state: dict[str, Any],
    timers: dict[str, Any] | None,
    now: datetime,
) -> tuple[str, dict[str, Any]] | None:
    """(key, timer) of the timer to fire first at ``state``: due by ``now``
    and legal there, earliest due time first (then key); None: none. The
    rule of both writers of timer steps (this module's locked check and the
    live owner's, ``gameplay.live.owner``)."""
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


def _first_due_timer(
    match: Match, engine: Any, now: datetime
) -> tuple[str, dict[str, Any]] | None:
    return first_due_timer(
        engine=engine, state=match.state, timers=match.timers, now=now
    )


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
        match = _locked(match_id)
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
            found = _first_due_timer(match, engine, now)
            if found is None:
                break
            key, timer = found
            number = timer["seat"]
            kind = ActionKind.TABLE if number is None else ActionKind.TIMEOUT
            seat = None if number is None else seats[number]
            outcome = _apply(
                match, seat, timer["action"], kind=kind, announce=False, now=now
            )
            last = (number, kind, outcome.events)
            done.append(f"timer {key}: {timer['action']}")
        if last is not None:
            _announce_step(match, last[0], last[1], last[2], list(seats.values()))
    for line in done:
        logger.info("match %s %s", match_id, line)
    return done


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


# --- Bots in live matches ------------------------------------------------------


def _after_change(match_id: int) -> None:
    """After a committed change: let bots move, re-arm the clock and timers.

    Each hook reads the match again: for callers that do not hold it as
    committed (bulk changes, forfeits). A step whose writer holds the match
    and its seats goes through ``after_step`` instead.
    """
    from gameplay import tasks

    tasks.schedule_bot_turns(match_id=match_id)
    tasks.schedule_uploaded_bot_turns(match_id=match_id)
    tasks.schedule_clock_check(match_id=match_id)
    tasks.schedule_timer_check(match_id=match_id)


def after_step(
    *, match: Match, seats: list[Seat], arm_timers: bool = True
) -> datetime | None:
    """After a committed step, from the match as committed and its seats:
    only the hooks the match has work for run, and the timers' check is
    armed from ``match.timers`` without a read (``tasks.arm_timer_check``,
    one armed check per due time). Returns the due time of the earliest
    timer that can fire now (None: none), for callers that remember what
    they armed (the live owner arms only when it changes: ``arm_timers``).

    Bots: built-in seats of a real-time table act on ticks (the chain is
    started or found running: a cache read); of a turn-based one their turn
    is queued; uploaded bots' turns are announced; a clock's check is armed.
    """
    from gameplay import tasks

    if match.status != MatchStatus.ACTIVE:
        return None
    if any(
        seat.agent.startswith(BUILTIN_PREFIX) or seat.replaced_by_bot for seat in seats
    ):
        if is_realtime(get_game(match.game)):
            tasks.schedule_realtime_bots(match=match)
        else:
            tasks.schedule_bot_turns(match_id=match.pk)
    if any(is_uploaded_bot(seat) for seat in seats):
        tasks.schedule_uploaded_bot_turns(match_id=match.pk)
    if match.time_control:
        tasks.schedule_clock_check(match_id=match.pk)
    due = next_timer_due(match=match) if match.timers else None
    if arm_timers:
        tasks.arm_timer_check(match_id=match.pk, due=due)
    return due


def _may_have_work_after_change(match: Match, seats: list[Seat]) -> bool:
    """Whether ``after_step`` could schedule anything for this match.

    It queues bot moves (only for bot or bot-replaced seats), arms clock
    checks (only with a time control) and timer checks (only with timers);
    for a match with none of these the hook is not even registered. Those
    facts change only under the match lock, which the caller holds.
    """
    bot_prefixes = (BUILTIN_PREFIX, UPLOADED_PREFIX)
    return bool(match.time_control or match.timers) or any(
        seat.agent.startswith(bot_prefixes) or seat.replaced_by_bot for seat in seats
    )


def uploaded_bot_seats_to_act(*, match: Match) -> list[Seat]:
    """Seats of uploaded bots whose move it is (see ``is_uploaded_bot``)."""
    if match.status != MatchStatus.ACTIVE:
        return []
    actors = set(get_game(match.game).actors(match.state))
    return [
        seat
        for seat in match.seats.all()
        if seat.number in actors and is_uploaded_bot(seat)
    ]


def builtin_bot_seats_to_act(*, match: Match) -> list[Seat]:
    if match.status != MatchStatus.ACTIVE:
        return []
    actors = set(get_game(match.game).actors(match.state))
    return [
        seat
        for seat in match.seats.all()
        if seat.number in actors
        and (seat.agent.startswith(BUILTIN_PREFIX) or seat.replaced_by_bot)
    ]


def builtin_ask(
    *, match: Match, seat: Seat, version: int, state: dict[str, Any]
) -> BuiltinAsk:
    """What built-in seat ``seat`` is asked at ``version`` (state, bot, seed)."""
    return BuiltinAsk(
        game=match.game,
        state=state,
        seat=seat.number,
        bot=_bot_name(seat),
        seed=builtin_seed(match.seed or 0, version, seat.number),
        kind=ActionKind.BOT_TAKEOVER if seat.replaced_by_bot else ActionKind.MOVE,
    )


def match_play_builtin_bots(
    *,
    match_id: int,
    max_steps: int = 500,
    think: Thinker = think_in_turn,
    leave_simultaneous: bool = False,
) -> int:
    """Let built-in bots make every move that is theirs; returns moves made.

    The bots think without holding the row lock (ISMCTS may take a while), then
    submit with the version they thought at; a stale version means a person
    moved in the meantime, and they simply think again. When several built-in
    seats must act at once (simultaneous commits), each is asked on the same
    state (``think`` thinks the batch: in turn here, in a process pool in the
    bot runner) and their answers go in together (``match_system_act_many``):
    one round of asks is one step of ``max_steps``. ``leave_simultaneous``
    (live tables) stops at such a round instead: one task per seat thinks it
    (``gameplay.tasks.schedule_builtin_round``).
    """
    moves = 0
    for _ in range(max_steps):
        match = Match.objects.get(pk=match_id)
        engine = get_game(match.game)
        if is_realtime(engine):
            break  # no turns: the bots act on ticks (match_realtime_bots_tick)
        seats = builtin_bot_seats_to_act(match=match)
        if not seats or (leave_simultaneous and len(seats) > 1):
            break
        asks = [
            builtin_ask(
                match=match, seat=seat, version=match.version, state=match.state
            )
            for seat in seats
        ]
        answers = think(asks)
        batch = [
            SystemMove(ask.seat, action, ask.kind)
            for ask, action in zip(asks, answers, strict=True)
        ]
        try:
            applied = match_system_act_many(
                match_id=match_id, moves=batch, expected_version=match.version
            )
        except (StaleVersion, NotActive):
            continue
        except MatchError:
            logger.exception("built-in bot made a refused move: %s", batch[0])
            raise
        moves += len(applied)
    return moves


def match_play_builtin_seat(
    *, match_id: int, seat_number: int, version: int, think: Thinker = think_in_turn
) -> ActOutcome | None:
    """One built-in seat's choice in a round of simultaneous choices.

    The round began at ``version``: every built-in seat to act then is asked
    on the state of that version with its seed for it, each by its own task,
    so the seats think in parallel and the match is the same as if they had
    been asked in one batch. A task that starts after another seat of the
    round committed still thinks on that state (rebuilt from the log). Its
    commit goes in with the stale-version rule of people's simultaneous moves
    (``simultaneous_version_ok``): it stands while every step since was
    another seat's, so a second task for the same seat and round (a redelivered
    task) can never apply the seat's commit twice. None when there is nothing
    to do (the match moved on, the seat is not a built-in one to act) or the
    commit was refused.
    """
    from gameplay import selectors

    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.ACTIVE:
        return None
    if match.version != version and not simultaneous_version_ok(
        match=match, seat_number=seat_number, expected_version=version
    ):
        return None
    seat = next((s for s in match.seats.all() if s.number == seat_number), None)
    if seat is None or not (
        seat.agent.startswith(BUILTIN_PREFIX) or seat.replaced_by_bot
    ):
        return None
    state = (
        match.state
        if match.version == version
        else selectors.state_at(match=match, version=version)
    )
    if seat_number not in get_game(match.game).actors(state):
        return None
    ask = builtin_ask(match=match, seat=seat, version=version, state=state)
    (action,) = think([ask])
    try:
        return match_system_commit(
            match_id=match_id,
            seat_number=seat_number,
            action_id=action,
            expected_version=version,
            kind=ask.kind,
        )
    except (StaleVersion, NotActive, NotYourTurn, IllegalMove) as exc:
        logger.info(
            "match %s: built-in seat %s's choice at version %s refused (%s)",
            match_id,
            seat_number,
            version,
            exc,
        )
        return None


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
        match = _locked(match_id)
        if match.status != MatchStatus.ACTIVE:
            raise NotActive("this match is not in play")
        if expected_version != match.version and not simultaneous_version_ok(
            match=match, seat_number=seat_number, expected_version=expected_version
        ):
            raise StaleVersion(f"the match moved on to version {match.version}")
        seat = _seat_of(match, seat_number)
        if not seat.is_bot:
            raise Forbidden("only bot seats are played by the server")
        return _apply(match, seat, action_id, kind=kind)


def _bot_name(seat: Seat) -> str:
    agent = TAKEOVER_BOT if seat.replaced_by_bot else seat.agent
    return agent.removeprefix(BUILTIN_PREFIX)


def match_realtime_bots_tick(*, match_id: int, tick: int) -> bool:
    """One tick of the built-in bots at a live real-time table.

    The virtual clock's semantics (``gameplay.rules.ticks``), on the wall
    clock: every built-in bot seat among the actors decides once from the
    same state (seeds ``tick_seed(match seed, tick, seat)``), without the
    lock, and the intents go in together, in the tick's rotating seat order,
    under the lock, each validated by the engine against the state the
    earlier ones (and any person's intent that arrived meanwhile) left:
    arrival order, as for people. A refused intent changes nothing; "pass"
    is not sent. Returns whether the table still needs ticks (active, with a
    built-in bot seat).
    """
    from gameplay.rules.bots import decision_context, get_bot
    from gameplay.rules.ticks import PASS, tick_order, tick_seed

    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.ACTIVE:
        return False
    seats = list(match.seats.all())
    bots = {
        seat.number: seat
        for seat in seats
        if seat.agent.startswith(BUILTIN_PREFIX) or seat.replaced_by_bot
    }
    if not bots or played_by_bots_runner(seats):
        return False
    engine = get_game(match.game)
    actors = [number for number in engine.actors(match.state) if number in bots]
    moves = []
    for number in tick_order(actors, tick, len(seats)):
        seat = bots[number]
        ctx = decision_context(
            engine, match.state, number, tick_seed(match.seed or 0, tick, number)
        )
        action_id = get_bot(_bot_name(seat)).choose(ctx)
        if action_id != PASS:
            kind = ActionKind.BOT_TAKEOVER if seat.replaced_by_bot else ActionKind.MOVE
            moves.append(SystemMove(number, action_id, kind))
    if moves:
        match_system_intents(match_id=match_id, moves=moves)
    return True


def match_system_intents(
    *,
    match_id: int,
    moves: list[SystemMove],
    refused: list[tuple[int, str, str]] | None = None,
) -> int:
    """Bot seats' intents at a real-time table, applied in the order given.

    One lock, one transaction, one broadcast after the last; each intent is
    judged by the engine against the state it meets (no version: real time),
    and one it refuses (gone stale) is skipped, and appended to ``refused``
    as (seat, action id, the engine's reason) when given: an uploaded bot
    hears of it in its next ``act``. Returns the intents applied.
    """
    applied = 0
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != MatchStatus.ACTIVE:
            return 0
        by_number = {seat.number: seat for seat in match.seats.all()}
        last = None
        for move in moves:
            seat = by_number.get(move.seat)
            if seat is None or not seat.is_bot:
                raise Forbidden("only bot seats are played by the server")
            if match.status != MatchStatus.ACTIVE:
                break
            try:
                outcome = _apply(
                    match, seat, move.action_id, kind=move.kind, announce=False
                )
            except (NotYourTurn, IllegalMove) as exc:
                logger.debug("match %s bot intent refused: %s", match_id, exc)
                if refused is not None:
                    refused.append((move.seat, move.action_id, str(exc)))
                continue
            applied += 1
            last = (move, outcome)
        if last is not None:
            move, outcome = last
            _announce_step(match, move.seat, move.kind, outcome.events, None)
    return applied


# --- Presence, grace period, claims ---------------------------------------------

GRACE_SECONDS = 60


def presence_ttl() -> timedelta:
    """How long a web process's word that a socket is open stays good.

    Each web process refreshes ``Seat.seen_at`` for its open sockets every third
    of this (``gameplay.presence``); a process that dies stops vouching, so its
    seats turn absent within the TTL and the grace period runs from the last
    refresh. Must stay well under GRACE_SECONDS.
    """
    from django.conf import settings

    return timedelta(seconds=getattr(settings, "PRESENCE_TTL", 30))


def seat_is_present(seat: Seat, now: datetime | None = None) -> bool:
    """A live socket holds the seat: counted open and vouched for recently."""
    if seat.connected <= 0 or seat.seen_at is None:
        return False
    return (now or timezone.now()) - seat.seen_at < presence_ttl()


def _locked_seat_of(*, match_id: int, user: User) -> Seat | None:
    """The user's seat at a match, locked for a presence update (None: no seat)."""
    return Seat.objects.select_for_update().filter(match_id=match_id, user=user).first()


def seat_connected(*, match_id: int, user: User, announce: bool = True) -> bool:
    """A seat's player opened a connection (several tabs count separately).

    A count nobody has vouched for within the TTL belongs to sockets of a dead
    web process: it restarts from this connection. One UPDATE (the count is
    decided by the database, so two sockets connecting at once both count).
    ``announce=False``: the caller broadcasts the table itself (the live
    socket's owner does, from the read it makes anyway). False: no seat.
    """
    if user is None or not user.is_authenticated:
        return False
    now = timezone.now()
    # Written as SQL, not built by the ORM: every socket's connect runs it,
    # and building this UPDATE (a Case with two conditions) was about 2,000
    # Python calls of a connect's ~10,500. Same statement the ORM made.
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Seat._meta.db_table} SET connected = CASE "
            "WHEN connected > 0 AND seen_at > %s THEN connected + 1 ELSE 1 END, "
            "seen_at = %s, disconnected_at = NULL "
            "WHERE match_id = %s AND user_id = %s",
            [adapt(now - presence_ttl()), adapt(now), match_id, user.pk],
        )
        counted = cursor.rowcount
    if counted and announce:
        transaction.on_commit(lambda: broadcast.match_changed(match_id=match_id))
    return bool(counted)


def _arm_grace(*, match_id: int, seat: Seat, now: datetime) -> None:
    """Queue the grace-period check of a seat that just went absent.

    Best effort: with the broker away the enqueue fails, and the beat sweep
    (``seats_sweep_absent``) hands the seat over instead.
    """
    from django.conf import settings

    from gameplay import tasks

    if settings.CELERY_TASK_ALWAYS_EAGER or seat.disconnected_at is None:
        return
    due = seat.disconnected_at + timedelta(seconds=GRACE_SECONDS) - now
    try:
        tasks.seat_grace_expired.apply_async(
            (match_id, seat.number, seat.disconnected_at.isoformat()),
            countdown=max(0.0, due.total_seconds()) + 1,
        )
    except Exception:
        logger.warning(
            "could not queue the grace check of match %s seat %s; the sweep will",
            match_id,
            seat.number,
            exc_info=True,
        )


def seat_disconnected(*, match_id: int, user: User, announce: bool = True) -> bool:
    """A connection closed; the last one starts the grace period.

    Once the match is over, presence decides nothing (no claim, no grace
    period, no takeover), yet every finished game closes two sockets or more:
    then one UPDATE counts the socket out, without the row lock, the ORM's
    read and save, or the grace check's broker message (about 1,700 Python
    calls, for a task that would only find the match over). The table is
    still told, so the others see who left. ``announce=False``: the caller
    tells the table itself (the live socket's owner does, from the event
    loop). False: no seat of ``user``.
    """
    if user is None or not user.is_authenticated:
        return False
    now = timezone.now()
    if _seat_counted_out_after_the_end(match_id=match_id, user=user, now=now):
        if announce:
            broadcast.match_changed(match_id=match_id)
        return True
    with transaction.atomic():
        seat = _locked_seat_of(match_id=match_id, user=user)
        if seat is None:
            return False
        present = seat_is_present(seat, now)
        seat.connected = max(0, seat.connected - 1) if present else 0
        if seat.connected == 0:
            # Absent since the last moment anyone vouched for the seat.
            seat.disconnected_at = now if present else (seat.seen_at or now)
        seat.save(update_fields=["connected", "disconnected_at"])
    if seat.connected == 0:
        _arm_grace(match_id=match_id, seat=seat, now=now)
    if announce:
        broadcast.match_changed(match_id=match_id)
    return True


def _seat_counted_out_after_the_end(
    *, match_id: int, user: User, now: datetime
) -> bool:
    """``seat_disconnected``'s count and stamp as one statement, made only if
    the match is finished or aborted (a match never leaves those): False when
    it is not (or the user has no seat), and nothing is written.

    The same rule as the locked path: a seat vouched for within the TTL loses
    one count and turns absent now when that was its last; one nobody vouched
    for turns absent at its last vouching (``seat_is_present``).
    """
    adapt = connection.ops.adapt_datetimefield_value
    present = "(connected > 0 AND seen_at > %(cutoff)s)"
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Seat._meta.db_table} SET "
            f"connected = CASE WHEN {present} THEN connected - 1 ELSE 0 END, "
            f"disconnected_at = CASE WHEN {present} AND connected > 1 "
            f"THEN disconnected_at WHEN {present} THEN %(now)s "
            f"ELSE COALESCE(seen_at, %(now)s) END "
            f"WHERE match_id = %(match)s AND user_id = %(user)s "
            f"AND EXISTS (SELECT 1 FROM {Match._meta.db_table} "
            f"WHERE id = %(match)s AND status IN (%(finished)s, %(aborted)s))",
            {
                "cutoff": adapt(now - presence_ttl()),
                "now": adapt(now),
                "match": match_id,
                "user": user.pk,
                "finished": MatchStatus.FINISHED.value,
                "aborted": MatchStatus.ABORTED.value,
            },
        )
        return cursor.rowcount > 0


def seats_seen(*, seat_ids: list[int], now: datetime | None = None) -> list[int]:
    """A web process vouches for its open sockets' seats; returns revived matches.

    One UPDATE per process per refresh, whatever the number of sockets. A seat
    the sweep had already written off (the process stalled past the TTL) is
    counted back as connected, and its match is returned to be re-broadcast.
    """
    if not seat_ids:
        return []
    now = now or timezone.now()
    Seat.objects.filter(pk__in=seat_ids, connected__gt=0).update(seen_at=now)
    revived = list(
        Seat.objects.filter(pk__in=seat_ids, connected=0).values_list(
            "match_id", flat=True
        )
    )
    if revived:
        Seat.objects.filter(pk__in=seat_ids, connected=0).update(
            connected=1, seen_at=now, disconnected_at=None
        )
    return sorted(set(revived))


def seats_sweep_absent(*, now: datetime | None = None) -> int:
    """Beat: turn seats whose sockets nobody vouches for into absent seats.

    The seats of a web process killed mid-game keep ``connected > 0`` forever;
    once their ``seen_at`` is older than the TTL they are written off as
    disconnected at ``seen_at``, the table is told (the opponent's "Claim win"
    countdown starts), and the grace check is armed, or run here if it is due
    (at three or more seats a bot takes over). Returns seats handled.
    """
    now = now or timezone.now()
    stale = Seat.objects.filter(
        match__status=MatchStatus.ACTIVE, connected__gt=0, user__isnull=False
    ).filter(Q(seen_at__lt=now - presence_ttl()) | Q(seen_at__isnull=True))
    handled = 0
    for seat_id, match_id in list(stale.values_list("pk", "match_id")[:500]):
        with transaction.atomic():
            seat = Seat.objects.select_for_update().filter(pk=seat_id).first()
            if seat is None or seat_is_present(seat, now) or seat.connected == 0:
                continue
            seat.connected = 0
            seat.disconnected_at = seat.seen_at or now
            seat.save(update_fields=["connected", "disconnected_at"])
        logger.info(
            "match %s seat %s: no web process vouched for its socket since %s",
            match_id,
            seat.number,
            seat.disconnected_at.isoformat(),
        )
        handled += 1
        broadcast.match_changed(match_id=match_id)
        _arm_grace(match_id=match_id, seat=seat, now=now)
    # Grace periods whose armed check was lost (broker outage): run them here.
    overdue = Seat.objects.filter(
        match__status=MatchStatus.ACTIVE,
        connected=0,
        user__isnull=False,
        forfeited=False,
        disconnected_at__lte=now - timedelta(seconds=GRACE_SECONDS),
        match__seats__number=2,  # only tables of three or more hand seats over
    ).values_list("match_id", "number", "disconnected_at")
    for match_id, number, since in list(overdue[:500]):
        outcome = seat_grace_expired(
            match_id=match_id,
            seat_number=number,
            disconnected_at=since.isoformat(),
            now=now,
        )
        handled += outcome == "bot took over"
    return handled


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
    appears exactly when ``match_claim`` accepts.
    """
    if is_uploaded_bot(seat):
        # An uploaded bot is "absent" when its turn has gone unanswered: the same
        # rule match_claim applies to stalled bots (``_stalled_uploaded_bots``).
        start = clock_start(match=match, seat=seat)
        if match.status != MatchStatus.ACTIVE or start is None:
            return None
        if seat.number not in get_game(match.game).actors(match.state):
            return None
        return start + timedelta(seconds=GRACE_SECONDS)
    since = _absent_since(match, seat)
    return since + timedelta(seconds=GRACE_SECONDS) if since is not None else None


def _absent_past_grace(seat: Seat, now: datetime) -> bool:
    # Seats read through match.seats know their match without a query.
    claimable = absent_until_claimable(match=seat.match, seat=seat)
    return claimable is not None and now >= claimable


def seat_grace_expired(
    *,
    match_id: int,
    seat_number: int,
    disconnected_at: str,
    now: datetime | None = None,
) -> str:
    """The grace period of an absent seat ran out.

    At tables of three or more a built-in bot takes the seat over so the others'
    game goes on (the leaver still loses). With two players nothing happens by
    itself: the opponent may claim the win or abort. ``disconnected_at`` is
    NEVER_CONNECTED for the check armed at the start for a player who has not
    connected at all (they count as away since the start).
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != MatchStatus.ACTIVE:
            return "match not in play"
        seat = _seat_of(match, seat_number)
        stamp = (
            seat.disconnected_at.isoformat()
            if seat.disconnected_at
            else NEVER_CONNECTED
        )
        if stamp != disconnected_at or not _absent_past_grace(seat, now):
            return "player is back"
        if match.seats.count() <= 2:
            return "opponent may claim"
        _forfeit_seat(match, seat, reason="left")
        return "bot took over"


def _stalled_uploaded_bots(match: Match, now: datetime) -> list[Seat]:
    """Uploaded-bot seats to move that have not moved for the grace period.

    Such a bot counts as gone (no worker runs it, or its runs keep failing
    before they can forfeit it), so the people at the table may claim.
    """
    return [
        seat
        for seat in uploaded_bot_seats_to_act(match=match)
        if (start := clock_start(match=match, seat=seat)) is not None
        and now - start >= timedelta(seconds=GRACE_SECONDS)
    ]


@transaction.atomic
def match_claim(*, match_id: int, user: User, claim: str) -> Match:
    """Claim the win (or abort) when every opponent is gone past the grace period."""
    if claim not in ("win", "abort"):
        raise BadRequest("claim must be 'win' or 'abort'")
    match = _locked(match_id)
    if match.status != MatchStatus.ACTIVE:
        raise NotActive("this match is not in play")
    seat = seat_for_user(match=match, user=user)
    if seat is None or seat.forfeited:
        raise Forbidden("you have no seat at this match")
    now = timezone.now()
    stalled = {s.number for s in _stalled_uploaded_bots(match, now)}
    absent = [
        s
        for s in match.seats.all()
        if s.number != seat.number
        and not s.forfeited
        and (_absent_past_grace(s, now) or s.number in stalled)
    ]
    others = [
        s for s in match.seats.all() if s.number != seat.number and not s.forfeited
    ]
    if not absent or len(absent) != len(others):
        raise Forbidden(
            f"you can claim only when your opponent has been away for "
            f"{GRACE_SECONDS} seconds"
        )
    if claim == "abort":
        match.status = MatchStatus.ABORTED
        match.end_reason = "abandoned"
        match.finished_at = now
        match.save()
        transaction.on_commit(lambda: broadcast.match_changed(match_id=match_id))
        return match
    for other in absent:
        other.forfeited = True
        other.forfeit_reason = "abandoned"
        other.save(update_fields=["forfeited", "forfeit_reason"])
    _finish(match, reason="abandoned")
    transaction.on_commit(lambda: broadcast.match_changed(match_id=match_id))
    return match


# --- Server-driven matches (bot ladders, simulations) -----------------------------


def match_record_steps(
    *,
    match_id: int,
    steps: list[tuple[int | None, str]],
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
        match = _locked(match_id)
        if match.status != MatchStatus.ACTIVE:
            raise NotActive("this match is not in play")
        if expected_version != match.version:
            raise StaleVersion(f"the match moved on to version {match.version}")
        engine = get_game(match.game)
        state = match.state
        rows = []
        all_events: list[dict[str, Any]] = []
        now = timezone.now()
        for seat_number, action_id in steps:
            # Seat None: the table's own step (real-time games); in real time
            # the engine alone judges an intent.
            if (
                seat_number is not None
                and seat_number not in engine.actors(state)
                and not is_realtime(engine)
            ):
                raise NotYourTurn(f"seat {seat_number} is not to act")
            try:
                state, events = engine.apply(state, seat_number, action_id)
            except IllegalAction as exc:
                raise IllegalMove(str(exc)) from exc
            match.version += 1
            rows.append(
                MatchAction(
                    match=match,
                    version=match.version,
                    seat=seat_number,
                    action_id=action_id,
                    kind=ActionKind.TABLE if seat_number is None else ActionKind.MOVE,
                    events=events,
                    created_at=now,
                )
            )
            if match.version % SNAPSHOT_EVERY == 0:
                MatchSnapshot.objects.create(
                    match=match, version=match.version, state=state
                )
            all_events = events
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
            _finish(match, reason="completed")
        else:
            match.save(update_fields=["state", "version", "turn_started_at"])
            if forfeit is not None:
                seat = _seat_of(match, forfeit[0])
                _forfeit_seat(match, seat, reason=forfeit[1])
                finished = match.status == MatchStatus.FINISHED
        match_pk, version = match.pk, match.version
        transaction.on_commit(
            lambda: broadcast.match_changed(
                match_id=match_pk, state=state, events=all_events, version=version
            )
        )
        return ActOutcome(version=match.version, events=all_events, finished=finished)
