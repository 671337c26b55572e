"""Cheap playout policy and cut-off estimate for Kung Fu (2019) inside ISMCTS.

Playouts run thousands of times per decision on sampled full states, so the
policy reads the raw state and the menu ids, never an observation:

* dice: always ``auto`` (the exact solver, then finish). A uniformly random
  walk through the assignment steps (open a set, add dice, spend points) would
  take dozens of steps per fight and waste most rolls, which says nothing about
  the position;
* draft and play: the heuristic's card values (:mod:`.heuristic`) 3 times in
  4, a uniform pick otherwise, so playouts are plausible but varied.

ISMCTS plays the policy through :func:`playout` (``META.playout``): a whole
playout per call, in the C kernel (``_fastplay.policy_playout``) when it is
built, else in Python by :func:`policy_chooser`. Both draw from the same
SplitMix64 choice stream (``rng.below_stream``) and decide alike, so a playout
ends identically either way (tests/rules/test_kungfu2019_policy_native.py) and
a search or an analysis does not depend on whether the kernel was compiled.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from gameplay.rules.kungfu2019 import engine as _engine
from gameplay.rules.kungfu2019.engine import BY_CODE, KungFu2019Game
from gameplay.rules.kungfu2019.heuristic import play_value, worth
from gameplay.rules.rng import policy_chooser as _policy_chooser

TEMPERATURE = 6.0  # HP per factor e in the cut-off estimate

_GAME = KungFu2019Game()


def choose(
    state: dict[str, Any], ids: Sequence[str], below: Callable[[int], int]
) -> str:
    """The policy's move among ``ids`` (the engine's menu, two or more entries),
    ``below(n)`` drawing a uniform number in ``range(n)``.

    ``_fastplay.c``'s ``decide`` (``policy_card``) repeats this draw by draw:
    change one, change the other.
    """
    phase = state["phase"]
    if phase == "assign":
        return "auto" if "auto" in ids else ids[0]
    if below(4) >= 3:
        return ids[below(len(ids))]
    n = state["n"]
    if phase == "draft":
        return max(ids, key=lambda a: worth(a[5:], n))
    if phase == "play":
        return max(ids, key=lambda a: play_value(a[5:], n))
    return ids[below(len(ids))]


def policy_chooser(seed: int) -> Callable[[dict[str, Any], int, Sequence[str]], str]:
    """A ``playout`` chooser playing :func:`choose` on the stream seeded
    ``seed`` (``rng.policy_chooser``: a forced move takes no draw)."""
    return _policy_chooser(choose, seed)


@lru_cache(maxsize=1)
def _kernel_values() -> bool:
    """Hand the kernel the card values ``choose`` uses (once, on first use:
    computing them takes a fraction of a second)."""
    worth_rows, play_rows = [], []
    for n in range(6):
        wrow, prow = [0.0] * 128, [0.0] * 128
        if n >= 2:
            for code, ch in BY_CODE.items():
                wrow[ord(ch)] = worth(code, n)
                prow[ord(ch)] = play_value(code, n)
        worth_rows.append(tuple(wrow))
        play_rows.append(tuple(prow))
    _engine.native_policy_values(tuple(worth_rows), tuple(play_rows))
    return True


def playout(state: dict[str, Any], seed: int, max_steps: int | None = None) -> int:
    """Play ``state`` on in place by the policy for at most ``max_steps``
    decisions (forced ones included) or to the end; returns the decisions made.

    In C when the kernel is built with the policy (``engine.native_policy``),
    else in Python: the same decisions on the same stream either way.
    """
    if _engine.native_policy() and _kernel_values():
        return _GAME.native_policy_playout(state, seed, max_steps)
    return _GAME.playout(state, policy_chooser(seed), max_steps)


def evaluate(state: dict[str, Any]) -> dict[int, float]:
    """Each seat's chance of winning when a playout is cut off, from HP alone.

    A softmax over the living seats' HP ("most HP wins"), about e times likelier
    per ``TEMPERATURE`` HP of lead; eliminated seats get nothing. Before the
    fights start (HP still 0 in the draft) everyone is even.
    """
    n = state["n"]
    hp = state["hp"]
    elim = state["elim"]
    alive = [i for i in range(n) if not elim[i]]
    if not alive:
        return {}
    top = max(hp[i] for i in alive)
    weights = {i: math.exp((hp[i] - top) / TEMPERATURE) for i in alive}
    total = sum(weights.values())
    return {i: w / total for i, w in weights.items()}
