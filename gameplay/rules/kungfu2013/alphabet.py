"""Kung Fu (2013)'s 60 cards as one character each, and what the rules ask of a hand.

The first 30 characters of :data:`ALPHABET` are the red attack cards, the last
30 the blue block cards, each colour ordered by value, so sorting a hand's
characters sorts it by value; observations and action ids use the readable
codes (``r06``, ``b17``) of ``cards.py``, where the card list itself is kept.
Hands, decks and rows of coin cards are strings of these characters.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter
from typing import Any

from gameplay.rules.base import State
from gameplay.rules.kungfu2013.cards import ATTACK_CARDS, BLOCK_CARDS, EFFECTS
from gameplay.rules.views import PileViews

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwx"
FIRST_BLUE = "U"  # characters below it are red


def _build() -> tuple[dict[str, dict[str, Any]], dict[str, str], str, str]:
    """Card table keyed by character, code -> character, and the two full decks."""
    table: dict[str, dict[str, Any]] = {}
    by_code: dict[str, str] = {}
    decks = []
    i = 0
    for colour, rows in (("red", ATTACK_CARDS), ("blue", BLOCK_CARDS)):
        chars = ""
        # Value order inside a colour makes sorted(hand) a value-ordered menu.
        for row in sorted(rows, key=lambda r: (r[2], r[3] or r[2], r[0])):
            code, name, value, rise, coins, effect, cost, on_hit = row
            ch = ALPHABET[i]
            i += 1
            table[ch] = {
                "code": code,
                "name": name,
                "colour": colour,
                "value": value,
                "rise": rise,
                "coins": coins,
                "effect": effect,
                "cost": cost,
                "on_hit": on_hit,
                "text": EFFECTS[effect] if effect else None,
            }
            by_code[code] = ch
            chars += ch
        decks.append(chars)
    return table, by_code, decks[0], decks[1]


CARDS, BY_CODE, RED_DECK, BLUE_DECK = _build()
assert len(RED_DECK) == len(BLUE_DECK) == 30
assert all((c < FIRST_BLUE) == (CARDS[c]["colour"] == "red") for c in CARDS)
CODE = {ch: c["code"] for ch, c in CARDS.items()}
VALUE: dict[str, int] = {ch: c["value"] for ch, c in CARDS.items()}
RISE: dict[str, int | None] = {ch: c["rise"] for ch, c in CARDS.items()}
COINS = {ch: c["coins"] for ch, c in CARDS.items()}
EFFECT = {ch: c["effect"] for ch, c in CARDS.items()}
COST = {ch: c["cost"] for ch, c in CARDS.items()}
ON_HIT = {ch: c["on_hit"] for ch, c in CARDS.items()}


def view(ch: str) -> dict[str, Any]:
    """A card as observations and events show it (a fresh dict)."""
    return CARDS[ch].copy()


_card = CARDS.__getitem__
_copy = dict.copy


def views(cards: Iterable[str]) -> list[dict[str, Any]]:
    """``[view(c) for c in cards]`` without a Python call per card: an
    observation shows about 30 cards (a random game's hands hold 20 or more)."""
    return list(map(_copy, map(_card, cards)))


def _items(table: Any, keys: Any) -> tuple[Any, ...]:
    """``tuple(table[k] for k in keys)``: the views of a pile, the ids of a menu.

    ``itemgetter(*keys)`` looks every key up in one C call (``map`` over a bound
    ``__getitem__`` makes a call per key, about twice the instructions for a
    20-card hand); it returns the bare item for a single key, hence the test.
    """
    if len(keys) > 1:
        items: tuple[Any, ...] = itemgetter(*keys)(table)
        return items
    return tuple(map(table.__getitem__, keys))


_NO_BLUE = str.maketrans("", "", BLUE_DECK)
_NO_RED = str.maketrans("", "", RED_DECK)
_BLUE_BYTES = BLUE_DECK.encode()
_RED_BYTES = RED_DECK.encode()


def _reds(hand: str) -> str:
    return hand.translate(_NO_BLUE)


def _blues(hand: str) -> str:
    return hand.translate(_NO_RED)


def _has_red(hand: str) -> bool:
    # Every character is red or blue: stripping the blues leaves something iff
    # a red is left (one C loop, far cheaper than min() over the hand).
    return bool(hand.strip(BLUE_DECK))


def _has_blue(hand: str) -> bool:
    return bool(hand.strip(RED_DECK))


# Every red card's byte -> 0, every other byte -> 1. ``translate`` with a table
# and no bytes to delete is one pass over the hand (deleting bytes first builds
# a 256-entry table, per call), and ``count(0)`` one more: about a third of
# the instructions of ``len(hand.encode().translate(None, _BLUE_BYTES))``.
_RED_AS_ZERO = bytes(0 if chr(i) in RED_DECK else 1 for i in range(256))


def _nred(hand: str) -> int:
    """How many red cards ``hand`` holds."""
    return hand.encode().translate(_RED_AS_ZERO).count(0)


def _can_draw(s: State) -> bool:
    return bool(s["rdeck"] or s["bdeck"] or s["rdisc"] or s["bdisc"])


# The coins of a row of coin cards (few distinct rows; a row changes a few
# times a game): ``_COIN_SUMS[front]``, a dict lookup where it hits.
_COIN_SUMS: PileViews[str, int] = PileViews(
    lambda front: sum(map(COINS.__getitem__, front))
)
