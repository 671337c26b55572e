"""Duelo's table options, checked and normalised before a game is set up."""

from __future__ import annotations

from typing import Any

from gameplay.rules.duelo.cards import BASE_DECK, DOUBLE_DECK, FOCUS, KINDS, MAX_ROUNDS
from gameplay.rules.errors import (
    InvalidConfig,
    bool_option,
    config_object,
    int_option,
    param_value,
    players_option,
)

_OPTIONS = ("players", "start", "reshuffle_discard", "rounds", "deck")


def _validate(config: Any) -> dict[str, Any]:
    config = config_object(config, _OPTIONS)
    players = players_option(
        config, 2, low=2, high=8, detail="players must be an integer from 2 to 8"
    )
    start = config.get("start", "random")
    if type(start) is int:
        if not 0 <= start < players:
            raise InvalidConfig(
                "option_range",
                f"start seat must be from 0 to {players - 1}, got {start!r}",
                option="start",
                min=0,
                max=players - 1,
                value=start,
            )
    elif start not in ("random", "highest_focus"):
        raise InvalidConfig(
            "option_choice",
            f"start must be 'random', 'highest_focus' or a seat number, got {start!r}",
            option="start",
            choices=f"random, highest_focus, 0-{players - 1}",
            value=param_value(start),
        )
    reshuffle = bool_option(config, "reshuffle_discard", False)
    rounds = int_option(
        config,
        "rounds",
        1,
        low=1,
        high=MAX_ROUNDS,
        detail=f"rounds (round wins needed) must be from 1 to {MAX_ROUNDS}",
    )
    deck = config.get("deck")
    if deck is not None:
        full = DOUBLE_DECK if players > 4 else BASE_DECK
        if not isinstance(deck, list) or any(
            type(c) is not int or not 1 <= c <= 8 for c in deck
        ):
            raise InvalidConfig(
                "bad_deck",
                "deck must be a list of card Focus values 1-8, top first",
                option="deck",
            )
        if sorted(deck) != sorted(FOCUS[c] for c in full):
            raise InvalidConfig(
                "bad_deck",
                f"deck must hold exactly the {len(full)} cards of the "
                f"{'doubled ' if players > 4 else ''}deck "
                f"(counts per Focus 1-8: {[full.count(k) for k in KINDS]}), "
                f"got counts {[deck.count(f) for f in range(1, 9)]}",
                option="deck",
            )
        deck = list(deck)
    return {
        "players": players,
        "start": start,
        "reshuffle_discard": reshuffle,
        "rounds": rounds,
        "deck": deck,
    }
