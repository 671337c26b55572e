"""The game registry: launched games versus games whose engine is in development."""

from __future__ import annotations

import pytest

import gameplay.rules as rules
from gameplay.rules import GameError, available_games, engine_games, get_game


def test_launched_games_are_a_subset_of_engine_games() -> None:
    assert set(available_games()) <= set(engine_games())
    assert available_games() == sorted(available_games())


def test_in_development_game_has_an_engine_but_is_not_offered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(rules._IN_DEVELOPMENT, "duelo_preview", "gameplay.rules.duelo")
    monkeypatch.setattr(rules, "_INSTANCES", {})
    assert "duelo_preview" in engine_games()
    assert "duelo_preview" not in available_games()
    assert get_game("duelo_preview").setup({"players": 2}, seed=1) is not None


def test_unknown_game_names_the_available_ones() -> None:
    with pytest.raises(GameError, match="available games"):
        get_game("no-such-game")


def test_the_games_on_offer() -> None:
    """Launched: all four (the real-time 2009 game since live tables apply its
    table steps and timers); nothing is left in development."""
    assert available_games() == ["duelo", "kungfu2009", "kungfu2013", "kungfu2019"]
    assert engine_games() == available_games()
