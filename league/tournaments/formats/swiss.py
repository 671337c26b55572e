"""Swiss system for two-player games: FIDE Dutch pairing, seats and standings.

Pairing is delegated to `py4swiss <https://pypi.org/project/py4swiss/>`_, a
FIDE (Dutch) System implementation (C.04.3 as in force until 31 January 2026)
that was tested against the FIDE-endorsed engine bbpPairings and links that
engine's blossom matching code. Writing our own Dutch engine had given the
endorsed engine's pairing in only about a third of rounds; a kept library
that agrees with it is worth more than a clever reimplementation.

The library reads TRF files, so :func:`swiss_trf` writes the history as a
TRF-16 report (start numbers in pairing-number order, ratings, results with
forfeits, pairing-allocated, half- and full-point byes, absences, the total
number of rounds so the last-round rules for topscorers apply) plus the
javafo conventions py4swiss understands (``XXR`` rounds, ``XXS`` the bye's
value, ``XXC white1``, a ``Z`` absence in the column of the round to pair for
players who sit it out). :func:`pair_swiss_round`
writes that report, parses it in memory with the library's parsers, lets
the library pair it and maps the start numbers back.

Platform rules on top of the library: white is the first seat (and the top
seed gets it in round 1, ``white1``: no random first colour), and a round
that cannot be paired without breaking an absolute rule raises
:class:`SwissPairingError` instead of pairing a rematch. Everything else -
brackets, floaters, colours, the bye, topscorers, board order - is the
library's Dutch; ``docs/tournaments.md`` lists what still differs.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf, TrfLine
from py4swiss.trf.codes import PlayerCode, TournamentCode, XCode
from py4swiss.trf.exceptions import ConsistencyError, LineError, ParsingError
from py4swiss.trf.sections import PlayerSection, TournamentSection, XSection

from league.tournaments.formats.base import Pairing

__all__ = [
    "BYE_KINDS",
    "DEFAULT_TIEBREAKS",
    "SwissGame",
    "SwissPairingError",
    "SwissStanding",
    "Tiebreak",
    "colour_preference",
    "default_swiss_rounds",
    "pair_swiss_round",
    "parse_trf",
    "player_records",
    "swiss_standings",
    "swiss_trf",
]

Tiebreak = Literal["buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter"]
DEFAULT_TIEBREAKS: tuple[Tiebreak, ...] = (
    "buchholz_cut1",
    "buchholz",
    "sonneborn_berger",
    "direct_encounter",
)

_TIEBREAK_NAMES = frozenset(DEFAULT_TIEBREAKS)

ByeKind = Literal["pairing", "half", "full", "zero"]
#: TRF result code per kind of bye: pairing-allocated (U), requested half- or
#: full-point bye (H, F), known absence (Z).
BYE_KINDS: dict[str, str] = {"pairing": "U", "half": "H", "full": "F", "zero": "Z"}
_BYE_POINTS = {"half": 0.5, "full": 1.0, "zero": 0.0}


class SwissPairingError(ValueError):
    """No pairing satisfies the absolute rules (too many rounds for the field).

    ``round_number`` is kept so the site can say it in the organiser's
    language."""

    def __init__(self, message: str, *, round_number: int) -> None:
        super().__init__(message)
        self.round_number = round_number


@dataclass(frozen=True, slots=True)
class SwissGame:
    """One entry of a Swiss round as recorded by the caller.

    ``second is None`` is a bye for ``first``: ``bye="pairing"`` (default) is
    the pairing-allocated bye worth ``first_points``; ``"half"``, ``"full"``
    and ``"zero"`` are a requested half-/full-point bye and a known absence
    (their points are fixed). ``forfeit`` marks a game that was not played
    (no-show): it scores, but it is no meeting (the two may still be paired
    later), gives no seat, counts as a float and as an unplayed round for
    tiebreaks, and a forfeit win bars the pairing-allocated bye like a bye
    does (FIDE C.04.3 C.2).
    """

    round: int
    first: Hashable
    second: Hashable | None
    first_points: float
    second_points: float | None = None
    forfeit: bool = False
    bye: ByeKind = "pairing"

    def __post_init__(self) -> None:
        if self.round < 1:
            raise ValueError("rounds are numbered from 1")
        if self.second is not None and self.second_points is None:
            object.__setattr__(self, "second_points", 1.0 - self.first_points)
        if self.second is not None and self.first == self.second:
            raise ValueError("a player cannot meet themselves")
        if self.bye not in BYE_KINDS:
            raise ValueError(f"unknown bye kind {self.bye!r}")
        if self.second is None:
            if self.bye in _BYE_POINTS and self.first_points != _BYE_POINTS[self.bye]:
                raise ValueError(
                    f"a {self.bye} bye is worth {_BYE_POINTS[self.bye]}, "
                    f"not {self.first_points}"
                )
            if not 0 <= self.first_points <= 1:
                raise ValueError("a bye is worth between 0 and 1 point")
            return
        points = (self.first_points, self.second_points)
        allowed = (
            {(1.0, 0.0), (0.0, 1.0), (0.0, 0.0)}
            if self.forfeit
            else {(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)}
        )
        if points not in allowed:
            kind = "forfeit" if self.forfeit else "game"
            raise ValueError(f"a {kind} cannot score {points[0]}-{points[1]}")

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
    byes: int = 0  # pairing-allocated byes
    forfeit_wins: int = 0
    last_float: str = ""  # "down", "up" or "" for the latest round
    float_by_round: dict[int, str] = field(default_factory=dict)
    rounds: list[tuple[Hashable | None, float, bool]] = field(default_factory=list)
    # (opponent or None, points, played) per recorded round, in round order
    kinds: dict[int, str] = field(default_factory=dict)
    # round number -> "game", "awarded" (pairing-allocated or full-point bye),
    # "forfeit_win", "forfeit_loss" or "requested" (half- or zero-point bye):
    # what FIDE C.07 art. 16.2 sorts unplayed rounds by

    @property
    def had_bye(self) -> bool:
        """No pairing-allocated bye any more: had one or won by forfeit."""
        return self.byes > 0 or self.forfeit_wins > 0


def player_records(history: Iterable[SwissGame]) -> dict[Hashable, PlayerRecord]:
    """Scores, opponents, seats, byes and floats per player from ``history``.

    Floats follow FIDE C.04.3 A.4: in a game between different scores the
    higher player floats down and the lower one up; a player who does not
    play (any bye, a forfeit either way) floats down.
    """
    games = sorted(history, key=lambda g: g.round)
    records: dict[Hashable, PlayerRecord] = {}

    def rec(p: Hashable) -> PlayerRecord:
        return records.setdefault(p, PlayerRecord())

    for rnd, grouped in itertools.groupby(games, key=lambda g: g.round):
        round_games = list(grouped)
        before = {}
        for g in round_games:
            for p in (g.first, g.second):
                if p is not None:
                    if p in before:
                        raise ValueError(f"{p!r} appears twice in round {g.round}")
                    before[p] = rec(p).score
        for p, r in records.items():
            r.last_float = ""
            if p not in before:
                r.float_by_round[rnd] = "down"  # not paired this round
        for g in round_games:
            a = rec(g.first)
            if g.second is None:
                if g.bye == "pairing":
                    a.byes += 1
                a.last_float = a.float_by_round[g.round] = "down"
                a.score += g.first_points
                a.rounds.append((None, g.first_points, False))
                a.kinds[g.round] = (
                    "awarded" if g.bye in ("pairing", "full") else "requested"
                )
                continue
            b = rec(g.second)
            second_points = g.second_points
            assert second_points is not None  # a game's (SwissGame sets it)
            a.score += g.first_points
            b.score += second_points
            a.rounds.append((g.second, g.first_points, g.played))
            b.rounds.append((g.first, second_points, g.played))
            a.kinds[g.round] = b.kinds[g.round] = "game"
            if not g.played:
                a.kinds[g.round] = (
                    "forfeit_win" if g.first_points > second_points else "forfeit_loss"
                )
                b.kinds[g.round] = (
                    "forfeit_win" if second_points > g.first_points else "forfeit_loss"
                )
                a.forfeit_wins += g.first_points > second_points
                b.forfeit_wins += second_points > g.first_points
                a.last_float = a.float_by_round[g.round] = "down"
                b.last_float = b.float_by_round[g.round] = "down"
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
    return records


def colour_preference(seats: Sequence[str]) -> tuple[str | None, int]:
    """Seat preference and its strength (FIDE C.04.3 A.6 applied to seats).

    Strength 3 (absolute): seat difference beyond +-1 or the same seat twice
    in a row; 2 (strong): difference of one; 1 (mild): balanced, so alternate;
    0: no game played yet. The library computes its own; this one serves the
    standings, the tests and the multiplayer format's docs.
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


