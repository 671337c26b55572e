"""Shared helpers for the built-in bot tests: playing seeded games, crafting spots."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from gameplay.rules import get_game
from gameplay.rules.bots import DecisionContext, decision_context

GAME = get_game("duelo")


def decision_points(
    players: int,
    seed: int,
    chooser: Callable[[DecisionContext], str],
) -> Iterator[tuple[dict[str, Any], int, DecisionContext, str]]:
    """Play one seeded game with ``chooser`` in every seat; yield each decision.

    Yields (state, seat, context, chosen id) at every decision with more than one
    legal action, before the choice is applied.
    """
    state = GAME.setup({"players": players}, seed)
    step = 0
    while not GAME.is_over(state):
        (seat,) = GAME.actors(state)
        ids = GAME.legal_action_ids(state, seat)
        if len(ids) > 1:
            ctx = decision_context(GAME, state, seat, seed * 1000 + step)
            aid = chooser(ctx)
            yield state, seat, ctx, aid
        else:
            aid = ids[0]
        state, _ = GAME.apply(state, seat, aid)
        step += 1
        assert step < 5000, "game did not end"


def make_state(
    hands: list[str],
    deck_top_first: str,
    *,
    turn: int = 0,
    discard: str = "",
    aside: str = "1",
) -> dict[str, Any]:
    """A position where seat ``turn`` has drawn and must choose a card."""
    state = GAME.setup({"players": len(hands), "start": turn}, seed=0)
    state["hands"] = list(hands)
    state["deck"] = deck_top_first[::-1]
    state["aside"] = aside
    state["discard"] = discard
    state["turn"] = turn
    state["actor"] = turn
    state["phase"] = "card"
    state["ctx"] = {}
    return state


def drive(state: dict[str, Any], *ids: str) -> dict[str, Any]:
    """Apply ``ids`` in order, each by whoever must act."""
    for aid in ids:
        (seat,) = GAME.actors(state)
        state, _ = GAME.apply(state, seat, aid)
    return state
