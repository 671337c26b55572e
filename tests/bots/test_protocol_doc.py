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


def _section(title: str, *, until: str = "\n## ") -> str:
    text = DOC.read_text()
    start = text.index(title)
    end = text.find(until, start + len(title))
    return text[start : end if end >= 0 else len(text)]


class _FakeProcess:
    """Stands in for a bot process: keeps the request, answers ``pass``."""

    bank_left = 10.0

    def __init__(self) -> None:
        self.sent: list[dict] = []

    def request(self, message: dict) -> dict:
        self.sent.append(message)
        return {"action": message["legal"][0]["id"]}


def test_a_real_time_act_has_the_documented_fields():
    from bots.protocol.match import ProcessAgent

    game = get_game("kungfu2009")
    config = game.validate_config({"players": 4})
    state = game.setup(config, 3)
    agent = ProcessAgent(".", seat=1, label="doc")
    agent.process = _FakeProcess()
    refused = [
        {
            "tick": 4,
            "action": "accept:2",
            "code": "offer_withdrawn",
            "params": {"offer": 2, "player": 2},
            "reason": "offer 2 is not open (withdrawn by seat 2)",
        }
    ]
    assert agent.decide(game, state, 1, [], 0, tick=5, refused=refused) == "pass"
    [message] = agent.process.sent
    cells = re.findall(
        r"^\| ((?:`\w+`(?:, )?)+) \|", _section("### `act`", until="\n#"), flags=re.M
    )
    rows = {name for cell in cells for name in re.findall(r"`(\w+)`", cell)}
    assert set(message) == {"type", *rows}
    assert message["tick"] == 5 and message["refused"] == refused
    assert message["legal"][0]["id"] == "pass"
    assert message["actors"] == [0, 1, 2, 3]


def test_the_kungfu2009_section_names_every_intent_the_engine_offers():
    from gameplay.rules import ticks
    from gameplay.rules.kungfu2009.strategies import STRATEGIES

    game = get_game("kungfu2009")
    heads = set()
    for seed, config in ((1, {"players": 4}), (2, {"players": 5, "severe": True})):
        clean = game.validate_config(config)
        names = ["trader", "greedy", "planner", "trader", "greedy"]
        bots = [STRATEGIES[names[s]]() for s in range(clean["players"])]

        class Spy:
            def __init__(self, bot):
                self.bot = bot

            def choose(self, ctx):
                heads.update(a.split(":")[0] for a in ctx.legal_ids)
                return self.bot.choose(ctx)

        ticks.run(game, game.setup(clean, seed), [Spy(b) for b in bots], seed)
    section = _section("### Kung Fu (2009)")
    documented = set(re.findall(r"`([a-z]+)(?::<\w+>)*`", section))
    assert heads <= documented, heads - documented
    assert {"pass", "claim", "accept", "move", "to"} <= heads
