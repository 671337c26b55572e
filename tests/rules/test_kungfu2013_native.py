"""Kung Fu (2013): the native playout kernel (``_fastplay.c``) plays exactly the
engine's rules: for thousands of seeds, ``random_playout`` in C and the Python
``playout`` fed the same choices (``uniform_chooser``) leave identical states
(winner, life, step count, hands, decks, piles, coin cards, the RNG, the task
stack). Skipped only when the optional extension is not built; the fallback
test runs either way."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from gameplay.rules.kungfu2013 import engine as E
from gameplay.rules.rng import uniform_chooser
from tests.rules.kungfu2013_helpers import GAME, corner_states
from tests.rules.properties import native_matches_python

native = pytest.mark.skipif(not E.NATIVE, reason="the C kernel _fastplay is not built")
CONFIGS: list[dict[str, Any]] = [
    {},
    {"start": 1, "life": 5},
    {"max_rounds": 4},
    {"life": 1},
    {"start": 0, "max_rounds": 30},
    {"red_deck": ["r18", "r19", "r28"], "blue_deck": ["b20", "b27"], "start": 0},
    {"red_deck": ["r09", "r10", "r13", "r26"], "blue_deck": ["b10", "b11", "b12"]},
]


def _both(state: dict, seed: int, max_steps: int | None = None) -> tuple[dict, int]:
    return native_matches_python(GAME, state, seed, max_steps)


@native
@pytest.mark.parametrize(
    "block",
    # 500 seeded games per block: 2,000 in the default suite, 2,000 more with
    # the slow set.
    [*range(4), *(pytest.param(b, marks=pytest.mark.slow) for b in range(4, 8))],
)
def test_native_games_end_exactly_as_python_ones(block: int) -> None:
    reasons: Counter[str] = Counter()
    for seed in range(block * 500, (block + 1) * 500):
        state = GAME.setup(CONFIGS[seed % len(CONFIGS)], seed)
        final, steps = _both(state, seed ^ 0x5EED)
        assert GAME.is_over(final)
        assert steps > 0
        reasons[final["result"]["reason"]] += 1
    assert reasons["knockout"] > 0 and reasons["round_limit"] > 0


@native
@pytest.mark.parametrize("block", range(4))
def test_native_playout_from_every_kind_of_mid_game_state(block: int) -> None:
    """Entry at every decision point (each phase, pending tasks, a face-down
    attack, coins to pay), and cut off after ``max_steps`` decisions."""
    phases: Counter[str] = Counter()
    rnd = random.Random(block)
    for game in range(block * 60, (block + 1) * 60):
        state = GAME.setup(CONFIGS[game % len(CONFIGS)], 10_000 + game)
        while GAME.actors(state):
            phases[state["phase"]] += 1
            if rnd.random() < 0.25:
                cut = rnd.choice([None, 1, 2, 7, 40])
                out, steps = _both(state, rnd.getrandbits(64), cut)
                if cut is not None and not GAME.is_over(out):
                    assert steps == cut
            (seat,) = GAME.actors(state)
            ids = GAME.legal_action_ids(state, seat)
            state, _ = GAME.apply(state, seat, ids[int(rnd.random() * len(ids))])
        _both(state, 1)  # a finished game: nothing to play
    assert set(phases) == set(E.PROMPTS) - {E.OVER}


@native
def test_native_stacked_positions_match() -> None:
    """Hand-made corners (``corner_states``)."""
    positions = corner_states()
    for i, state in enumerate(positions):
        for seed in range(200):
            _both(state, seed * 31 + i)


@native
def test_native_refuses_a_foreign_state_like_playout() -> None:
    with pytest.raises(Exception) as slow:
        GAME.playout({"rules_version": "x"}, uniform_chooser(0))
    with pytest.raises(type(slow.value)):
        GAME.random_playout({"rules_version": "x"}, 0)
    state = GAME.setup({}, 1)
    broken = copy.deepcopy(state)
    broken["hands"][0] += "!"
    with pytest.raises(ValueError):
        GAME.random_playout(broken, 0)


def test_python_fallback_is_the_uniform_chooser(monkeypatch) -> None:
    """Without the kernel ``random_playout`` is ``playout(uniform_chooser)``."""
    monkeypatch.setattr(E, "_native", None)
    for seed in range(20):
        a = GAME.setup(CONFIGS[seed % len(CONFIGS)], seed)
        b = copy.deepcopy(a)
        assert GAME.random_playout(a, seed) == GAME.playout(b, uniform_chooser(seed))
        assert a == b and GAME.is_over(a)
