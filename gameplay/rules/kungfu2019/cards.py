"""The 74 Kung Fu cards of the dice game (2019): OUR DESIGN, kept as data.

The rulebook describes the cards (initiative, bonus icons, dice combinations with
their effects) but does not list them, so this list is ours. It follows every
count and icon the rulebook gives: 74 cards; initiative values whose three-card
totals reach the worked example's 10, 19 and 21 (single cards 1-10, lower = earlier);
one bonus icon per card (HP, ATK, DEF, HIT or AVO: the example's 10 drafted cards
give 3 HP + 4 HIT + 3 AVO); combinations of every kind the issue names (single
faces, pairs, three of a kind, straights, sums over or under a threshold, the red
cross) with attack effects (ATK, HIT, HP gain or loss) and defence effects (DEF,
AVO, the yin-yang). ``docs/rules/kungfu2019.md`` gives the reasoning and the
balance runs.

One row per card::

    (code, name, initiative, icon, ((combination code, effect), ...))

The combination code is :func:`gameplay.rules.kungfu2019.combos.parse`'s short
form (``"face456"`` = one die showing 4, 5 or 6; ``"sum3>11"`` = three dice
summing to more than 11; ``"pair"``; ``"cross"`` = the red cross, no dice...);
the effect is :class:`~gameplay.rules.kungfu2019.combos.Effect`'s JSON form
(``{"atk": 6}``, ``{"def": 2, "yy": 1}``; ``hp`` may be negative: a technique
that costs its user HP). Every non-cross combination takes a fixed number of dice.
"""

from __future__ import annotations

from gameplay.rules.kungfu2019.combos import Combo, Effect, parse

ICONS = ("hp", "atk", "def", "hit", "avo")

#: Points per space of each status track (our design: the rulebook's boards are
#: not reproduced). The worked example has Red's board ATK at 10 with one icon per
#: card, so ATK counts double; every HP space adds 3 starting HP.
TRACK_STEP = {"hp": 3, "atk": 2, "def": 1, "hit": 1, "avo": 1}

#: Starting HP by player count (rulebook, Learning Phase 3), before the HP track.
START_HP = {2: 30, 3: 30, 4: 45, 5: 60}

