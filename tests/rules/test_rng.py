"""``gameplay/rules/rng.py``: shuffles that replay the same on any machine."""

from __future__ import annotations

from gameplay.rules import rng
from gameplay.rules.kungfu2019 import engine as kf19


def test_a_shuffle_of_74_cards_is_pinned() -> None:
    # Stored games replay from (config, seed, actions): a change in how the
    # shuffle reads its random words would deal other hands.
    cards = "".join(chr(48 + i) for i in range(74))
    assert rng.shuffled(rng.seed_state(7), cards) == (
        "66328435f62143a7",
        "UsT5OvPa[Dg]b_k<HtZE6JedLXA\\hNp3rGxY81SKMfVmq^i97`;IcBnyQ2o4=uWw?jR@lCF>0:",
    )


def test_the_largest_deck_shuffles_from_the_precomputed_word_counts() -> None:
    # Kung Fu (2019)'s setup shuffles 74 cards; outside the table every
    # shuffle computed 74! again (3 us of a 40 us setup).
    n = len(kf19.FULL_DECK)
    assert n < len(rng._WORDS)
    assert rng._WORDS[n] == rng._words_for(n)
