"""Tournament reads: who may organise, the history the formats read, standings
with tiebreaks, the cross table, the bracket as drawable columns."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from accounts.http import Viewer
from league.models import (
    Entrant,
    Pairing,
    PairingOutcome,
    PairingStatus,
    Tournament,
    TournamentFormat,
)
from league.selectors import is_organiser
from league.tournaments.formats import elimination, swiss, swiss_multiplayer

TIEBREAK_LABELS = {
    "buchholz_cut1": "Buchholz Cut-1",
    "buchholz": "Buchholz",
    "sonneborn_berger": "Sonneborn-Berger",
    "direct_encounter": "Direct encounter",
    "wins": "Wins",
    "opponent_score": "Opponents' score",
}


def tournament_list(*, game: str | None = None) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related("league", "season", "champion__participant")
    if game:
        qs = qs.filter(game=game)
    return qs


def tournament_by_slug(*, slug: str) -> Tournament:
    return get_object_or_404(
        Tournament.objects.select_related("league", "season", "champion__participant"),
        slug=slug,
    )


def entrants(*, tournament: Tournament) -> list[Entrant]:
    return list(
        tournament.entrants.select_related("participant__user").order_by(
            "seed", "created_at", "pk"
        )
    )


def can_organise(*, tournament: Tournament, user: Viewer | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or tournament.created_by_id == user.pk:
        return True
    if tournament.organisers.filter(pk=user.pk).exists():
        return True
    return tournament.league is not None and is_organiser(
        league=tournament.league, user=user
    )


def is_tournament_context(context: str) -> bool:
    """Whether a match context names a tournament pairing (the only matches
    ``pairing_record_match`` records)."""
    return (context or "").startswith("tournament:")


def seeded_entrants(tournament: Tournament) -> list[Entrant]:
    return list(
        tournament.entrants.filter(withdrawn=False)
        .select_related("participant")
        .order_by("seed", "created_at", "pk")
    )


def swiss_history(tournament: Tournament) -> list[swiss.SwissGame]:
    """Decided games and byes as the formats expect them (entrant ids)."""
    games = []
    for p in tournament.pairings.filter(
        status__in=[PairingStatus.DONE, PairingStatus.BYE]
    ).select_related("round"):
        if p.second_id is None:
            games.append(
                swiss.SwissGame(p.round.number, p.first_id, None, p.first_points or 0)
            )
        else:
            assert p.first_points is not None  # a decided game has its points
            games.append(
                swiss.SwissGame(
                    p.round.number,
                    p.first_id,
                    p.second_id,
                    p.first_points,
                    p.second_points,
                    forfeit=p.outcome
                    in (PairingOutcome.FORFEIT, PairingOutcome.DOUBLE_FORFEIT),
                )
            )
    return games


def table_results(tournament: Tournament) -> list[swiss_multiplayer.TableResult]:
    """Finished multiplayer tables as the formats expect them (entrant ids).

    A table where nobody showed up scores nothing and is no meeting: left out.
    Seats the match forfeited (no-shows) are marked: they met nobody, and the
    players present scored by forfeit (no bye for them later).
    """
    results = []
    pairings = tournament.pairings.filter(status=PairingStatus.DONE).select_related(
        "round", "match"
    )
    for pairing in pairings.prefetch_related("seats"):
        seats = sorted(pairing.seats.all(), key=lambda s: s.seat)
        if any(s.placement is None for s in seats):
            continue
        gone = set()
        if pairing.outcome == PairingOutcome.FORFEIT and pairing.match is not None:
            gone = set((pairing.match.result or {}).get("forfeited") or [])
        results.append(
            swiss_multiplayer.TableResult(
                round=pairing.round.number,
                seats=tuple(s.entrant_id for s in seats),
                placements={
                    s.entrant_id: s.placement
                    for s in seats
                    if s.placement is not None  # all are: checked above
                },
                forfeited=frozenset(s.entrant_id for s in seats if s.seat in gone),
            )
        )
    return results


def standings_rows(tournament: Tournament) -> list[tuple]:
    """(rank, entrant id, score, played, byes, first seats, tiebreaks) rows."""
    entrants = [e.pk for e in seeded_entrants(tournament)]
    if tournament.is_tables:
        return [
            (
                r.rank,
                r.participant,
                r.score,
                r.played,
                0,
                r.first_seats,
                {"wins": float(r.wins), "opponent_score": r.opponent_score},
            )
            for r in swiss_multiplayer.multiplayer_standings(
                entrants, table_results(tournament)
            )
        ]
    return [
        (r.rank, r.participant, r.score, r.played, r.byes, r.first_seats, r.tiebreaks)
        for r in swiss.swiss_standings(
            entrants,
            swiss_history(tournament),
            tiebreaks=_swiss_tiebreaks(tournament),
        )
    ]


def ranked_entrant_ids(tournament: Tournament) -> list[int]:
    return [row[1] for row in standings_rows(tournament)]


def standings_tiebreaks(tournament: Tournament) -> tuple[str, ...]:
    """Swiss: Buchholz Cut-1, Buchholz, Sonneborn-Berger, direct encounter.

    A round robin has everyone meet everyone, so Buchholz says nothing there;
    direct encounter, then Sonneborn-Berger, is what round robins use. Tables
    of 3-5 rank by placement points, then wins, then opponents' score (the
    multiplayer Buchholz), as ``formats.swiss_multiplayer`` defines.
    """
    if tournament.is_tables:
        return ("wins", "opponent_score")
    return _swiss_tiebreaks(tournament)


def _swiss_tiebreaks(tournament: Tournament) -> tuple[swiss.Tiebreak, ...]:
    """``standings_tiebreaks`` of a two-player format (the Swiss machinery)."""
    if tournament.format == TournamentFormat.SWISS:
        return swiss.DEFAULT_TIEBREAKS
    return ("direct_encounter", "sonneborn_berger")


@dataclass(frozen=True)
class StandingRow:
    rank: int
    entrant: Entrant
    score: float
    played: int
    byes: int
    first_seats: int
    tiebreaks: dict[str, float]


def standings(*, tournament: Tournament) -> list[StandingRow]:
    """Score, then the format's tiebreaks (see ``standings_tiebreaks``)."""
    by_id = {e.pk: e for e in entrants(tournament=tournament)}
    return [
        StandingRow(
            rank=rank,
            entrant=by_id[entrant_id],
            score=score,
            played=played,
            byes=byes,
            first_seats=firsts,
            tiebreaks=tiebreaks,
        )
        for rank, entrant_id, score, played, byes, firsts, tiebreaks in standings_rows(
            tournament
        )
    ]


