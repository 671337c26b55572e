"""The virtual clock (gameplay/rules/ticks.py) driving Kung Fu (2009) bot matches.

Scripted bots play fixed intents, so each test states the tick order rule: every
bot decides from the tick's state, intents arrive in seat order rotated by the
tick number, stale ones are refused, the table checks claims, a replay of the log
rebuilds the match.
"""

from __future__ import annotations

from gameplay.rules import ticks
from gameplay.rules.bots import DecisionContext
from gameplay.rules.simulate import play_game
from tests.rules.kungfu2009_helpers import GAME, make_state

UP = {"easy": "E01", "normal": "N01", "difficult": "D01"}


class Script:
    """Plays the listed intents, one per tick it is asked, then passes."""

    name = "script"

    def __init__(self, *intents: str) -> None:
        self.intents = list(intents)
        self.seen: list[dict] = []

    def choose(self, ctx: DecisionContext) -> str:
        self.seen.append(ctx.observation)
        return self.intents.pop(0) if self.intents else "pass"


def test_tick_order_rotates_with_the_tick_number() -> None:
    assert ticks.tick_order([0, 1, 2, 3], 0, 4) == [0, 1, 2, 3]
    assert ticks.tick_order([0, 1, 2, 3], 1, 4) == [1, 2, 3, 0]
    assert ticks.tick_order([0, 2, 3], 5, 4) == [2, 3, 0]


def test_two_claims_in_one_tick_the_rotation_decides_who_was_first() -> None:
    # Seats 0 and 1 can both make E01 (TTTM); at tick 1 seat 1 arrives first.
    hands = ["TTTMC", "TTTMR", "CCCCC", "RRRRR"]
    bots = [Script("pass", "claim:easy"), Script("pass", "claim:easy")]
    bots += [Script(), Script()]
    s = make_state(hands, up=UP, deck="M" * 20)
    m = ticks.run(GAME, s, bots, seed=7, max_ticks=4)
    assert m.log[:4] == [
        (1, 1, "claim:easy"),
        (1, 0, "claim:easy"),
        (2, None, "check"),
        (3, None, "check"),
    ]
    assert m.state["won"][1] == ["E01"] and m.state["won"][0] == []
    assert m.state["hands"][0] == "TTTMC"  # void, its cards back in hand
    assert m.log[-1] == (4, None, "end")


def test_an_intent_arriving_after_a_claim_in_the_same_tick_is_refused() -> None:
    s = make_state(["TTTMC", "MMCRR", "CCCCC", "RRRRR"], up=UP, deck="M" * 20)
    bots = [Script("to:1", "give:C", "send", "claim:easy"), Script()]
    bots += [Script(), Script("pass", "pass", "pass", "impasse")]
    m = ticks.run(GAME, s, bots, seed=1, max_ticks=6)
    # Tick 3 starts at seat 3: its vote arrives before seat 0's claim.
    assert (3, 3, "impasse") in m.log and (3, 0, "claim:easy") in m.log
    s = make_state(["TTTMC", "MMCRR", "CCCCC", "RRRRR"], up=UP, deck="M" * 20)
    bots = [Script("claim:easy"), Script("impasse"), Script(), Script()]
    m = ticks.run(GAME, s, bots, seed=1, max_ticks=3)
    assert m.log[0] == (0, 0, "claim:easy")
    ((tick, seat, aid, why),) = m.refused
    assert (tick, seat, aid) == (0, 1, "impasse") and "paused" in why
    assert m.passes > 0 and all(a != "pass" for _, _, a in m.log)


def test_every_bot_decides_from_the_state_at_the_start_of_the_tick() -> None:
    s = make_state(["TTTMC", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    seat0, seat1 = Script("to:1"), Script()
    ticks.run(GAME, s, [seat0, seat1, Script(), Script()], seed=1, max_ticks=1)
    # Seat 1 was asked in tick 0 from the same state as seat 0, before its draft.
    assert seat1.seen[0]["offers"] == [] and seat0.seen[0]["draft"] is None


def test_bot_matches_are_deterministic_and_end_at_the_time_limit() -> None:
    from gameplay.rules.kungfu2009.strategies import STRATEGIES

    def bots() -> list:
        return [STRATEGIES[n]() for n in ("planner", "greedy", "trader", "planner")]

    a = ticks.run(GAME, GAME.setup({"players": 4}, 3), bots(), seed=3, max_ticks=60)
    b = ticks.run(GAME, GAME.setup({"players": 4}, 3), bots(), seed=3, max_ticks=60)
    assert a.log == b.log and a.state == b.state
    result = GAME.result(a.state)
    assert result is not None and result["reason"] in ("time", "pile_completed")
    assert ticks.replay(GAME, {"players": 4}, 3, a.log) == a.state


def test_the_simulator_plays_real_time_games_on_the_virtual_clock() -> None:
    rec = play_game("kungfu2009", 4, ["heuristic"] * 4, {}, game_seed=11)
    assert rec["winners"] and rec["steps"] > 0


def test_ismcts_refuses_real_time_games_clearly() -> None:
    import pytest

    from gameplay.rules.bots import decision_context, get_bot

    s = GAME.setup({"players": 4}, 1)
    with pytest.raises(ValueError, match="real-time"):
        get_bot("ismcts", iterations=5).choose(decision_context(GAME, s, 0, 1))
