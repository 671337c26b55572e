"""Kung Fu (2019)'s cards as characters: the limits, the card and combination
tables built once from cards.py, and a card's view and label.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules.kungfu2019 import cards as _cards
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND, Combo

RULES_VERSION = "kungfu2019-1"
ROUNDS = 3
HAND = 10  # cards dealt / drafted per player
PLAY = 3  # cards played per round
DICE = 7
STAT = ("hp", "atk", "def", "hit", "avo")
START_HP = _cards.START_HP
STEP = _cards.TRACK_STEP

ALPHABET = "".join(
    sorted(
        "!#$%&()*+-./"
        + "0123456789"
        + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        + "abcdefghijklmnopqrstuvwxyz"
    )
)
assert len(ALPHABET) == len(_cards.CARDS) == 74

CODES = [row[0] for row in _cards.CARDS]
CODE = {ALPHABET[i]: c for i, c in enumerate(CODES)}
BY_CODE = {c: ch for ch, c in CODE.items()}
FULL_DECK = ALPHABET
INIT = {ch: _cards.INITIATIVE[c] for ch, c in CODE.items()}
ICON = {ch: STAT.index(_cards.ICON[c]) for ch, c in CODE.items()}
NAME = {ch: _cards.NAME[c] for ch, c in CODE.items()}
COMBOS: dict[str, tuple[Combo, ...]] = {ch: _cards.COMBOS[c] for ch, c in CODE.items()}

# Per card and role: the combinations that need dice and do something in that
# role, as (k, combo); and the summed effect of its red crosses in that role.
USABLE: dict[str, dict[str, tuple[tuple[int, Combo], ...]]] = {}
CROSS: dict[str, dict[str, tuple[int, int, int]]] = {}  # role -> (main, gain, side)
for _ch, _cs in COMBOS.items():
    USABLE[_ch] = {}
    CROSS[_ch] = {}
    for _side in (ATTACK, DEFEND):
        USABLE[_ch][_side] = tuple(
            (k, c)
            for k, c in enumerate(_cs)
            if c.needs_dice and c.effect.active_in(_side)
        )
        _e = [c.effect for c in _cs if not c.needs_dice]
        if _side == ATTACK:
            CROSS[_ch][_side] = (
                sum(e.atk for e in _e),
                sum(e.hit for e in _e),
                sum(e.hp for e in _e),
            )
        else:
            CROSS[_ch][_side] = (
                sum(e.def_ for e in _e),
                sum(e.avo for e in _e),
                sum(e.yy for e in _e),
            )
    for _k, _c in enumerate(_cs):
        if _c.needs_dice and _c.n <= 0:  # pragma: no cover - a data error
            raise AssertionError(f"{CODE[_ch]}: every combination needs a fixed size")

# Per card and role: (-value, dice, k, combo) of the combinations the greedy
# fallback may use (attack value ATK + HP, defence value DEF + yin-yang).
WORTH: dict[str, dict[str, tuple[tuple[int, int, int, Combo], ...]]] = {
    ch: {
        role: tuple(
            (-v, c.n, k, c)
            for k, c in USABLE[ch][role]
            if (
                v := (
                    c.effect.atk + c.effect.hp
                    if role == ATTACK
                    else c.effect.def_ + c.effect.yy
                )
            )
            > 0
        )
        for role in (ATTACK, DEFEND)
    }
    for ch in COMBOS
}
STAT_INDEX = {k: i for i, k in enumerate(STAT)}
# A fighter's HIT (attacking) or AVO (defending) track: (position, points a step).
BUDGET_TRACK = {
    ATTACK: (STAT_INDEX["hit"], STEP["hit"]),
    DEFEND: (STAT_INDEX["avo"], STEP["avo"]),
}
# Per role and card: combination index -> (combination, HIT/AVO one activation
# gains), the sets ``_check_assignment`` accepts in that role.
SETTABLE: dict[str, dict[str, dict[int, tuple[Combo, int]]]] = {
    role: {
        ch: {k: (c, c.effect.gain(role)) for k, c in USABLE[ch][role]} for ch in COMBOS
    }
    for role in (ATTACK, DEFEND)
}


def _label(ch: str) -> str:
    combos = "; ".join(f"{c.label()}: {c.effect.label()}" for c in COMBOS[ch])
    return f"{NAME[ch]} (initiative {INIT[ch]}, {STAT[ICON[ch]].upper()}; {combos})"


def view(ch: str) -> dict[str, Any]:
    """A card as observations and events show it (a fresh dict)."""
    return {
        "code": CODE[ch],
        "name": NAME[ch],
        "initiative": INIT[ch],
        "icon": STAT[ICON[ch]],
        "combos": [c.to_json() for c in COMBOS[ch]],
    }
