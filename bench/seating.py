"""Benchmark of the multiplayer Swiss seating: repeated table-mates against
the lower bound, and the time one round takes.

Run with no arguments (``python bench/seating.py``). Pure Python, no
database. For each table scheme (3-5 preferring 4, the Duelo and Kung Fu
(2019) tables; 4-8 preferring 6, Kung Fu (2009)) and field size, events of
random results (random placements, 5% of seats forfeited) are seated round by
round exactly as the tournament service does
(``swiss_multiplayer.seat_multiplayer_round_report``). Every round is seated
twice: by the swap search alone (the seating before issue 26) and by the
exact search; the fewest repeats any seating of the same table sizes can
have comes with the report (``SeatingReport.fewest_repeats``, from a branch
and bound that proves it when it finishes). Progress goes to stderr; the
last stdout line is one JSON object with, per scheme:

``pairs``                 table-mate pairs seated (rounds 2 on);
``repeat_rate_swaps``     share of them repeated by the swap search alone;
``repeat_rate_exact``     the same for the seating used now;
``repeat_rate_bound``     the lower bound's share (fewest possible repeats);
``rounds``/``rounds_above_bound``  rounds seated, and those where the seating
                          used repeats more pairs than the lower bound;
``rounds_swaps_above_bound``  the same for the swap search alone;
``proven_share``          rounds whose seating search finished (proved no
                          seating of the same sizes costs less);
``bound_proven_share``    rounds whose lower bound is exact (no repeat, or
                          the fewest-repeats search finished);
``round_max_s``/``round_median_s``  wall time of one round's seating (the
                          exact search included), per field size;
``round_cpu_max_s``       the slowest round in CPU time of this process (on a
                          shared machine wall time measures the neighbours).

``--prove NODES`` re-runs the fewest-repeats search (``_fewest_repeats_seating``,
tabu then branch and bound) with a budget of NODES instead of the
product's ``REPEAT_NODE_LIMIT`` on every round whose bound the product left
unproven: ``prove_rounds`` such rounds, ``prove_proven`` those it proves
(their bound then counts as exact), ``prove_fewer_rounds`` those where it
finds a seating with fewer repeats than the product's (the product missed
the optimum there).

``--write-optima PATH`` writes the events with proven fewest repeats (the
seats, placements and forfeits of every round; per round the proven fewest
repeated pairs when above 0 and the seating has no more, in
``fewest_repeats``; in ``above_fewest`` the rounds whose seating repeats
more than the proven fewest, with both counts) as JSON: the committed table
``tests/league/algorithms/data/seating_optima.json`` the tests seat again.

``--milp SECONDS`` checks every round whose fewest-repeats search stopped
unfinished with an integer program (``milp_fewest_repeats``: scipy's HiGHS,
a dev dependency through open_spiel, not used by the platform): ``milp_rounds``
such rounds, ``milp_proven`` those whose optimum HiGHS proved in time (their
bound then counts as exact), ``milp_fewer_rounds``/``milp_fewer_pairs`` rounds
where HiGHS found a seating with fewer repeats than the project's, and by how
many pairs in all.

``--partition SECONDS`` proves the fewest repeats of every round still
unproven after ``--prove`` and of at most ``PARTITION_MAX_PLAYERS`` players
with the set-partitioning model (``seating_partition.py``: column generation
and reduced-cost fixing with scipy's HiGHS, SECONDS for its integer
program): ``partition_rounds`` such rounds, ``partition_proven`` those it
proves (their bound then counts as exact), ``partition_fewer_rounds`` /
``partition_fewer_pairs`` rounds where the product's seating repeats more
than the proven fewest, and by how many pairs in all.
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

from bench.seating_partition import partition_fewest_repeats  # noqa: E402
from league.tournaments.formats.multiplayer_seating import _repeats  # noqa: E402
from league.tournaments.formats.multiplayer_seating_repeats import (  # noqa: E402
    _fewest_repeats_seating,
)
from league.tournaments.formats.swiss_multiplayer import (  # noqa: E402
    TableResult,
    _met,
    _met_groups,
    seat_multiplayer_round_report,
)

#: Largest field ``--partition`` proves: it enumerates every table (40
#: players, tables of 5 and 6: 4.5 million; 50 players: 18 million).
PARTITION_MAX_PLAYERS = 50

SCHEMES = {
    "tables_3_5": {"min_size": 3, "max_size": 5, "preferred_size": 4},
    "tables_4_8": {"min_size": 4, "max_size": 8, "preferred_size": 6},
}


def _play(tables, rnd: random.Random) -> list[TableResult]:
    out = []
    for t in tables:
        places = {p: rnd.randint(1, len(t.seats)) for p in t.seats}
        gone = (
            frozenset(p for p in t.seats if rnd.random() < 0.05)
            if len(t.seats) > 1
            else frozenset()
        )
        if len(gone) >= len(t.seats) - 1:
            gone = frozenset()
        out.append(
            TableResult(round=t.round, seats=t.seats, placements=places, forfeited=gone)
        )
    return out


def milp_fewest_repeats(groups, met, time_limit: float = 30.0):
    """The fewest repeated pairs any seating of these players at tables of
    these sizes can have, by an integer program (scipy's HiGHS): an
    independent check of ``SeatingReport.fewest_repeats``. Returns (value,
    proven): proven when HiGHS finished within ``time_limit``."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import lil_matrix

    players = [p for g in groups for p in g]
    sizes = [len(g) for g in groups]
    index = {p: i for i, p in enumerate(players)}
    n, k = len(players), len(sizes)
    pairs = [
        (index[a], index[b], w)
        for pair, w in met.items()
        if w and len(pair) == 2
        for a, b in [tuple(pair)]
        if a in index and b in index
    ]
    nx = n * k
    ny = len(pairs) * k
    cost = np.concatenate([np.zeros(nx), np.repeat([w for *_, w in pairs], k)])
    rows = n + k + ny
    a = lil_matrix((rows, nx + ny))
    lo, hi = np.zeros(rows), np.zeros(rows)
    for p in range(n):  # each player at one table
        for t in range(k):
            a[p, p * k + t] = 1
        lo[p] = hi[p] = 1
    for t in range(k):  # each table full
        for p in range(n):
            a[n + t, p * k + t] = 1
        lo[n + t] = hi[n + t] = sizes[t]
    row = n + k
    for j, (p, q, _) in enumerate(pairs):  # y >= x_p + x_q - 1
        for t in range(k):
            a[row, p * k + t] = 1
            a[row, q * k + t] = 1
            a[row, nx + j * k + t] = -1
            lo[row], hi[row] = -np.inf, 1
            row += 1
    upper = np.ones(nx + ny)
    # Tables of one size are interchangeable: order them by their first
    # player, so player p sits at none of its size's tables after the p-th.
    seen: dict[int, int] = {}
    for t, size in enumerate(sizes):
        j = seen.get(size, 0)
        seen[size] = j + 1
        for p in range(min(j, n)):
            upper[p * k + t] = 0
    integrality = np.concatenate([np.ones(nx), np.zeros(ny)])
    result = milp(
        cost,
        constraints=LinearConstraint(a.tocsr(), lo, hi),
        integrality=integrality,
        bounds=Bounds(np.zeros(nx + ny), upper),
        options={"time_limit": time_limit, "disp": False},
    )
    if result.x is None:
        return None, False
    proven = result.status == 0
    value = round(result.fun)
    if not proven and getattr(result, "mip_dual_bound", None) is not None:
        return value, round(result.mip_dual_bound) >= value
    return value, proven


def _pairs(tables) -> int:
    return sum(len(t.seats) * (len(t.seats) - 1) // 2 for t in tables)


def run(
    players: list[int],
    rounds: list[int],
    events: int,
    seed: int,
    milp_seconds: float = 0.0,
    schemes: tuple[str, ...] = (),
    prove_nodes: int = 0,
    instances: list | None = None,
    partition_seconds: float = 0.0,
) -> dict:
    """The figures per scheme; with ``instances``, every event with a round
    whose fewest repeats is proven and above 0 is appended to it."""
    out: dict = {}
    if instances is None:
        instances = []
    for scheme, sizes in SCHEMES.items():
        if schemes and scheme not in schemes:
            continue
        agg = {
            "pairs": 0,
            "repeats_swaps": 0,
            "repeats_exact": 0,
            "repeats_bound": 0,
            "rounds": 0,
            "rounds_above_bound": 0,
            "rounds_swaps_above_bound": 0,
            "proven": 0,
            "bound_proven": 0,
            "milp_rounds": 0,
            "milp_proven": 0,
            "milp_fewer": 0,
            "milp_fewer_pairs": 0,
            "prove_rounds": 0,
            "prove_proven": 0,
            "prove_fewer": 0,
            "partition_rounds": 0,
            "partition_proven": 0,
            "partition_fewer": 0,
            "partition_fewer_pairs": 0,
        }
        times: dict[int, list[float]] = {}
        cpu: dict[int, list[float]] = {}
        for n in players:
            for total in rounds:
                for event in range(events):
                    rnd = random.Random(f"{seed}:{scheme}:{n}:{total}:{event}")
                    field = list(range(1, n + 1))
                    results: list[TableResult] = []
                    optima: list[tuple[int, int]] = []
                    above: list[tuple[int, int, int]] = []
                    for r in range(1, total + 1):
                        t0, c0 = time.perf_counter(), time.process_time()
                        tables, report = seat_multiplayer_round_report(
                            field, results, **sizes
                        )
                        times.setdefault(n, []).append(time.perf_counter() - t0)
                        cpu.setdefault(n, []).append(time.process_time() - c0)
                        if r > 1:
                            met = _met(results)
                            swaps, _ = seat_multiplayer_round_report(
                                field,
                                results,
                                node_limit=0,
                                repeat_node_limit=0,
                                **sizes,
                            )
                            games = [t for t in tables if len(t.seats) > 1]
                            swap_repeats = _repeats([t.seats for t in swaps], met)
                            bound, exact = report.fewest_repeats, report.bound_proven
                            if not report.repeats:
                                bound, exact = 0, True
                            if not exact and prove_nodes > 0:
                                # The same search with a far larger budget.
                                agg["prove_rounds"] += 1
                                _, value, proven = _fewest_repeats_seating(
                                    [p for t in games for p in t.seats],
                                    _met_groups(results),
                                    [len(t.seats) for t in games],
                                    at_most=report.repeats,
                                    node_limit=prove_nodes,
                                    start=[list(t.seats) for t in games],
                                )
                                agg["prove_fewer"] += value < report.repeats
                                bound = min(bound, value)
                                if proven:
                                    exact = True
                                    agg["prove_proven"] += 1
                            if (
                                not exact
                                and partition_seconds > 0
                                and n <= PARTITION_MAX_PLAYERS
                            ):
                                # Every table enumerated: the linear bound of
                                # whole tables, then an integer program.
                                agg["partition_rounds"] += 1
                                value, proven, _ = partition_fewest_repeats(
                                    [p for t in games for p in t.seats],
                                    [len(t.seats) for t in games],
                                    met,
                                    upper=report.repeats,
                                    time_limit=partition_seconds,
                                )
                                if proven:
                                    bound, exact = value, True
                                    agg["partition_proven"] += 1
                                    agg["partition_fewer"] += value < report.repeats
                                    agg["partition_fewer_pairs"] += (
                                        report.repeats - value
                                    )
                            if not exact and milp_seconds > 0:
                                # The project's search stopped: an integer
                                # program checks the bound independently.
                                agg["milp_rounds"] += 1
                                value, proven = milp_fewest_repeats(
                                    [t.seats for t in games], met, milp_seconds
                                )
                                if value is not None and value < report.repeats:
                                    agg["milp_fewer"] += 1
                                    agg["milp_fewer_pairs"] += report.repeats - value
                                if value is not None and proven:
                                    bound, exact = value, True
                                    agg["milp_proven"] += 1
                                elif value is not None:
                                    bound = min(bound, value)
                            agg["pairs"] += _pairs(games)
                            agg["repeats_swaps"] += swap_repeats
                            agg["repeats_exact"] += report.repeats
                            agg["repeats_bound"] += bound
                            agg["rounds"] += 1
                            agg["rounds_above_bound"] += report.repeats > bound
                            agg["rounds_swaps_above_bound"] += swap_repeats > bound
                            agg["proven"] += report.proven
                            agg["bound_proven"] += exact
                            if exact and bound and report.repeats == bound:
                                optima.append((r, bound))
                            elif exact and report.repeats > bound:
                                above.append((r, bound, report.repeats))
                        results += _play(tables, rnd)
                    if optima or above:
                        instances.append(
                            {
                                "scheme": scheme,
                                "players": n,
                                "results": [
                                    [
                                        res.round,
                                        list(res.seats),
                                        [res.placements[p] for p in res.seats],
                                        sorted(res.forfeited),
                                    ]
                                    for res in results
                                ],
                                "fewest_repeats": optima,
                                "above_fewest": above,
                            }
                        )
                print(f"{scheme} {n} players done", file=sys.stderr, flush=True)
        pairs = max(agg["pairs"], 1)
        out[scheme] = {
            "pairs": agg["pairs"],
            "repeat_rate_swaps": round(agg["repeats_swaps"] / pairs, 5),
            "repeat_rate_exact": round(agg["repeats_exact"] / pairs, 5),
            "repeat_rate_bound": round(agg["repeats_bound"] / pairs, 5),
            "rounds": agg["rounds"],
            "rounds_above_bound": agg["rounds_above_bound"],
            "rounds_swaps_above_bound": agg["rounds_swaps_above_bound"],
            "proven_share": round(agg["proven"] / max(agg["rounds"], 1), 4),
            "bound_proven_share": round(agg["bound_proven"] / max(agg["rounds"], 1), 4),
            "prove_rounds": agg["prove_rounds"],
            "prove_proven": agg["prove_proven"],
            "prove_fewer_rounds": agg["prove_fewer"],
            "partition_rounds": agg["partition_rounds"],
            "partition_proven": agg["partition_proven"],
            "partition_fewer_rounds": agg["partition_fewer"],
            "partition_fewer_pairs": agg["partition_fewer_pairs"],
            "milp_rounds": agg["milp_rounds"],
            "milp_proven": agg["milp_proven"],
            "milp_fewer_rounds": agg["milp_fewer"],
            "milp_fewer_pairs": agg["milp_fewer_pairs"],
            "round_max_s": {n: round(max(v), 4) for n, v in times.items()},
            "round_cpu_max_s": {n: round(max(v), 4) for n, v in cpu.items()},
            "round_median_s": {
                n: round(statistics.median(v), 4) for n, v in times.items()
            },
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="9,15,24,40,80")
    parser.add_argument("--rounds", default="3,5,7")
    parser.add_argument("--events", type=int, default=3)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument(
        "--milp",
        type=float,
        default=0.0,
        help="seconds of HiGHS (scipy) per round whose bound the search left "
        "unproven; 0 = off",
    )
    parser.add_argument(
        "--prove",
        type=int,
        default=0,
        help="nodes of the fewest-repeats search per round whose bound the "
        "product's budget left unproven; 0 = off",
    )
    parser.add_argument(
        "--partition",
        type=float,
        default=0.0,
        help="prove the fewest repeats of every round still unproven (fields "
        f"of at most {PARTITION_MAX_PLAYERS}) with the set-partitioning model; "
        "seconds for its integer program, 0 = off",
    )
    parser.add_argument(
        "--write-optima",
        default="",
        help="write every event with a round whose fewest repeats (above 0) "
        "is proven to this JSON file: the table "
        "tests/league/algorithms/data/seating_optima.json",
    )
    parser.add_argument(
        "--schemes", default="", help="comma-separated subset of " + ",".join(SCHEMES)
    )
    args = parser.parse_args()
    instances: list = []
    result = run(
        [int(x) for x in args.players.split(",")],
        [int(x) for x in args.rounds.split(",")],
        args.events,
        args.seed,
        args.milp,
        tuple(x for x in args.schemes.split(",") if x),
        args.prove,
        instances,
        args.partition,
    )
    if args.write_optima:
        Path(args.write_optima).write_text(
            json.dumps({"args": vars(args), "events": instances}, indent=None) + "\n"
        )
    result["machine"] = {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load": os.getloadavg()[0],
    }
    result["args"] = vars(args)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
