"""The local searches of a multiplayer Swiss round's fewest-repeats seating
(``multiplayer_seating_repeats._fewest_repeats_seating`` runs them): the tabu
search ``_tabu_repeats`` that finds a good seating fast, the kicked tabu
search ``_kicked_tabu`` (swaps, and moves to a smaller table) and the
breakout search ``_breakout_repeats`` for rounds the branch and bound cannot
prove, and ``_resplit_pairs``, which re-seats every two tables as their best
split. Each is deterministic (fixed scan orders and seeds).
"""

from __future__ import annotations

import itertools
import random

#: Moves of the repeats-only tabu search (``_tabu_repeats``) per round.
TABU_MOVES = 2_000
_TABU_TENURE = 7


def _where_of(tables: list[list[int]], n: int) -> list[int]:
    """Each player's table (players ``0..n-1``), the local searches' state."""
    where = [0] * n
    for t, table in enumerate(tables):
        for p in table:
            where[p] = t
    return where


def _tables_of(where: list[int], count: int) -> list[list[int]]:
    """The tables back from each player's table, players in number order."""
    out: list[list[int]] = [[] for _ in range(count)]
    for p, t in enumerate(where):
        out[t].append(p)
    return out


def _tabu_repeats(
    weight: list[list[int]], tables: list[list[int]], *, moves: int
) -> tuple[int, list[list[int]]]:
    """A tabu search on repeated pairs alone, from ``tables`` (players
    ``0..n-1``): each move swaps two players of different tables, one of them
    sitting with someone they met, choosing the swap that lowers the repeats
    most (or raises them least). A swapped player stays put for a few moves
    unless a swap through them beats the best seating seen, which lets the
    search leave a seating no single swap improves. Returns the best seating
    seen and its repeats. Deterministic: ties are broken by a fixed-seed
    generator."""
    n, count = len(weight), len(tables)
    where = _where_of(tables, n)
    # against[p][t]: the repeats p would have at table t (p itself left out).
    against = [[0] * count for _ in range(n)]
    for p in range(n):
        row = weight[p]
        for q in range(n):
            if row[q] and q != p:
                against[p][where[q]] += row[q]
    cost = sum(against[p][where[p]] for p in range(n)) // 2
    best, best_where = cost, list(where)
    frozen_until = [0] * n
    rnd = random.Random(26)
    for move in range(moves):
        if best == 0:
            break
        chosen: tuple[int, int] | None = None
        delta = 0
        for a in range(n):
            ta = where[a]
            row_a = against[a]
            if not row_a[ta]:
                continue
            weight_a = weight[a]
            for b in range(n):
                tb = where[b]
                if tb == ta:
                    continue
                d = (
                    row_a[tb]
                    - row_a[ta]
                    + against[b][ta]
                    - against[b][tb]
                    - 2 * weight_a[b]
                )
                if (
                    frozen_until[a] > move or frozen_until[b] > move
                ) and cost + d >= best:
                    continue
                if chosen is None or d < delta or (d == delta and rnd.random() < 0.3):
                    chosen, delta = (a, b), d
        if chosen is None:
            break
        a, b = chosen
        ta, tb = where[a], where[b]
        for q in range(n):
            wa, wb = weight[q][a], weight[q][b]
            if wa:
                against[q][ta] -= wa
                against[q][tb] += wa
            if wb:
                against[q][tb] -= wb
                against[q][ta] += wb
        where[a], where[b] = tb, ta
        cost += delta
        frozen_until[a] = frozen_until[b] = move + _TABU_TENURE + rnd.randint(0, 3)
        if cost < best:
            best, best_where = cost, list(where)
    return best, _tables_of(best_where, count)


#: Swap evaluations of the kicked tabu search (``_kicked_tabu``) per round
#: (its moves to a smaller table, a few per player, come on top): about half
#: a second of CPU at 40 players (docs/performance.md), spent only on rounds
#: whose fewest repeats the branch and bound could not prove.
KICK_EVALUATIONS = 2_000_000
#: Seeds of the kicked tabu search's two runs (``_fewest_repeats_seating``):
#: from the seating before the breakout search, and from the breakout's.
KICK_SEEDS = (26, 27)
#: Moves without a better seating before the kicked tabu search restarts.
_KICK_STALL = 150
#: Random swaps that shake the best seating at each restart.
_KICK_SWAPS = 5
_KICK_TENURE = 5


