"""The live store writes states and events as orjson text: it must be the JSON
the standard encoder wrote (same values after a round trip), for every game."""

from __future__ import annotations

import json
import random

import pytest

from gameplay.live.store import _dumps
from gameplay.rules import available_games, get_game


@pytest.mark.parametrize("game_id", available_games())
def test_store_json_is_the_standard_encoders_json(game_id: str) -> None:
    engine = get_game(game_id)
    config = engine.validate_config({})
    rng = random.Random(7)
    state = engine.setup(config, 1234)
    for _ in range(60):
        assert json.loads(_dumps(state)) == json.loads(json.dumps(state))
        actors = engine.actors(state)
        if engine.is_over(state) or not actors:
            break
        seat = rng.choice(actors)
        ids = engine.legal_action_ids(state, seat)
        if not ids:
            break
        state, events = engine.apply(state, seat, rng.choice(ids))
        assert json.loads(_dumps(events)) == json.loads(json.dumps(events))
    assert _dumps({1: "a"}) == json.dumps({1: "a"}, separators=(",", ":"))
