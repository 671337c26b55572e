"""The bot interface the live-play services and the bot ladder rely on."""

from __future__ import annotations

import dataclasses

import pytest

from gameplay.rules.bots import (
    BOT_STRENGTHS,
    DecisionContext,
    available_bots,
    decision_context,
    get_bot,
)

from .helpers import GAME


def test_available_bots_and_strength_labels() -> None:
    assert available_bots() == ["heuristic", "ismcts", "random"]
    assert set(BOT_STRENGTHS) == set(available_bots())
    assert BOT_STRENGTHS["random"] == "Beginner"
    assert BOT_STRENGTHS["ismcts"] == "Strong"


@pytest.mark.parametrize("name", ["minimax", "", None, "Random"])
def test_unknown_bot_name_is_a_clear_value_error(name: object) -> None:
    with pytest.raises(ValueError, match=r"unknown bot .*available bots: heuristic"):
        get_bot(name)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("random", {"depth": 3}, "unknown option.*'random': depth; allowed: none"),
        ("heuristic", {"iterations": 3}, "unknown option"),
        (
            "ismcts",
            {"iteration": 3},
            "allowed: exploration, heuristic_margin, heuristic_plies, iterations",
        ),
        ("ismcts", {"iterations": "many"}, "iterations must be int"),
        ("ismcts", {"iterations": True}, "iterations must be a number"),
        ("ismcts", {"iterations": 0}, "iterations must be >= 1"),
        ("ismcts", {"time_limit": -1}, "time_limit must be > 0"),
        ("ismcts", {"iterations": None}, "needs iterations, time_limit or both"),
        ("ismcts", {"variant": "xo"}, "variant must be 'mo' or 'so'"),
        ("ismcts", {"opponent_model": "x"}, "opponent_model must be 'heuristic'"),
        ("ismcts", {"heuristic_plies": -1}, "heuristic_plies must be >= 0"),
        ("ismcts", {"opponent_noise": 1.5}, "opponent_noise must be from 0 to 1"),
    ],
)
def test_bad_options_are_clear_value_errors(
    name: str, options: dict, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        get_bot(name, **options)


def test_decision_context_holds_exactly_the_seat_view() -> None:
    state = GAME.setup({"players": 3, "start": 1}, seed=5)
    ctx = decision_context(GAME, state, 1, seed=42)
    assert isinstance(ctx, DecisionContext)
    assert {f.name for f in dataclasses.fields(ctx)} == {
        "game",
        "seat",
        "observation",
        "legal_actions",
        "sample_state",
        "seed",
    }
    assert ctx.observation == GAME.observe(state, 1)
    assert ctx.legal_actions == GAME.legal_actions(state, 1)
    assert ctx.legal_ids == GAME.legal_action_ids(state, 1)
    sample = ctx.sample_state(3)
    assert GAME.observe(sample, 1) == ctx.observation
    assert ctx.sample_state(3) == sample
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctx.seed = 1  # type: ignore[misc]


def test_decision_context_refuses_a_seat_without_a_decision() -> None:
    state = GAME.setup({"players": 3, "start": 1}, seed=5)
    with pytest.raises(ValueError, match="seat 0 has no decision"):
        decision_context(GAME, state, 0, seed=1)
    with pytest.raises(ValueError, match="seed must be an integer"):
        decision_context(GAME, state, 1, seed="1")  # type: ignore[arg-type]


def test_heuristic_names_the_games_it_knows() -> None:
    class OtherGame:
        id = "no-such-game"  # no engine, so no strategy

    state = GAME.setup({"players": 2, "start": 0}, seed=1)
    ctx = decision_context(GAME, state, 0, seed=1)
    alien = dataclasses.replace(ctx, game=OtherGame())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"no strategy for game 'no-such-game'.*duelo"):
        get_bot("heuristic").choose(alien)
