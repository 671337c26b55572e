"""Kung Fu (2013) balance and bot-strength runs, interleaved, with running totals.

``python bench/kungfu2013_balance.py --games 2000 --strength-games 400
--iterations 60 --balance-iterations 30`` plays four series round-robin, one game
of each in turn, so that a run stopped early still has comparable partial
results for all of them:

* ``hh``: heuristic vs heuristic, seat 0 always starts (``start: 0``), the two
  bots alternating seats: the starting player's win rate;
* ``ii``: ISMCTS vs ISMCTS, the same way;
* ``ir``: ISMCTS vs random, seats rotated (game g seats ISMCTS in seat g % 2);
* ``ih``: ISMCTS vs heuristic, seats rotated.

Every game's seed and every decision's seed come from ``--seed`` through the
simulator's ``derive_seed``, as in ``python -m gameplay.rules simulate``. After
every ``--report`` games of a series one JSON line goes to stdout with the
running rate and its 95% Wilson interval; docs/rules/kungfu2013.md records the
results.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.rules.simulate import derive_seed, play_game, wilson

GAME = "kungfu2013"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000, help="games per balance series")
    p.add_argument("--strength-games", type=int, default=400)
    p.add_argument("--iterations", type=int, default=60, help="ISMCTS, strength")
    p.add_argument("--balance-iterations", type=int, default=30, help="ISMCTS, ii")
    p.add_argument("--seed", type=int, default=2013)
    p.add_argument("--report", type=int, default=50)
    p.add_argument("--series", default="hh,ii,ir,ih")
    args = p.parse_args()
    series = args.series.split(",")
    strength = {"ismcts": {"iterations": args.iterations}}
    balance = {"ismcts": {"iterations": args.balance_iterations}}
    plan = {
        "hh": (["heuristic", "heuristic"], {}, args.games, True),
        "ii": (["ismcts", "ismcts"], balance, args.games, True),
        "ir": (["ismcts", "random"], strength, args.strength_games, False),
        "ih": (["ismcts", "heuristic"], strength, args.strength_games, False),
    }
    totals = {k: [0.0, 0, 0.0] for k in series}  # wins, games, cpu seconds
    g = 0
    while any(totals[k][1] < plan[k][2] for k in series):
        for k in series:
            bots, options, limit, starter = plan[k]
            if totals[k][1] >= limit:
                continue
            lineup = bots if g % 2 == 0 else bots[::-1]
            config = {"start": 0} if starter else {}
            t0 = time.process_time()
            r = play_game(GAME, 2, lineup, options, derive_seed(args.seed, g), config)
            totals[k][2] += time.process_time() - t0
            winners = r["winners"]
            # Balance: wins of seat 0 (the starter); strength: wins of bots[0].
            me = 0 if starter else lineup.index(bots[0])
            totals[k][0] += (me in winners) / len(winners)
            totals[k][1] += 1
            n = totals[k][1]
            if n % args.report == 0 or n == limit:
                lo, hi = wilson(totals[k][0], n)
                print(
                    json.dumps(
                        {
                            "series": k,
                            "bots": bots,
                            "options": options,
                            "measure": "starter" if starter else bots[0],
                            "games": n,
                            "rate": round(totals[k][0] / n, 4),
                            "ci95": [round(lo, 4), round(hi, 4)],
                            "cpu_s_per_game": round(totals[k][2] / n, 3),
                        }
                    ),
                    flush=True,
                )
        g += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
