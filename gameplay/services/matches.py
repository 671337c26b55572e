"""A match's life before play and outside it: create, seat, start, call off.

Seats are checked (who, which bot, distinct names) and options cleaned when a
match is created; ``match_start`` deals (secret seed, published hash) and
tells the apps that bring players to games that it began.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from accounts.models import User
from gameplay import broadcast, enqueue
from gameplay.agents import AgentNameError, is_builtin, parse_agent
from gameplay.clocks import GRACE_SECONDS, NEVER_CONNECTED
from gameplay.errors import BadRequest, Forbidden, NotActive, config_refused
from gameplay.models import Match, MatchSnapshot, MatchStatus, Seat
from gameplay.moverule import is_realtime
from gameplay.options import OptionError, clean_table_options
from gameplay.rules import Game, GameError, get_game
from gameplay.selectors import user_seat
from gameplay.services.hooks import after_change, after_commit
from gameplay.services.locking import locked_match
from gameplay.services.moves import track_timers
from gameplay.signals import match_started
from gameplay.timecontrol import TimeControl, TimeControlError

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in one seat when a match is created (all empty = open seat)."""

    user: User | None = None
    agent: str = ""
    label: str = ""


def seed_commitment(*, public_id: str, seed: int) -> str:
    """The published hash of a match's seed: sha256 of "<match uuid>:<seed>"."""
    return hashlib.sha256(f"{public_id}:{seed}".encode()).hexdigest()


def validate_time_control(time_control: object) -> dict[str, Any]:
    """A time control people sent, checked and in its stored form
    (``gameplay.timecontrol``); ``BadRequest`` saying what is wrong."""
    try:
        return TimeControl.parse(time_control).to_json()
    except TimeControlError as exc:
        raise BadRequest(str(exc)) from exc


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
        numbered = spec.label or is_builtin(spec.agent)
        if spec.agent and spec.user is None and numbered:
            label = bot_seat_label(taken=taken, agent=spec.agent, label=spec.label)
        labels.append(label)
        taken.append(_seat_base_name(user=spec.user, agent=spec.agent, label=label))
    return labels


# The bots app tells which uploaded bot a version belongs to, without this
# app importing it: version id -> (bot id, bot name), None when unknown. All
# versions of a bot are one player to the ratings.
UploadedBotOf = Callable[[int], tuple[int, str] | None]
_uploaded_bot_of: UploadedBotOf | None = None


def set_uploaded_bot_identity(lookup: UploadedBotOf | None) -> None:
    global _uploaded_bot_of
    _uploaded_bot_of = lookup


def _bot_identity(agent: str) -> tuple[str, str]:
    """(who the ratings see, their name) for a bot seat's ``agent``: a
    built-in bot by its name, an uploaded version by its bot (any version)."""
    try:
        parsed = parse_agent(agent)
    except AgentNameError:
        parsed = None
    if parsed is not None and parsed.is_uploaded and _uploaded_bot_of is not None:
        found = _uploaded_bot_of(parsed.version_id)
        if found is not None:
            bot_id, name = found
            return f"uploaded bot {bot_id}", name
    return agent, Seat(agent=agent).display_name


def repeated_bot_error(agents: list[str]) -> str | None:
    """Why a rated game cannot seat these bot ``agents`` (None if it can).

    A rating counts each player once: two seats of one bot (a built-in bot
    twice, or two versions of one uploaded bot) are one player to the ratings,
    whose result against itself means nothing, so the ratings could never
    apply such a match. A rated table therefore seats each bot once (the same
    check stops the host's seat form and ``match_create``).
    """
    seen: set[str] = set()
    for agent in agents:
        if not agent:
            continue
        identity, name = _bot_identity(agent)
        if identity in seen:
            return (
                f"a rated game seats each bot once: two seats of the {name} "
                "would be one player to the ratings, and the game could not be "
                "rated. Seat another bot, or open an unrated table"
            )
        seen.add(identity)
    return None


