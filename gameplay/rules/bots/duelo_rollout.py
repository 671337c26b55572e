"""Cheap playout policy for Duelo inside ISMCTS simulations.

Playouts run on a sampled full state, thousands of times per decision, so this
policy reads the raw state instead of building observations. It is uniform random
except that it never throws the Master away face up (an immediate, self-inflicted
elimination no real player makes); pure random playouts do that so often that they
teach the search to fear the Master instead of using it.
"""

from __future__ import annotations

import random
from typing import Any


def policy(state: dict[str, Any], seat: int, ids: list[str], rng: random.Random) -> str:
    """A playout move for ``seat`` among ``ids`` (the engine's legal ids)."""
    phase = state["phase"]
    if phase == "card" and "card:8" in ids and len(ids) > 1:
        ids = [a for a in ids if a != "card:8"]
    elif phase == "face" and state["ctx"].get("card") == "8" and "face:down" in ids:
        return "face:down"
    return ids[int(rng.random() * len(ids))]
