"""Exact action values of small positions, to check the analysis against.

Game-agnostic and pure Python. For the deciding seat's information set the
consistent deals are *enumerated* through the engine's ``determinize``: every
engine shuffles the sorted pool of hidden cards uniformly, so each consistent
deal is equally likely, and drawing ``samples`` of them and keeping the
distinct ones finds every deal of a small pool (the caller checks that the
count stopped growing: ``exhaustive``). Each deal is then solved to the end of
the game by max^n search (every seat maximises its own win share, a shared win
of k counting 1/k; ties keep the first action in menu order), and an action's
value is its mean over the deals.

This is the "perfect information after the deal" value: in each deal the
players play on knowing every card. In the endgames used for checking (a few
plies from the end) that is what is left to decide; on longer positions it is
an optimistic yardstick, which is why the checks use only short ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from gameplay.rules.base import Game, State


class TooDeep(Exception):
    """The position needs more plies than the solver was allowed."""


@dataclass(frozen=True)
class ExactValues:
    values: dict[str, float]  # action id -> mean win share for the seat
    deals: int  # distinct consistent deals found
    exhaustive: bool  # the last half of the samples found no new deal

    @property
    def best(self) -> str:
        return max(self.values, key=lambda a: self.values[a])


def _shares(game: Game, state: State) -> dict[int, float]:
    result = game.result(state)
    assert result is not None
    winners = result["winners"]
    share = 1.0 / len(winners) if winners else 0.0
    return dict.fromkeys(winners, share)


def solve(game: Game, state: State, depth: int) -> dict[int, float]:
    """Max^n value of a full state (every seat's win share); raises TooDeep."""
    if game.is_over(state):
        return _shares(game, state)
    if depth <= 0:
        raise TooDeep
    seat = game.actors(state)[0]
    best: dict[int, float] | None = None
    for aid in game.legal_action_ids(state, seat):
        nxt, _ = game.apply(state, seat, aid)
        value = solve(game, nxt, depth - 1)
        if best is None or value.get(seat, 0.0) > best.get(seat, 0.0):
            best = value
    assert best is not None
    return best


def exact_values(
    *,
    game: Game,
    state: State,
    seat: int,
    depth: int = 8,
    samples: int = 400,
) -> ExactValues:
    """Each legal action's exact value for ``seat`` over every consistent deal."""
    deals: dict[str, State] = {}
    last_new = 0
    for k in range(samples):
        sample = game.determinize(state, seat, k + 1)
        key = json.dumps(sample, sort_keys=True)
        if key not in deals:
            deals[key] = sample
            last_new = k
    ids = game.legal_action_ids(state, seat)
    totals = dict.fromkeys(ids, 0.0)
    for sample in deals.values():
        for aid in ids:
            nxt, _ = game.apply(sample, seat, aid)
            totals[aid] += solve(game, nxt, depth - 1).get(seat, 0.0)
    n = len(deals)
    return ExactValues(
        values={aid: total / n for aid, total in totals.items()},
        deals=n,
        exhaustive=last_new < samples // 2,
    )


def endgame_positions(
    *,
    game: Game,
    seeds: range,
    depth: int = 6,
    players: int = 2,
    last: int = 6,
    config: dict[str, Any] | None = None,
    bots: tuple[str, str] = ("heuristic", "random"),
) -> list[tuple[int, State, int]]:
    """Decisions with a real choice among the last ``last`` of seeded games
    (``bots`` alternating by seat: the heuristic against random play unless
    told) whose rest is at most ``depth`` plies: ``(seed, state, seat)``, one
    per game (the earliest such decision). ``config``: the table options
    (default ``{"players": players}``), e.g. a short game of Kung Fu (2013)."""
    from gameplay.rules.bots import decision_context, get_bot

    playing = [get_bot(name) for name in bots]
    found = []
    for seed in seeds:
        state = game.setup(config or {"players": players}, seed)
        history: list[tuple[State, int]] = []
        step = 0
        while not game.is_over(state):
            seat = game.actors(state)[0]
            history.append((state, seat))
            ctx = decision_context(game, state, seat, seed * 1000 + step)
            state, _ = game.apply(state, seat, playing[seat % 2].choose(ctx))
            step += 1
        for state, seat in history[-last:]:
            if len(game.legal_action_ids(state, seat)) < 2:
                continue
            try:
                solve(game, state, depth)
            except TooDeep:
                continue
            found.append((seed, state, seat))
            break
    return found
