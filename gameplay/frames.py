"""The frames a live table is sent: one seat's view, or the spectators'.

Built from the match as read (or as the live owner holds it); the
broadcast, the live owner's resync, the API and the match page all send
these, so a socket and a page see the same thing. Reads only.
"""

from __future__ import annotations

import hashlib
import logging
import operator
import threading
from collections.abc import Callable
from typing import Any

import orjson
from django.utils import timezone

from gameplay.clocks import (
    GRACE_SECONDS,
    absent_until_claimable,
    seat_deadline,
    seat_is_present,
)
from gameplay.contexts import match_is_sealed
from gameplay.models import Match, MatchAction, MatchStatus
from gameplay.rules import Game, get_game, view_events
from gameplay.selectors import rematch_info, seats_of, spectator_version, state_at
from gameplay.timecontrol import time_control_label
from gameplay.vacation import away_until

# The live protocol's version (docs/protocol/live.md), in every frame.
PROTOCOL_VERSION = 1
logger = logging.getLogger(__name__)

# Apps add fields to a finished match's frames without gameplay naming them
# (league adds each rated player's rating change): provider(match) -> dict.
_result_extras: list[Callable[[Match], dict[str, Any]]] = []


def add_result_extra(provider: Callable[[Match], dict[str, Any]]) -> None:
    """Add ``provider``'s fields to every finished match's frames (once)."""
    if provider not in _result_extras:
        _result_extras.append(provider)


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
    seats = seats_of(match)
    # "On vacation until ...": the opponents see why a correspondence clock
    # stands still (``gameplay.vacation``).
    away = (
        away_until(user_ids=[s.user_id for s in seats if s.user_id])
        if match.status == MatchStatus.ACTIVE and (match.time_control or {}).get("days")
        else {}
    )
    now = timezone.now()  # one instant for every seat's presence
    active = match.status == MatchStatus.ACTIVE
    for seat in seats:
        bot = seat.is_bot  # a property: read once
        user = seat.user
        present = bot or seat_is_present(seat, now)
        deadline = (
            seat_deadline(match=match, seat=seat, actors=actors) if actors else None
        )
        # When the claim rules let the others claim against this absent seat
        # (a player who never connected counts from the start): the table's
        # "Claim win" countdown runs to it, on the server's clock. A person
        # present now is not absent (``clocks._absent_since``): not asked,
        # which was half of a seat's part on every step of a live table.
        claimable = (
            absent_until_claimable(match=match, seat=seat)
            if active and (bot or not present)
            else None
        )
        out.append(
            {
                "number": seat.number,
                "name": seat.display_name,
                "username": user.username if user is not None else None,
                "is_bot": bot,
                "agent": seat.agent or None,
                "connected": present,
                "disconnected_at": (
                    seat.disconnected_at.isoformat()
                    if seat.disconnected_at and not bot
                    else None
                ),
                "claimable_at": claimable.isoformat() if claimable else None,
                "replaced_by_bot": seat.replaced_by_bot,
                "forfeited": seat.forfeited,
                "forfeit_reason": seat.forfeit_reason or None,
                "clock_ms": seat.clock_ms,
                "deadline": deadline.isoformat() if deadline else None,
                "away_until": (
                    away[seat.user_id].isoformat()
                    if seat.user_id in away and not bot
                    else None
                ),
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
        "time_control_label": time_control_label(match.time_control),
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
        if match.seed is not None and match_is_sealed(match):
            # Its competition still deals these cards elsewhere (a duplicate
            # round): the seed is published when the round is over.
            frame["seed"] = None
            frame["sealed"] = True
        frame["rematch"] = rematch_info(match=match)
        for provider in _result_extras:
            try:
                frame.update(provider(match))
            except Exception:  # an extra must never cost the players their frame
                logger.exception("result extra %r failed", provider)
    return frame


_DUE_THEN_ACTION = operator.itemgetter("due", "action")


def running_timers(*, match: Match, seat: int | None) -> list[dict[str, Any]]:
    """The server timers (engine ``timers``) now running that ``seat`` may
    know of, earliest first: ``{"action", "seat", "due"}``.

    The table's own (seat None: e.g. the end of the match's time, the check of
    a claim on the table) go to everyone, a seat's own timers (its answer to
    an offer, its offer being built) to that seat only: another seat's timer
    could tell what it does in secret (an offer it is building). Keys are
    left out, they may name a seat's hidden choices. Spectators (``seat``
    None) get the table's timers.
    """
    if match.status != MatchStatus.ACTIVE or not match.timers:
        return []
    shown = [
        {"action": t["action"], "seat": t["seat"], "due": t["due"]}
        for t in match.timers.values()
        if t["seat"] is None or (seat is not None and t["seat"] == seat)
    ]
    return sorted(shown, key=_DUE_THEN_ACTION)


def seat_frame(
    *,
    match: Match,
    seat: int,
    events: list[dict[str, Any]] | None = None,
    step: dict[str, Any] | None = None,
    seats: list[dict[str, Any]] | None = None,
    base: dict[str, Any] | None = None,
    actors: list[int] | None = None,
) -> dict[str, Any]:
    """What one seat sees now: its own observation, events and legal actions.

    ``step`` ({"kind", "seat"}) says who made the step whose events these are
    and how (a timeout's default choice is logged as one). ``base``: this
    match's ``frame_base``, when the caller built it for several frames;
    ``actors``: the engine's ``actors`` of the match as it stands, likewise
    (``frame_actors``)."""
    frame = dict(base) if base is not None else frame_base(match=match, seats=seats)
    frame["seat"] = seat
    frame["step"] = step if events is not None else None
    if match.state is None:
        frame.update(view=None, events=None, legal=[], actors=[])
        return frame
    engine = get_game(match.game)
    active = match.status == MatchStatus.ACTIVE
    if actors is None:
        actors = frame_actors(match=match)
    frame["view"] = engine.observe(match.state, seat)
    # None = this frame does not carry its step's events (connect, presence):
    # the client fetches them with `sync`. A list, even empty, is the step's own.
    frame["events"] = None if events is None else view_events(events, seat)
    frame["actors"] = actors
    # The menu is named by its content (``legal_digest``): a broadcast may
    # leave out a menu it sent unchanged, and the client reuses the one it
    # holds only when the names match (``broadcast.match_messages``,
    # docs/protocol/live.md).
    if seat in actors:
        frame["legal"], frame["legal_digest"] = seat_menu(
            engine=engine, match=match, seat=seat
        )
    else:
        frame["legal"], frame["legal_digest"] = [], EMPTY_MENU_DIGEST
    frame["timers"] = running_timers(match=match, seat=seat)
    # Take-backs of this seat's hidden commits while the others still choose,
    # for the games whose engine offers them (``retract_actions``); a client
    # sends one like any action.
    retract = getattr(engine, "retract_actions", None)
    if retract is not None:
        frame["retract"] = retract(match.state, seat) if active else []
    return frame


def frame_actors(*, match: Match) -> list[int]:
    """The seats the frames of ``match`` name as acting now (none unless in
    play), asked of the engine once for all of a broadcast's frames."""
    if match.state is None or match.status != MatchStatus.ACTIVE:
        return []
    return get_game(match.game).actors(match.state)


def menu_digest(legal: list[dict[str, Any]]) -> str:
    """A short name of a menu's exact content (its JSON), the same in every
    process: two menus with one digest are the same menu. 64 bits: a client
    holds one menu per socket, so a collision is not a practical worry."""
    return hashlib.blake2b(
        orjson.dumps(legal, option=orjson.OPT_NON_STR_KEYS), digest_size=8
    ).hexdigest()


EMPTY_MENU_DIGEST = menu_digest([])

# The menu each seat of a live match was last given, for engines that name
# what a seat's menu depends on (``menu_key``): {(game, match pk, seat): (key,
# menu, digest)}. A real-time table's step changes few seats' menus (Kung Fu
# (2009): about one in eight), and building the others again for every frame
# was a third of the step's cost. A hit returns the very menu built before:
# frames only read it. Bounded, oldest first out; a miss only costs the build.
SEAT_MENUS_KEPT = 2048
_seat_menus: dict[tuple[str, int, int], tuple[Any, list[dict[str, Any]], str]] = {}
_seat_menus_lock = threading.Lock()


def seat_menu(*, engine: Game, match: Match, seat: int) -> tuple[list[Any], str]:
    """(``seat``'s legal actions in ``match`` as it stands, their digest).

    Built again only when the engine's ``menu_key`` for the seat changed
    since the last call for this match and seat (or the engine has none):
    two states with one key give the same menu, so the frame is the same
    byte for byte either way."""
    state = match.state
    key_of = getattr(engine, "menu_key", None)
    if key_of is None or match.id is None:
        legal = engine.legal_actions(state, seat)
        return legal, menu_digest(legal)
    key = key_of(state, seat)
    slot = (match.game, match.id, seat)
    kept = _seat_menus.get(slot)
    if kept is not None and kept[0] == key:
        return kept[1], kept[2]
    legal = engine.legal_actions(state, seat)
    digest = menu_digest(legal)
    with _seat_menus_lock:
        _seat_menus.pop(slot, None)  # re-inserted last: the newest
        _seat_menus[slot] = (key, legal, digest)
        while len(_seat_menus) > SEAT_MENUS_KEPT:
            _seat_menus.pop(next(iter(_seat_menus)))
    return legal, digest


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
        frame["timers"] = running_timers(match=match, seat=None)
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
        # The same for the table's timers (a claim's check says one is on the
        # table now): a delayed frame carries none.
        frame["timers"] = []
    frame["view"] = engine.observe(state, None)
    frame["events"] = None if shown_events is None else view_events(shown_events, None)
    frame["actors"] = engine.actors(state) if match.status == MatchStatus.ACTIVE else []
    frame["legal"] = []
    if getattr(engine, "retract_actions", None) is not None:
        frame["retract"] = []
    return frame
