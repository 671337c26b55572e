"""Benchmark of the tournament pairings: how long one round takes to pair.

Run with no arguments (``python bench/pairings.py``; ``--players 200
--rounds 9 --events 3`` are the defaults). Pure Python, no database. Each
event has random results (a third of the games drawn, 5% forfeited), and every
round is paired from the history so far, as the tournament service does.
Progress goes to stderr; the last stdout line is one JSON object with:

``swiss_round_max_s``     slowest two-player Swiss round (FIDE Dutch through
                          py4swiss, TRF written and parsed included) over every
                          round of every event, wall clock; target < 2 s at
                          200 players;
``swiss_round_cpu_max_s`` the same in CPU time of this process: on a shared,
                          overloaded machine wall time measures the neighbours,
                          CPU time what one round costs (the load average is
                          printed too);
``swiss_round_median_s``  median round; ``swiss_by_round_max_s`` the slowest
                          per round number (round 1, one big score group, is
                          the expensive one);
``tables_round_max_s``    slowest multiplayer Swiss round (tables of 3-5) for
                          the same number of players;
``double_elim_build_s``   building a double-elimination bracket of that size.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from league.tournaments.formats import elimination, swiss_multiplayer  # noqa: E402
from league.tournaments.formats.swiss import SwissGame, pair_swiss_round  # noqa: E402


def _result(rnd: random.Random, r: int, first, second) -> SwissGame:
    if second is None:
        return SwissGame(r, first, None, 1.0)
    roll = rnd.random()
    if roll < 0.05:
        return SwissGame(r, first, second, rnd.choice((1.0, 0.0)), forfeit=True)
    if roll < 0.05 + 0.95 / 3:
        return SwissGame(r, first, second, 0.5)
    return SwissGame(r, first, second, rnd.choice((1.0, 0.0)))


def swiss_event(
    players: int, rounds: int, seed: int
) -> tuple[list[float], list[float]]:
    rnd = random.Random(seed)
    ids = list(range(1, players + 1))
    history: list[SwissGame] = []
    times, cpu = [], []
    for r in range(1, rounds + 1):
        start, start_cpu = time.perf_counter(), time.process_time()
        pairings = pair_swiss_round(ids, history, total_rounds=rounds)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        history += [_result(rnd, r, p.first, p.second) for p in pairings]
        print(
            f"swiss {players}p event {seed} round {r}: {times[-1]:.3f} s "
            f"(cpu {cpu[-1]:.3f} s)",
            file=sys.stderr,
        )
    return times, cpu


def tables_event(players: int, rounds: int, seed: int) -> list[float]:
    rnd = random.Random(seed)
    ids = list(range(1, players + 1))
    results: list[swiss_multiplayer.TableResult] = []
    times = []
    for r in range(1, rounds + 1):
        start = time.perf_counter()
        tables = swiss_multiplayer.seat_multiplayer_round(ids, results)
        times.append(time.perf_counter() - start)
        for t in tables:
            order = list(t.seats)
            rnd.shuffle(order)
            results.append(
                swiss_multiplayer.TableResult(
                    round=r,
                    seats=t.seats,
                    placements={p: i + 1 for i, p in enumerate(order)},
                )
            )
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--events", type=int, default=3)
    args = parser.parse_args()
    swiss_times: list[list[float]] = []
    swiss_cpu: list[float] = []
    table_times: list[float] = []
    for seed in range(args.events):
        wall, cpu = swiss_event(args.players, args.rounds, seed)
        swiss_times.append(wall)
        swiss_cpu += cpu
        table_times += tables_event(args.players, args.rounds, seed)
    start = time.perf_counter()
    elimination.double_elimination(list(range(1, args.players + 1)))
    build = time.perf_counter() - start
    flat = [t for event in swiss_times for t in event]
    by_round = [max(event[i] for event in swiss_times) for i in range(args.rounds)]
    report = {
        "players": args.players,
        "rounds": args.rounds,
        "events": args.events,
        "swiss_round_max_s": round(max(flat), 3),
        "swiss_round_median_s": round(statistics.median(flat), 3),
        "swiss_by_round_max_s": [round(t, 3) for t in by_round],
        "swiss_round_cpu_max_s": round(max(swiss_cpu), 3),
        "swiss_round_cpu_median_s": round(statistics.median(swiss_cpu), 3),
        "swiss_target_met": max(flat) < 2.0,
        "swiss_target_met_cpu": max(swiss_cpu) < 2.0,
        "tables_round_max_s": round(max(table_times), 3),
        "double_elim_build_s": round(build, 4),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
