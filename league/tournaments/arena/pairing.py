"""Arena pairing and scoring: pure, deterministic, no Django and no clock.

An Arena (lichess's most played format) runs for a fixed time; whoever is
free is paired at once with other free players of close score. The services
(``league.tournaments.arena.services``) decide who is free and store the
games; these functions decide who meets whom and what a result is worth.
See ``docs/tournaments.md`` (section "Arena") for the rules and why.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

import networkx as nx  # type: ignore[import-untyped]  # no stubs installed

Outcome = Literal["win", "draw", "loss"]

WIN_POINTS = 2
DRAW_POINTS = 1
#: Wins in a row after which every further win scores double ("on fire").
FIRE_AFTER = 2
BERSERK_BONUS = 1


@dataclass(frozen=True, slots=True)
class FreePlayer:
    """A player waiting for a game.

    ``rank`` is the place in the standings (1 = leader; ties get distinct
    consecutive ranks); ``last_table`` the ids of everyone at the player's
    latest game, the player included (``None`` before a first game);
    ``waiting`` orders how long each has waited (lower = longer).
    """

    id: Hashable
    score: int
    rank: int
    last_table: frozenset[Hashable] | None = None
    waiting: int = 0


def same_table_again(table: Sequence[FreePlayer]) -> bool:
    """Whether seating ``table`` repeats one of its players' last table: for
    two players, the same opponent twice in a row."""
    ids = frozenset(p.id for p in table)
    return any(p.last_table == ids for p in table)


#: Up to this many free players are paired in one exact matching; networkx's
#: blossom is cubic (60 players ~0.9 s, 100 ~3.4 s on the busy dev machine),
#: so a larger field is matched in blocks of neighbours in the standings.
EXACT_UP_TO = 32
BLOCK = 24


def pair_players(free: Sequence[FreePlayer]) -> list[tuple[Hashable, Hashable]]:
    """Pairs for a two-player game, the better-ranked player first.

    As many players as possible are paired (a maximum-cardinality matching,
    networkx's blossom algorithm), never two who have just met. With an odd
    number (or a forbidden rematch) the player who became free last is the
    one left waiting; among those matchings the total score difference is
    the smallest, then the total rank difference.

    A field larger than ``EXACT_UP_TO``: with an odd number the player freed
    last waits, then blocks of ``BLOCK`` players in standings order are
    matched the same way, each block's unpaired players joining the next.
    """
    players = sorted(free, key=lambda p: p.rank)
    if len(players) <= EXACT_UP_TO:
        return _match(players)
    if len(players) % 2:
        last = max(players, key=lambda p: (p.waiting, p.rank))
        players = [p for p in players if p is not last]
    pairs: list[tuple[Hashable, Hashable]] = []
    carry: list[FreePlayer] = []
    for start in range(0, len(players), BLOCK):
        block = sorted(carry + players[start : start + BLOCK], key=lambda p: p.rank)
        found = _match(block)
        pairs.extend(found)
        paired = {i for pair in found for i in pair}
        carry = [p for p in block if p.id not in paired]
    rank = {p.id: p.rank for p in free}
    return sorted(pairs, key=lambda pair: rank[pair[0]])


def _match(players: list[FreePlayer]) -> list[tuple[Hashable, Hashable]]:
    """The exact matching of :func:`pair_players` (``players`` by rank)."""
    if len(players) < 2:
        return []
    n = len(players)
    top = max(p.score for p in players) - min(p.score for p in players)
    # Integer weights, each term dominating the next: (1) who waits, (2) the
    # score difference, (3) the rank difference. The matching's cardinality
    # is fixed first (maxcardinality), so only these trade off.
    rank_span = max(p.rank for p in players) + 1
    cost_span = (top * rank_span + rank_span) * n + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    waits = _wait_bonus(players)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = players[i], players[j]
            if same_table_again((a, b)):
                continue
            cost = abs(a.score - b.score) * rank_span + abs(a.rank - b.rank)
            weight = (waits[i] + waits[j]) * cost_span + (cost_span - cost)
            graph.add_edge(i, j, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted((min(i, j), max(i, j)) for i, j in matching)
    return [(players[i].id, players[j].id) for i, j in pairs]


def _wait_bonus(players: Sequence[FreePlayer]) -> list[int]:
    """Per player, how many wait less (0 for whoever became free last)."""
    order = sorted(range(len(players)), key=lambda i: (-players[i].waiting, i))
    bonus = [0] * len(players)
    for position, i in enumerate(order):
        bonus[i] = position
    return bonus


def table_sizes(free: int, *, smallest: int, largest: int, preferred: int) -> list[int]:
    """How to seat ``free`` players at tables of a multiplayer game.

    Everyone is seated when ``free / preferred`` rounded up or down gives a
    number of tables each between ``smallest`` and ``largest`` players (split
    as evenly as possible; of the two, the one whose tables differ less from
    ``preferred``, more tables on a tie); otherwise tables of ``preferred``
    and the rest wait. Larger tables first.
    """
    if free < smallest:
        return []
    options = []
    for count in (math.ceil(free / preferred), free // preferred):
        if count and smallest * count <= free <= largest * count:
            base, extra = divmod(free, count)
            sizes = [base + 1] * extra + [base] * (count - extra)
            options.append((sum(abs(s - preferred) for s in sizes), -count, sizes))
    if options:
        return min(options)[2]
    return [preferred] * (free // preferred)


def seat_tables(
    free: Sequence[FreePlayer], *, smallest: int, largest: int, preferred: int
) -> list[list[Hashable]]:
    """Tables of a multiplayer game, filled in standings order (close scores
    together), the best-ranked table first.

    A table that would seat exactly one of its players' last table again
    first swaps its last player with the next table's first (or the previous
    table's last); failing that, its worst-ranked player waits if the table
    stays large enough, else the whole table waits.
    """
    players = sorted(free, key=lambda p: (-p.score, p.rank))
    sizes = table_sizes(
        len(players), smallest=smallest, largest=largest, preferred=preferred
    )
    tables: list[list[FreePlayer]] = []
    start = 0
    for size in sizes:
        tables.append(list(players[start : start + size]))
        start += size
    for i, table in enumerate(tables):
        if not same_table_again(table):
            continue
        for j in (i + 1, i - 1):
            if 0 <= j < len(tables):
                other = tables[j]
                mine, theirs = (-1, 0) if j > i else (0, -1)
                table[mine], other[theirs] = other[theirs], table[mine]
                if not same_table_again(table) and not same_table_again(other):
                    break
                table[mine], other[theirs] = other[theirs], table[mine]
    seated: list[list[Hashable]] = []
    for table in tables:
        if same_table_again(table) and len(table) > smallest:
            table = table[:-1]
        if not same_table_again(table):
            seated.append([p.id for p in table])
    return seated


def outcome_for(placements: Sequence[int], seat: int) -> Outcome:
    """A seat's result from the game's placements (1 = best): first place
    alone wins, shared first place draws, everything else loses."""
    best = min(placements)
    if placements[seat] != best:
        return "loss"
    return "draw" if list(placements).count(best) > 1 else "win"


@dataclass(frozen=True, slots=True)
class GamePoints:
    points: int
    streak: int  # wins in a row after this game
    doubled: bool  # a win scored double (the player was on fire)


def game_points(*, outcome: Outcome, streak: int, berserk: bool) -> GamePoints:
    """What one game is worth to one player.

    Win 2, draw 1, loss 0. After ``FIRE_AFTER`` wins in a row every further
    win scores double until a game is not won (a draw or a loss ends the
    streak and scores as usual). A berserk player (who halved their own clock)
    gets one more point for a win, not doubled.
    """
    if outcome == "win":
        doubled = streak >= FIRE_AFTER
        points = WIN_POINTS * (2 if doubled else 1) + (BERSERK_BONUS if berserk else 0)
        return GamePoints(points=points, streak=streak + 1, doubled=doubled)
    points = DRAW_POINTS if outcome == "draw" else 0
    return GamePoints(points=points, streak=0, doubled=False)


def on_fire(streak: int) -> bool:
    """Shown as fire on the standings: the next win scores double."""
    return streak >= FIRE_AFTER
