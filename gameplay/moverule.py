"""The move rule: whether a step may be taken, and what it produces.

A match has two writers of a person's move: the locked service
(``gameplay.services.match_act``: the row locked, everything read under the
lock) and a web process's live owner (``gameplay.live.owner``: the match as
its copy holds it, written by a compare-and-set in ``gameplay.live.store``).
Both decide the move here, from the match as they hold it, and differ only in
how they write the result. A refusal is the same value on both paths (its
``code`` is the ``MatchError`` code the client gets, its ``message`` the
text), so a socket and the API answer a move alike whichever path took it.
An engine's refusal keeps its own code and params (``reason``, ``params``)
and the player-facing text of that code (``text``); the site words ``text``
in the reader's language (``gameplay.errors``), never here.

Pure: no Django, no I/O. The one fact not in the match row (whether a seat
has logged a step since a version, for moves chosen while others chose too)
is asked of the caller through ``stepped_since``, and only when a move
arrives at an older version.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from gameplay.rules import Game, IllegalAction, error_text
from gameplay.rules.meta import N_

# A state is kept whole every this many versions (``MatchSnapshot``), so a
# replay or a resync starts from the nearest one instead of the deal.
SNAPSHOT_EVERY = 25

# The refusals' codes: those of ``gameplay.errors`` (``errors.refused`` makes
# the exception), which the API and the sockets send to clients.
NOT_ACTIVE = "not_active"
FORBIDDEN = "forbidden"
STALE_VERSION = "stale_version"
NOT_YOUR_TURN = "not_your_turn"
ILLEGAL_ACTION = "illegal_action"
CODES = (NOT_ACTIVE, FORBIDDEN, STALE_VERSION, NOT_YOUR_TURN, ILLEGAL_ACTION)


class SeatLike(Protocol):
    """What the rule reads of a seat (``gameplay.models.Seat`` has it)."""

    number: int
    user_id: int | None
    forfeited: bool
    replaced_by_bot: bool


# (seat number, version) -> whether that seat logged a step after that version.
SteppedSince = Callable[[int, int], bool]


@dataclass(frozen=True)
class Refusal:
    """A move refused: nothing may be written.

    ``message`` is the English detail (an engine's own words for a bot or a
    log); ``text`` the player-facing English text (``N_``-marked, with
    ``%(name)s`` placeholders filled from ``params``; empty: ``message``),
    worded at the edge in the reader's language; ``reason`` the engine's
    refusal code, if any.
    """

    code: str
    message: str
    text: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None


@dataclass(frozen=True)
class Step:
    """A step decided: what the writer writes.

    ``state`` is the engine's new state; when it is the old state itself
    (``changed`` false: a real-time "pass") nothing is written and the step
    is answered with the version it met. ``actors_before`` are the seats
    that were to act before it (clocks restart from them); None for a
    real-time engine, which has neither turns nor clocks (not asked: the
    live owner's real-time intents are the hot path).
    """

    seat: int | None
    action_id: str
    from_version: int
    actors_before: list[int] | None
    state: dict[str, Any]
    events: list[dict[str, Any]]
    changed: bool
    over: bool

    @property
    def version(self) -> int:
        """The match's version after the step."""
        return self.from_version + 1 if self.changed else self.from_version

    @property
    def snapshot(self) -> bool:
        """Whether the state after the step is kept whole (``SNAPSHOT_EVERY``)."""
        return self.changed and self.version % SNAPSHOT_EVERY == 0


def is_realtime(engine: Game) -> bool:
    """A real-time engine (``realtime`` true): no turns, every seat in
    ``actors`` may act at any moment, intents apply in arrival order."""
    return bool(getattr(engine, "realtime", False))


def retract_ids(engine: Game, state: dict[str, Any], seat: int) -> list[str]:
    """Ids of the seat's take-backs of a hidden commit (engine's optional
    ``retract_actions``): a seat that has committed may change its choice until
    the last commit is in. Not among ``legal_actions``: no clock runs for
    them, no timeout plays them and bots are never offered them."""
    retract = getattr(engine, "retract_actions", None)
    if retract is None:
        return []
    return [action["id"] for action in retract(state, seat)]


def may_retract(engine: Game, state: dict[str, Any], seat: int, action_id: str) -> bool:
    return action_id in retract_ids(engine, state, seat)


def version_stands(
    *,
    engine: Game,
    state: dict[str, Any],
    version: int,
    seat: int,
    expected_version: int,
    stepped_since: SteppedSince,
) -> bool:
    """Whether a move chosen at ``expected_version``, older than the match's
    ``version``, may still be applied.

    Seats choosing at the same time (hidden commits) would otherwise refuse
    each other's moves: every commit bumps the version. A move chosen at
    ``expected_version`` still stands when every step since was another
    seat's (so this seat's own decision is the one it saw; a double click or a
    second tab made a step of its own and is refused) and the seat is still
    to act; the engine re-validates the action itself. In a real-time game
    always: intents apply in arrival order and the engine judges each against
    the state it meets (a stale one is refused with the engine's reason).
    """
    if expected_version >= version or expected_version < 0:
        return False
    if is_realtime(engine):
        return True
    if seat not in engine.actors(state) and not retract_ids(engine, state, seat):
        return False
    return not stepped_since(seat, expected_version)


def advance(
    *,
    engine: Game,
    state: dict[str, Any],
    version: int,
    seat: int | None,
    action_id: str,
) -> Step | Refusal:
    """The step ``seat`` (None: the table itself, a server timer) takes with
    ``action_id`` from ``state`` at ``version``: refused when it is not the
    seat's turn (a seat not to act may still take back a hidden commit; a
    real-time engine has no turns and judges every intent itself) or the
    engine finds the action illegal."""
    before = None if is_realtime(engine) else engine.actors(state)
    if (
        seat is not None
        and before is not None
        and seat not in before
        and not may_retract(engine, state, seat, action_id)
    ):
        return Refusal(NOT_YOUR_TURN, N_("it is not your turn to act"))
    try:
        new_state, events = engine.apply(state, seat, action_id)
    except IllegalAction as exc:
        return Refusal(
            ILLEGAL_ACTION,
            str(exc),
            text=error_text(engine.id, exc.code) or "",
            params=exc.params,
            reason=exc.code,
        )
    changed = new_state is not state
    return Step(
        seat=seat,
        action_id=action_id,
        from_version=version,
        actors_before=None if before is None else list(before),
        state=new_state,
        events=events if changed else [],
        changed=changed,
        over=changed and engine.is_over(new_state),
    )


def decide_move(
    *,
    engine: Game,
    active: bool,
    version: int,
    state: dict[str, Any],
    seats: Sequence[SeatLike],
    user_id: int | None,
    action_id: str,
    expected_version: int | None,
    stepped_since: SteppedSince,
    seat_number: int | None = None,
) -> Step | Refusal:
    """A person's move (``user_id``; None: not signed in), decided from the
    match as the caller holds it, refusals in this order: the match is not
    in play; the user has no seat, or ``seat_number`` names another seat; the
    seat was left (a bot plays it); the move was chosen at another version
    (unless ``version_stands``); then ``advance``'s."""
    if not active:
        return Refusal(NOT_ACTIVE, N_("this match is not in play"))
    mover = None
    if user_id is not None:
        mover = next((s for s in seats if s.user_id == user_id), None)
    if mover is None:
        return Refusal(FORBIDDEN, N_("you have no seat at this match"))
    if seat_number is not None and seat_number != mover.number:
        return Refusal(FORBIDDEN, N_("that seat is not yours"))
    if mover.replaced_by_bot or mover.forfeited:
        return Refusal(FORBIDDEN, N_("you left this match; a bot plays your seat"))
    if (
        expected_version is not None
        and expected_version != version
        and not version_stands(
            engine=engine,
            state=state,
            version=version,
            seat=mover.number,
            expected_version=expected_version,
            stepped_since=stepped_since,
        )
    ):
        return Refusal(
            STALE_VERSION,
            f"the match is at version {version}, not {expected_version}",
            text=N_("the match is at version %(version)s, not %(expected)s"),
            params={"version": version, "expected": expected_version},
        )
    return advance(
        engine=engine,
        state=state,
        version=version,
        seat=mover.number,
        action_id=action_id,
    )