def _kicked_tabu(
    weight: list[list[int]],
    tables: list[list[int]],
    *,
    evaluations: int,
    seed: int = 26,
) -> tuple[int, list[list[int]]]:
    """An iterated tabu search on repeated pairs alone (players
    ``0..n-1``), for the rounds ``_RepeatSearch`` leaves unproven. A move
    either swaps two players of different tables, one of them sitting with
    someone they met (the moves of ``_tabu_repeats``), or moves a player who
    sits with someone they met from a table to one with a seat fewer: the
    two tables trade sizes, so the round keeps its sizes (6-6-5 becomes
    6-5-6). After ``_KICK_STALL`` moves without a better seating (or when
    every move is tabu) it goes back to the best seating seen and shakes it
    with ``_KICK_SWAPS`` random swaps. At 40 players late in an event
    (tables of 6 and 5, issue 26) the seatings a swap search settles in are
    far from the fewest (two repeated pairs where another seating has one,
    none of its swaps better); restarts near the best seating reach the
    fewest in most such rounds, which neither a longer plain tabu search nor
    simulated annealing did; the moves reach it in every round of the test
    set (rounds 6-7 of its 40-player events, this search alone from the
    tabu search's seating, seeds 0-7: 0 runs of 80 above the fewest, 17
    with swaps alone; docs/tournaments.md). A swap keeps each table's
    size, so the swaps cannot leave a seating none of them improves by
    changing which players share the smaller tables; a move does that in
    a step. Stops after ``evaluations`` swaps weighed (deterministic: a fixed
    seed). Returns the best seating and its repeats; its tables may come
    back in another order of sizes (the callers place groups by size)."""
    n, count = len(weight), len(tables)
    where = _where_of(tables, n)
    size = [len(t) for t in tables]
    mates = [
        [(q, w) for q, w in enumerate(weight[p]) if w and q != p] for p in range(n)
    ]
    against = [[0] * count for _ in range(n)]

    def recount() -> int:
        size[:] = [0] * count
        for p in range(n):
            size[where[p]] += 1
            row = against[p]
            row[:] = [0] * count
            for q, w in mates[p]:
                row[where[q]] += w
        return sum(against[p][where[p]] for p in range(n)) // 2

    def shift(a: int, tb: int) -> None:
        ta = where[a]
        for q, w in mates[a]:
            against[q][ta] -= w
            against[q][tb] += w
        where[a] = tb
        size[ta] -= 1
        size[tb] += 1

    def swap(a: int, b: int) -> None:
        ta, tb = where[a], where[b]
        shift(a, tb)
        shift(b, ta)

    def gain(a: int, b: int) -> int:
        ta, tb = where[a], where[b]
        return (
            against[a][tb]
            - against[a][ta]
            + against[b][ta]
            - against[b][tb]
            - 2 * weight[a][b]
        )

    cost = recount()
    best, best_where = cost, list(where)
    frozen_until = [0] * n
    rnd = random.Random(seed)
    last_better = move = spent = 0
    while best and spent < evaluations:
        move += 1
        if move - last_better > _KICK_STALL:
            where[:] = best_where
            cost = recount()
            for _ in range(_KICK_SWAPS):
                a = rnd.randrange(n)
                b = rnd.randrange(n)
                while where[b] == where[a]:
                    b = rnd.randrange(n)
                cost += gain(a, b)
                swap(a, b)
            frozen_until = [0] * n
            last_better = move
        # (a, b): swap a and b; (a, -1 - t): move a to table t.
        chosen: tuple[int, int] | None = None
        delta = ties = 0
        for a in range(n):
            ta = where[a]
            row_a = against[a]
            if not row_a[ta]:
                continue
            spent += n
            weight_a = weight[a]
            frozen_a = frozen_until[a] > move
            smaller = size[ta] - 1
            for t in range(count):
                if size[t] != smaller:
                    continue
                d = row_a[t] - row_a[ta]
                if frozen_a and cost + d >= best:
                    continue
                if chosen is None or d < delta:
                    chosen, delta, ties = (a, -1 - t), d, 1
                elif d == delta:
                    ties += 1
                    if rnd.randrange(ties) == 0:  # a uniform choice among ties
                        chosen = (a, -1 - t)
            for b in range(n):
                tb = where[b]
                if tb == ta:
                    continue
                d = (
                    row_a[tb]
                    - row_a[ta]
                    + against[b][ta]
                    - against[b][tb]
                    - 2 * weight_a[b]
                )
                if (frozen_a or frozen_until[b] > move) and cost + d >= best:
                    continue
                if chosen is None or d < delta:
                    chosen, delta, ties = (a, b), d, 1
                elif d == delta:
                    ties += 1
                    if rnd.randrange(ties) == 0:  # a uniform choice among ties
                        chosen = (a, b)
        if chosen is None:
            last_better = move - _KICK_STALL  # every move tabu: restart next
            continue
        a, b = chosen
        tenure = move + _KICK_TENURE + rnd.randint(0, 3)
        if b < 0:
            shift(a, -1 - b)
            frozen_until[a] = tenure
        else:
            swap(a, b)
            frozen_until[a] = frozen_until[b] = tenure
        cost += delta
        if cost < best:
            best, best_where, last_better = cost, list(where), move
    return best, _tables_of(best_where, count)


