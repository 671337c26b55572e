"""The fewest-repeats searches of a multiplayer Swiss round
(``multiplayer_seating``, ``swiss_multiplayer``): groups of the round's table
sizes with the fewest pairs of players who sat together before, on repeats
alone (floats and distances are the cost search's).

``_fewest_repeats_seating`` runs them in turn (the local searches live in
``multiplayer_seating_local``): the tabu search
``_tabu_repeats`` finds a good seating fast; the branch and bound
``_RepeatSearch`` looks for one with fewer repeats and, when it finishes,
proves the fewest; where it cannot (40 players late in an event with tables
of 4-8, mid-size fields with tables of 3-5), two runs of the kicked tabu
search ``_kicked_tabu`` look further, one from the best seating so far and one
from the breakout search ``_breakout_repeats``'s, and ``_resplit_pairs``
re-seats every two tables of the best as their best split.
Every search is deterministic (fixed scan orders and seeds), so re-running a
round gives the same tables. docs/tournaments.md explains the method and
docs/performance.md its cost.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable

from league.tournaments.formats.multiplayer_seating_local import (
    BREAKOUT_EVALUATIONS,
    KICK_EVALUATIONS,
    KICK_SEEDS,
    TABU_MOVES,
    _breakout_repeats,
    _kicked_tabu,
    _resplit_pairs,
    _tabu_repeats,
)

#: Nodes the fewest-repeats search (``_RepeatSearch``) may visit per round:
#: about a second of CPU for 40-80 players (docs/performance.md).
REPEAT_NODE_LIMIT = 20_000
#: Nodes for one player's cheapest table (``_cheapest_table``) at the root.
_TABLE_NODE_LIMIT = 2_000


def _cheapest_table(
    u: int, candidates: list[int], weight: list[list[int]], size: int
) -> int:
    """The fewest repeated pairs any table of ``size`` holding ``u`` can
    have, its other players from ``candidates`` (0 when the search runs out
    of nodes: a lower bound either way)."""
    order = sorted(candidates, key=lambda v: weight[u][v])
    best = sum(
        weight[a][b] for a, b in itertools.combinations([u, *order[: size - 1]], 2)
    )
    nodes = 0

    def dfs(members: list[int], start: int, cost: int) -> bool:
        nonlocal best, nodes
        if len(members) == size:
            best = min(best, cost)
            return True
        nodes += 1
        if nodes > _TABLE_NODE_LIMIT:
            return False
        need = size - len(members)
        adds = sorted(sum(weight[v][m] for m in members) for v in order[start:])
        if len(adds) < need or cost + sum(adds[:need]) >= best:
            return True
        for i in range(start, len(order) - need + 1):
            v = order[i]
            add = sum(weight[v][m] for m in members)
            if cost + add < best:
                members.append(v)
                if not dfs(members, i + 1, cost + add):
                    return False
                members.pop()
        return True

    return best if dfs([u], 0, 0) else 0


class _RepeatSearch:
    """Branch and bound for the fewest repeated pairs: groups of ``sizes``
    from players ``0..n-1``, a pair costing ``weight[a][b]`` (how often the
    two met), tables of one size interchangeable.

    Tables are filled one at a time. Each opens with the unseated player who
    has the fewest unseated players they never met (the most constrained
    first, like the choice of column in exact cover), at one of the sizes
    left; its other players are chosen as a combination in order of what they
    add. A node is cut when its cost plus a lower bound for the players still
    to seat reaches the best seating found. The bound is the largest of three:

    * *past tables* (pigeonhole): the players of a past table who are still to
      be seated spread over the open places; however they spread, each one
      placed where ``j`` of them already sit repeats ``j`` pairs, so the
      cheapest spread (the smallest such steps first) bounds their pairs;
    * *table-mates*: each unseated player will sit with the players already at
      their table plus ``free - 1`` unseated ones, so with at least their
      cheapest table-mates (the pairs between two unseated players count half
      at each end);
    * *cheapest tables* (at a table's opening): each table costs at least the
      cheapest table any of its players could have (``_cheapest_table``, from
      the whole field: a smaller field only costs more); the players with the
      dearest such tables grouped together give the least total.

    Every branch below the best cost is visited unless ``node_limit`` stops
    the search, so a finished search proves its seating has the fewest
    repeats of any seating of these sizes.
    """

    def __init__(
        self,
        weight: list[list[int]],
        groups: list[list[int]],
        sizes: list[int],
        *,
        bound: int,
        node_limit: int,
    ) -> None:
        n = len(weight)
        self.n = n
        self.weight = weight
        top = max((max(row) for row in weight), default=0)
        # levels[u][k]: bit mask of the players u met exactly k times.
        self.levels = [
            [
                sum(1 << v for v in range(n) if v != u and weight[u][v] == k)
                for k in range(top + 1)
            ]
            for u in range(n)
        ]
        self.groups = [sum(1 << i for i in g) for g in groups]
        self.sizes = Counter(sizes)
        self.best = bound
        self.best_tables: list[list[int]] | None = None
        self.nodes = 0
        self.node_limit = node_limit
        self.finished = True
        self.tables: list[list[int]] = []
        smallest = min(sizes)
        self.cheapest = (
            [
                _cheapest_table(u, [v for v in range(n) if v != u], weight, smallest)
                for u in range(n)
            ]
            if node_limit
            else [0] * n
        )

    def _mates(self, u: int, unseated: int, need: int) -> int:
        """Sum of ``u``'s ``need`` cheapest pairs with unseated players."""
        total = 0
        for k, mask in enumerate(self.levels[u]):
            if need <= 0:
                break
            count = (mask & unseated).bit_count()
            if count >= need:
                return total + k * need
            total += k * count
            need -= count
        return total

    def _pigeonhole(
        self, unseated: int, members: int, free: int, rest: list[int]
    ) -> int:
        total = 0
        for group in self.groups:
            left = (group & unseated).bit_count()
            if not left:
                continue
            here = (group & members).bit_count() if free else 0
            step = 0
            while left > 0:
                places = sum(1 for s in rest if s > step)
                if free and here <= step < here + free:
                    places += 1
                if places:
                    taken = min(places, left)
                    total += step * taken
                    left -= taken
                step += 1
        return total

    def _table_mates(
        self, unseated: int, members: int, free: int, allowed: int, rest: list[int]
    ) -> int:
        doubled = 0
        smallest = min(rest) if rest else 0
        weight = self.weight
        rest_left = unseated
        while rest_left:
            low = rest_left & -rest_left
            u = low.bit_length() - 1
            rest_left ^= low
            best = self._mates(u, unseated, smallest - 1) if rest else None
            if free and allowed >> u & 1:
                row = weight[u]
                here = 0
                m = members
                while m:
                    bit = m & -m
                    here += row[bit.bit_length() - 1]
                    m ^= bit
                option = 2 * here + self._mates(u, unseated, free - 1)
                if best is None or option < best:
                    best = option
            if best is None:
                return self.best  # nowhere to sit: the branch is dead
            doubled += best
        return (doubled + 1) // 2

    def _tables_bound(self, unseated: int, rest: Counter) -> int:
        values = []
        left = unseated
        while left:
            low = left & -left
            values.append(self.cheapest[low.bit_length() - 1])
            left ^= low
        values.sort(reverse=True)
        total, at = 0, 0
        for size in sorted(rest.elements(), reverse=True):
            total += values[at]
            at += size
        return total

    def run(self) -> None:
        self._open((1 << self.n) - 1, 0)

    def _open(self, unseated: int, cost: int) -> None:
        if not unseated:
            self.best = cost
            self.best_tables = [list(t) for t in self.tables]
            return
        if cost + self._tables_bound(unseated, self.sizes) >= self.best:
            return
        anchor, fewest = 0, self.n + 1
        left = unseated
        while left:
            low = left & -left
            u = low.bit_length() - 1
            left ^= low
            free_mates = (self.levels[u][0] & unseated).bit_count()
            if free_mates < fewest:
                anchor, fewest = u, free_mates
        others = unseated & ~(1 << anchor)
        row = self.weight[anchor]
        candidates = sorted(
            (v for v in range(self.n) if others >> v & 1), key=lambda v: (row[v], v)
        )
        for size in sorted((s for s in self.sizes if self.sizes[s]), reverse=True):
            self.sizes[size] -= 1
            rest = list(self.sizes.elements())
            self.tables.append([anchor])
            self._fill(others, 1 << anchor, size - 1, candidates, 0, cost, rest)
            self.tables.pop()
            self.sizes[size] += 1
            if not self.finished:
                return

    def _fill(
        self,
        unseated: int,
        members: int,
        free: int,
        candidates: list[int],
        start: int,
        cost: int,
        rest: list[int],
    ) -> None:
        if not free:
            self._open(unseated, cost)
            return
        if self.nodes >= self.node_limit:
            self.finished = False
            return
        self.nodes += 1
        allowed = 0
        for v in candidates[start:]:
            allowed |= 1 << v
        allowed &= unseated
        if cost + self._pigeonhole(unseated, members, free, rest) >= self.best:
            return
        if (
            cost + self._table_mates(unseated, members, free, allowed, rest)
            >= self.best
        ):
            return
        table = self.tables[-1]
        for i in range(start, len(candidates) - free + 1):
            v = candidates[i]
            row = self.weight[v]
            add = sum(row[m] for m in table)
            if cost + add >= self.best:
                continue
            table.append(v)
            self._fill(
                unseated & ~(1 << v),
                members | 1 << v,
                free - 1,
                candidates,
                i + 1,
                cost + add,
                rest,
            )
            table.pop()
            if not self.finished:
                return


def _fewest_repeats_seating(
    players: list[Hashable],
    groups: list[tuple[Hashable, ...]],
    sizes: list[int],
    *,
    at_most: int,
    node_limit: int,
    start: list[list[Hashable]] | None = None,
) -> tuple[list[list[Hashable]] | None, int, bool]:
    """Groups of ``sizes`` with the fewest repeated pairs below ``at_most``
    (None if none has fewer), that number, and whether that is proven the
    fewest. ``groups`` are the past tables (``_met_groups``); ``start`` a
    seating to begin from (default: ``players`` in order). The tabu search
    (``_tabu_repeats``) finds a good seating fast; the branch and bound
    (``_RepeatSearch``) then looks for one with fewer repeats and proves the
    fewest when it finishes within ``node_limit`` nodes; if it does not, the
    kicked tabu search (``_kicked_tabu``) looks further twice, with seeds of
    its own: from the best seating so far and from the breakout search's
    (``_breakout_repeats``); the best seating of the three runs is kept and
    every two of its tables are re-seated as their best split
    (``_resplit_pairs``). Run from one start alone, 2 of the 29 hardest
    rounds measured stay a pair above the proven fewest (docs/tournaments.md);
    a run stops early once a seating has no repeat."""
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    weight = [[0] * n for _ in range(n)]
    seated_groups = []
    for group in groups:
        present = [index[p] for p in group if p in index]
        if len(present) > 1:
            seated_groups.append(present)
            for a, b in itertools.combinations(present, 2):
                weight[a][b] += 1
                weight[b][a] += 1
    if start is None:
        tables, at = [], 0
        for size in sizes:
            tables.append(list(range(at, at + size)))
            at += size
    else:
        tables = [[index[p] for p in table] for table in start]
    best_tables: list[list[int]] | None = None
    best = at_most
    if node_limit:
        found, seating = _tabu_repeats(weight, tables, moves=TABU_MOVES)
        if found < best:
            best, best_tables = found, seating
    search = _RepeatSearch(
        weight, seated_groups, sizes, bound=best, node_limit=node_limit
    )
    search.run()
    if search.best_tables is not None:
        best, best_tables = search.best, search.best_tables
    proven = search.finished or best == 0
    if not proven and node_limit:
        # Two kicked tabu runs of their own seeds: one from the seating so
        # far, one from the breakout search's, which leaves the basin the
        # searches so far settled in. Each start misses rounds the other
        # reaches (docs/tournaments.md); the best of the three is kept.
        so_far = best_tables or tables
        runs = [
            _kicked_tabu(
                weight, so_far, evaluations=KICK_EVALUATIONS, seed=KICK_SEEDS[0]
            )
        ]
        if runs[0][0]:
            runs.append(
                _breakout_repeats(weight, so_far, evaluations=BREAKOUT_EVALUATIONS)
            )
        if runs[-1][0]:
            runs.append(
                _kicked_tabu(
                    weight,
                    runs[-1][1],
                    evaluations=KICK_EVALUATIONS,
                    seed=KICK_SEEDS[1],
                )
            )
        for found, seating in runs:
            if found < best:
                best, best_tables = found, seating
        found, seating = _resplit_pairs(weight, best_tables or tables)
        if found < best:
            best, best_tables = found, seating
    if best_tables is None:
        return None, at_most, proven
    found_tables = [[players[i] for i in table] for table in best_tables]
    return found_tables, best, proven
