"""Swiss rounds for 3- to 5-player games: tables by standing, placement points.

Multiplayer games have no "pair", so the Swiss idea becomes: seat players of
similar standing together, avoid sitting with the same opponents again, and
score every table on one scale. Tables are filled in standing order (the
leaders play each other), then a local search swaps players between tables
while that lowers the number of repeated opponents; a small penalty for
moving a player away from their standing's table keeps the tables "by
standing". The search is deterministic (fixed scan order, strict improvement
only), so re-running a round gives the same tables.

Placement points put every table size on the 2-player scale: first place 1,
last 0, evenly spaced in between, tied places share the average. A win at a
five-player table is therefore worth as much as at a three-player table,
which keeps mixed table sizes fair within one round.

The history rules of the two-player Swiss carry over. A seat that forfeited
(no-show) met nobody, and the players present at such a table scored by
forfeit. When the field does not fill legal tables (only with custom table
sizes) the players left over get a bye, never one who already had a bye or
scored by forfeit if anybody else can take it. A player who did not play a
round (bye or forfeit, either way) floats down, as in FIDE C.04.3 A.4; so
does one who sat with lower-scored players, and one who sat with
higher-scored players floats up. Nobody is moved off their standing's table
in the same direction two rounds running if a swap avoids it.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from league.tournaments.formats.multiplayer_seating import (
    PROOF_FIELD,
    SEARCH_NODE_LIMIT,
    SeatingReport,
    _Costs,
    _exact_search,
    _local_search,
    _place_groups,
    _repeats,
)
from league.tournaments.formats.multiplayer_seating_repeats import (
    REPEAT_NODE_LIMIT,
    _fewest_repeats_seating,
)

__all__ = [
    "MultiplayerStanding",
    "SeatingError",
    "SeatingReport",
    "Table",
    "TableResult",
    "fewest_repeats",
    "multiplayer_standings",
    "placement_points",
    "seat_multiplayer_round",
    "seat_multiplayer_round_report",
    "split_into_tables",
]


class SeatingError(ValueError):
    """The players cannot be split into tables of the allowed sizes; the
    numbers are kept so the site can say it in the organiser's language."""

    def __init__(self, players: int, min_size: int, max_size: int) -> None:
        super().__init__(
            f"{players} players cannot fill tables of {min_size}-{max_size}"
        )
        self.players = players
        self.min_size = min_size
        self.max_size = max_size


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round; ``seats[0]`` plays first."""

    round: int
    table: int
    seats: tuple[Hashable, ...]


@dataclass(frozen=True, slots=True)
class TableResult:
    """A finished table: ``seats`` as played, ``placements`` 1 = best (ties equal).

    ``forfeited`` names the seats that did not play (no-shows): they met
    nobody at the table. A single seat is a bye worth ``BYE_POINTS``.
    """

    round: int
    seats: tuple[Hashable, ...]
    placements: Mapping[Hashable, int]
    forfeited: frozenset = frozenset()

    def __post_init__(self) -> None:
        if set(self.seats) != set(self.placements) or len(set(self.seats)) != len(
            self.seats
        ):
            raise ValueError("placements must name exactly the seated players")
        object.__setattr__(self, "forfeited", frozenset(self.forfeited))
        if not self.forfeited <= set(self.seats):
            raise ValueError("forfeited seats must be seated players")
        if len(self.seats) == 1 and self.forfeited:
            raise ValueError("a bye cannot be forfeited")

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 1


#: A bye is worth the mean placement points of a table (every table hands
#: out half a point per player), not a win: a win at a table of four is a
#: one-in-four result, so a full point would be worth far more than a game.
BYE_POINTS = 0.5


@dataclass(frozen=True, slots=True)
class MultiplayerStanding:
    rank: int
    participant: Hashable
    score: float
    wins: int
    opponent_score: float
    played: int
    first_seats: int


@dataclass(slots=True)
class _Record:
    score: float = 0.0
    wins: int = 0
    played: int = 0
    firsts: int = 0
    byes: int = 0
    forfeit_wins: int = 0
    seat_shares: list[float] = field(default_factory=list)
    tables: list[tuple[Hashable, ...]] = field(default_factory=list)
    floats: dict[int, str] = field(default_factory=dict)  # round -> down/up

    @property
    def had_bye(self) -> bool:
        """No bye any more: had one, or scored at a table someone forfeited."""
        return self.byes > 0 or self.forfeit_wins > 0


#: Scores are sums of fractions (thirds, quarters, ...) held as floats, so a
#: score equal to the others' mean may differ from it in the last bits, one
#: way or the other depending on the order of the sums. Closer than this
#: (far below the smallest real difference, 1/(4*3*...)) counts as equal.
SCORE_TIE = 1e-9


def placement_points(placements: Mapping[Hashable, int]) -> dict[Hashable, float]:
    """Points per player: 1 for first, 0 for last, linear, ties share the average."""
    size = len(placements)
    if size < 2:
        raise ValueError("a table needs at least two players")
    ordered = sorted(placements.values())
    out: dict[Hashable, float] = {}
    for player, place in placements.items():
        first = ordered.index(place)
        last = first + ordered.count(place) - 1
        positions = range(first, last + 1)
        out[player] = math.fsum((size - 1 - k) / (size - 1) for k in positions) / len(
            positions
        )
    return out


def split_into_tables(
    players: int, *, min_size: int = 3, max_size: int = 5, preferred: int = 4
) -> list[int]:
    """Split ``players`` into table sizes within [min_size, max_size].

    Chooses the table count whose (as even as possible) sizes stay closest to
    ``preferred``; on a tie, fewer and larger tables. Larger tables come first.
    """
    if not 2 <= min_size <= preferred <= max_size:
        raise ValueError("need 2 <= min_size <= preferred <= max_size")
    best: tuple[tuple[int, int], list[int]] | None = None
    for count in range(1, players // min_size + 1):
        base, extra = divmod(players, count)
        sizes = [base + 1] * extra + [base] * (count - extra)
        if sizes[0] > max_size or sizes[-1] < min_size:
            continue
        key = (sum(abs(s - preferred) for s in sizes), count)
        if best is None or key < best[0]:
            best = (key, sizes)
    if best is None:
        raise SeatingError(players, min_size, max_size)
    return best[1]


def _records(results: Iterable[TableResult]) -> dict[Hashable, _Record]:
    records: dict[Hashable, _Record] = {}
    ordered = sorted(results, key=lambda r: r.round)
    for _, grouped in itertools.groupby(ordered, key=lambda r: r.round):
        same_round = list(grouped)
        before = {
            p: (records[p].score if p in records else 0.0)
            for res in same_round
            for p in res.seats
        }
        for res in same_round:
            _record_table(records, res, before)
    return records


def _record_table(
    records: dict[Hashable, _Record], res: TableResult, before: dict
) -> None:
    if res.is_bye:
        (p,) = res.seats
        rec = records.setdefault(p, _Record())
        rec.score += BYE_POINTS
        rec.byes += 1
        rec.floats[res.round] = "down"
        return
    points = placement_points(res.placements)
    best = min(res.placements.values())
    size = len(res.seats)
    present = [p for p in res.seats if p not in res.forfeited]
    for index, p in enumerate(res.seats):
        rec = records.setdefault(p, _Record())
        rec.score += points[p]
        rec.played += 1
        rec.wins += res.placements[p] == best
        rec.firsts += index == 0
        rec.seat_shares.append(index / (size - 1))
        if p in res.forfeited or len(present) < 2:
            # Did not play (A.4: a downfloat), or played nobody.
            rec.floats[res.round] = "down"
            rec.forfeit_wins += p not in res.forfeited and bool(res.forfeited)
            rec.tables.append((p,))
            continue
        rec.forfeit_wins += bool(res.forfeited)
        rec.tables.append(tuple(present))
        others = [before[q] for q in present if q != p]
        mean = math.fsum(others) / len(others)
        if before[p] > mean + SCORE_TIE:
            rec.floats[res.round] = "down"
        elif before[p] < mean - SCORE_TIE:
            rec.floats[res.round] = "up"


def _opponent_score(p: Hashable, records: dict[Hashable, _Record]) -> float:
    """Sum over the player's tables of the mean final score of the others.

    A table the player did not play (forfeit, alone) counts the player's own
    final score, like the virtual opponent of the two-player tiebreaks.
    """
    total = []
    for seats in records[p].tables:
        others = [records[q].score for q in seats if q != p]
        total.append(math.fsum(others) / len(others) if others else records[p].score)
    return math.fsum(total)


def multiplayer_standings(
    participants: Sequence[Hashable], results: Iterable[TableResult]
) -> list[MultiplayerStanding]:
    """Standings: placement points, then wins, then opponents' strength, then seed.

    Opponents' strength is the table analogue of Buchholz: for each table the
    mean final score of the other players, summed over the player's tables.
    """
    records = _records(results)
    players = list(participants)
    for p in players:
        records.setdefault(p, _Record())
    seed = {p: i for i, p in enumerate(players)}
    strength = {p: _opponent_score(p, records) for p in players}
    ranked = sorted(
        players,
        key=lambda p: (-records[p].score, -records[p].wins, -strength[p], seed[p]),
    )
    return [
        MultiplayerStanding(
            rank=i + 1,
            participant=p,
            score=records[p].score,
            wins=records[p].wins,
            opponent_score=strength[p],
            played=records[p].played,
            first_seats=records[p].firsts,
        )
        for i, p in enumerate(ranked)
    ]


def _seat_order(
    players: Iterable[Hashable], records: dict[Hashable, _Record], rank: dict
) -> tuple[Hashable, ...]:
    """First seat to whoever had it least; then later seats to those who sat early.

    Mean seat share is 0 for always-first and 1 for always-last; sorting by it
    descending rotates players through the positions over the event.
    """

    def key(p: Hashable) -> tuple:
        shares = records[p].seat_shares
        mean = math.fsum(shares) / len(shares) if shares else 0.5
        return (records[p].firsts, -mean, rank[p])

    ordered = sorted(players, key=key)
    return tuple(ordered)


def _bye_count(players: int, min_size: int, max_size: int, preferred: int) -> int:
    for byes in range(players - min_size + 1):
        try:
            split_into_tables(
                players - byes,
                min_size=min_size,
                max_size=max_size,
                preferred=preferred,
            )
        except SeatingError:
            continue
        return byes
    raise SeatingError(players, min_size, max_size)


def seat_multiplayer_round(
    participants: Sequence[Hashable],
    results: Iterable[TableResult],
    *,
    min_size: int = 3,
    max_size: int = 5,
    preferred_size: int = 4,
) -> list[Table]:
    """Tables for the next round; ``participants`` in seed order.

    Returns tables in standing order (table 1 = leaders), each with its seat
    order, then one single-seat :class:`Table` per bye. Byes are needed only
    when the field does not fill tables of ``min_size``-``max_size``; they go
    to the lowest-standing players who have had no bye and scored by no
    forfeit (failing that, fewest of those first). Raises ``ValueError`` if
    the field is too small for one table.
    """
    return seat_multiplayer_round_report(
        participants,
        results,
        min_size=min_size,
        max_size=max_size,
        preferred_size=preferred_size,
    )[0]


def seat_multiplayer_round_report(
    participants: Sequence[Hashable],
    results: Iterable[TableResult],
    *,
    min_size: int = 3,
    max_size: int = 5,
    preferred_size: int = 4,
    node_limit: int = SEARCH_NODE_LIMIT,
    repeat_node_limit: int = REPEAT_NODE_LIMIT,
) -> tuple[list[Table], SeatingReport]:
    """:func:`seat_multiplayer_round` with how the tables were found.

    The tables are the cheapest seating of the table sizes: the swap search
    gives a good seating fast, then an exact branch and bound
    (``_exact_search``) looks for a cheaper one and proves none exists when
    it finishes within ``node_limit`` nodes. If the seating repeats pairs,
    the fewest-repeats searches (``multiplayer_seating_repeats``: a branch
    and bound of ``repeat_node_limit`` nodes, and local searches where it
    stops unfinished) look for a seating with fewer and prove the fewest
    when the branch and bound finishes.
    """
    results = list(results)
    players = list(participants)
    if len(set(players)) != len(players):
        raise ValueError("participants must be distinct")
    byes_needed = _bye_count(len(players), min_size, max_size, preferred_size)
    round_number = max((r.round for r in results), default=0) + 1
    records = _records(results)
    for p in players:
        records.setdefault(p, _Record())
    standing = [s.participant for s in multiplayer_standings(players, results)]
    rank = {p: i for i, p in enumerate(standing)}
    byes = sorted(
        standing,
        key=lambda p: (
            records[p].had_bye,
            records[p].byes + records[p].forfeit_wins,
            -rank[p],
        ),
    )[:byes_needed]
    seated = [p for p in standing if p not in byes]
    sizes = split_into_tables(
        len(seated), min_size=min_size, max_size=max_size, preferred=preferred_size
    )
    met = _met(results)
    tables: list[list[Hashable]] = []
    start = 0
    for size in sizes:
        tables.append(seated[start : start + size])
        start += size
    home = {p: i for i, t in enumerate(tables) for p in t}
    last_float = {p: records[p].floats.get(round_number - 1, "") for p in seated}
    # Weights: one repeated pair outweighs any float and displacement change
    # a swap can cause; a repeated float outweighs any displacement.
    again = 2 * len(tables) + 1
    costs = _Costs(
        met=met,
        home=home,
        last_float=last_float,
        again=again,
        pair=2 * (2 * again + 2 * len(tables) + 1),
    )
    _local_search(tables, costs)
    local_cost = costs.total(tables)
    # Without a repeat left only the floats and distances can improve: a
    # small budget then (a field of hundreds would spend the whole one on
    # proving its last table move); a large field with repeats gets the same
    # (``PROOF_FIELD``): the search does not finish there, and the
    # fewest-repeats searches below take the repeats down.
    budget = (
        node_limit
        if _repeats(tables, met) and len(seated) <= PROOF_FIELD
        else node_limit // 10
    )
    found, _, finished, nodes = _exact_search(
        seated,
        sizes,
        unary=costs.unary,
        pair=costs.pair,
        met=met,
        home=home,
        bound=local_cost,
        node_limit=budget,
    )
    if found is not None:
        tables = found
        # A search stopped by the node limit keeps its best seating; no swap
        # may still improve it (with a finished search none can).
        _local_search(tables, costs)
    repeats = _repeats(tables, met)
    fewest, bound_proven = 0, True
    if repeats:
        # Repeats come first: if a stopped search left more than some seating
        # of these sizes needs, take that seating's groups, each placed at
        # the table of its size where its players cost least.
        groups, fewest, bound_proven = _fewest_repeats_seating(
            seated,
            _met_groups(results),
            sizes,
            at_most=repeats,
            node_limit=(
                repeat_node_limit
                if len(seated) <= PROOF_FIELD
                else repeat_node_limit // 10
            ),
            start=tables,
        )
        if groups is not None:
            tables = _place_groups(groups, sizes, costs)
            _local_search(tables, costs)
            repeats = _repeats(tables, met)
        # A stopped search's count is only the best it saw, not a bound.
        fewest = min(fewest, repeats)
    report = SeatingReport(
        cost=costs.total(tables),
        repeats=repeats,
        local_cost=local_cost,
        proven=finished,
        nodes=nodes,
        fewest_repeats=fewest,
        bound_proven=bound_proven,
    )
    out = [
        Table(round=round_number, table=i + 1, seats=_seat_order(t, records, rank))
        for i, t in enumerate(tables)
    ]
    out += [
        Table(round=round_number, table=len(out) + i + 1, seats=(p,))
        for i, p in enumerate(sorted(byes, key=lambda p: rank[p]))
    ]
    return out, report


def _met_groups(results: Iterable[TableResult]) -> list[tuple[Hashable, ...]]:
    """The players present together at each past table: every repeated pair
    is a pair of one of these groups, once per group it shares."""
    out = []
    for res in results:
        present = tuple(q for q in res.seats if q not in res.forfeited)
        if len(present) > 1:
            out.append(present)
    return out


def _met(results: Iterable[TableResult]) -> Counter:
    met: Counter = Counter()
    for res in results:
        present = [q for q in res.seats if q not in res.forfeited]
        for a, b in itertools.combinations(present, 2):
            met[frozenset((a, b))] += 1
    return met


def fewest_repeats(
    players: Sequence[Hashable],
    results: Iterable[TableResult],
    sizes: Sequence[int],
    *,
    at_most: int,
    node_limit: int = REPEAT_NODE_LIMIT,
) -> tuple[int, bool]:
    """The fewest repeated pairs any seating of ``players`` into tables of
    ``sizes`` can have, searched below ``at_most`` (a seating known to reach
    it); with whether the search finished (the number is then exact: the
    lower bound ``bench/seating.py`` measures seatings against)."""
    _, count, finished = _fewest_repeats_seating(
        list(players),
        _met_groups(results),
        list(sizes),
        at_most=at_most,
        node_limit=node_limit,
    )
    return count, finished
