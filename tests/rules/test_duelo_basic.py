"""Smoke tests of the engine contract on Duelo: setup, a full playout, errors."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.rules import (
    GameError,
    IllegalAction,
    InvalidConfig,
    available_games,
    get_game,
)

GAME = get_game("duelo")


def test_registry_lists_duelo_and_rejects_unknown_ids() -> None:
    assert "duelo" in available_games()
    assert get_game("duelo") is GAME
    with pytest.raises(GameError, match="unknown game 'chess'"):
        get_game("chess")


def test_metadata() -> None:
    assert (GAME.id, GAME.min_players, GAME.max_players) == ("duelo", 2, 8)
    assert GAME.name == "Duelo: Kung Fu"
    assert GAME.rules_version


def test_setup_deals_two_cards_each_and_sets_one_aside() -> None:
    state = GAME.setup({"players": 3, "start": 1}, seed=7)
    assert state["rules_version"] == GAME.rules_version
    assert "rng" in state
    # Seat 1 starts and has already drawn its turn card.
    assert GAME.actors(state) == [1]
    assert [len(h) for h in state["hands"]] == [2, 3, 2]
    assert len(state["aside"]) == 1
    assert len(state["deck"]) == 24 - 1 - 6 - 1
    assert json.loads(json.dumps(state)) == state


def test_random_playout_ends_with_a_result() -> None:
    rnd = random.Random(3)
    state = GAME.setup({"players": 4}, seed=3)
    steps = 0
    while not GAME.is_over(state):
        (seat,) = GAME.actors(state)
        actions = GAME.legal_actions(state, seat)
        assert actions and all(a["label"] for a in actions)
        state, _events = GAME.apply(state, seat, rnd.choice(actions)["id"])
        steps += 1
        assert steps < 2000
    result = GAME.result(state)
    assert result is not None and result["winners"]
    assert len(result["placements"]) == 4
    assert GAME.actors(state) == []


def test_invalid_config_messages() -> None:
    with pytest.raises(InvalidConfig, match="unknown option"):
        GAME.validate_config({"players": 2, "colour": "red"})
    with pytest.raises(InvalidConfig, match="players must be"):
        GAME.validate_config({"players": 9})
    with pytest.raises(InvalidConfig, match="rounds"):
        GAME.validate_config({"rounds": 0})


def test_wrong_seat_is_refused_and_state_unchanged() -> None:
    state = GAME.setup({"players": 2, "start": 0}, seed=1)
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction, match="may not act now"):
        GAME.apply(state, 1, GAME.legal_action_ids(state, 0)[0])
    assert json.dumps(state, sort_keys=True) == before
