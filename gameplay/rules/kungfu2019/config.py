"""Kung Fu (2019)'s table options: validated and normalized."""

from __future__ import annotations

from typing import Any

from gameplay.rules.errors import (
    InvalidConfig,
    bool_option,
    config_object,
    players_option,
)
from gameplay.rules.kungfu2019.alphabet import BY_CODE, DICE

_OPTIONS = ("players", "draft", "deck", "dice")


# ---------------------------------------------------------------------------
# Configuration.


def _validate(config: Any) -> dict[str, Any]:
    config = config_object(config, _OPTIONS)
    players = players_option(
        config, 4, low=2, high=5, detail="Kung Fu (2019) is for 2 to 5 players"
    )
    draft = bool_option(config, "draft", True)
    deck = config.get("deck")
    if deck is not None:
        if not isinstance(deck, list) or any(
            type(c) is not str or c not in BY_CODE for c in deck
        ):
            raise InvalidConfig(
                "bad_deck",
                "deck must be a list of card codes, top first (e.g. 'c01')",
                option="deck",
            )
        if len(set(deck)) != len(deck):
            raise InvalidConfig("bad_deck", "deck lists a card twice", option="deck")
        deck = list(deck)
    dice = config.get("dice")
    if dice is not None:
        if not isinstance(dice, list) or any(
            not isinstance(r, list)
            or len(r) != DICE
            or any(type(x) is not int or not 1 <= x <= 6 for x in r)
            for r in dice
        ):
            raise InvalidConfig(
                "bad_deck",
                "dice must be a list of rolls, each a list of 7 values 1-6",
                option="dice",
            )
        dice = [list(r) for r in dice]
    else:
        dice = []
    return {"players": players, "draft": draft, "deck": deck, "dice": dice}
