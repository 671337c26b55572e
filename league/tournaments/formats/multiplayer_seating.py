"""The search for a multiplayer Swiss round's tables (``swiss_multiplayer``).

Three searches over the same seating, each cheap where the one before it
leaves little to find: a swap search between tables (``_local_search``), an
exact branch and bound over the whole cost (``_exact_search``: repeated pairs,
repeated floats, distance from the standing's table), and, when a seating
still repeats pairs, the fewest-repeats searches on repeats alone
(``multiplayer_seating_repeats``), whose groups ``_place_groups`` puts at
the tables.
Every search is deterministic (fixed scan orders and seeds), so re-running a
round gives the same tables. docs/tournaments.md explains the method and
docs/performance.md its cost.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

#: Nodes each exact search may visit per round before it settles for the best
#: seating found (``SeatingReport.proven`` false): about a second of CPU at
#: 80 players (bench/seating.py, docs/performance.md).
SEARCH_NODE_LIMIT = 10_000
_WINDOW = 16
#: Fields of more players than this give both branches and bounds (this
#: module's cost search and ``multiplayer_seating_repeats``' fewest-repeats
#: search) a tenth of their budget (``swiss_multiplayer``): on
#: bench/seating.py's 360 rounds (both table schemes, fields of 9, 15, 24, 40
#: and 80) neither proved anything there beyond a small tree (the cost
#: search finished within 640 nodes; the fewest-repeats search only by
#: finding a seating with no repeat, which the local searches after it find
#: too), while each spent a second or two of CPU in every 40-player round
#: with repeats. Fields of 24 needed their whole budgets for their proofs.
PROOF_FIELD = 32


@dataclass(frozen=True, slots=True)
class SeatingReport:
    """How a round's tables were chosen (``seat_multiplayer_round_report``).

    ``cost`` is the seating's cost (repeats, then repeated floats, then
    distance from the standing's table; see ``_Costs``), ``repeats`` the pairs
    of players who sit together again, ``local_cost`` what the swap search
    alone reached, and ``proven`` whether the exact search finished, so no
    seating with these table sizes costs less. ``fewest_repeats`` is the
    fewest repeated pairs any seating of these sizes can have (exact when
    ``bound_proven``): the lower bound the repeats are measured against.
    """

    cost: int
    repeats: int
    local_cost: int
    proven: bool
    nodes: int
    fewest_repeats: int = 0
    bound_proven: bool = True


@dataclass(slots=True)
class _Costs:
    """The seating cost, as integers: each repeated pair of table-mates costs
    ``pair`` (it outweighs any float and displacement change), a player moved
    off their standing's table in the direction they floated last round costs
    ``again`` (it outweighs any displacement), and each table moved costs 1."""

    met: Counter
    home: dict
    last_float: dict
    again: int
    pair: int

    def unary(self, p: Hashable, index: int) -> int:
        home = self.home[p]
        repeated = (index > home and self.last_float[p] == "down") or (
            index < home and self.last_float[p] == "up"
        )
        return self.again * repeated + abs(index - home)

    def total(self, tables: list[list[Hashable]]) -> int:
        return sum(
            self.unary(p, i) for i, table in enumerate(tables) for p in table
        ) + self.pair * _repeats(tables, self.met)


def _repeats(tables: Iterable[Sequence[Hashable]], met: Counter) -> int:
    return sum(
        met[frozenset((a, b))]
        for table in tables
        for a, b in itertools.combinations(table, 2)
    )


def _local_search(tables: list[list[Hashable]], costs: _Costs) -> None:
    """Swap players between tables while a swap lowers the cost (in place)."""

    def member_cost(p: Hashable, table: list[Hashable], index: int) -> int:
        repeats = sum(costs.met[frozenset((p, q))] for q in table if q != p)
        # Per member, each repeated pair counts at both ends: half the weight.
        return costs.pair // 2 * repeats + costs.unary(p, index)

    improved = True
    while improved:
        improved = False
        for (i, ti), (j, tj) in itertools.combinations(enumerate(tables), 2):
            for a_pos, b_pos in itertools.product(range(len(ti)), range(len(tj))):
                a, b = ti[a_pos], tj[b_pos]
                before = member_cost(a, ti, i) + member_cost(b, tj, j)
                ti[a_pos], tj[b_pos] = b, a
                after = member_cost(b, ti, i) + member_cost(a, tj, j)
                if after < before:
                    improved = True
                else:
                    ti[a_pos], tj[b_pos] = a, b


def _exact_search(
    players: list[Hashable],
    sizes: list[int],
    *,
    unary: Callable[[Hashable, int], int],
    pair: int,
    met: Counter,
    home: Mapping[Hashable, int] | None,
    bound: int,
    node_limit: int,
    symmetric: bool = False,
) -> tuple[list[list[Hashable]] | None, int, bool, int]:
    """Depth-first branch and bound over every seating of ``players`` (in
    standing order) into tables of ``sizes``: the cheapest seating costing
    less than ``bound``, its cost, whether the search finished, nodes used.

    A partial seating's cost only grows as players are added (every term is
    non-negative), so a branch whose cost plus a lower bound for the players
    still to seat reaches the best cost so far is cut (``future``: a player
    whose standing's table, ``home``, is full must sit at another table,
    which costs at least 1; a player who met someone seated costs at least
    their cheapest open table). With ``symmetric`` (costs that do
    not depend on the table index) only the first empty table of each size is
    tried. Returns ``(None, bound, finished, nodes)`` when nothing is cheaper.
    """
    n, count = len(players), len(sizes)
    conflicts: list[dict[int, int]] = [{} for _ in range(n)]
    for i, j in itertools.combinations(range(n), 2):
        times = met[frozenset((players[i], players[j]))]
        if times:
            conflicts[i][j] = conflicts[j][i] = times
    costs = [[unary(p, t) for t in range(count)] for p in players]
    homes = [home[p] for p in players] if home is not None else None
    still_home = [0] * count  # players not yet seated whose home is the table
    if homes is not None:
        for h in homes:
            still_home[h] += 1
    free = list(sizes)
    members: list[list[int]] = [[] for _ in range(count)]
    # against[j][t]: how often player j met the players seated at table t.
    against = [[0] * count for _ in range(n)]
    best: list[list[int]] | None = None
    best_cost = bound
    nodes = 0
    finished = True

    def forced(t: int) -> int:
        return max(0, still_home[t] - free[t])

    def future(k: int, pushed: int) -> int:
        """A lower bound on what seating players k.. adds: the players pushed
        off full standing tables (1 each), or, if larger, the sum over the
        next ``_WINDOW`` players (any subset bounds from below; the next ones
        prune most) who met someone already seated of their cheapest open
        table. The window keeps a node's work small in fields of hundreds."""
        total = 0
        open_tables = [t for t in range(count) if free[t]]
        for j in range(k, min(n, k + _WINDOW)):
            row = against[j]
            if not any(row[t] for t in open_tables):
                continue
            unary_j = costs[j]
            total += min(unary_j[t] + pair * row[t] for t in open_tables)
        return max(pushed, total)

    def dfs(k: int, cost: int, pushed: int) -> None:
        nonlocal best, best_cost, nodes, finished
        if k == n:
            best, best_cost = [list(m) for m in members], cost
            return
        if nodes >= node_limit:
            finished = False
            return
        nodes += 1
        row = against[k]
        options = []
        empty_sizes: set[int] = set()
        for t in range(count):
            if not free[t]:
                continue
            if symmetric and not members[t]:
                if sizes[t] in empty_sizes:
                    continue
                empty_sizes.add(sizes[t])
            options.append((costs[k][t] + pair * row[t], t))
        options.sort()
        h = homes[k] if homes is not None else None
        for step, t in options:
            if cost + step + pushed >= best_cost:
                break  # sorted: every later option costs as much or more
            if h is not None:
                before = forced(h) + (forced(t) if t != h else 0)
                still_home[h] -= 1
                free[t] -= 1
                after = forced(h) + (forced(t) if t != h else 0)
                more = pushed + after - before
            else:
                free[t] -= 1
                more = pushed
            members[t].append(k)
            for j, times in conflicts[k].items():
                against[j][t] += times
            if cost + step + future(k + 1, more) < best_cost:
                dfs(k + 1, cost + step, more)
            for j, times in conflicts[k].items():
                against[j][t] -= times
            members[t].pop()
            free[t] += 1
            if h is not None:
                still_home[h] += 1
            if not finished:
                return

    dfs(0, 0, 0)
    if best is None:
        return None, bound, finished, nodes
    return [[players[i] for i in m] for m in best], best_cost, finished, nodes


def _place_groups(
    groups: list[list[Hashable]], sizes: list[int], costs: _Costs
) -> list[list[Hashable]]:
    """Put each group at a table of its size, the cheapest way in total
    (a minimum-cost assignment, solved as a maximum-weight matching)."""
    import networkx as nx  # type: ignore[import-untyped]  # no stubs installed

    graph = nx.Graph()
    worst = 1 + sum(
        costs.unary(p, t) for group in groups for p in group for t in range(len(sizes))
    )
    for g, group in enumerate(groups):
        for t, size in enumerate(sizes):
            if size == len(group):
                cost = sum(costs.unary(p, t) for p in group)
                graph.add_edge(("g", g), ("t", t), weight=worst - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    tables: list[list[Hashable]] = [[] for _ in sizes]
    for a, b in matching:
        g, t = (a[1], b[1]) if a[0] == "g" else (b[1], a[1])
        tables[t] = list(groups[g])
    return tables