CARDS: tuple[tuple[str, str, int, str, tuple[tuple[str, dict[str, int]], ...]], ...] = (
    ("c01", "Tiger Claw", 1, "hp", (("face456", {"atk": 2}), ("cross", {"def": 3}))),
    ("c02", "Crane Strike", 1, "atk", (("face1", {"hit": 2}), ("pair", {"def": 3}))),
    (
        "c03",
        "Snake Spear Hand",
        1,
        "def",
        (("face456", {"atk": 2}), ("face1", {"yy": 1})),
    ),
    ("c04", "Leopard Palm", 1, "hit", (("face1", {"hit": 2}), ("face56", {"def": 3}))),
    ("c05", "Dragon Guard", 1, "avo", (("face456", {"atk": 2}), ("cross", {"avo": 1}))),
    ("c06", "Mantis Fist", 1, "hp", (("face1", {"hit": 2}), ("sum2<5", {"def": 4}))),
    (
        "c07",
        "Monkey Sweep",
        1,
        "atk",
        (("face456", {"atk": 2}), ("face456", {"def": 2})),
    ),
    ("c08", "Eagle Knee", 2, "def", (("face123", {"hp": 1}), ("face123", {"avo": 1}))),
    ("c09", "Bear Stance", 2, "hit", (("face56", {"atk": 3}), ("cross", {"def": 3}))),
    ("c10", "Phoenix Form", 2, "avo", (("face123", {"hp": 1}), ("pair", {"def": 3}))),
    ("c11", "Horse Kick", 2, "hp", (("face56", {"atk": 4}), ("face1", {"yy": 1}))),
    ("c12", "Turtle Elbow", 2, "atk", (("face123", {"hp": 1}), ("face56", {"def": 3}))),
    ("c13", "Deer Claw", 2, "def", (("face56", {"atk": 3}), ("cross", {"avo": 1}))),
    ("c14", "Wolf Strike", 2, "hit", (("face123", {"hp": 1}), ("sum2<5", {"def": 4}))),
    (
        "c15",
        "Ox Spear Hand",
        3,
        "avo",
        (("cross", {"atk": 4}), ("face456", {"def": 2})),
    ),
    ("c16", "Boar Palm", 3, "hp", (("face56", {"atk": 4}), ("face123", {"avo": 1}))),
    ("c17", "Scorpion Guard", 3, "atk", (("cross", {"atk": 4}), ("cross", {"def": 4}))),
    ("c18", "Lotus Fist", 3, "def", (("sum2<5", {"atk": 5}), ("pair", {"def": 4}))),
    ("c19", "Willow Sweep", 3, "hit", (("cross", {"atk": 6}), ("face1", {"yy": 1}))),
    ("c20", "Iron Knee", 3, "avo", (("face456", {"atk": 3}), ("face56", {"def": 3}))),
    ("c21", "Jade Stance", 3, "hp", (("cross", {"atk": 4}), ("cross", {"avo": 1}))),
    ("c22", "Cloud Form", 3, "atk", (("face1", {"hit": 2}), ("sum2<5", {"def": 5}))),
    ("c23", "Thunder Kick", 4, "def", (("pair", {"atk": 4}), ("face6", {"def": 4}))),
    (
        "c24",
        "Mountain Elbow",
        4,
        "hit",
        (("pair", {"atk": 3, "hit": 1}), ("sum2>9", {"def": 5})),
    ),
    (
        "c25",
        "River Claw",
        4,
        "avo",
        (("pair", {"atk": 4}), ("straight3", {"def": 5}), ("face456", {"def": 2})),
    ),
    (
        "c26",
        "Wind Strike",
        4,
        "hp",
        (("pair", {"atk": 3, "hit": 1}), ("sum3>11", {"def": 6})),
    ),
    (
        "c27",
        "Stone Spear Hand",
        4,
        "atk",
        (("pair", {"atk": 4}), ("face456", {"def": 2})),
    ),
    (
        "c28",
        "Golden Palm",
        4,
        "def",
        (
            ("pair", {"atk": 3, "hit": 1}),
            ("pair", {"def": 2, "yy": 1}),
            ("sum2<5", {"atk": 4}),
        ),
    ),
    ("c29", "Silver Guard", 4, "hit", (("pair", {"atk": 4}), ("pair", {"def": 4}))),
    (
        "c30",
        "Drunken Fist",
        4,
        "avo",
        (("pair", {"atk": 3, "hit": 1}), ("face6", {"def": 4})),
    ),
    ("c31", "Heron Sweep", 5, "hp", (("pair", {"atk": 5}), ("sum2>9", {"def": 6}))),
    (
        "c32",
        "Cobra Knee",
        5,
        "atk",
        (("pair", {"atk": 3, "hit": 1}), ("straight3", {"def": 5})),
    ),
    (
        "c33",
        "Falcon Stance",
        5,
        "def",
        (("pair", {"atk": 4}), ("sum3>11", {"def": 6}), ("face456", {"def": 2})),
    ),
    (
        "c34",
        "Buffalo Form",
        5,
        "hit",
        (("pair", {"atk": 3, "hit": 1}), ("face456", {"def": 2})),
    ),
    (
        "c35",
        "Panther Kick",
        5,
        "avo",
        (("pair", {"atk": 4}), ("pair", {"def": 2, "yy": 1})),
    ),
    (
        "c36",
        "Dragonfly Elbow",
        5,
        "hp",
        (("pair", {"atk": 3, "hit": 1}), ("pair", {"def": 4}), ("sum2<5", {"atk": 4})),
    ),
    ("c37", "Bamboo Claw", 5, "atk", (("pair", {"atk": 4}), ("face6", {"def": 4}))),
    ("c38", "Tiger Sweep", 6, "def", (("face456", {"atk": 2}), ("sum2>9", {"def": 5}))),
    (
        "c39",
        "Crane Knee",
        6,
        "hit",
        (("straight3", {"atk": 6}), ("straight3", {"def": 6})),
    ),
    (
        "c40",
        "Snake Stance",
        6,
        "avo",
        (("face456", {"atk": 2}), ("sum3>11", {"def": 6}), ("pair", {"atk": 3})),
    ),
    (
        "c41",
        "Leopard Form",
        6,
        "hp",
        (("straight3", {"atk": 5}), ("face456", {"def": 2})),
    ),
    (
        "c42",
        "Dragon Kick",
        6,
        "atk",
        (("face456", {"atk": 2}), ("pair", {"def": 2, "yy": 1})),
    ),
    (
        "c43",
        "Mantis Elbow",
        6,
        "def",
        (("straight3", {"atk": 4}), ("pair", {"def": 2}), ("cross", {"def": 3})),
    ),
    ("c44", "Monkey Claw", 6, "hit", (("face456", {"atk": 2}), ("face6", {"def": 4}))),
    ("c45", "Eagle Strike", 7, "avo", (("pair", {"hp": 3}), ("sum2>9", {"def": 6}))),
    (
        "c46",
        "Bear Spear Hand",
        7,
        "hp",
        (("face6", {"atk": 5}), ("straight3", {"def": 6})),
    ),
    (
        "c47",
        "Phoenix Palm",
        7,
        "atk",
        (("pair", {"hp": 3}), ("sum3>11", {"def": 7}), ("cross", {"avo": 1})),
    ),
    ("c48", "Horse Guard", 7, "def", (("face6", {"atk": 5}), ("face456", {"def": 2}))),
    (
        "c49",
        "Turtle Fist",
        7,
        "hit",
        (("pair", {"hp": 3}), ("pair", {"def": 3, "yy": 1})),
    ),
    (
        "c50",
        "Deer Sweep",
        7,
        "avo",
        (("face6", {"atk": 5}), ("pair", {"def": 4}), ("face56", {"atk": 3})),
    ),
    ("c51", "Wolf Knee", 7, "hp", (("pair", {"hp": 3}), ("face6", {"def": 5}))),
    ("c52", "Ox Stance", 7, "atk", (("face6", {"atk": 5}), ("sum2>9", {"def": 6}))),
    ("c53", "Boar Form", 8, "def", (("2face6", {"atk": 9}), ("sum3>11", {"def": 7}))),
    (
        "c54",
        "Scorpion Kick",
        8,
        "hit",
        (("face6", {"atk": 5}), ("straight4", {"def": 8})),
    ),
    (
        "c55",
        "Lotus Elbow",
        8,
        "avo",
        (
            ("three", {"atk": 13, "hp": -2}),
            ("pair", {"def": 3, "yy": 1}),
            ("cross", {"avo": 1}),
        ),
    ),
    ("c56", "Willow Claw", 8, "hp", (("three", {"atk": 9}), ("pair", {"def": 5}))),
    ("c57", "Iron Strike", 8, "atk", (("sum3>11", {"atk": 7}), ("2face6", {"def": 9}))),
    (
        "c58",
        "Jade Spear Hand",
        8,
        "def",
        (("straight4", {"atk": 8}), ("three", {"def": 8}), ("face56", {"atk": 3})),
    ),
    ("c59", "Cloud Palm", 8, "hit", (("pair", {"atk": 5}), ("face6", {"def": 5}))),
    (
        "c60",
        "Thunder Guard",
        8,
        "avo",
        (("2face6", {"atk": 9}), ("sum3>11", {"def": 7})),
    ),
    (
        "c61",
        "Mountain Fist",
        9,
        "hp",
        (("pair", {"atk": 5}), ("straight4", {"def": 9})),
    ),
    (
        "c62",
        "River Sweep",
        9,
        "atk",
        (("2face6", {"atk": 9}), ("pair", {"def": 3, "yy": 1})),
    ),
    (
        "c63",
        "Wind Knee",
        9,
        "def",
        (("face6", {"atk": 5}), ("pair", {"def": 4}), ("cross", {"avo": 1})),
    ),
    (
        "c64",
        "Stone Stance",
        9,
        "hit",
        (("three", {"atk": 13, "hp": -2}), ("2face6", {"def": 9})),
    ),
    ("c65", "Golden Form", 9, "avo", (("three", {"atk": 8}), ("three", {"def": 7}))),
    (
        "c66",
        "Silver Kick",
        9,
        "hp",
        (("sum3>11", {"atk": 7}), ("face6", {"def": 5}), ("face56", {"atk": 3})),
    ),
    (
        "c67",
        "Drunken Elbow",
        9,
        "atk",
        (("straight4", {"atk": 8}), ("sum3>11", {"def": 7})),
    ),
    ("c68", "Heron Claw", 10, "def", (("pair", {"atk": 5}), ("straight4", {"def": 8}))),
    (
        "c69",
        "Cobra Strike",
        10,
        "hit",
        (("2face6", {"atk": 10}), ("pair", {"def": 3, "yy": 1})),
    ),
    (
        "c70",
        "Falcon Spear Hand",
        10,
        "avo",
        (("face6", {"atk": 5}), ("pair", {"def": 4}), ("face123", {"hp": 1})),
    ),
    (
        "c71",
        "Buffalo Palm",
        10,
        "hp",
        (("three", {"atk": 13, "hp": -2}), ("2face6", {"def": 9})),
    ),
    ("c72", "Panther Guard", 10, "atk", (("three", {"atk": 9}), ("three", {"def": 7}))),
    (
        "c73",
        "Dragonfly Fist",
        10,
        "def",
        (("sum3>11", {"atk": 7}), ("face6", {"def": 4}), ("face456", {"def": 2})),
    ),
    (
        "c74",
        "Bamboo Sweep",
        10,
        "hit",
        (("straight4", {"atk": 9}), ("sum3>11", {"def": 7})),
    ),
)


def _combos() -> dict[str, tuple[Combo, ...]]:
    out: dict[str, tuple[Combo, ...]] = {}
    for code, _name, _init, _icon, combos in CARDS:
        out[code] = tuple(parse(c, Effect.from_json(e)) for c, e in combos)
    return out


#: card code -> its combinations (frozen Combo objects, effects included)
COMBOS: dict[str, tuple[Combo, ...]] = _combos()
INITIATIVE: dict[str, int] = {row[0]: row[2] for row in CARDS}
ICON: dict[str, str] = {row[0]: row[3] for row in CARDS}
NAME: dict[str, str] = {row[0]: row[1] for row in CARDS}
