"""Kung Fu (Kuznia Gier, 2009): the hit cards and the 52 combination cards, as data.

The rulebook gives the hit deck (16 each of Tiger, Monkey, Crab and Crane, 4
Dragons that stand for any hit) and the three kinds of combination cards with their
counts and constraints, but not the sequences printed on the combination cards. The
list below is OUR DESIGN (docs/rules/kungfu2009.md says so and prints it). It keeps
every count and constraint of the rulebook and splits evenly over the four styles:

* 24 easy (4 hits, 1 point): 6 led by each style;
* 20 normal (5 hits, at least 3 different styles, at most 3 the same, 2 points):
  5 led by each style;
* 8 difficult (5 hits, at least 4 the same, 4 points): 2 per style.

Each group of a style is the same pattern with the styles rotated (Tiger -> Monkey
-> Crab -> Crane), so no style is easier to collect than another: every style
appears 24 times on the easy cards, 25 times on the normal ones, 10 times on the
difficult ones.

A style is one letter: ``T`` Tiger, ``M`` Monkey, ``C`` Crab, ``R`` Crane, ``D``
Dragon (wild). A combination is read left to right.
"""

from __future__ import annotations

from typing import TypedDict

STYLES = "TMCRD"
STYLE_NAMES = {
    "T": "Tiger",
    "M": "Monkey",
    "C": "Crab",
    "R": "Crane",
    "D": "Dragon",
}
WILD = "D"

#: The hit deck: style -> number of cards (68 in all).
HIT_COUNTS = {"T": 16, "M": 16, "C": 16, "R": 16, "D": 4}

#: The three combination piles: id -> (name, hits per card, points).
LEVELS = {
    "easy": ("Easy", 4, 1),
    "normal": ("Normal", 5, 2),
    "difficult": ("Difficult", 5, 4),
}
LEVEL_ORDER = ("easy", "normal", "difficult")

# Our design (see the module docstring). Codes: E01-E24, N01-N20, D01-D08.
EASY = (
    "TTTM", "TCTT", "TTMC", "RTMT", "TMCR", "TTRR",
    "MMMC", "MRMM", "MMCR", "TMCM", "MCRT", "MMTT",
    "CCCR", "CTCC", "CCRT", "MCRC", "CRTM", "CCMM",
    "RRRT", "RMRR", "RRTM", "CRTR", "RTMC", "RRCC",
)  # fmt: skip
NORMAL = (
    "TTTMC", "TMTRT", "TTCCM", "MTRTC", "TMCRT",
    "MMMCR", "MCMTM", "MMRRC", "CMTMR", "MCRTM",
    "CCCRT", "CRCMC", "CCTTR", "RCMCT", "CRTMC",
    "RRRTM", "RTRCR", "RRMMT", "TRCRM", "RTMCR",
)  # fmt: skip
DIFFICULT = (
    "TTTTT", "TTCTT",
    "MMMMM", "MMRMM",
    "CCCCC", "CCTCC",
    "RRRRR", "RRMRR",
)  # fmt: skip


class Combination(TypedDict):
    """One combination card (what a player's claim shows)."""

    code: str
    level: str
    points: int
    hits: str
    label: str


def _build() -> dict[str, Combination]:
    table: dict[str, Combination] = {}
    for level, prefix, rows in (
        ("easy", "E", EASY),
        ("normal", "N", NORMAL),
        ("difficult", "D", DIFFICULT),
    ):
        _, size, points = LEVELS[level]
        for i, hits in enumerate(rows, 1):
            code = f"{prefix}{i:02d}"
            table[code] = {
                "code": code,
                "level": level,
                "points": points,
                "hits": hits,
                "label": " ".join(STYLE_NAMES[h] for h in hits),
            }
            assert len(hits) == size, code
    return table


#: code -> its combination card
COMBINATIONS = _build()
PILE_CODES = {
    level: tuple(c for c, v in COMBINATIONS.items() if v["level"] == level)
    for level in LEVEL_ORDER
}


def matches(cards: str, hits: str) -> bool:
    """True when ``cards``, read left to right, realize the sequence ``hits``.

    Exactly as many cards as hits, each the printed style or a Dragon.
    """
    if len(cards) != len(hits):
        return False
    return all(not (c != h and c != WILD) for c, h in zip(cards, hits, strict=True))


def removal(units: int) -> dict[str, int]:
    """Cards removed per pile for ``units`` of the suggested 2-2-1 proportion."""
    return {"easy": 2 * units, "normal": 2 * units, "difficult": units}
