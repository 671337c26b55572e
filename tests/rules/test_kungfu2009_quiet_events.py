"""A quiet step changes nothing another seat sees (Kung Fu (2009)).

The engine names ``quiet_events`` (rearranging a hand, building an offer):
a seat's own move made only of them, their private parts the mover's own,
changes nothing another seat or a spectator sees, and a live table then
builds and sends no frame for the other seats (``broadcast.match_messages``;
docs/engine.md). Over seeded random games (every seat, every step, through
offers, trades, claims and pauses), every such step leaves each other seat's
observation, menu and timers, and the spectators' observation, as they were.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gameplay.rules.kungfu2009 import KungFu2009Game
from tests.rules.kungfu2009_helpers import GAME

assert isinstance(GAME, KungFu2009Game)
QUIET = KungFu2009Game.quiet_events


def _seen(state: dict[str, Any], seat: int | None) -> tuple[Any, ...]:
    """What ``seat`` (None: a spectator) is shown of ``state``."""
    timers = [
        (t["key"], t["action"], t["seat"], t["delay"])
        for t in GAME.timers(state)
        if t["seat"] is None or t["seat"] == seat
    ]
    menu = GAME.legal_actions(state, seat) if seat is not None else []
    return GAME.observe(state, seat), menu, GAME.actors(state), timers


@pytest.mark.parametrize("players,seed", [(3, 1), (5, 2), (8, 3), (8, 4)])
def test_a_quiet_step_changes_nothing_the_others_see(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.setup({"players": players}, seed)
    quiet = kinds = 0
    for _ in range(600):
        if GAME.is_over(state):
            break
        actors = GAME.actors(state)
        if not actors:  # a claim's pause: the table's check
            ids = GAME.legal_action_ids(state, None)
            if ids:
                state, _ = GAME.apply(state, None, rng.choice(ids))
            continue
        seat = rng.choice(actors)
        ids = [a for a in GAME.legal_action_ids(state, seat) if a != "pass"]
        if not ids:
            continue
        after, events = GAME.apply(state, seat, rng.choice(ids))
        if events and all(
            e["type"] in QUIET and set(e["private"]) <= {str(seat)} for e in events
        ):
            quiet += 1
            kinds |= 1 << sorted(QUIET).index(events[0]["type"])
            for other in [None, *range(players)]:
                if other != seat:
                    assert _seen(after, other) == _seen(state, other), (seat, other)
        state = after
    assert quiet > 50 and kinds == 3, "both kinds of quiet step were played"
