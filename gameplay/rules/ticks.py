"""The virtual clock for bot matches of real-time games (game-agnostic).

A real-time engine (``game.realtime`` true) has no turns: every seat in
``actors(state)`` may act at any moment, and a live server applies intents in the
order they arrive. Bots have no arrival times, so bot matches run on a virtual
clock in discrete ticks:

1. At tick ``t``, if no seat may act and the game is not over, the table takes
   its step (the first entry of ``legal_action_ids(state, None)``, e.g. checking
   a claim), and the tick ends.
2. Otherwise every seat in ``actors`` is asked for one intent or ``"pass"``,
   all from the same state (the tick's moment: bots decide at the same time,
   like people at a table). The intents then arrive in the order of seat
   numbers rotated by ``t`` (seat ``t mod n`` first, so no seat always goes
   first) and are applied one after the other, exactly as a server applies
   intents in arrival order. So races happen as they do live: a later intent
   of the same tick may have gone stale (an offer accepted by an earlier seat, a
   trade after a claim paused the game), and a second claim queues behind the
   first.
3. A refused intent (``IllegalAction``) changes nothing and is recorded as
   refused, with the engine's reason.

Everything is derived from the match seed and the bots: the decision seeds are
``derive_seed(seed, tick, seat)``, so a match is deterministic and its log of
applied intents ``(tick, seat, id)`` replays exactly through ``apply``
(:func:`replay`). At ``max_ticks`` the table's ``end`` step (the match's time
limit) ends the game, after the table's pending steps (a claim being
checked). ``pass`` is never applied or logged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gameplay.rules.base import Game, State
from gameplay.rules.bots.base import Bot, decision_context
from gameplay.rules.errors import IllegalAction
from gameplay.rules.rng import MASK64, _mix

PASS = "pass"
END = "end"


def tick_seed(seed: int, tick: int, seat: int) -> int:
    """The seed of one decision (63 bits, SplitMix64 of the three numbers)."""
    h = 0x243F6A8885A308D3
    for p in (seed, tick, seat):
        h = _mix((h ^ (p & MASK64)) + 0x9E3779B97F4A7C15 & MASK64)
    return h >> 1


def tick_order(actors: Sequence[int], tick: int, players: int) -> list[int]:
    """``actors`` ordered from seat ``tick mod players`` upwards, wrapping."""
    first = tick % players
    return sorted(actors, key=lambda s: (s - first) % players)


@dataclass
class TickMatch:
    """The outcome of :func:`run`: final state, the applied log and counts."""

    state: State
    log: list[tuple[int, int | None, str]] = field(default_factory=list)
    refused: list[tuple[int, int, str, str]] = field(default_factory=list)
    ticks: int = 0
    passes: int = 0


def run(
    game: Game,
    state: State,
    bots: Sequence[Bot],
    seed: int,
    *,
    max_ticks: int = 20_000,
    players: int | None = None,
) -> TickMatch:
    """Play ``state`` to the end on the virtual clock; ``bots[s]`` plays seat s."""
    n = players if players is not None else len(bots)
    match = TickMatch(state=state)
    apply = game.apply
    actors_of = game.actors
    tick = 0
    while not game.is_over(state) and tick < max_ticks:
        actors = actors_of(state)
        if not actors:
            table = game.legal_action_ids(state, None)
            state, _ = apply(state, None, table[0])
            match.log.append((tick, None, table[0]))
            tick += 1
            continue
        # Everyone decides from the same moment (the state at the tick's start)...
        intents = []
        for seat in tick_order(actors, tick, n):
            ctx = decision_context(game, state, seat, tick_seed(seed, tick, seat))
            intents.append((seat, bots[seat].choose(ctx)))
        # ... and the intents arrive in the rotating seat order.
        for seat, aid in intents:
            if aid == PASS:
                match.passes += 1
                continue
            try:
                state, _ = apply(state, seat, aid)
            except IllegalAction as exc:
                match.refused.append((tick, seat, aid, str(exc)))
                continue
            match.log.append((tick, seat, aid))
            if game.is_over(state):
                break
        tick += 1
    state = time_up(game, state, lambda step: match.log.append((tick, None, step)))
    match.state = state
    match.ticks = tick
    return match


def time_up(game: Game, state: State, record: Any = None) -> State:
    """End a match whose ticks ran out with the table's ``end`` step.

    If time is up while the table is busy (a claim being checked), its steps
    are taken first until ``end`` is legal (or the game ends by itself), so a
    match at its tick limit always ends. ``record(step)`` sees each step.
    """
    for _ in range(1000):
        if game.is_over(state):
            break
        table = game.legal_action_ids(state, None)
        if not table:
            break
        step = END if END in table else table[0]
        state, _ = game.apply(state, None, step)
        if record is not None:
            record(step)
    return state


def replay(
    game: Game, config: dict[str, Any], seed: int, log: Sequence[Sequence[Any]]
) -> State:
    """The final state of a match rebuilt from its seed and applied-intent log."""
    state = game.setup(config, seed)
    for _tick, seat, aid in log:
        state, _ = game.apply(state, seat, aid)
    return state
