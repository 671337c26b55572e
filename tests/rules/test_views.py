"""Observations built from reused views (gameplay.rules.views, issue 33).

The engines keep views of unchanged state parts between calls to ``observe``;
these tests check that the reuse never shows anything but what a fresh build
would: the same observation for a state and for a JSON copy of it (new
objects, so no view can be reused), in any order of states and seats, and
unchanged when a caller appends to the lists of an earlier observation.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gameplay.rules import available_games, get_game
from gameplay.rules.views import LastView, PileViews


def test_pile_views_build_once_and_start_again_past_the_limit() -> None:
    built: list[str] = []

    def build(key: str) -> tuple[int, ...]:
        built.append(key)
        return tuple(map(int, key))

    views: PileViews[str, tuple[int, ...]] = PileViews(build, limit=2)
    assert views["12"] == (1, 2)
    assert views["12"] is views["12"]
    assert built == ["12"]
    views["3"]
    views["4"]  # a third key: the cache started again from empty
    assert len(views) == 1
    assert views["12"] == (1, 2)
    assert built == ["12", "3", "4", "12"]


def test_last_view_follows_the_object_not_its_value() -> None:
    calls: list[list[int]] = []

    def build(part: list[int]) -> int:
        calls.append(part)
        return sum(part)

    memo: LastView[list[int], int] = LastView(build)
    part = [1, 2]
    assert memo(part) == 3
    assert memo(part) == 3
    assert len(calls) == 1
    equal = [1, 2]  # equal but another object: built again
    assert memo(equal) == 3
    assert len(calls) == 2


def _states(game_id: str, seed: int) -> list[Any]:
    game = get_game(game_id)
    rnd = random.Random(seed)
    out = []
    for g in range(3):
        players = rnd.randint(game.min_players, game.max_players)
        state = game.setup({"players": players}, seed * 10 + g)
        for _ in range(400):
            out.append(state)
            who = game.actors(state)
            if not who:
                if game.is_over(state) or not game.legal_action_ids(state, None):
                    break
                seat = None
            else:
                seat = who[int(rnd.random() * len(who))]
            ids = game.legal_action_ids(state, seat)
            state, _ = game.apply(state, seat, ids[int(rnd.random() * len(ids))])
    return out


@pytest.mark.parametrize("game_id", available_games())
def test_observation_is_what_a_fresh_build_shows(game_id: str) -> None:
    game = get_game(game_id)
    states = _states(game_id, 7)
    rnd = random.Random(8)
    rnd.shuffle(states)  # views made for one game and step, asked for another
    for state in states:
        copy = json.loads(json.dumps(state))
        players = game.observe(state, None)["players"]
        for seat in [None, *range(players)]:
            obs = game.observe(state, seat)
            assert obs == game.observe(copy, seat), (game_id, seat)
            assert json.loads(json.dumps(obs)) == obs


@pytest.mark.parametrize("game_id", available_games())
def test_editing_an_observations_lists_changes_no_later_one(game_id: str) -> None:
    game = get_game(game_id)
    states = _states(game_id, 9)
    # Every fifth state and the last few (a Duelo game shows finished rounds
    # only near its end, a finished game its result).
    for state in states[::5] + states[-3:]:
        seat = 0
        first = game.observe(state, seat)
        expected = json.loads(json.dumps(first))

        def scribble(value: Any) -> None:
            # The lists of an observation are its own (the dicts inside them
            # may be shared read-only views: docs/engine.md, "Observations").
            if isinstance(value, list):
                for item in value:
                    scribble(item)
                value.append("scribbled")

        for value in first.values():
            scribble(value)
        assert game.observe(state, seat) == expected


@pytest.mark.parametrize("game_id", available_games())
def test_observations_in_play_order_are_what_a_fresh_build_shows(
    game_id: str,
) -> None:
    """Engines may memo a view while the state's parts are the same objects
    (Duelo's seats while its copy-on-write per-seat lists are unchanged): in
    play order, each step's observations hit such memos, and must still show
    exactly what a fresh build from a JSON copy shows."""
    game = get_game(game_id)
    states = _states(game_id, 11)
    seen = []
    for state in states:
        players = game.observe(state, None)["players"]
        for seat in [None, *range(players)]:
            seen.append((state, seat, json.dumps(game.observe(state, seat))))
    for state, seat, shown in seen:
        fresh = game.observe(json.loads(json.dumps(state)), seat)
        assert json.loads(shown) == fresh, (game_id, seat)