@dataclass(frozen=True)
class CrossRow:
    entrant: Entrant
    cells: list[list[float] | None]  # per opponent: points of each game, or None
    score: float


def cross_table(*, tournament: Tournament) -> list[CrossRow]:
    """Round-robin grid: each row's points against each column (two games in a
    double round robin); the diagonal and unplayed games are empty."""
    if tournament.format not in (
        TournamentFormat.ROUND_ROBIN,
        TournamentFormat.DOUBLE_ROUND_ROBIN,
    ):
        return []
    order = [row.entrant for row in standings(tournament=tournament)]
    index = {e.pk: i for i, e in enumerate(order)}
    grid: list[list[list[float]]] = [[[] for _ in order] for _ in order]
    decided = tournament.pairings.filter(
        status=PairingStatus.DONE, second__isnull=False
    ).order_by("round__number")
    for p in decided:
        if p.first_id not in index or p.second_id not in index:
            continue
        a, b = index[p.first_id], index[p.second_id]
        # A decided game has both points.
        assert p.first_points is not None and p.second_points is not None
        grid[a][b].append(p.first_points)
        grid[b][a].append(p.second_points)
    return [
        CrossRow(
            entrant=e,
            cells=[cell or None for cell in grid[i]],
            score=sum(x for cell in grid[i] for x in cell),
        )
        for i, e in enumerate(order)
    ]


def rounds(*, tournament: Tournament) -> list[tuple]:
    """[(round, [pairings])] in order, for the results tables."""
    pairings = (
        Pairing.objects.filter(tournament=tournament)
        .exclude(status=PairingStatus.CANCELLED)
        .select_related(
            "round", "first__participant", "second__participant", "winner", "match"
        )
        .prefetch_related("seats__entrant__participant")
        .order_by("round__number", "table")
    )
    out: dict[int, tuple] = {}
    for p in pairings:
        out.setdefault(p.round.number, (p.round, []))[1].append(p)
    return list(out.values())


@dataclass
class SlotView:
    name: str
    seed: int | None
    state: str  # "won", "lost", "", "empty"


@dataclass
class MatchView:
    id: str
    state: str
    slots: list[SlotView]
    pairing: Pairing | None = None


@dataclass
class RoundView:
    title: str
    matches: list[MatchView]


@dataclass
class SectionView:
    title: str
    rounds: list[RoundView] = field(default_factory=list)


@dataclass
class BracketView:
    sections: list[SectionView]
    champion: Entrant | None


SECTION_TITLES = {
    "W": "Winners bracket",
    "L": "Losers bracket",
    "P3": "Finals",
    "GF": "Finals",
}


def bracket_view(*, tournament: Tournament) -> BracketView | None:
    """Columns per section (winners, losers, finals) ready for HTML/CSS drawing."""
    if not tournament.bracket:
        return None
    bracket = elimination.Bracket.from_dict(tournament.bracket)
    # Bracket slots name entrants by id (formats are generic over Hashable ids).
    by_id: dict[Hashable, Entrant] = {e.pk: e for e in entrants(tournament=tournament)}
    pairings = {
        p.bracket_match: p
        for p in tournament.pairings.exclude(status=PairingStatus.CANCELLED)
        .select_related("match")
        .order_by("pk")
    }
    sections: dict[str, SectionView] = {}
    single = tournament.format == TournamentFormat.SINGLE_ELIM
    for column in elimination.bracket_rounds(bracket):
        title = "Bracket" if single and column.section == "W" else None
        title = title or SECTION_TITLES[column.section]
        section = sections.setdefault(title, SectionView(title=title))
        views = []
        for m in column.matches:
            slots = []
            for slot in m.slots:
                entrant = by_id.get(slot.participant)
                if entrant is None:
                    name = "bye" if slot.resolved else _source_label(slot.source)
                    slots.append(SlotView(name=name, seed=None, state="empty"))
                    continue
                state = ""
                if m.state == "done":
                    state = "won" if m.winner == entrant.pk else "lost"
                slots.append(
                    SlotView(
                        name=entrant.participant.name, seed=entrant.seed, state=state
                    )
                )
            views.append(
                MatchView(
                    id=m.id, state=m.state, slots=slots, pairing=pairings.get(m.id)
                )
            )
        section.rounds.append(RoundView(title=column.title, matches=views))
    champion = by_id.get(bracket.champion) if bracket.champion is not None else None
    return BracketView(sections=list(sections.values()), champion=champion)


def _source_label(source: str) -> str:
    kind, _, ref = source.partition(":")
    if kind == "winner":
        return f"winner of {ref}"
    if kind == "loser":
        return f"loser of {ref}"
    return "—"