def validate_agent(agent: str, engine: Game | None = None) -> None:
    """A seat's agent is empty, an uploaded bot's version or a known built-in
    bot (able to play ``engine``'s game, if given)."""
    try:
        parsed = parse_agent(agent)
    except AgentNameError as exc:
        raise BadRequest(
            N_("%(agent)s does not name a bot that can take a seat"),
            params={"agent": repr(agent)},
        ) from exc
    if parsed is None or not parsed.is_builtin:
        return
    from gameplay.rules.bots import available_bots, bot_display_name, bot_plays

    if parsed.bot not in available_bots():
        raise BadRequest(
            N_("unknown built-in bot %(bot)s; choose from %(bots)s"),
            params={"bot": repr(parsed.bot), "bots": ", ".join(available_bots())},
        )
    if engine is not None and not bot_plays(parsed.bot, engine):
        raise BadRequest(
            N_("the %(bot)s cannot play %(game)s"),
            params={"bot": bot_display_name(parsed.bot), "game": engine.name},
        )


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
    try:
        engine = get_game(game)
    except GameError as exc:
        raise config_refused(exc) from exc
    if not isinstance(config or {}, dict):
        raise BadRequest(N_("options must be a JSON object"))
    if private_options and rated:
        raise BadRequest(N_("private options (a stacked deck) are never used rated"))
    if not private_options:
        try:
            config = clean_table_options(game, config, players=len(seats))
        except OptionError as exc:
            raise config_refused(exc) from exc
    try:
        clean_config = engine.validate_config({**(config or {}), "players": len(seats)})
    except GameError as exc:
        raise config_refused(exc) from exc
    if not 0 <= spectator_delay <= 50:
        raise BadRequest(N_("spectator delay must be between 0 and 50 moves"))
    users = [spec.user.pk for spec in seats if spec.user is not None]
    if len(users) != len(set(users)):
        raise BadRequest(N_("a player can take only one seat at a match"))
    for spec in seats:
        validate_agent(spec.agent, engine)
    repeated = (
        repeated_bot_error([s.agent for s in seats if s.user is None])
        if rated
        else None
    )
    if repeated:
        raise BadRequest(repeated)
    clean_time_control = validate_time_control(time_control)
    if clean_time_control and is_realtime(engine):
        raise BadRequest(
            N_(
                "a real-time game has no turns to time: its time limit is a "
                "table option of the game"
            )
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


@transaction.atomic
def match_start(*, match_id: int, seed: int | None = None) -> Match:
    """Deal: draw a secret seed, publish its hash, set up the engine state.

    ``seed`` is for server-made matches only (bot ladders replay one deal with
    the seats rotated); people's matches always get a freshly drawn seed.
    """
    match = locked_match(match_id)
    if match.status != MatchStatus.WAITING:
        raise NotActive(N_("this match has already started"))
    seats = list(match.seats.all())
    if any(seat.is_open for seat in seats):
        raise BadRequest(N_("every seat must be filled before the match starts"))
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
    total_ms = TimeControl.from_json(match.time_control).total_ms
    if total_ms:
        Seat.objects.filter(match=match).update(clock_ms=total_ms)
    match.save()
    MatchSnapshot.objects.create(match=match, version=0, state=match.state)
    state = match.state
    transaction.on_commit(
        lambda: broadcast.match_changed(match_id=match.pk, state=state)
    )
    after_commit(lambda: after_change(match.pk))
    match_pk = match.pk
    after_commit(lambda: match_announce_started(match_id=match_pk))
    # A player who never connects is away from the start: check after the grace.
    people = [seat.number for seat in seats if seat.user_id and not seat.is_bot]
    after_commit(lambda: _arm_no_show_checks(match_pk, people))
    return match


def _arm_no_show_checks(match_id: int, numbers: list[int]) -> None:
    from django.conf import settings

    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    for number in numbers:
        enqueue.arm_grace_check(
            match_id=match_id,
            seat_number=number,
            disconnected_at=NEVER_CONNECTED,
            countdown=GRACE_SECONDS + 1,
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


@transaction.atomic
def match_abort(*, match_id: int, user: User | None, reason: str = "aborted") -> Match:
    """Call a match off without a result (no rating change).

    The host may abort a table that has not started; a seated player may abort a
    started match only before anyone has moved. ``user=None`` is the server.
    """
    match = locked_match(match_id)
    if match.is_over:
        raise NotActive(N_("this match is already over"))
    if user is not None:
        seat = user_seat(match=match, user=user)
        is_host = match.host_id == user.pk
        if match.status == MatchStatus.WAITING and not is_host:
            raise Forbidden(N_("only the host can call off this table"))
        if match.status == MatchStatus.ACTIVE and (seat is None or match.version > 0):
            raise Forbidden(N_("a match can be aborted only before the first move"))
    match.status = MatchStatus.ABORTED
    match.end_reason = reason
    match.finished_at = timezone.now()
    match.save()
    match_pk, state = match.pk, match.state
    transaction.on_commit(
        lambda: broadcast.match_changed(match_id=match_pk, state=state)
    )
    return match
