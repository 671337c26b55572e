"""ISMCTS decisions and playouts per CPU second, at the built-in bot's budget.

Positions: every ``--every``-th decision with a real choice of seeded
two-player games (the heuristic against random play, as bench/analysis.py
plays its typical games). Each is searched once by the built-in ISMCTS bot
(default options, ``--iterations`` iterations, ``heuristic_margin`` 0 so only
the search is timed), from the deciding seat's information set. CPU time by
``time.process_time`` (one core; the load inflates wall time, not this).

``--no-native`` hides the game's compiled kernel (the engine module's
``NATIVE``/``_native``, and ``_native`` wherever the package's rule modules
hold it), so the same run shows the Python fallback's cost.
Prints one JSON line; docs/performance.md and docs/bots-builtin.md record
the figures. Run old and new trees in alternating paired runs:

    nice -n 5 .venv/bin/python bench/ismcts.py --game kungfu2013
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.rules import get_game
from gameplay.rules.bots import decision_context, get_bot
from gameplay.rules.bots.ismcts import ISMCTSBot


def positions(game_id: str, games: int, every: int) -> list[tuple[dict, int]]:
    """Seeded decision points with two or more legal actions."""
    game = get_game(game_id)
    out = []
    for seed in range(1, games + 1):
        state = game.setup({"players": 2}, seed)
        bots = [get_bot("heuristic"), get_bot("random")]
        n = 0
        while not game.is_over(state):
            seat = game.actors(state)[0]
            ctx = decision_context(game, state, seat, n)
            if len(ctx.legal_ids) > 1:
                if n % every == 0:
                    out.append((state, seat))
                n += 1
            state, _ = game.apply(state, seat, bots[seat].choose(ctx))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kungfu2013")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--no-native", action="store_true")
    args = parser.parse_args()
    game = get_game(args.game)
    # Any: the kernel's names differ by game and Duelo has none.
    engine: Any = importlib.import_module(type(game).__module__)
    if args.no_native:
        # Whatever the engine: the flag and the module its playouts check,
        # in every module of the game's package that holds that kernel (the
        # engine, and rule modules beside it such as kungfu2019's assignment.py,
        # which asks the kernel's solver for "auto" and "best").
        kernel = getattr(engine, "_native", None)
        package = engine.__name__.rpartition(".")[0] + "."
        for name, module in list(sys.modules.items()):
            held: Any = module
            if name.startswith(package) and getattr(held, "_native", 0) is kernel:
                held._native = None
        engine.NATIVE = False
        engine._native = None
    todo = positions(args.game, args.games, args.every)
    bot = ISMCTSBot(iterations=args.iterations, heuristic_margin=0.0)
    start = time.process_time()
    for i, (state, seat) in enumerate(todo):
        bot.search(decision_context(game, state, seat, i))
    cpu = time.process_time() - start
    print(
        json.dumps(
            {
                "bench": "ismcts",
                "game": args.game,
                "native": bool(getattr(engine, "NATIVE", False)),
                "decisions": len(todo),
                "iterations": args.iterations,
                "cpu_s": round(cpu, 3),
                "decisions_per_cpu_s": round(len(todo) / cpu, 2),
                "playouts_per_cpu_s": round(len(todo) * args.iterations / cpu, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
