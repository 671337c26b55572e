"""Swiss system for two-player games: pairing, seat allocation and standings.

Pairing is one maximum-weight perfect matching per round (networkx's blossom
implementation) instead of the FIDE Dutch bracket-by-bracket procedure with
transpositions and exchanges. The weight of every candidate pair encodes our
pairing rules as a lexicographic cost, most important first:

1. no rematch, as missing edges: if every pairing would repeat a game the
   round cannot be paired and :class:`SwissPairingError` is raised;
2. at most ``max_byes`` pairing-allocated byes per player; only when no
   pairing without rematches allows that (a small field late in the event)
   does the bye go to a player who already had one, fewest byes first;
3. the bye goes to the lowest score group that can take it;
4. no two players whose absolute seat preferences collide meet;
5. no pair joins score groups that are not adjacent, if avoidable; then as
   few pairs as possible cross score groups, and floats happen as low in the
   standings as possible (Dutch: maximise the pairs in the top brackets);
6. the bye goes to the lowest-ranked player of its group;
7. as many seat preferences as possible are met, then as many strong ones
   (Dutch C.10, C.11);
8. nobody floats down (or up) twice in a row, then not as two rounds
   before (Dutch C.12-C.15; a bye counts as a downfloat);
9. the lowest-ranked players of a group are the ones who float down;
10. within a score group the top half meets the bottom half in order
    (1 v n/2+1, ...), S2 permutations tried in lexicographic order, pairs
    inside one half (Dutch "exchanges") only when needed; a downfloater meets
    the highest player of the group below, and the rest of that group is
    split into halves again (one re-solve per change of the split).

A single global optimisation cannot get stuck the way greedy bracket pairing
can (it never needs backtracking), and every rule above is a term that tests
can check directly. The price is that it is not the FIDE Dutch system to the
letter; ``docs/tournaments.md`` lists where and why the two differ, measured
in the test suite against a Dutch implementation reported as A.7-conformant.

Seats are allocated like FIDE colours (C.04.3 E): both preferences if
compatible, else the stronger, else alternate from the last round in which the
two had different seats, else the higher-ranked player's preference, and with
no preference at all the higher-ranked player takes the first seat when their
pairing number is odd.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import networkx as nx

from league.tournaments.formats.base import Pairing

__all__ = [
    "DEFAULT_TIEBREAKS",
    "SwissGame",
    "SwissPairingError",
    "SwissStanding",
    "Tiebreak",
    "colour_preference",
    "pair_swiss_round",
    "player_records",
    "swiss_standings",
]

Tiebreak = Literal["buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter"]
DEFAULT_TIEBREAKS: tuple[Tiebreak, ...] = (
    "buchholz_cut1",
    "buchholz",
    "sonneborn_berger",
    "direct_encounter",
)


_TIEBREAK_NAMES = frozenset(DEFAULT_TIEBREAKS)


class SwissPairingError(ValueError):
    """No pairing satisfies the hard rules (too many rounds for the field)."""


@dataclass(frozen=True, slots=True)
class SwissGame:
    """One entry of a Swiss round as recorded by the caller.

    ``second is None`` is a pairing-allocated bye for ``first`` (worth
    ``first_points``). ``forfeit`` marks a game that was not played (no-show):
    it scores, but it is no meeting (the two may still be paired later), gives
    no seat and counts as an unplayed round for tiebreaks.
    """

    round: int
    first: Hashable
    second: Hashable | None
    first_points: float
    second_points: float | None = None
    forfeit: bool = False

    def __post_init__(self) -> None:
        if self.second is not None and self.second_points is None:
            object.__setattr__(self, "second_points", 1.0 - self.first_points)
        if self.second is not None and self.first == self.second:
            raise ValueError("a player cannot meet themselves")

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def played(self) -> bool:
        return self.second is not None and not self.forfeit


@dataclass(slots=True)
class PlayerRecord:
    """What the history says about one player (derived, never stored)."""

    score: float = 0.0
    opponents: set = field(default_factory=set)
    seats: list[str] = field(default_factory=list)  # "1"/"2" per played game
    seat_by_round: dict[int, str] = field(default_factory=dict)
    byes: int = 0
    last_float: str = ""  # "down", "up" or "" for the latest round
    float_by_round: dict[int, str] = field(default_factory=dict)
    rounds: list[tuple[Hashable | None, float, bool]] = field(default_factory=list)
    # (opponent or None, points, played) per recorded round, in round order


def player_records(history: Iterable[SwissGame]) -> dict[Hashable, PlayerRecord]:
    """Scores, opponents, seats, byes and floats per player from ``history``."""
    games = sorted(history, key=lambda g: g.round)
    records: dict[Hashable, PlayerRecord] = {}

    def rec(p: Hashable) -> PlayerRecord:
        return records.setdefault(p, PlayerRecord())

    for _, round_games in itertools.groupby(games, key=lambda g: g.round):
        round_games = list(round_games)
        before = {}
        for g in round_games:
            for p in (g.first, g.second):
                if p is not None:
                    if p in before:
                        raise ValueError(f"{p!r} appears twice in round {g.round}")
                    before[p] = rec(p).score
        for g in round_games:
            a = rec(g.first)
            a.last_float = ""
            if g.second is None:
                a.byes += 1
                a.last_float = a.float_by_round[g.round] = "down"
                a.score += g.first_points
                a.rounds.append((None, g.first_points, False))
                continue
            b = rec(g.second)
            b.last_float = ""
            a.score += g.first_points
            b.score += g.second_points
            a.rounds.append((g.second, g.first_points, g.played))
            b.rounds.append((g.first, g.second_points, g.played))
            if not g.played:
                continue
            a.opponents.add(g.second)
            b.opponents.add(g.first)
            a.seats.append("1")
            b.seats.append("2")
            a.seat_by_round[g.round] = "1"
            b.seat_by_round[g.round] = "2"
            if before[g.first] > before[g.second]:
                a.last_float, b.last_float = "down", "up"
            elif before[g.first] < before[g.second]:
                a.last_float, b.last_float = "up", "down"
            a.float_by_round[g.round] = a.last_float
            b.float_by_round[g.round] = b.last_float
        for p in records:
            if p not in before:
                records[p].last_float = ""
    return records


def colour_preference(seats: Sequence[str]) -> tuple[str | None, int]:
    """Seat preference and its strength (FIDE C.04.3 A.6 applied to seats).

    Strength 3 (absolute): seat difference beyond +-1 or the same seat twice
    in a row; 2 (strong): difference of one; 1 (mild): balanced, so alternate;
    0: no game played yet.
    """
    if not seats:
        return None, 0
    diff = seats.count("1") - seats.count("2")
    if diff > 1:
        return "2", 3
    if diff < -1:
        return "1", 3
    if len(seats) >= 2 and seats[-1] == seats[-2]:
        return ("2" if seats[-1] == "1" else "1"), 3
    if diff == 1:
        return "2", 2
    if diff == -1:
        return "1", 2
    return ("2" if seats[-1] == "1" else "1"), 1


def _allocate_seats(
    high: Hashable,
    low: Hashable,
    records: dict[Hashable, PlayerRecord],
    pairing_number: dict[Hashable, int],
) -> tuple[Hashable, Hashable]:
    """Return (first, second) for a pair whose higher-ranked player is ``high``."""
    sh, sl = records[high].seats, records[low].seats
    (wh, kh), (wl, kl) = colour_preference(sh), colour_preference(sl)

    def give(player: Hashable, seat: str) -> tuple[Hashable, Hashable]:
        other = low if player == high else high
        return (player, other) if seat == "1" else (other, player)

    if wh and wl and wh != wl:
        return give(high, wh)
    if wh and not wl:
        return give(high, wh)
    if wl and not wh:
        return give(low, wl)
    if wh and wl:
        if kh != kl:
            return give(high, wh) if kh > kl else give(low, wl)
        if kh == 3:
            dh = abs(sh.count("1") - sh.count("2"))
            dl = abs(sl.count("1") - sl.count("2"))
            if dh != dl:
                return give(high, wh) if dh > dl else give(low, wl)
        rh, rl = records[high].seat_by_round, records[low].seat_by_round
        for rnd in sorted(rh.keys() & rl.keys(), reverse=True):
            if rh[rnd] != rl[rnd]:
                return give(high, "2" if rh[rnd] == "1" else "1")
        return give(high, wh)
    seat = "1" if pairing_number[high] % 2 == 1 else "2"
    return give(high, seat)


def _ranking(
    participants: Sequence[Hashable], records: dict[Hashable, PlayerRecord]
) -> list[Hashable]:
    seed = {p: i for i, p in enumerate(participants)}
    return sorted(participants, key=lambda p: (-records[p].score, seed[p]))


_BYE = object()


def pair_swiss_round(
    participants: Sequence[Hashable],
    history: Iterable[SwissGame],
    *,
    max_byes: int = 1,
) -> list[Pairing]:
    """Pair the next round for the active ``participants``.

    ``participants`` are the players still in the event, in pairing-number
    order (seed 1 first; by rating or by hand, fixed for the event);
    ``history`` holds every recorded game and bye of earlier rounds (withdrawn
    players' games included). Returns the pairings of round ``last + 1``,
    ordered by table: strongest boards first, the bye last.
    """
    players = list(participants)
    if len(players) < 2:
        raise ValueError("a Swiss round needs at least two players")
    if len(set(players)) != len(players):
        raise ValueError("participants must be distinct")
    history = list(history)
    round_number = max((g.round for g in history), default=0) + 1
    records = player_records(history)
    for p in players:
        records.setdefault(p, PlayerRecord())
    ranked = _ranking(players, records)
    pairing_number = {p: i + 1 for i, p in enumerate(players)}
    rank = {p: i for i, p in enumerate(ranked)}
    scores = sorted({records[p].score for p in players}, reverse=True)
    group = {p: scores.index(records[p].score) for p in players}
    members: dict[int, list[Hashable]] = {}
    for p in ranked:
        members.setdefault(group[p], []).append(p)
    position = {p: members[group[p]].index(p) for p in players}
    prefs = {p: colour_preference(records[p].seats) for p in players}
    n, groups = len(players), len(scores)

    graph_nodes = n + n % 2

    def floated(p: Hashable, back: int) -> str:
        return records[p].float_by_round.get(round_number - back, "")

    def solve(remainder: dict[int, list[Hashable]]) -> set:
        """One weighted matching, given each group's in-bracket remainder.

        The remainder is the part of a score group that pairs among itself:
        Dutch splits it into halves S1/S2 and pairs S1[i] with S2[i], trying
        S2 permutations in lexicographic order; ``order`` encodes that order
        as digits so lower-ranked S1 players only decide ties.
        """
        halves = {g: len(m) // 2 for g, m in remainder.items()}
        slot = {p: i for m in remainder.values() for i, p in enumerate(m)}
        pairs_in_round = n // 2 + 1
        # Order digits: each score group gets a block, higher groups more
        # significant (Dutch settles the top bracket first); inside a block
        # the downfloaters' opponents come before the remainder's halves.
        scale_rem: dict[int, int] = {}
        scale_mdp: dict[int, int] = {}
        scale = 1
        for g in sorted(remainder, reverse=True):
            scale_rem[g] = scale
            scale *= (len(remainder[g]) - halves[g] + 1) ** (halves[g] + 1)
            scale_mdp[g] = scale
            scale *= n * pairs_in_round + 1
        level_max = [n, groups, 1, groups, 1, groups, n, 1, 1, 1, 1, 1, 1, n, 1]
        radices = [m * pairs_in_round + 1 for m in level_max] + [scale]
        top = math.prod(radices)

        def weight(costs: list[int]) -> int:
            value = 0
            for cost, radix in zip(costs, radices, strict=True):
                value = value * radix + cost
            return top - value

        def pair_cost(a: Hashable, b: Hashable) -> list[int]:
            if rank[a] > rank[b]:
                a, b = b, a
            ga, gb = group[a], group[b]
            dist = gb - ga
            (wa, ka), (wb, kb) = prefs[a], prefs[b]
            clash = wa is not None and wa == wb
            absolute = clash and ka == 3 and kb == 3
            strong = clash and min(ka, kb) >= 2
            exchange = order = floater = 0
            if dist == 0:
                half = halves[ga]
                sa, sb = slot.get(a), slot.get(b)
                if sa is not None and sb is not None and sa < half <= sb:
                    width = len(remainder[ga]) - half + 1
                    order = (sb - half) * width ** (half - 1 - sa) * scale_rem[ga]
                else:
                    exchange = 1
            else:
                floater = len(members[ga]) - 1 - position[a]
                order = position[b] * scale_mdp[gb]
            return [
                0,
                0,
                int(absolute),
                max(0, dist - 1),
                int(dist > 0),
                (groups - 1 - ga) if dist else 0,
                0,
                int(clash),
                int(strong),
                int(dist > 0 and floated(a, 1) == "down"),
                int(dist > 0 and floated(b, 1) == "up"),
                int(dist > 0 and floated(a, 2) == "down"),
                int(dist > 0 and floated(b, 2) == "up"),
                floater,
                exchange,
                order,
            ]

        graph = nx.Graph()
        graph.add_nodes_from(players)
        for a, b in itertools.combinations(players, 2):
            if b not in records[a].opponents:
                graph.add_edge(a, b, weight=weight(pair_cost(a, b)))
        if n % 2:
            graph.add_node(_BYE)
            for p in players:
                costs = [0] * len(radices)
                costs[0] = max(0, records[p].byes + 1 - max_byes)
                costs[1] = groups - 1 - group[p]
                costs[6] = n - 1 - rank[p]
                costs[9] = int(floated(p, 1) == "down")
                costs[11] = int(floated(p, 2) == "down")
                graph.add_edge(p, _BYE, weight=weight(costs))
        found = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(found) != graph_nodes:
            raise SwissPairingError(
                f"round {round_number}: every pairing would repeat a game"
            )
        return found

    # Start with whole groups as remainders; then drop the residents that
    # met a downfloater (Dutch pairs those first and splits what is left) and
    # pair again, until the split is stable.
    remainder = {g: list(m) for g, m in members.items()}
    matching = solve(remainder)
    for _ in range(4):
        taken = set()
        for a, b in matching:
            if a is _BYE or b is _BYE or group[a] == group[b]:
                continue
            taken.add(b if group[a] < group[b] else a)
        refined = {g: [p for p in m if p not in taken] for g, m in members.items()}
        if refined == remainder:
            break
        remainder = refined
        matching = solve(remainder)
    games: list[tuple[Hashable, Hashable]] = []
    bye: Hashable | None = None
    for a, b in matching:
        if a is _BYE or b is _BYE:
            bye = b if a is _BYE else a
            continue
        high, low = (a, b) if rank[a] < rank[b] else (b, a)
        games.append(_allocate_seats(high, low, records, pairing_number))

    def board_key(game: tuple[Hashable, Hashable]) -> tuple:
        hi = max(records[p].score for p in game)
        lo = min(records[p].score for p in game)
        return (-hi, -lo, min(rank[p] for p in game))

    games.sort(key=board_key)
    out = [
        Pairing(round=round_number, table=i + 1, first=a, second=b)
        for i, (a, b) in enumerate(games)
    ]
    if bye is not None:
        out.append(
            Pairing(round=round_number, table=len(out) + 1, first=bye, second=None)
        )
    return out


@dataclass(frozen=True, slots=True)
class SwissStanding:
    """One line of the standings table."""

    rank: int
    participant: Hashable
    score: float
    tiebreaks: dict[str, float]
    played: int
    byes: int
    first_seats: int


def _tiebreak_values(
    p: Hashable, records: dict[Hashable, PlayerRecord]
) -> tuple[list[float], float]:
    """Opponent-score list (one per recorded round) and Sonneborn-Berger.

    An unplayed round (bye or forfeit) counts as a game against a virtual
    opponent holding the player's own final score, so neither a bye nor an
    opponent's no-show distorts Buchholz in either direction.
    """
    own = records[p].score
    opp_scores, sb = [], []
    for opponent, points, played in records[p].rounds:
        value = records[opponent].score if played else own
        opp_scores.append(value)
        sb.append(value * points)
    return opp_scores, math.fsum(sb)


def swiss_standings(
    participants: Sequence[Hashable],
    history: Iterable[SwissGame],
    *,
    tiebreaks: Sequence[Tiebreak] = DEFAULT_TIEBREAKS,
) -> list[SwissStanding]:
    """Standings: score, then ``tiebreaks`` in order, then pairing number.

    * Buchholz: sum of the opponents' scores (unplayed rounds: see
      :func:`_tiebreak_values`); Cut-1 drops the single lowest value.
    * Sonneborn-Berger: sum of opponent score times the points scored
      against that opponent (wins count fully, draws half).
    * Direct encounter: among players still level on everything before it,
      points scored in games between them, used only when each pair of them
      has met (otherwise it is 0 for all and decides nothing).
    """
    history = list(history)
    records = player_records(history)
    players = list(participants)
    for p in players:
        records.setdefault(p, PlayerRecord())
    seed = {p: i for i, p in enumerate(players)}
    values: dict[Hashable, dict[str, float]] = {p: {} for p in players}
    for p in players:
        opp, sb = _tiebreak_values(p, records)
        bh = math.fsum(opp)
        values[p]["buchholz"] = bh
        values[p]["buchholz_cut1"] = bh - min(opp) if opp else 0.0
        values[p]["sonneborn_berger"] = sb

    order: list[str] = []
    for name in tiebreaks:
        if name not in _TIEBREAK_NAMES:
            raise ValueError(f"unknown tiebreak {name!r}")
        if name == "direct_encounter":
            _direct_encounter(players, records, values, order)
        order.append(name)

    def key(p: Hashable) -> tuple:
        return (-records[p].score, *(-values[p][t] for t in order), seed[p])

    ranked = sorted(players, key=key)
    return [
        SwissStanding(
            rank=i + 1,
            participant=p,
            score=records[p].score,
            tiebreaks={t: values[p][t] for t in order},
            played=len(records[p].seats),
            byes=records[p].byes,
            first_seats=records[p].seats.count("1"),
        )
        for i, p in enumerate(ranked)
    ]


def _direct_encounter(
    players: list[Hashable],
    records: dict[Hashable, PlayerRecord],
    values: dict[Hashable, dict[str, float]],
    before: list[str],
) -> None:
    def key(p: Hashable) -> tuple:
        return (records[p].score, *(values[p][t] for t in before))

    tied: dict[tuple, list[Hashable]] = {}
    for p in players:
        tied.setdefault(key(p), []).append(p)
    for group in tied.values():
        for p in group:
            values[p]["direct_encounter"] = 0.0
        if len(group) < 2:
            continue
        members = set(group)
        if not all(
            b in records[a].opponents for a, b in itertools.combinations(group, 2)
        ):
            continue
        for p in group:
            values[p]["direct_encounter"] = math.fsum(
                pts
                for opp, pts, played in records[p].rounds
                if played and opp in members
            )
