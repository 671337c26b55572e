"""Cheap playout policy for Duelo inside ISMCTS simulations.

Playouts run on a sampled full state, thousands of times per decision, so this
policy reads the raw state instead of building observations. It is uniform random
except for a few choices no sensible player gets wrong, whose random versions made
playouts misjudge positions badly:

* never throw the Master away face up (an immediate self-elimination), and keep it
  out of face-down answers while another card is available;
* once a duel's cards are revealed, use the Disciple's copy and the Monkey's redraw
  exactly when they improve the result (both cards are public by then, and the
  Disciple's owner has seen the card it would copy, so this uses no hidden card);
* the Dragon always takes its extra card.
"""

from __future__ import annotations

import random
from typing import Any

from gameplay.rules.duelo.heuristic import resolve


def _better(state: dict[str, Any], seat: int, new_focus: int) -> bool:
    """Would ``seat`` do better in the revealed duel with Focus ``new_focus``?"""
    ctx = state["ctx"]
    ak, dk = int(ctx["card"]), int(ctx["dk"])
    fa, fd = ctx["fa"], ctx["fd"]
    if seat == state["turn"]:
        return resolve(ak, dk, new_focus, fd) > resolve(ak, dk, fa, fd)
    return resolve(ak, dk, fa, new_focus) < resolve(ak, dk, fa, fd)


def policy(state: dict[str, Any], seat: int, ids: list[str], rng: random.Random) -> str:
    """A playout move for ``seat`` among ``ids`` (the engine's legal ids)."""
    phase = state["phase"]
    if phase == "card" or phase == "answer":
        banned = "card:8" if phase == "card" else "answer:8"
        if banned in ids and len(ids) > 1:
            ids = [a for a in ids if a != banned]
    elif phase == "face":
        if state["ctx"].get("card") == "8" and "face:down" in ids:
            return "face:down"
    elif phase == "c_disciple":
        return (
            "reveal:yes"
            if _better(state, seat, int(state["ctx"]["peek"]))
            else ("reveal:no")
        )
    elif phase == "c_monkey":
        return "monkey:use" if _better(state, seat, 1) else "monkey:skip"
    elif phase == "dragon_draw":
        return "dragon:two"
    return ids[int(rng.random() * len(ids))]
