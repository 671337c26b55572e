"""Built-in bots' turns at live tables: ask them, submit their answers.

The bots think without the row lock (a search may take a while) and submit
at the version they thought at; at a real-time table they act on ticks.
"""

from __future__ import annotations

import logging
from typing import Any

from gameplay.agents import builtin_bot_of, played_by_bots_runner, plays_builtin
from gameplay.bot_thinking import BuiltinAsk, Thinker, builtin_seed, think_in_turn
from gameplay.errors import (
    IllegalMove,
    MatchError,
    NotActive,
    NotYourTurn,
    StaleVersion,
)
from gameplay.models import ActionKind, Match, MatchStatus, Seat
from gameplay.moverule import is_realtime
from gameplay.rules import get_game
from gameplay.selectors import builtin_bot_seats_to_act, state_at
from gameplay.services.moves import (
    ActOutcome,
    SystemMove,
    match_system_act_many,
    match_system_commit,
    match_system_intents,
    simultaneous_version_ok,
)

logger = logging.getLogger(__name__)


def builtin_ask(
    *, match: Match, seat: Seat, version: int, state: dict[str, Any]
) -> BuiltinAsk:
    """What built-in seat ``seat`` is asked at ``version`` (state, bot, seed)."""
    return BuiltinAsk(
        game=match.game,
        state=state,
        seat=seat.number,
        bot=builtin_bot_of(seat),
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
    (``gameplay.enqueue.schedule_builtin_round``).
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
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.ACTIVE:
        return None
    if match.version != version and not simultaneous_version_ok(
        match=match, seat_number=seat_number, expected_version=version
    ):
        return None
    seat = next((s for s in match.seats.all() if s.number == seat_number), None)
    if seat is None or not plays_builtin(seat):
        return None
    state = (
        match.state
        if match.version == version
        else state_at(match=match, version=version)
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
    bots = {seat.number: seat for seat in seats if plays_builtin(seat)}
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
        action_id = get_bot(builtin_bot_of(seat)).choose(ctx)
        if action_id != PASS:
            kind = ActionKind.BOT_TAKEOVER if seat.replaced_by_bot else ActionKind.MOVE
            moves.append(SystemMove(number, action_id, kind))
    if moves:
        match_system_intents(match_id=match_id, moves=moves)
    return True