# ---------------------------------------------------------------------------
# TRF-16 export and pairing through py4swiss


def _start_numbers(
    participants: Sequence[Hashable], games: Sequence[SwissGame]
) -> dict[Hashable, int]:
    """Start number per player: ``participants`` in order, then history-only ones.

    Players who appear only in the history (withdrawn) get numbers after the
    active field, in order of first appearance, so the active players'
    relative order - all the Dutch rules look at - is the seed order.
    """
    numbers = {p: i for i, p in enumerate(participants, start=1)}
    for g in games:
        for p in (g.first, g.second):
            if p is not None and p not in numbers:
                numbers[p] = len(numbers) + 1
    return numbers


def _points(value: float) -> str:
    return f"{value:4.1f}"


def _trf_name(player: Hashable) -> str:
    text = " ".join(str(player).split())
    return text[:33]


def swiss_trf(
    participants: Sequence[Hashable],
    history: Iterable[SwissGame],
    *,
    total_rounds: int,
    absent: Iterable[Hashable] = (),
    ratings: Mapping[Hashable, float] | None = None,
    title: str = "Swiss",
) -> tuple[str, dict[Hashable, int]]:
    """The history as a TRF-16 report (with javafo extensions) and start numbers.

    ``participants`` are the players in pairing-number order (seed 1 first);
    ``absent`` ones are in the event but not to be paired in the next round,
    as is everyone who appears only in the history: they get a known absence
    (``0000 - Z``) in the column of the round to pair, the javafo convention
    that py4swiss and bbpPairings both read. A past round with no entry for a
    player is written the same way.
    The file states ``total_rounds`` (``XXR``) because Dutch treats the last
    round differently (topscorers, C.04.3 A.7), and ``white1``: the top seed
    takes the first seat in round 1.
    """
    players = list(participants)
    if len(set(players)) != len(players):
        raise ValueError("participants must be distinct")
    games = sorted(history, key=lambda g: g.round)
    records = player_records(games)  # validates the history
    numbers = _start_numbers(players, games)
    last = games[-1].round if games else 0
    if total_rounds <= last:
        raise ValueError(
            f"the event has {total_rounds} rounds; round {last} is already played"
        )
    if total_rounds > 99:
        raise ValueError("a Swiss has at most 99 rounds")
    if len(numbers) > 9999:
        raise ValueError("a Swiss has at most 9999 players")
    cells: dict[Hashable, list[str]] = {p: ["0000 - Z"] * last for p in numbers}
    pab_values = set()
    for g in games:
        i = g.round - 1
        a = numbers[g.first]
        if g.second is None:
            if g.bye == "pairing":
                pab_values.add(g.first_points)
            cells[g.first][i] = f"0000 - {BYE_KINDS[g.bye]}"
            continue
        b = numbers[g.second]
        second_points = g.second_points
        assert second_points is not None  # a game's (SwissGame sets it)
        if g.forfeit:
            ra = "+" if g.first_points > second_points else "-"
            rb = "+" if second_points > g.first_points else "-"
        else:
            code = {1.0: "1", 0.5: "=", 0.0: "0"}
            ra, rb = code[g.first_points], code[second_points]
        cells[g.first][i] = f"{b:4d} w {ra}"
        cells[g.second][i] = f"{a:4d} b {rb}"
    if len(pab_values) > 1:
        raise ValueError("every pairing-allocated bye must be worth the same")
    pab = pab_values.pop() if pab_values else 1.0
    if round(pab * 10) != pab * 10:
        raise ValueError("a pairing-allocated bye is worth whole tenths of a point")

    def score(p: Hashable) -> float:
        return records[p].score if p in records else 0.0

    ranked = sorted(numbers, key=lambda p: (-score(p), numbers[p]))
    rank = {p: i for i, p in enumerate(ranked, start=1)}
    ratings = ratings or {}
    lines = [f"012 {title[:80]}", f"062 {len(numbers)}", f"XXR {total_rounds}"]
    if pab != 1.0:
        lines.append(f"XXS PAB={pab:.1f}")
    lines.append("XXC white1")
    absent = set(absent)
    for p, n in numbers.items():
        if p in absent or n > len(players):
            cells[p].append("0000 - Z")
    for p, n in numbers.items():
        rating = ratings.get(p)
        rating_text = "" if rating is None else str(min(9999, max(0, round(rating))))
        line = (
            f"001 {n:4d}      {_trf_name(p):<33} {rating_text:>4}"
            f" {'':3} {'':11} {'':10} {_points(score(p))} {rank[p]:4d}"
        )
        for cell in cells[p]:
            line += "  " + cell
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n", numbers


