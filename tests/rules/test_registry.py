"""The game registry: the games on offer, each one package."""

from __future__ import annotations

import pytest

from gameplay.rules import GameError, available_games, get_game


def test_unknown_game_names_the_available_ones() -> None:
    with pytest.raises(GameError, match="available games"):
        get_game("no-such-game")


def test_the_games_on_offer() -> None:
    """All four, sorted (the real-time 2009 game since live tables apply its
    table steps and timers)."""
    assert available_games() == ["duelo", "kungfu2009", "kungfu2013", "kungfu2019"]
