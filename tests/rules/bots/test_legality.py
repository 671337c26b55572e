"""Every bot answers every decision point with a legal id, at 2-8 players."""

from __future__ import annotations

import pytest

from gameplay.rules.bots import get_bot
from gameplay.rules.duelo import heuristic as duelo_heuristic

from .helpers import decision_points

PLAYERS = range(2, 9)


@pytest.mark.parametrize("players", PLAYERS)
def test_random_and_heuristic_only_choose_legal_ids(players: int) -> None:
    rnd = get_bot("random")
    heur = get_bot("heuristic")
    phases: set[str] = set()
    for seed in range(40):
        bot = heur if seed % 2 else rnd
        for _state, _seat, ctx, aid in decision_points(players, seed, bot.choose):
            assert aid in ctx.legal_ids
            # The strategy itself, not only the bot's safety net, must be legal.
            raw = duelo_heuristic.choose(ctx, None)  # type: ignore[arg-type]
            assert raw in ctx.legal_ids, (ctx.observation["phase"], raw)
            phases.add(ctx.observation["phase"])
    # The games reached the core decision points (the test is not vacuous).
    # With two players the duel target is forced, so it is never a real choice.
    expected = {"card", "face", "answer"} | ({"target"} if players > 2 else set())
    assert expected <= phases


def test_heuristic_visits_every_decision_point_type() -> None:
    rnd = get_bot("random")
    phases: set[str] = set()
    for seed in range(300):
        players = 2 + seed % 7

        def mixed(ctx, seed=seed):
            if (ctx.seat + seed) % 2:
                return rnd.choose(ctx)
            raw = duelo_heuristic.choose(ctx, None)
            assert raw in ctx.legal_ids
            phases.add(ctx.observation["phase"])
            return raw

        for _ in decision_points(players, seed, mixed):
            pass
    assert phases >= {
        "card",
        "face",
        "target",
        "answer",
        "c_disciple",
        "c_monkey",
        "dragon_draw",
        "u_disciple",
        "drunk_put",
        "snake_target",
        "snake_separate",
        "snake_guess",
        "monkey_a",
        "monkey_b",
        "tiger_target",
        "dragon_peek",
    }


@pytest.mark.parametrize(
    "players",
    # The search's cost grows with the table: the smallest, the first with a
    # duel target to choose and the largest in the default suite, the sizes
    # between with the slow set (the two tests above cover every size).
    [p if p in (2, 3, 8) else pytest.param(p, marks=pytest.mark.slow) for p in PLAYERS],
)
def test_ismcts_only_chooses_legal_ids(players: int) -> None:
    bot = get_bot("ismcts", iterations=6)
    count = 0
    for seed in range(2):
        for _state, _seat, ctx, aid in decision_points(players, seed, bot.choose):
            assert aid in ctx.legal_ids
            count += 1
    assert count > 10


def test_ismcts_variants_and_time_budget_choose_legal_ids() -> None:
    bots = [
        get_bot("ismcts", iterations=20, variant="so", opponent_model="search"),
        get_bot("ismcts", iterations=20, opponent_model="search", heuristic_plies=0),
        get_bot("ismcts", iterations=None, time_limit=0.005),
    ]
    for bot in bots:
        for _state, _seat, ctx, aid in decision_points(3, 4, bot.choose):
            assert aid in ctx.legal_ids
