"""Wall time of one simultaneous round of built-in ISMCTS bots: in turn vs parallel.

A Kung Fu (2019) table of ``n`` players (3-5), every seat a built-in ISMCTS
bot (default options, as at live tables), at the deal's first draft pick,
where all ``n`` seats choose at once (the heaviest decision of the game: the
whole game is ahead of every playout). Each seat is asked on the same state
with its own seed, as the platform asks it (``gameplay.bot_thinking``):

- ``in_turn``: one process, one seat after another (before this change, both
  at live tables and in the bot runner);
- ``parallel``: a pool of worker processes, one per CPU
  (:class:`~gameplay.bot_thinking.ParallelThinker`: the bot runner's path;
  live tables do the same with one Celery task per seat on the worker's
  ``--concurrency`` processes, 2 in docker-compose).

Both must give the same answers (checked). Wall time by ``time.perf_counter``,
CPU time of the in-turn round by ``os.times``; the pool's processes are forked
inside the first parallel round (milliseconds; a runner forks them once per
match). Prints JSON;
docs/performance.md ("Built-in bots choosing at once") records the numbers.
Run one benchmark at a time on the machine (docs/performance.md), e.g.
under a lock file all benchmark runs share:

    flock "$LOCK" nice -n 5 .venv/bin/python bench/builtin_parallel.py

``--iterations 50 --repeat 3`` runs a cheaper ISMCTS three times per size,
in turn and parallel interleaved (medians reported), for a loaded machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.bot_thinking import BuiltinAsk, ParallelThinker, think_in_turn
from gameplay.rules import get_game

GAME = "kungfu2019"


def _asks(players: int, seed: int, bot: str) -> list[BuiltinAsk]:
    engine = get_game(GAME)
    state = engine.setup(engine.validate_config({"players": players}), seed)
    actors = engine.actors(state)
    assert len(actors) == players, "the first draft pick is everyone's"
    return [
        BuiltinAsk(game=GAME, state=state, seat=seat, bot=bot, seed=seed * 31 + seat)
        for seat in actors
    ]


def _timed(think, asks: list[BuiltinAsk]) -> tuple[float, float, list[str]]:
    cpu0, wall0 = os.times(), time.perf_counter()
    answers = think(asks)
    wall = time.perf_counter() - wall0
    cpu1 = os.times()
    cpu = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)
    return wall, cpu, answers


def _median(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[len(xs) // 2]


def run(players: list[int], seed: int, bot: str, workers: int, repeat: int) -> dict:
    rows = []
    # Warm up (imports, the dice solver's tables) before anything is timed;
    # the pool's forked workers inherit the warm caches.
    think_in_turn(_asks(3, seed + 1000, "heuristic")[:1])
    thinker = ParallelThinker(workers=workers)
    try:
        for n in players:
            asks = _asks(n, seed, bot)
            seq_walls, par_walls, seq_cpus = [], [], []
            # Interleaved, so a change in the machine's load hits both alike.
            for _ in range(repeat):
                seq_wall, seq_cpu, seq_answers = _timed(think_in_turn, asks)
                par_wall, _, par_answers = _timed(thinker, asks)
                assert par_answers == seq_answers, "the pool answers as in turn"
                seq_walls.append(seq_wall)
                par_walls.append(par_wall)
                seq_cpus.append(seq_cpu)
            rows.append(
                {
                    "players": n,
                    "seats_choosing": len(asks),
                    "in_turn_wall_s": round(_median(seq_walls), 2),
                    "in_turn_cpu_s": round(_median(seq_cpus), 2),
                    "parallel_wall_s": round(_median(par_walls), 2),
                    "speedup": round(_median(seq_walls) / _median(par_walls), 2),
                    "ideal_speedup": min(len(asks), workers),
                    "samples_in_turn_s": [round(x, 2) for x in seq_walls],
                    "samples_parallel_s": [round(x, 2) for x in par_walls],
                }
            )
    finally:
        thinker.close()
    return {
        "bench": "builtin_parallel",
        "game": GAME,
        "decision": "first draft pick, every seat at once",
        "bot": bot,
        "cpu_count": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)),
        "workers": workers,
        "seed": seed,
        "repeat": repeat,
        "load_avg_before": [round(x, 2) for x in os.getloadavg()],
        "rounds": rows,
    }


def _register_iterations(iterations: int) -> str:
    """A bench-only built-in bot: ISMCTS with another budget (registered
    before the pool forks, so its workers know it too)."""
    from gameplay.rules import bots
    from gameplay.rules.bots.ismcts import ISMCTSBot

    class Budgeted(ISMCTSBot):
        def __init__(self, **options) -> None:
            super().__init__(**{"iterations": iterations, **options})

    name = f"ismcts_{iterations}"
    bots._FACTORIES[name] = Budgeted
    return name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="ISMCTS budget (default: the bot's own, 200, as at live tables)",
    )
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--workers", type=int, default=len(os.sched_getaffinity(0)) or 1
    )
    args = parser.parse_args()
    bot = _register_iterations(args.iterations) if args.iterations else args.bot
    result = run(args.players, args.seed, bot, args.workers, args.repeat)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