def parse_trf(text: str) -> ParsedTrf:
    """Parse TRF text with py4swiss, strictly, without touching the disk.

    The same steps as ``py4swiss.trf.TrfParser.parse(path, strict=True)``
    (which only reads files): every line through ``TrfLine``, the sections
    from their lines, then the library's consistency checks (scores against
    results, both sides of every game).
    """
    by_code: defaultdict = defaultdict(list)
    for index, line in enumerate(text.splitlines()):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            parsed = TrfLine(index, stripped)
            by_code[parsed.code_type].append(parsed)
    trf = ParsedTrf(
        player_sections=[
            PlayerSection.from_string(str(line)) for line in by_code[PlayerCode]
        ],
        tournament_section=TournamentSection.from_lines(by_code[TournamentCode]),
        x_section=XSection.from_lines(by_code[XCode]),
    )
    trf.validate_contents()
    return trf


def pair_swiss_round(
    participants: Sequence[Hashable],
    history: Iterable[SwissGame],
    *,
    total_rounds: int,
    absent: Iterable[Hashable] = (),
    ratings: Mapping[Hashable, float] | None = None,
) -> list[Pairing]:
    """Pair the next round with the FIDE Dutch system (py4swiss).

    ``participants`` are the players in the event in pairing-number order
    (seed 1 first, fixed for the event); ``absent`` ones sit this round out
    without a bye. ``history`` holds every recorded game and bye of earlier
    rounds (withdrawn players' games included); ``total_rounds`` is the
    planned length of the event. Returns the pairings of round ``last + 1``
    in the library's board order (FIDE D.9: top score first), the bye last.
    Raises :class:`SwissPairingError` when no pairing meets the absolute
    criteria (no rematch, at most one pairing-allocated bye, no absolute
    colour clash between non-topscorers).

    Round 1 (an empty history) is not handed to the library: it is fixed by
    the rules (:func:`_first_round`) and the library's way of reaching it -
    weighing every pair of one big bracket in Python - is the slowest round
    of an event (about 1.8 s CPU at 200 players). The tests check that both
    give the same pairing for every field of 2-60 with random absences.
    """
    players = list(participants)
    absent = set(absent)
    unknown = absent - set(players)
    if unknown:
        raise ValueError(
            f"absent players are not participants: {sorted(map(str, unknown))}"
        )
    history = list(history)
    playing = [p for p in players if p not in absent]
    if len(playing) < 2:
        raise ValueError("a Swiss round needs at least two players")
    if not history:
        swiss_trf(players, [], total_rounds=total_rounds)  # same input checks
        return _first_round(players, absent)
    return _pair_with_library(players, history, total_rounds, absent, ratings)


