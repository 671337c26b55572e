"""Cheap playout policy for Kung Fu (2013) inside ISMCTS simulations.

Playouts run on a sampled full state thousands of times per decision, so this
reads the raw state instead of building observations. It is uniform random
except for choices whose random versions made playouts misjudge positions:

* keep the initiative most of the time (random passing turns every playout into
  a long drawing contest that says little about the position);
* block a face-up attack with the weakest card that stops it, else the
  strongest (a random block throws away life for nothing);
* activate an affordable effect, and draw the difference as a winning defender
  when it is two or more.

ISMCTS plays the policy through :func:`playout` (``META.playout``): a whole
playout per call, in the C kernel (``_fastplay.policy_playout``) when it is
built, else in Python by :func:`policy_chooser`. Both draw from the same
SplitMix64 choice stream (``rng.below_stream``) and decide alike, so a playout
ends identically either way (tests/rules/test_kungfu2013_policy_native.py) and
a search or an analysis does not depend on whether the kernel was compiled.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from gameplay.rules.kungfu2013 import engine as _engine
from gameplay.rules.kungfu2013.alphabet import BY_CODE, VALUE
from gameplay.rules.rng import policy_chooser as _policy_chooser

_GAME = _engine.KungFu2013Game()


def choose(
    state: dict[str, Any], ids: Sequence[str], below: Callable[[int], int]
) -> str:
    """The policy's move among ``ids`` (the engine's menu, two or more entries),
    ``below(n)`` drawing a uniform number in ``range(n)``.

    ``_fastplay.c``'s ``decide`` repeats this entry by entry, draws included:
    change one, change the other.
    """
    phase = state["phase"]
    if phase == "initiative":
        return "initiative:keep" if below(20) < 17 else "initiative:pass"
    if phase == "block":
        b = state["b"]
        if b["face"] == "u":
            # The menu's first entry is the weakest card that stops the printed
            # attack value when one exists; otherwise block with the strongest.
            if VALUE[BY_CODE[ids[0][6:]]] >= VALUE[b["ac"]]:
                return ids[0]
            return ids[-1]
        return ids[below(len(ids))]
    if phase == "effect":
        return "effect:use"
    if phase == "reward":
        b = state["b"]
        return "reward:draw" if b["bv"] - b["av"] >= 2 else "reward:initiative"
    if phase == "attack":
        # Menus run weakest to strongest: lean to the stronger of two picks.
        n = len(ids)
        first = below(n)
        return ids[max(first, below(n))]
    return ids[below(len(ids))]


def policy_chooser(seed: int) -> Callable[[dict[str, Any], int, Sequence[str]], str]:
    """A ``playout`` chooser playing :func:`choose` on the stream seeded
    ``seed`` (``rng.policy_chooser``: a forced move takes no draw)."""
    return _policy_chooser(choose, seed)


def playout(state: dict[str, Any], seed: int, max_steps: int | None = None) -> int:
    """Play ``state`` on in place by the policy for at most ``max_steps``
    decisions (forced ones included) or to the end; returns the decisions made.

    In C when the kernel is built with the policy (``engine.native_policy``),
    else in Python: the same decisions on the same stream either way.
    """
    if _engine.native_policy():
        return _GAME.native_policy_playout(state, seed, max_steps)
    return _GAME.playout(state, policy_chooser(seed), max_steps)


def evaluate(state: dict[str, Any]) -> dict[int, float]:
    """Each seat's chance of winning when a playout is cut off, from the position.

    A logistic curve in the life difference (the one thing that ends the game),
    nudged by cards in hand and coins in front (resources for later battles).
    The weights were fitted by eye to heuristic-vs-heuristic games: a two-life
    lead wins about two games in three.
    """
    life = state["life"]
    hands = state["hands"]
    x = 0.35 * (life[0] - life[1]) + 0.04 * (len(hands[0]) - len(hands[1]))
    x += 0.05 * (len(state["front"][0]) - len(state["front"][1]))
    p0 = 1.0 / (1.0 + math.exp(-x))
    return {0: p0, 1: 1.0 - p0}
