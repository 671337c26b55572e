"""The heuristic bot: a hand-written strategy per game, chosen by the game id.

Each game's strategy lives in its own package (named by ``META.heuristic``), a
module exposing ``choose(ctx, rng) -> action id``; this bot only dispatches.
Strategies are loaded lazily so a game without one costs nothing until a
heuristic seat is asked to play it, and then fails with a message naming the
games that are supported.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable

from gameplay.rules import GameError, available_games, game_meta
from gameplay.rules.bots.base import DecisionContext, check_options, make_rng

Strategy = Callable[[DecisionContext, random.Random], str]


def _strategy_module(game_id: str) -> str | None:
    """The module holding ``choose`` for ``game_id``, named by the game's META."""
    try:
        return game_meta(game_id).heuristic
    except GameError:
        return None


def strategy_for(game_id: str) -> Strategy:
    """The heuristic strategy for ``game_id``, or ValueError naming the known games."""
    module = _strategy_module(game_id)
    if module is None:
        known = [g for g in available_games() if _strategy_module(g)]
        raise ValueError(
            f"the heuristic bot has no strategy for game {game_id!r}; "
            f"it knows: {', '.join(known)}"
        )
    choose: Strategy = importlib.import_module(module).choose
    return choose


class HeuristicBot:
    """Plays the per-game heuristic strategy; deterministic given ``ctx.seed``."""

    name = "heuristic"

    def __init__(self, **options: object) -> None:
        check_options(self.name, options, {})

    def choose(self, ctx: DecisionContext) -> str:
        action = strategy_for(ctx.game.id)(ctx, make_rng(ctx.seed))
        if action not in ctx.legal_ids:
            # A strategy bug must never turn into an illegal move at the table.
            return ctx.legal_ids[0]
        return action
