"""Division reads: each division's table with its promotion and relegation zones."""

from __future__ import annotations

from dataclasses import dataclass

from league.models import (
    Division,
    DivisionMember,
    DivisionMove,
    League,
    Participant,
    Rating,
    RatingPool,
    Registration,
    RegistrationStatus,
    Season,
)
from league.ratings.elo import display_rating

PROMOTION = "promotion"
RELEGATION = "relegation"
#: A frozen member's move, as the zone it finished in.
ZONE_OF_MOVE: dict[str, str] = {
    DivisionMove.UP: PROMOTION,
    DivisionMove.DOWN: RELEGATION,
}


@dataclass(frozen=True)
class DivisionRow:
    rank: int
    participant: Participant
    status: str  # the registration's status (withdrawn members stay listed)
    entry: str  # DivisionEntry: how they came to this division
    played: int
    wins: int
    points: float
    rating: int | None
    zone: str  # PROMOTION, RELEGATION or ""


@dataclass(frozen=True)
class DivisionTable:
    division: Division
    rows: list[DivisionRow]
    promoted: int  # the size of the promotion zone
    relegated: int  # the size of the relegation zone
    final: bool  # frozen at the season's close

    @property
    def level(self) -> int:
        return self.division.level


def zone_sizes(
    *, league: League, level: int, levels: int, size: int
) -> tuple[int, int]:
    """(promoted, relegated) of a division of ``size`` members at ``level`` of
    ``levels``: nobody goes up from the top nor down from the bottom, and each
    zone holds at most half the division, so they never overlap."""
    promoted = min(league.promotion_count, size // 2) if level > 1 else 0
    relegated = min(league.relegation_count, size // 2) if level < levels else 0
    return promoted, relegated


def season_divisions(*, season: Season) -> list[Division]:
    return list(Division.objects.filter(season=season).order_by("level"))


def member_divisions(*, season: Season) -> dict[int, int]:
    """participant id -> division id, for every member of ``season``."""
    return dict(
        DivisionMember.objects.filter(season=season).values_list(
            "participant_id", "division_id"
        )
    )


def season_division_tables(
    *, season: Season, live: bool = False
) -> list[DivisionTable]:
    """Every division's table, top first.

    A running season ranks each division like the season table: points, then
    wins, then season rating, those without a game last. Once the season is
    closed (``services.season_divisions_close``) the frozen ranks and moves are
    shown; ``live=True`` ignores them (what the close itself computes from).
    """
    league = season.league
    divisions = season_divisions(season=season)
    members = list(
        DivisionMember.objects.filter(season=season).select_related("participant__user")
    )
    pool = RatingPool.objects.filter(season=season).first()
    ratings = (
        {
            r.participant_id: r
            for r in Rating.objects.filter(
                pool=pool, participant_id__in=[m.participant_id for m in members]
            )
        }
        if pool
        else {}
    )
    statuses = dict(
        Registration.objects.filter(
            season=season, participant_id__in=[m.participant_id for m in members]
        ).values_list("participant_id", "status")
    )
    tables = []
    for division in divisions:
        mine = [m for m in members if m.division_id == division.pk]
        final = not live and bool(mine) and all(m.final_rank for m in mine)
        if final:
            mine.sort(key=lambda m: (m.final_rank or 0, m.pk))
        else:
            mine.sort(key=lambda m: _live_key(m, ratings.get(m.participant_id)))
        promoted, relegated = zone_sizes(
            league=league, level=division.level, levels=len(divisions), size=len(mine)
        )
        rows = []
        for rank, member in enumerate(mine, start=1):
            if final:
                zone = ZONE_OF_MOVE.get(member.move, "")
            elif rank <= promoted:
                zone = PROMOTION
            elif rank > len(mine) - relegated:
                zone = RELEGATION
            else:
                zone = ""
            rating = ratings.get(member.participant_id)
            rows.append(
                DivisionRow(
                    rank=rank,
                    participant=member.participant,
                    status=statuses.get(
                        member.participant_id, RegistrationStatus.WITHDRAWN
                    ),
                    entry=member.entry,
                    played=rating.played if rating else 0,
                    wins=rating.wins if rating else 0,
                    points=rating.points if rating else 0.0,
                    rating=display_rating(rating.rating) if rating else None,
                    zone=zone,
                )
            )
        tables.append(
            DivisionTable(
                division=division,
                rows=rows,
                promoted=promoted,
                relegated=relegated,
                final=final,
            )
        )
    return tables


def _live_key(member: DivisionMember, rating: Rating | None) -> tuple:
    if rating is None or rating.played == 0:
        return (1, 0.0, 0, 0.0, member.pk)
    return (0, -rating.points, -rating.wins, -rating.rating, member.pk)


def unplaced_participants(*, season: Season) -> list[Participant]:
    """Approved registrants without a division yet (placed when play starts)."""
    placed = DivisionMember.objects.filter(season=season).values("participant_id")
    return [
        r.participant
        for r in Registration.objects.filter(
            season=season, status=RegistrationStatus.APPROVED
        )
        .exclude(participant_id__in=placed)
        .select_related("participant__user")
        .order_by("created_at", "pk")
    ]