#: Swap evaluations of the breakout search (``_breakout_repeats``) per round,
#: spent only on rounds whose fewest repeats the branch and bound could not
#: prove: about 0.4 s of CPU at 40 players (docs/performance.md).
BREAKOUT_EVALUATIONS = 2_000_000
#: Each repeated pair starts at this penalty; a local minimum adds 1 to the
#: pairs it repeats, so a pair's penalty grows slowly against its weight.
_BREAKOUT_SCALE = 10


def _breakout_repeats(
    weight: list[list[int]],
    tables: list[list[int]],
    *,
    evaluations: int,
    seed: int = 26,
) -> tuple[int, list[list[int]]]:
    """A breakout search on repeated pairs (players ``0..n-1``): swaps of
    two players of different tables, one of them sitting with someone they
    met, chosen on *penalised* repeats. Each pair that met starts at
    ``_BREAKOUT_SCALE`` times the times they met; at a seating no swap
    improves (on the penalties), the pairs it repeats get 1 more, so the
    search leaves it, steered away from the pairs that keep sitting
    together (Morris's breakout method for constraint problems). Late rounds
    of 40 players with tables of 4-8 (issue 26) have one or two repeats at
    the fewest and a swap search settles one pair above, among many seatings
    no swap improves; the kicked tabu search there restarts near its best
    seating and stays in its basin, where this search wanders off it.
    Stops after ``evaluations`` swaps weighed (deterministic: a fixed seed).
    Returns the seating with the fewest true repeats seen and their
    number."""
    n, count = len(weight), len(tables)
    where = _where_of(tables, n)
    penalty = [[_BREAKOUT_SCALE * w for w in row] for row in weight]
    mates = [[q for q in range(n) if weight[p][q] and q != p] for p in range(n)]
    # true[p][t], held[p][t]: p's repeats, and their penalties, at table t.
    true = [[0] * count for _ in range(n)]
    held = [[0] * count for _ in range(n)]
    for p in range(n):
        for q in mates[p]:
            true[p][where[q]] += weight[p][q]
            held[p][where[q]] += penalty[p][q]
    cost = sum(true[p][where[p]] for p in range(n)) // 2
    best, best_where = cost, list(where)
    rnd = random.Random(seed)
    spent = 0
    while best and spent < evaluations:
        chosen: tuple[int, int] | None = None
        delta = ties = 0
        for a in range(n):
            ta = where[a]
            held_a = held[a]
            if not held_a[ta]:
                continue
            spent += n
            penalty_a = penalty[a]
            for b in range(n):
                tb = where[b]
                if tb == ta:
                    continue
                d = (
                    held_a[tb]
                    - held_a[ta]
                    + held[b][ta]
                    - held[b][tb]
                    - 2 * penalty_a[b]
                )
                if chosen is None or d < delta:
                    chosen, delta, ties = (a, b), d, 1
                elif d == delta:
                    ties += 1
                    if rnd.randrange(ties) == 0:  # a uniform choice among ties
                        chosen = (a, b)
        if chosen is None:
            break
        if delta >= 0:
            # No swap lowers the penalties: raise those of the repeated pairs.
            for a in range(n):
                ta = where[a]
                if not true[a][ta]:
                    continue
                for q in mates[a]:
                    if q > a and where[q] == ta:
                        penalty[a][q] += 1
                        penalty[q][a] += 1
                        held[a][ta] += 1
                        held[q][ta] += 1
            if delta > 0:
                continue
        a, b = chosen
        ta, tb = where[a], where[b]
        cost += true[a][tb] - true[a][ta] + true[b][ta] - true[b][tb] - 2 * weight[a][b]
        for q in mates[a]:
            true[q][ta] -= weight[a][q]
            true[q][tb] += weight[a][q]
            held[q][ta] -= penalty[a][q]
            held[q][tb] += penalty[a][q]
        for q in mates[b]:
            true[q][tb] -= weight[b][q]
            true[q][ta] += weight[b][q]
            held[q][tb] -= penalty[b][q]
            held[q][ta] += penalty[b][q]
        where[a], where[b] = tb, ta
        if cost < best:
            best, best_where = cost, list(where)
    return best, _tables_of(best_where, count)


