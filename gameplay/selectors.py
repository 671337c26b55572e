"""Match reads: what each seat, spectator or replay viewer may see.

Everything a client receives about a match is built here, from the engine's
allow-listed observations and ``view_events``; nothing copies the raw state.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any

import orjson
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from accounts.http import Viewer
from accounts.models import User
from gameplay.agents import BUILTIN_PREFIX, is_uploaded_bot
from gameplay.clocks import (
    GRACE_SECONDS,
    absent_until_claimable,
    seat_deadline,
    seat_is_present,
)
from gameplay.models import Match, MatchAction, MatchSnapshot, MatchStatus, Seat
from gameplay.rules import Event, get_game, view_events

PROTOCOL_VERSION = 1
logger = logging.getLogger(__name__)

# Apps add fields to a finished match's frames without gameplay naming them
# (league adds each rated player's rating change): provider(match) -> dict.
_result_extras: list[Callable[[Match], dict[str, Any]]] = []


def add_result_extra(provider: Callable[[Match], dict[str, Any]]) -> None:
    if provider not in _result_extras:
        _result_extras.append(provider)


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
    """Seats a built-in bot plays (its own or a leaver's) whose move it is."""
    if match.status != MatchStatus.ACTIVE:
        return []
    actors = set(get_game(match.game).actors(match.state))
    return [
        seat
        for seat in match.seats.all()
        if seat.number in actors
        and (seat.agent.startswith(BUILTIN_PREFIX) or seat.replaced_by_bot)
    ]


def match_by_public_id(*, public_id: str) -> Match:
    return get_object_or_404(
        Match.objects.prefetch_related("seats__user"), public_id=public_id
    )


def seats_of(match: Match) -> list[Seat]:
    """The match's seats: the prefetched list itself when there is one.

    ``match.seats.all()`` builds a related manager and a queryset on every
    call, and a live move asks for the seats of the copy it holds several
    times; the prefetched rows are the same either way. Read-only.
    """
    cache = getattr(match, "_prefetched_objects_cache", None)
    if cache is not None:
        prefetched = cache.get("seats")
        if prefetched is not None and prefetched._result_cache is not None:
            return prefetched._result_cache
    return list(match.seats.all())


def stepped_since(match_id: int) -> Callable[[int, int], bool]:
    """The move rule's one question that the match row cannot answer
    (``moverule.SteppedSince``: has a seat logged a step after a version?),
    asked of ``match_id``'s log, only when a move arrives at an older version."""

    def asked(seat: int, version: int) -> bool:
        return MatchAction.objects.filter(
            match_id=match_id, version__gt=version, seat=seat
        ).exists()

    return asked


def seats_public(*, match: Match) -> list[dict[str, Any]]:
    out = []
    # Every seat to act has its own running clock (several at once in
    # simultaneous play); the actors are asked of the engine once.
    actors = (
        get_game(match.game).actors(match.state)
        if match.status == MatchStatus.ACTIVE
        and match.time_control
        and match.state is not None
        else []
    )
    for seat in seats_of(match):
        deadline = (
            seat_deadline(match=match, seat=seat, actors=actors) if actors else None
        )
        # When the claim rules let the others claim against this absent seat
        # (a player who never connected counts from the start): the table's
        # "Claim win" countdown runs to it, on the server's clock.
        claimable = (
            absent_until_claimable(match=match, seat=seat)
            if match.status == MatchStatus.ACTIVE
            else None
        )
        out.append(
            {
                "number": seat.number,
                "name": seat.display_name,
                "username": seat.user.username if seat.user is not None else None,
                "is_bot": seat.is_bot,
                "agent": seat.agent or None,
                "connected": seat.is_bot or seat_is_present(seat),
                "disconnected_at": (
                    seat.disconnected_at.isoformat()
                    if seat.disconnected_at and not seat.is_bot
                    else None
                ),
                "claimable_at": claimable.isoformat() if claimable else None,
                "replaced_by_bot": seat.replaced_by_bot,
                "forfeited": seat.forfeited,
                "forfeit_reason": seat.forfeit_reason or None,
                "clock_ms": seat.clock_ms,
                "deadline": deadline.isoformat() if deadline else None,
                "placement": seat.placement,
            }
        )
    return out


def frame_base(
    *, match: Match, seats: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The part of a state frame every seat shares; ``seats``: ``seats_public``
    already computed for this match. A broadcast builds it once for all its
    frames (``seat_frame(base=...)``): a finished match's part reads the
    rematch and the rating changes, once instead of once per frame."""
    frame: dict[str, Any] = {
        "type": "state",
        "protocol": PROTOCOL_VERSION,
        "match": str(match.public_id),
        "game": match.game,
        "status": match.status,
        "version": match.version,
        "rated": match.rated,
        "time_control": match.time_control,
        "seed_hash": match.seed_hash,
        "seats": seats if seats is not None else seats_public(match=match),
        # The client times the claim countdown against the server's clock.
        "server_time": timezone.now().isoformat(),
        "grace_seconds": GRACE_SECONDS,
        "step": None,
    }
    if match.is_over:
        frame["result"] = match.result
        frame["end_reason"] = match.end_reason
        frame["seed"] = str(match.seed) if match.seed is not None else None
        from gameplay.rematch import rematch_info

        frame["rematch"] = rematch_info(match=match)
        for provider in _result_extras:
            try:
                frame.update(provider(match))
            except Exception:  # an extra must never cost the players their frame
                logger.exception("result extra %r failed", provider)
    return frame


def seat_frame(
    *,
    match: Match,
    seat: int,
    events: list[dict[str, Any]] | None = None,
    step: dict[str, Any] | None = None,
    seats: list[dict[str, Any]] | None = None,
    base: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What one seat sees now: its own observation, events and legal actions.

    ``step`` ({"kind", "seat"}) says who made the step whose events these are
    and how (a timeout's default choice is logged as one). ``base``: this
    match's ``frame_base``, when the caller built it for several frames.
    """
    frame = dict(base) if base is not None else frame_base(match=match, seats=seats)
    frame["seat"] = seat
    frame["step"] = step if events is not None else None
    if match.state is None:
        frame.update(view=None, events=None, legal=[], actors=[])
        return frame
    engine = get_game(match.game)
    active = match.status == MatchStatus.ACTIVE
    actors = engine.actors(match.state) if active else []
    frame["view"] = engine.observe(match.state, seat)
    # None = this frame does not carry its step's events (connect, presence):
    # the client fetches them with `sync`. A list, even empty, is the step's own.
    frame["events"] = None if events is None else view_events(events, seat)
    frame["actors"] = actors
    frame["legal"] = engine.legal_actions(match.state, seat) if seat in actors else []
    # Names the menu by its content: a broadcast may leave out a menu it sent
    # unchanged, and the client reuses the one it holds only when the names
    # match (``broadcast.match_messages``, docs/protocol/live.md).
    frame["legal_digest"] = menu_digest(frame["legal"])
    # Take-backs of this seat's hidden commits while the others still choose,
    # for the games whose engine offers them (``retract_actions``); a client
    # sends one like any action.
    retract = getattr(engine, "retract_actions", None)
    if retract is not None:
        frame["retract"] = retract(match.state, seat) if active else []
    return frame


def menu_digest(legal: list[dict[str, Any]]) -> str:
    """A short name of a menu's exact content (its JSON), the same in every
    process: two menus with one digest are the same menu. 64 bits: a client
    holds one menu per socket, so a collision is not a practical worry."""
    return hashlib.blake2b(
        orjson.dumps(legal, option=orjson.OPT_NON_STR_KEYS), digest_size=8
    ).hexdigest()


def spectator_version(*, match: Match) -> int:
    """The version spectators are shown: held back by the delay while in play."""
    return match.public_version


def spectator_frame(
    *,
    match: Match,
    events: list[dict[str, Any]] | None = None,
    step: dict[str, Any] | None = None,
    seats: list[dict[str, Any]] | None = None,
    base: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The public view, delayed by the table's spectator delay while in play."""
    frame = dict(base) if base is not None else frame_base(match=match, seats=seats)
    frame["seat"] = None
    frame["step"] = step if events is not None else None
    if match.state is None:
        frame.update(view=None, events=None, legal=[], actors=[])
        return frame
    engine = get_game(match.game)
    shown = spectator_version(match=match)
    if shown == match.version:
        state = match.state
        shown_events = events
    else:
        state = state_at(match=match, version=shown)
        action = MatchAction.objects.filter(match=match, version=shown).first()
        shown_events = action.events if action else []
        frame["step"] = {"kind": action.kind, "seat": action.seat} if action else None
        frame["version"] = shown
        frame["delayed_by"] = match.version - shown
        # Clocks and deadlines move with every live move: a delayed frame that
        # carried them would tell whose turn it is now and how fast they play.
        # (Copies: the seats' dicts may be shared with the seats' own frames.)
        frame["seats"] = [
            {**seat, "clock_ms": None, "deadline": None} for seat in frame["seats"]
        ]
    frame["view"] = engine.observe(state, None)
    frame["events"] = None if shown_events is None else view_events(shown_events, None)
    frame["actors"] = engine.actors(state) if match.status == MatchStatus.ACTIVE else []
    frame["legal"] = []
    if getattr(engine, "retract_actions", None) is not None:
        frame["retract"] = []
    return frame


def state_at(*, match: Match, version: int) -> dict[str, Any]:
    """Rebuild the engine state at ``version`` from the nearest snapshot and the log."""
    if version == match.version and match.state is not None:
        return match.state
    snapshot = (
        MatchSnapshot.objects.filter(match=match, version__lte=version)
        .order_by("-version")
        .first()
    )
    if snapshot is None:
        raise ValueError(f"match {match.pk} has no snapshot at or before {version}")
    engine = get_game(match.game)
    state = snapshot.state
    for action in MatchAction.objects.filter(
        match=match, version__gt=snapshot.version, version__lte=version
    ).order_by("version"):
        state, _ = engine.apply(state, action.seat, action.action_id)
    return state


def events_since(
    *, match: Match, seat: int | None, after_version: int
) -> list[dict[str, Any]]:
    """Every logged step after ``after_version`` as ``seat`` may see it (resume)."""
    limit = match.version if seat is not None else spectator_version(match=match)
    steps = MatchAction.objects.filter(
        match=match, version__gt=after_version, version__lte=limit
    ).order_by("version")
    return [
        {
            "version": step.version,
            "seat": step.seat,
            "kind": step.kind,
            "events": view_events(step.events, seat),
        }
        for step in steps
    ]


def viewer_seat(*, match: Match, user: Viewer | None) -> int | None:
    """The seat whose private view ``user`` gets, or None for the public view.

    A seat that resigned or was left at a table of three or more (a bot plays on)
    is no longer its owner's: from then until the end they see what spectators
    see, delay included, never the private events of the seat the bot now plays.
    """
    seat = user_seat(match=match, user=user)
    if seat is None:
        return None
    if seat.forfeited and match.status == MatchStatus.ACTIVE:
        return None
    return seat.number


def user_seat(*, match: Match, user: Viewer | None) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    for seat in seats_of(match):
        if seat.user_id == user.pk:
            return seat
    return None


def open_tables(*, game: str | None = None) -> QuerySet[Match]:
    tables = Match.objects.filter(status=MatchStatus.WAITING).prefetch_related(
        "seats__user"
    )
    if game:
        tables = tables.filter(game=game)
    return tables.order_by("-created_at")


def live_matches(*, game: str | None = None) -> QuerySet[Match]:
    matches = Match.objects.filter(status=MatchStatus.ACTIVE).prefetch_related(
        "seats__user"
    )
    if game:
        matches = matches.filter(game=game)
    return matches.order_by("-started_at")


def recent_matches(
    *, user: User | None = None, game: str | None = None, limit: int = 20
) -> list[Match]:
    matches = Match.objects.filter(status=MatchStatus.FINISHED)
    if user is not None:
        matches = matches.filter(seats__user=user)
    if game:
        matches = matches.filter(game=game)
    return list(
        matches.prefetch_related("seats__user").order_by("-finished_at")[:limit]
    )


def matches_for_user(*, user: User) -> QuerySet[Match]:
    return (
        Match.objects.filter(Q(seats__user=user) | Q(host=user))
        .distinct()
        .prefetch_related("seats__user")
    )


# --- Replays ---------------------------------------------------------------------


def parse_perspective(*, value: str | None, players: int) -> tuple[str, int | None]:
    """``full`` (default), ``spectator`` or ``seat:N`` -> (kind, seat)."""
    value = (value or "full").strip()
    if value in ("full", "spectator"):
        return value, None
    if value.startswith("seat:"):
        number = value.removeprefix("seat:")
        if number.isdigit() and int(number) < players:
            return "seat", int(number)
    raise ValueError(
        f"perspective must be 'full', 'spectator' or 'seat:N' with N below {players}"
    )


def match_replay(*, match: Match, perspective: str | None = "full") -> dict[str, Any]:
    """Every step of a finished match, as one perspective saw it.

    Only finished matches have replays: before the end even "what seat N knew"
    would tell a spectator what seat N holds.
    """
    players = match.config.get("players") or match.seats.count()
    kind, seat = parse_perspective(value=perspective, players=players)
    engine = get_game(match.game)
    assert match.seed is not None, "a match is dealt when it starts"
    state = engine.setup(match.config, match.seed)
    view_seat = seat if kind == "seat" else None

    def frame(
        version: int,
        actor: int | None,
        action_id: str | None,
        label: str | None,
        step_kind: str,
        events: list[Event],
        at_ms: int | None,
    ) -> dict[str, Any]:
        step = {
            "version": version,
            "seat": actor,
            "action_id": action_id,
            "label": label,
            "kind": step_kind,
            "at_ms": at_ms,
            "events": events if kind == "full" else view_events(events, view_seat),
            "view": engine.observe(state, view_seat),
        }
        if kind == "full":
            step["hands"] = [engine.observe(state, s)["hand"] for s in range(players)]
        return step

    started = match.started_at

    def stamp(action: MatchAction) -> int | None:
        # The timeline: when the server applied the step, in ms from the start.
        # In real time this is the arrival order that decided every race.
        if started is None or action.created_at is None:
            return None
        return max(0, round((action.created_at - started).total_seconds() * 1000))

    steps = [frame(0, None, None, None, "deal", [], 0 if started else None)]
    for action in match.actions.order_by("version"):
        labels = {
            a["id"]: a.get("label") for a in engine.legal_actions(state, action.seat)
        }
        state, events = engine.apply(state, action.seat, action.action_id)
        steps.append(
            frame(
                action.version,
                action.seat,
                action.action_id,
                labels.get(action.action_id),
                action.kind,
                events,
                stamp(action),
            )
        )
    return {
        "match": str(match.public_id),
        "game": match.game,
        "perspective": perspective or "full",
        "seed": str(match.seed),
        "seed_hash": match.seed_hash,
        "config": match.config,
        "players": [s.display_name for s in match.seats.all()],
        "result": match.result,
        "end_reason": match.end_reason,
        "steps": steps,
    }


def match_record(*, match: Match) -> dict[str, Any]:
    """The downloadable record: enough to re-derive every deal and every step."""
    return {
        "format": "kungfu-arena-match/1",
        "match": str(match.public_id),
        "game": match.game,
        "rules_version": (match.state or {}).get("rules_version"),
        "config": match.config,
        "seed": str(match.seed),
        "seed_hash": match.seed_hash,
        "seed_hash_method": 'sha256("<match>:<seed>")',
        "players": [
            {"seat": s.number, "name": s.display_name, "agent": s.agent or None}
            for s in match.seats.all()
        ],
        "actions": [
            {
                "version": a.version,
                "seat": a.seat,
                "action": a.action_id,
                "kind": a.kind,
            }
            for a in match.actions.order_by("version")
        ],
        "result": match.result,
        "end_reason": match.end_reason,
        "started_at": match.started_at.isoformat() if match.started_at else None,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
    }
