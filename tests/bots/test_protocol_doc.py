"""docs/protocol/bots.md's example exchange matches what the player sends."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bots.protocol.match import MatchPlayer, local_result
from gameplay.rules import get_game

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol" / "bots.md"


def documented_messages() -> list[dict]:
    blocks = re.findall(r"```json\n(.*?)\n```", DOC.read_text(), flags=re.S)
    return [json.loads(block) for block in blocks]


def test_documented_hello_is_what_the_player_sends():
    hello = documented_messages()[0]
    game = get_game("duelo")
    config = game.validate_config({"players": 2})
    player = MatchPlayer(
        game=game,
        state=game.setup(config, 42),
        agents={0: None, 1: None},
        host=None,
        config=config,
    )
    player.agents = {0: object(), 1: object()}
    assert player.hello(0) == hello


def test_documented_messages_have_the_documented_shapes():
    messages = documented_messages()
    kinds = [m.get("type") for m in messages]
    assert kinds[0] == "hello" and kinds[-1] == "game_over"
    answers = [m for m in messages if "type" not in m]
    assert answers[0] == {"ready": True}
    assert all(set(a) == {"action"} for a in answers[1:])
    for message in messages:
        if message.get("type") == "act":
            assert set(message) == {
                "type",
                "step",
                "version",
                "actors",
                "observation",
                "events",
                "legal",
                "deadline_ms",
                "per_move_ms",
                "bank_ms",
            }
            assert all({"id", "label"} <= set(action) for action in message["legal"])
    over = messages[-1]
    assert set(over["result"]) == {"placements", "winners", "forfeited"}


def test_local_result_places_forfeits_last_like_the_services():
    game = get_game("duelo")
    state = game.setup(game.validate_config({"players": 3}), 1)
    result = local_result(game, state, players=3, forfeited={1})
    assert result["placements"] == [1, 3, 1]
    assert result["winners"] == [0, 2]
