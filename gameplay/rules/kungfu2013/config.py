"""Kung Fu (2013)'s table options, checked and normalised before a game is set up."""

from __future__ import annotations

from typing import Any

from gameplay.rules.errors import (
    InvalidConfig,
    config_object,
    int_option,
    param_value,
    players_option,
)
from gameplay.rules.kungfu2013.alphabet import BLUE_DECK, BY_CODE, CODE, RED_DECK

START_LIFE = 10
LIFE_TOKENS = 20  # the box holds 20: the starting life is at most half of them
DEFAULT_MAX_ROUNDS = 200


_OPTIONS = ("players", "start", "life", "max_rounds", "red_deck", "blue_deck")


def _stack(option: str, codes: Any, full: str, colour: str) -> str | None:
    """A stacked deck: the listed codes on top (first = top), the rest shuffled."""
    if codes is None:
        return None
    if not isinstance(codes, list) or any(
        type(c) is not str or c not in BY_CODE for c in codes
    ):
        raise InvalidConfig(
            "bad_deck",
            f"{option} must be a list of {colour} card codes, top first "
            f"(e.g. {CODE[full[0]]!r})",
            option=option,
        )
    chars = [BY_CODE[c] for c in codes]
    wrong = [c for c, ch in zip(codes, chars, strict=True) if ch not in full]
    if wrong:
        raise InvalidConfig(
            "bad_deck",
            f"{option} may hold only {colour} cards, got {wrong}",
            option=option,
        )
    if len(set(chars)) != len(chars):
        raise InvalidConfig("bad_deck", f"{option} lists a card twice", option=option)
    return "".join(chars)


def _validate(config: Any) -> dict[str, Any]:
    config = config_object(config, _OPTIONS)
    players_option(
        config, 2, low=2, high=2, detail="Kung Fu (2013) is for exactly 2 players"
    )
    start = config.get("start", "random")
    if not (start == "random" or (type(start) is int and start in (0, 1))):
        raise InvalidConfig(
            "option_choice",
            f"start must be 'random', 0 or 1, got {start!r}",
            option="start",
            choices="random, 0, 1",
            value=param_value(start),
        )
    life = int_option(
        config,
        "life",
        START_LIFE,
        low=1,
        high=LIFE_TOKENS // 2,
        detail=f"life must be an integer from 1 to {LIFE_TOKENS // 2}",
    )
    max_rounds = int_option(
        config,
        "max_rounds",
        DEFAULT_MAX_ROUNDS,
        low=1,
        high=10_000,
        detail="max_rounds must be an integer from 1 to 10000",
    )
    red = config.get("red_deck")
    blue = config.get("blue_deck")
    _stack("red_deck", red, RED_DECK, "red")
    _stack("blue_deck", blue, BLUE_DECK, "blue")
    return {
        "players": 2,
        "start": start,
        "life": life,
        "max_rounds": max_rounds,
        "red_deck": None if red is None else list(red),
        "blue_deck": None if blue is None else list(blue),
    }
