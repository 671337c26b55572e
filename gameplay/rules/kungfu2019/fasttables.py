"""The card tables given to Kung Fu (2019)'s optional C steps at import.

``_fastassign.c`` (its ``dice.h``: the dice steps; ``fight.h``: a fight's
end) read the rules data as flat tables indexed by card character (0-127,
None where a character is no card). They are built here from the rules' own
tables (alphabet.py's), so the C code and the Python reference read one
source (``cards.py`` by way of alphabet.py), and native.py, which hands them
over, does not grow with the C paths' plumbing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND, KINDS, ROLES, Combo


def combo_shape(c: Combo) -> tuple[int, int, int, int]:
    """What the C code checks dice against: (kind index in ``KINDS``, n,
    faces as a bit mask, total); the kernel's rows (native.py) and
    ``combo_table``'s start with it."""
    return KINDS.index(c.kind), c.n, sum(1 << x for x in c.faces), c.total


def combo_table(
    combos: Mapping[str, tuple[Combo, ...]],
    settable: Mapping[str, Mapping[str, Mapping[int, tuple[Combo, int]]]],
) -> tuple[tuple[tuple[int, ...], ...] | None, ...]:
    """Per character, its combinations as (kind index, n, faces mask, total,
    attack gain, defence gain), a gain -1 where the combination is not
    settable in that role (``init``)."""
    return tuple(
        tuple(
            (
                *combo_shape(c),
                *(
                    settable[role][chr(o)][k][1] if k in settable[role][chr(o)] else -1
                    for role in ROLES
                ),
            )
            for k, c in enumerate(combos[chr(o)])
        )
        if chr(o) in combos
        else None
        for o in range(128)
    )


def fight_table(
    combos: Mapping[str, tuple[Combo, ...]],
    initiative: Mapping[str, int],
    cross: Mapping[str, Mapping[str, tuple[int, int, int]]],
    usable: Mapping[str, Mapping[str, tuple[Any, ...]]],
) -> tuple[tuple[Any, ...] | None, ...]:
    """Per character (``init_fight``): its initiative, its red crosses'
    (main, gain, extra) attacking then defending, whether a combination of it
    is usable attacking and defending, and per combination the effect's
    ((atk, hp), (def, yin-yang)), what a fight's end adds up."""
    return tuple(
        (
            initiative[chr(o)],
            cross[chr(o)][ATTACK],
            cross[chr(o)][DEFEND],
            int(bool(usable[chr(o)][ATTACK])),
            int(bool(usable[chr(o)][DEFEND])),
            tuple(
                ((c.effect.atk, c.effect.hp), (c.effect.def_, c.effect.yy))
                for c in combos[chr(o)]
            ),
        )
        if chr(o) in combos
        else None
        for o in range(128)
    )