def _best_split(
    weight: list[list[int]], first: list[int], second: list[int]
) -> tuple[int, list[int], list[int]]:
    """The two tables of ``first``'s and ``second``'s sizes, from their
    players, with the fewest repeated pairs: each player in turn joins one
    side (the first player the first side when the sizes are equal, the two
    sides then being interchangeable), a branch cut when its repeats reach
    the best split found (at first the tables as they are). Returns the
    repeats and the two tables."""
    players = sorted(first + second)
    size = len(first), len(second)
    best = sum(
        weight[a][b] for t in (first, second) for a, b in itertools.combinations(t, 2)
    )
    found: list[tuple[int, ...]] = []
    sides: tuple[list[int], list[int]] = ([], [])

    def dfs(k: int, cost: int) -> None:
        nonlocal best
        if k == len(players):
            best = cost
            found[:] = [tuple(sides[0]), tuple(sides[1])]
            return
        p = players[k]
        row = weight[p]
        for side in (0, 1) if k or size[0] != size[1] else (0,):
            members = sides[side]
            if len(members) == size[side]:
                continue
            add = cost + sum(row[q] for q in members)
            if add < best:
                members.append(p)
                dfs(k + 1, add)
                members.pop()

    dfs(0, 0)
    if not found:
        return best, first, second
    return best, list(found[0]), list(found[1])


def _resplit_pairs(
    weight: list[list[int]], tables: list[list[int]]
) -> tuple[int, list[list[int]]]:
    """Re-seat every two tables, one of them repeating a pair, as the best
    split of their players (``_best_split``: every exchange of any number of
    players between the two, not one swap at a time), until no two tables
    can do better; returns the repeats and the tables (players ``0..n-1``).
    The swap searches end at seatings no single swap improves; at 40 players
    late in an event with tables of 4-8 (issue 26) some of those lose a pair
    that an exchange of two or three players between two tables wins back.
    Deterministic: tables in a fixed order, no randomness."""
    tables = [list(t) for t in tables]

    def within(table: list[int]) -> int:
        return sum(weight[a][b] for a, b in itertools.combinations(table, 2))

    cost = [within(t) for t in tables]
    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            if not cost[i] + cost[j]:
                continue
            total, first, second = _best_split(weight, tables[i], tables[j])
            if total < cost[i] + cost[j]:
                tables[i], tables[j] = first, second
                cost[i], cost[j] = within(first), within(second)
                improved = True
    return sum(cost), tables
