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
"""

from __future__ import annotations

import math
import random
from typing import Any

from gameplay.rules.kungfu2013.engine import BY_CODE, VALUE


def policy(state: dict[str, Any], seat: int, ids: list[str], rng: random.Random) -> str:
    """A playout move for ``seat`` among ``ids`` (the engine's legal ids)."""
    phase = state["phase"]
    if phase == "initiative":
        return "initiative:keep" if rng.random() < 0.85 else "initiative:pass"
    if phase == "block":
        b = state["b"]
        if b["face"] == "u":
            # The menu's first entry is the weakest card that stops the printed
            # attack value when one exists; otherwise block with the strongest.
            if VALUE[BY_CODE[ids[0][6:]]] >= VALUE[b["ac"]]:
                return ids[0]
            return ids[-1]
        return ids[int(rng.random() * len(ids))]
    if phase == "effect":
        return "effect:use"
    if phase == "reward":
        b = state["b"]
        return "reward:draw" if b["bv"] - b["av"] >= 2 else "reward:initiative"
    if phase == "attack":
        # Menus run weakest to strongest: lean to the stronger of two picks.
        n = len(ids)
        return ids[max(int(rng.random() * n), int(rng.random() * n))]
    return ids[int(rng.random() * len(ids))]


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
