"""Kung Fu (2019): simultaneous commits give one state whatever order they come in.

The platform applies the choices of seats choosing at once as they arrive
(people when ready, built-in bots of a round as each finishes thinking), so
docs/engine.md asks this of an engine with simultaneous choices: a seat's menu
does not change with the others' hidden commits, and the state after every
seat of the round has chosen is the same for every order.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from gameplay.rules import get_game

ENGINE = get_game("kungfu2019")


def _orders(actors: list[int]) -> list[tuple[int, ...]]:
    if len(actors) <= 3:
        return list(itertools.permutations(actors))
    return [tuple(actors), tuple(reversed(actors)), tuple(actors[1:] + actors[:1])]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_order_of_a_rounds_commits_gives_one_state(players: int) -> None:
    rnd = random.Random(players)
    rounds = 0
    for seed in range(3):
        state = ENGINE.setup(ENGINE.validate_config({"players": players}), seed)
        while not ENGINE.is_over(state):
            actors = ENGINE.actors(state)
            menus = {seat: ENGINE.legal_action_ids(state, seat) for seat in actors}
            choice = {seat: rnd.choice(menus[seat]) for seat in actors}
            outcomes = set()
            for order in _orders(actors):
                after = state
                for seat in order:
                    assert ENGINE.legal_action_ids(after, seat) == menus[seat]
                    after, _ = ENGINE.apply(after, seat, choice[seat])
                outcomes.add(json.dumps(after, sort_keys=True))
            assert len(outcomes) == 1, f"round at {actors} depends on the order"
            rounds += len(actors) > 1
            state = json.loads(outcomes.pop())
    assert rounds > 20
