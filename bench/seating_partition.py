"""An exact check of the fewest repeated table-mates, for fields of up to
about 50 players: the set-partitioning model, solved by column generation
and reduced-cost fixing with scipy's HiGHS (a dev dependency, never used by
the platform; bench/seating.py ``--partition``).

Why this model: the product's branch and bound (and the pairwise integer
program of ``milp_fewest_repeats``) bounds a seating from single players
and single past tables, and at 40 players, late in an event, every player
alone can still sit among strangers although they cannot all at once, so
those bounds stay far below the repeats found. Here a variable is a whole
table (a set of players of one of the round's sizes, costing the pairs in
it who met before), and the linear relaxation already knows which groups of
players can sit together. Every table of the field is enumerated (40
players, tables of 5 and 6: 4.5 million), which is what limits the method
to fields of a few dozen.

The proof: let ``z`` be the optimum of the relaxation over *all* tables and
``y`` its duals. Any seating costs ``z`` plus the reduced costs of its
tables (all non-negative at the optimum). So a seating with fewer repeats
than ``upper`` uses only tables whose reduced cost is at most
``upper - 1 - z``; the integer program over just those tables (HiGHS
``milp``) then finds the fewest below ``upper``, or proves there is none.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Hashable, Sequence

#: Columns added per table size and pricing round of the column generation.
_ADD_PER_ROUND = 400
#: Tables kept for the integer program at most (memory and HiGHS time).
_MAX_FIXED_COLUMNS = 3_000_000


def _all_tables(n: int, size: int):
    import numpy as np

    count = math.comb(n, size)
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(n), size)),
        dtype=np.int16,
        count=count * size,
    )
    return flat.reshape(count, size)


def _table_costs(tables, weight):
    import numpy as np

    costs = np.zeros(len(tables), dtype=np.int32)
    for i, j in itertools.combinations(range(tables.shape[1]), 2):
        costs += weight[tables[:, i], tables[:, j]]
    return costs


def partition_fewest_repeats(
    players: Sequence[Hashable],
    sizes: Sequence[int],
    met: Counter,
    *,
    upper: int,
    time_limit: float = 600.0,
) -> tuple[int, bool, list[list[Hashable]] | None]:
    """The fewest repeated pairs (``met``: how often each pair of players
    sat together) of any seating of ``players`` at tables of ``sizes``,
    given that a seating with ``upper`` repeats exists: ``(value, proven,
    tables)``, ``tables`` a seating with ``value`` repeats when it has fewer
    than ``upper`` (else None). ``proven`` is false only when the integer
    program stops at ``time_limit`` or has too many tables to hold."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, linprog, milp
    from scipy.sparse import csc_matrix, hstack, identity

    n = len(players)
    if sum(sizes) != n:
        raise ValueError("the table sizes must seat every player once")
    index = {p: i for i, p in enumerate(players)}
    weight = np.zeros((n, n), dtype=np.int32)
    for pair, times in met.items():
        if len(pair) == 2 and times:
            a, b = tuple(pair)
            if a in index and b in index:
                weight[index[a], index[b]] = weight[index[b], index[a]] = times
    wanted = Counter(sizes)
    shapes = sorted(wanted)
    tables = {s: _all_tables(n, s) for s in shapes}
    costs = {s: _table_costs(tables[s], weight) for s in shapes}
    rows = n + len(shapes)
    rhs = np.array([1.0] * n + [float(wanted[s]) for s in shapes])

    def master(columns: dict[int, np.ndarray]):
        """The constraint matrix (one row per player, one per table size)
        and the costs of ``columns`` (per size, indices into ``tables``)."""
        blocks, objective = [], []
        for k, s in enumerate(shapes):
            picked = tables[s][columns[s]]
            count = len(picked)
            row_ids = np.concatenate(
                [picked.astype(np.int64), np.full((count, 1), n + k)], axis=1
            ).ravel()
            col_ids = np.repeat(np.arange(count), s + 1)
            blocks.append(
                csc_matrix(
                    (np.ones(len(row_ids)), (row_ids, col_ids)), shape=(rows, count)
                )
            )
            objective.append(costs[s][columns[s]].astype(float))
        return hstack(blocks).tocsc(), np.concatenate(objective)

    # Column generation from each size's cheapest tables. Elastic columns
    # (one per row and sign, dearer than any seating) keep the restricted
    # relaxation feasible before its tables cover every player.
    chosen = {s: np.argsort(costs[s], kind="stable")[:_ADD_PER_ROUND] for s in shapes}
    elastic = hstack([identity(rows), -identity(rows)]).tocsc()
    penalty = np.full(2 * rows, float(weight.sum() + 1))
    while True:
        matrix, objective = master(chosen)
        relaxation = linprog(
            np.concatenate([objective, penalty]),
            A_eq=hstack([matrix, elastic]).tocsc(),
            b_eq=rhs,
            bounds=(0, None),
            method="highs",
        )
        if relaxation.status != 0:
            raise RuntimeError(f"the relaxation failed: {relaxation.message}")
        duals = relaxation.eqlin.marginals
        reduced = {
            s: costs[s] - duals[:n][tables[s]].sum(axis=1) - duals[n + k]
            for k, s in enumerate(shapes)
        }
        added = 0
        for s in shapes:
            negative = np.flatnonzero(reduced[s] < -1e-7)
            negative = np.setdiff1d(negative, chosen[s], assume_unique=True)
            if len(negative):
                order = np.argsort(reduced[s][negative], kind="stable")
                chosen[s] = np.concatenate(
                    [chosen[s], negative[order[:_ADD_PER_ROUND]]]
                )
                added += min(len(negative), _ADD_PER_ROUND)
        if not added:
            break
    relaxed = float(relaxation.fun)
    lower = math.ceil(relaxed - 1e-6)
    if lower >= upper:
        return upper, True, None
    # Reduced-cost fixing: a seating below ``upper`` uses only these tables.
    slack = upper - 1 - relaxed + 1e-6
    keep = {s: np.flatnonzero(reduced[s] <= slack) for s in shapes}
    if sum(len(v) for v in keep.values()) > _MAX_FIXED_COLUMNS:
        return lower, False, None
    matrix, objective = master(keep)
    solved = milp(
        objective,
        constraints=LinearConstraint(matrix, rhs, rhs),
        integrality=np.ones(matrix.shape[1]),
        bounds=Bounds(0, 1),
        options={"time_limit": time_limit, "disp": False},
    )
    if solved.status == 2:  # infeasible: no seating below ``upper``
        return upper, True, None
    if solved.status != 0 or solved.x is None:
        return lower, False, None
    value = round(solved.fun)
    if value >= upper:
        return upper, True, None
    picked = set(np.flatnonzero(solved.x > 0.5).tolist())
    seating, offset = [], 0
    for s in shapes:
        for j, c in enumerate(keep[s]):
            if offset + j in picked:
                seating.append([players[int(p)] for p in tables[s][c]])
        offset += len(keep[s])
    return value, True, seating