def _first_round(players: list[Hashable], absent: set) -> list[Pairing]:
    """FIDE Dutch round 1: one bracket, S1 (top half) v S2 in order, the
    last player the bye when odd; colours by E.5 with ``white1``: the higher
    player of a board takes white if their pairing number is odd."""
    number = {p: i for i, p in enumerate(players, start=1)}
    playing = [p for p in players if p not in absent]
    half = len(playing) // 2
    out = []
    for i in range(half):
        high, low = playing[i], playing[half + i]
        first, second = (high, low) if number[high] % 2 else (low, high)
        out.append(Pairing(round=1, table=i + 1, first=first, second=second))
    if len(playing) % 2:
        out.append(Pairing(round=1, table=half + 1, first=playing[-1], second=None))
    return out


def _pair_with_library(
    players: list[Hashable],
    history: list[SwissGame],
    total_rounds: int,
    absent: set,
    ratings: Mapping[Hashable, float] | None,
) -> list[Pairing]:
    text, numbers = swiss_trf(
        players, history, total_rounds=total_rounds, absent=absent, ratings=ratings
    )
    round_number = max((g.round for g in history), default=0) + 1
    by_number = {n: p for p, n in numbers.items()}
    try:
        trf = parse_trf(text)
    except (ParsingError, ConsistencyError, LineError) as exc:  # a bug on our side
        raise ValueError(f"TRF rejected by py4swiss: {exc}") from exc
    try:
        result = DutchEngine.generate_pairings(trf)
    except PairingError as exc:
        raise SwissPairingError(
            f"round {round_number}: no pairing avoids a rematch, a second bye "
            "or an absolute colour clash",
            round_number=round_number,
        ) from exc
    games = [p for p in result if p.black != 0]
    byes = [p for p in result if p.black == 0]
    out = [
        Pairing(
            round=round_number,
            table=i,
            first=by_number[p.white],
            second=by_number[p.black],
        )
        for i, p in enumerate(games, start=1)
    ]
    out.extend(
        Pairing(
            round=round_number,
            table=len(out) + i,
            first=by_number[p.white],
            second=None,
        )
        for i, p in enumerate(byes, start=1)
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


#: C.07 art. 16.1: a Voluntarily Unplayed Round is one the player chose not
#: to play: a requested (half- or zero-point) bye, an absence, a forfeit loss.
_VOLUNTARY = frozenset({"requested", "absent", "forfeit_loss"})


def _kinds(record: PlayerRecord, rounds: int) -> dict[int, str]:
    """Each round 1..``rounds`` of a player; a round with no entry (withdrawn)
    is an absence, voluntarily unplayed like a zero-point bye."""
    return {r: record.kinds.get(r, "absent") for r in range(1, rounds + 1)}


def _to_the_end(kinds: dict[int, str], rnd: int) -> bool:
    """C.07 art. 16.2.5: a requested bye or absence followed only by voluntarily
    unplayed rounds (or in the last round), as opposed to 16.2.3 (followed by
    at least one round that is not voluntarily unplayed)."""
    return all(kinds[r] in _VOLUNTARY for r in kinds if r > rnd)


def _adjusted_score(record: PlayerRecord, rounds: int) -> float:
    """A player's score as their opponents' tiebreaks see it (C.07 art. 16.3).

    Every round counts with the points it gave, except requested byes and
    absences to the end (art. 16.2.5, a player who stopped playing), which
    count as draws; a withdrawn player's missing rounds are such absences.
    """
    kinds = _kinds(record, rounds)
    points = dict.fromkeys(kinds, 0.0)
    for rnd, (_, pts, _) in zip(sorted(record.kinds), record.rounds, strict=True):
        points[rnd] = pts
    return math.fsum(
        0.5
        if kind in ("requested", "absent") and _to_the_end(kinds, rnd)
        else points[rnd]
        for rnd, kind in kinds.items()
    )


@dataclass(frozen=True, slots=True)
class _Contribution:
    """One round's share of Buchholz and Sonneborn-Berger."""

    value: float  # the opponent's adjusted score, or the dummy's
    points: float  # what the player scored that round
    voluntary: bool  # a Voluntarily Unplayed Round (cut first, art. 16.5)


def _contributions(
    p: Hashable,
    records: dict[Hashable, PlayerRecord],
    adjusted: dict[Hashable, float],
    rounds: int,
) -> list[_Contribution]:
    """One contribution per round 1..``rounds`` (FIDE C.07 art. 16).

    A played game contributes the opponent's adjusted score (art. 16.3). An
    unplayed round of the player's own (bye, forfeit either way, absence) is
    a game against a dummy opponent holding the player's own final score
    (art. 16.4), so neither a bye nor an opponent's no-show distorts Buchholz.
    """
    record = records[p]
    own = record.score
    by_round = dict(zip(sorted(record.kinds), record.rounds, strict=True))
    out = []
    for rnd, kind in _kinds(record, rounds).items():
        opponent, points, played = by_round.get(rnd, (None, 0.0, False))
        value = adjusted[opponent] if played and opponent is not None else own
        out.append(_Contribution(value, points, kind in _VOLUNTARY))
    return out


def _cut1(contributions: list[_Contribution]) -> float:
    """Buchholz Cut-1: drop one value; C.07 art. 16.5 cuts a voluntarily
    unplayed round's (the lowest of them) before the lowest opponent score."""
    if not contributions:
        return 0.0
    voluntary = [c.value for c in contributions if c.voluntary]
    cut = min(voluntary) if voluntary else min(c.value for c in contributions)
    return math.fsum(c.value for c in contributions) - cut


def swiss_standings(
    participants: Sequence[Hashable],
    history: Iterable[SwissGame],
    *,
    tiebreaks: Sequence[Tiebreak] = DEFAULT_TIEBREAKS,
) -> list[SwissStanding]:
    """Standings: score, then ``tiebreaks`` in order, then pairing number.

    Every tiebreak follows FIDE C.07 (Tie-Break Regulations) with its art. 16
    on unplayed rounds (:func:`_contributions`):

    * Buchholz (art. 8.1): sum of the opponents' adjusted scores (art. 16.3),
      a dummy with the player's own score for each unplayed round (16.4);
      Cut-1 drops one value, a voluntarily unplayed round's first (16.5).
    * Sonneborn-Berger (art. 9.1): sum of each round's value times the points
      scored that round (wins count fully, draws half).
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
    rounds = max((g.round for g in history), default=0)
    adjusted = {q: _adjusted_score(r, rounds) for q, r in records.items()}
    for p in players:
        parts = _contributions(p, records, adjusted, rounds)
        values[p]["buchholz"] = math.fsum(c.value for c in parts)
        values[p]["buchholz_cut1"] = _cut1(parts)
        values[p]["sonneborn_berger"] = math.fsum(c.value * c.points for c in parts)

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


def default_swiss_rounds(*, entrants: int, tables: bool = False) -> int:
    """The usual number of Swiss rounds for a field: ceil(log2(entrants)).

    That many rounds is what it takes for one player to be the only one left
    with a perfect score (the classic rule for Swiss events). Two-player Swiss
    is capped below the field size, so nobody has to meet an opponent twice;
    tables of 3-5 meet more players per round, so one round fewer is enough,
    with at least two.
    """
    rounds = max(1, math.ceil(math.log2(max(2, entrants))))
    if tables:
        return max(2, rounds - 1)
    return max(1, min(rounds, entrants + entrants % 2 - 1))
