"""Kung Fu (2009) bot matches on the virtual clock: bot strength, seat balance.

Run ``python bench/kungfu2009_bots.py --games 200 --players 4 --bots
planner,greedy,trader,random`` (one core). Line-ups rotate one seat per game, so
over a multiple of ``players`` games every bot sits in every seat equally often;
per-seat rates then measure the seats and per-bot rates the bots (the counting
rules of ``gameplay/rules/simulate.py``: a win shared by k players is 1/k each,
95% Wilson intervals). Bots: the game's strategies (``trader``, ``greedy``,
``planner``) and the generic ``random`` (uniform over the whole menu). Progress on
stderr, one JSON summary on stdout, with how games ended, mean ticks, intents and
refused intents per game.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.rules import get_game, ticks
from gameplay.rules.bots import get_bot
from gameplay.rules.kungfu2009.strategies import STRATEGIES
from gameplay.rules.simulate import derive_seed, summarise


def make_bot(name: str):
    return STRATEGIES[name]() if name in STRATEGIES else get_bot(name)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="planner,greedy,trader,random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-ticks", type=int, default=5000)
    parser.add_argument("--config", default="{}", help="extra game options, JSON")
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    if len(bots) != args.players:
        parser.error("give one bot per seat")
    game = get_game("kungfu2009")
    config = {**json.loads(args.config), "players": args.players}
    records = []
    reasons: Counter = Counter()
    ticks_total = intents = refused = 0
    start = time.perf_counter()
    cpu0 = time.process_time()
    for g in range(args.games):
        lineup = [bots[(s + g) % args.players] for s in range(args.players)]
        seed = derive_seed(args.seed, g)
        m = ticks.run(
            game,
            game.setup(config, seed),
            [make_bot(n) for n in lineup],
            seed,
            max_ticks=args.max_ticks,
        )
        r = game.result(m.state)
        assert r is not None, "ticks.run returns a finished game"
        reasons[r["reason"]] += 1
        ticks_total += m.ticks
        intents += len(m.log)
        refused += len(m.refused)
        records.append(
            {"winners": r["winners"], "steps": len(m.log), "turns": m.ticks,
             "lineup": lineup}
        )  # fmt: skip
        if (g + 1) % 10 == 0:
            print(f"  {g + 1}/{args.games} games", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    out = summarise(
        "kungfu2009", args.players, bots, args.seed, True, 1, {}, records, elapsed
    )
    out.update(
        {
            "config": config,
            "max_ticks": args.max_ticks,
            "end_reasons": dict(reasons),
            "mean_ticks": round(ticks_total / args.games, 1),
            "mean_intents": round(intents / args.games, 1),
            "mean_refused": round(refused / args.games, 2),
            "cpu_s": round(time.process_time() - cpu0, 1),
            "load_average_1m": round(os.getloadavg()[0], 2),
        }
    )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
