"""Kung Fu (2009)'s table options, checked and normalised before a game is set up."""

from __future__ import annotations

from typing import Any

from gameplay.rules.errors import (
    InvalidConfig,
    bool_option,
    config_object,
    int_option,
    players_option,
)
from gameplay.rules.kungfu2009.constants import (
    DEFAULT_IMPASSE_LIMIT,
    DEFAULT_MINUTES,
    FULL_DECK,
)

_OPTIONS = ("players", "remove", "severe", "impasse_limit", "minutes", "deck")


def _validate(config: Any) -> dict[str, Any]:
    config = config_object(config, _OPTIONS)
    players = players_option(
        config,
        4,
        low=3,
        high=8,
        detail="players must be from 3 to 8 (4-8, 3 as our variant)",
    )
    # Our 3-player variant plays with two 2-2-1 removals (docs/rules/kungfu2009.md).
    remove = int_option(
        config,
        "remove",
        2 if players == 3 else 0,
        low=0,
        high=7,
        detail="remove must be from 0 to 7 units of the 2-2-1 removal",
    )
    severe = bool_option(config, "severe", False)
    limit = int_option(
        config,
        "impasse_limit",
        DEFAULT_IMPASSE_LIMIT,
        low=1,
        high=50,
        detail="impasse_limit must be from 1 to 50",
    )
    minutes = int_option(
        config,
        "minutes",
        DEFAULT_MINUTES,
        low=1,
        high=240,
        detail="minutes (the table's time limit) must be from 1 to 240",
    )
    deck = config.get("deck")
    if deck is not None and (
        not isinstance(deck, str) or sorted(deck) != sorted(FULL_DECK)
    ):
        raise InvalidConfig(
            "bad_deck",
            "deck must be a string of all 68 hit cards (16 each of T, M, C, R "
            "and 4 D), top card first",
            option="deck",
        )
    return {
        "players": players,
        "remove": remove,
        "severe": severe,
        "impasse_limit": limit,
        "minutes": minutes,
        "deck": deck,
    }
