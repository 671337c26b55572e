"""Cheap playout policy and cut-off estimate for Kung Fu (2019) inside ISMCTS.

Playouts run thousands of times per decision on sampled full states, so the
policy reads the raw state and the menu ids, never an observation:

* dice: always ``auto`` (the exact solver, then finish). A uniformly random
  walk through the assignment steps (open a set, add dice, spend points) would
  take dozens of steps per fight and waste most rolls, which says nothing about
  the position;
* draft and play: the heuristic's card values (:mod:`.heuristic`) most of the
  time, a uniform pick otherwise, so playouts are plausible but varied.
"""

from __future__ import annotations

import math
import random
from typing import Any

from gameplay.rules.kungfu2019.heuristic import play_value, worth

GREEDY = 0.75  # share of playout card choices made by the heuristic's values
TEMPERATURE = 6.0  # HP per factor e in the cut-off estimate


def policy(state: dict[str, Any], seat: int, ids: list[str], rng: random.Random) -> str:
    """A playout move for ``seat`` among ``ids`` (the engine's legal ids)."""
    phase = state["phase"]
    if phase == "assign":
        return "auto" if "auto" in ids else ids[0]
    if rng.random() >= GREEDY:
        return ids[int(rng.random() * len(ids))]
    n = state["n"]
    if phase == "draft":
        return max(ids, key=lambda a: worth(a[5:], n))
    if phase == "play":
        return max(ids, key=lambda a: play_value(a[5:], n))
    return ids[int(rng.random() * len(ids))]


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
