"""A timer-quiet step leaves the server's timers as they were (Kung Fu (2009)).

The engine names ``timer_quiet_events`` (rearranging a hand): after a step
made only of them, ``timers`` gives the same timers and each timer's action
is as legal as before, so the live owner keeps the match's timers and the
due time it armed without working them out again (``gameplay.live.owner``;
docs/engine.md). Checked over seeded random games at every seat and step,
through offers, trades, claims and pauses, with each table's offers and
drafts open while hands are rearranged.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gameplay.rules.kungfu2009 import KungFu2009Game
from tests.rules.kungfu2009_helpers import GAME, random_seat_steps

assert isinstance(GAME, KungFu2009Game)
QUIET = KungFu2009Game.timer_quiet_events


def _timers(state: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Every timer with whether its action is legal now."""
    return [
        (
            t["key"],
            t["seat"],
            t["action"],
            t["delay"],
            t["action"] in GAME.legal_action_ids(state, t["seat"]),
        )
        for t in GAME.timers(state)
    ]


@pytest.mark.parametrize("players,seed", [(3, 1), (5, 2), (8, 3), (8, 4)])
def test_a_timer_quiet_step_leaves_the_timers_as_they_were(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    start = GAME.setup({"players": players, "minutes": 30}, seed)
    quiet = with_timers = 0
    for state, _seat, after, events in random_seat_steps(start, rng, 800):
        if events and all(e["type"] in QUIET for e in events):
            quiet += 1
            before = _timers(state)
            with_timers += len(before) > 1  # more than the match's end
            assert _timers(after) == before, events
    # The property was put to the test, with offers or drafts running.
    assert quiet >= 50 and with_timers >= 10, (quiet, with_timers)
