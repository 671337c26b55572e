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

``--offset N`` starts the game index (seeds and seat alternation) at N, so one
stream can be split over processes (``--offset 0 --games 1000`` and ``--offset
1000 --games 1000`` are the first 2,000 games of one run). ``--cards JSON``
plays a variant of the card list without editing ``cards.py`` (for tuning):
``'{"b01": {"value": 3}, "r18": {"cost": 2}}'`` overrides fields of rows by code
(fields: value, rise, coins, effect, cost, on_hit).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GAME = "kungfu2013"
FIELDS = ("value", "rise", "coins", "effect", "cost", "on_hit")


def patch_cards(changes: dict[str, dict]) -> None:
    """Override card fields before the engine builds its tables (tuning only).

    The package's ``__init__`` imports the engine, which reads ``cards`` at import
    time, so the patched module is loaded from its file and put in
    ``sys.modules`` before anything imports the package.
    """
    import importlib.util

    name = "gameplay.rules.kungfu2013.cards"
    path = Path(__file__).resolve().parent.parent / "gameplay/rules/kungfu2013/cards.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    cards = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cards)

    for attr in ("ATTACK_CARDS", "BLOCK_CARDS"):
        rows = []
        for row in getattr(cards, attr):
            fix = changes.get(row[0], {})
            unknown = set(fix) - set(FIELDS)
            if unknown:
                raise SystemExit(f"unknown card fields {sorted(unknown)}")
            values = dict(zip(FIELDS, row[2:], strict=True)) | fix
            rows.append((row[0], row[1], *(values[f] for f in FIELDS)))
        setattr(cards, attr, tuple(rows))
    sys.modules[name] = cards
    from gameplay.rules.kungfu2013.engine import CARDS

    for code, fix in changes.items():
        card = next(c for c in CARDS.values() if c["code"] == code)
        assert all(card[f] == v for f, v in fix.items()), (code, card)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000, help="games per balance series")
    p.add_argument("--strength-games", type=int, default=400)
    p.add_argument("--iterations", type=int, default=60, help="ISMCTS, strength")
    p.add_argument("--balance-iterations", type=int, default=30, help="ISMCTS, ii")
    p.add_argument("--seed", type=int, default=2013)
    p.add_argument("--report", type=int, default=50)
    p.add_argument("--series", default="hh,ii,ir,ih")
    p.add_argument("--offset", type=int, default=0, help="first game index")
    p.add_argument("--cards", default="", help="JSON card overrides (tuning)")
    args = p.parse_args()
    if args.cards:
        patch_cards(json.loads(args.cards))
    from gameplay.rules.simulate import derive_seed, play_game, wilson

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
    g = args.offset
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
            n = int(totals[k][1])
            if n % args.report == 0 or n == limit:
                lo, hi = wilson(totals[k][0], n)
                print(
                    json.dumps(
                        {
                            "series": k,
                            "offset": args.offset,
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
