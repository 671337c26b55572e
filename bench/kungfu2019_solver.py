"""Kung Fu (2019): the dice-assignment solver's time per call, p50/p99/max.

For ``--hands`` random hands of three cards from the real card list (each with a
random budget 0-6 and a random role), the solver answers every one of the 792
distinct rolls of 7 dice (sorted multisets), first with empty caches ("cold":
the hand and its rolls never seen) and then again ("warm": the answer cache
hit). Times are CPU time of this thread (``time.thread_time``), so a loaded
machine does not inflate them; the cyclic garbage collector is left on. Prints
JSON; docs/performance.md ("Kung Fu (2019)") records the numbers.

    nice -n 10 .venv/bin/python bench/kungfu2019_solver.py --hands 40
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from itertools import combinations_with_replacement
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.rules.kungfu2019 import cards, solver
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND

ROLLS = [list(r) for r in combinations_with_replacement(range(1, 7), 7)]


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(hands: int, seed: int) -> dict:
    rng = random.Random(seed)
    codes = sorted(cards.COMBOS)
    cold: list[float] = []
    warm: list[float] = []
    worst: tuple[float, dict[str, object] | None] = (0.0, None)
    clock = time.thread_time
    for h in range(hands):
        hand = rng.sample(codes, 3)
        options = [
            (slot, k, c)
            for slot, code in enumerate(hand)
            for k, c in enumerate(cards.COMBOS[code])
        ]
        budget = rng.randint(0, 6)
        role = rng.choice([ATTACK, DEFEND])
        solver.clear_caches()
        for roll in ROLLS:
            t0 = clock()
            solver.best_assignment(roll, options, budget, role)
            dt = clock() - t0
            cold.append(dt)
            if dt > worst[0]:
                worst = (
                    dt,
                    {"hand": hand, "roll": roll, "budget": budget, "role": role},
                )
        for roll in ROLLS:
            t0 = clock()
            solver.best_assignment(roll, options, budget, role)
            warm.append(clock() - t0)
        if (h + 1) % 10 == 0:
            print(f"  {h + 1}/{hands} hands", file=sys.stderr, flush=True)
    ms = 1000.0
    return {
        "hands": hands,
        "calls_per_pass": len(cold),
        "rolls": len(ROLLS),
        "cold_ms": {
            "p50": round(_pct(cold, 0.5) * ms, 4),
            "p99": round(_pct(cold, 0.99) * ms, 4),
            "max": round(max(cold) * ms, 4),
            "mean": round(sum(cold) / len(cold) * ms, 4),
        },
        "warm_ms": {
            "p50": round(_pct(warm, 0.5) * ms, 4),
            "p99": round(_pct(warm, 0.99) * ms, 4),
            "max": round(max(warm) * ms, 4),
        },
        "worst_cold_case": worst[1],
        "load": os.getloadavg()[0],
        "clock": "thread CPU time",
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    print(json.dumps(run(a.hands, a.seed), indent=2))


if __name__ == "__main__":
    main()
