"""League reads: leagues, seasons, standings and what a visitor may do."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from accounts.http import Viewer
from league.models import (
    League,
    Participant,
    ParticipantType,
    Rating,
    RatingPool,
    Registration,
    RegistrationStatus,
    Season,
    SeasonQueueEntry,
    SeasonStatus,
)
from league.ratings.elo import display_rating, is_provisional


def is_organiser(*, league: League, user: Viewer | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff) or league.organisers.filter(pk=user.pk).exists()


def registration_window_open(season: Season, now: datetime | None = None) -> bool:
    """Whether registrations for ``season`` are taken at ``now`` (default now)."""
    now = now or timezone.now()
    return (
        season.status
        in (SeasonStatus.UPCOMING, SeasonStatus.OPEN, SeasonStatus.RUNNING)
        and season.registration_opens_at <= now <= season.registration_closes_at
    )


def league_list(*, game: str | None = None) -> QuerySet[League]:
    leagues = League.objects.all()
    if game:
        leagues = leagues.filter(game=game)
    return leagues


def league_by_slug(*, slug: str) -> League:
    return get_object_or_404(League, slug=slug)


def season_by_number(*, league: League, number: int) -> Season:
    return get_object_or_404(Season, league=league, number=number)


@dataclass(frozen=True)
class SeasonStanding:
    rank: int
    participant: Participant
    status: str
    played: int
    wins: int
    points: float
    rating: int | None
    provisional: bool


def season_standings(*, season: Season) -> list[SeasonStanding]:
    """Registered participants by points (pairwise points per game), then wins,
    then rating; those who have not played yet follow, in registration order."""
    pool = RatingPool.objects.filter(season=season).first()
    config = pool.elo_config if pool else None
    ratings = (
        {r.participant_id: r for r in Rating.objects.filter(pool=pool)} if pool else {}
    )
    registrations = list(
        Registration.objects.filter(
            season=season,
            status__in=[RegistrationStatus.APPROVED, RegistrationStatus.PENDING],
        ).select_related("participant__user")
    )
    known = {r.participant_id for r in registrations}
    rows = []
    for reg in registrations:
        rating = ratings.get(reg.participant_id)
        rows.append((reg.participant, reg.status, rating))
    # Players who played season games but withdrew still appear in the table.
    extra = [pid for pid in ratings if pid not in known]
    for p in Participant.objects.filter(pk__in=extra):
        rows.append((p, RegistrationStatus.WITHDRAWN, ratings[p.pk]))
    rows.sort(
        key=lambda row: (
            row[2] is None,
            -(row[2].points if row[2] else 0),
            -(row[2].wins if row[2] else 0),
            -(row[2].rating if row[2] else 0),
        )
    )
    return [
        SeasonStanding(
            rank=i,
            participant=p,
            status=status,
            played=r.played if r else 0,
            wins=r.wins if r else 0,
            points=r.points if r else 0.0,
            rating=display_rating(r.rating) if r else None,
            provisional=is_provisional(games=r.games, config=config)
            if r and config
            else True,
        )
        for i, (p, status, r) in enumerate(rows, start=1)
    ]


def registration_of(*, season: Season, user: Viewer) -> Registration | None:
    if not user.is_authenticated:
        return None
    return (
        Registration.objects.filter(
            season=season, participant__key=Participant.user_key(user.pk)
        )
        .exclude(status=RegistrationStatus.WITHDRAWN)
        .first()
    )


def bot_registrations_of(*, season: Season, user: Viewer) -> list[Registration]:
    """The registrations (pending or approved) of the bots ``user`` owns."""
    if not user.is_authenticated:
        return []
    return list(
        Registration.objects.filter(
            season=season,
            participant__type=ParticipantType.BOT,
            participant__owner_id=user.pk,
        )
        .exclude(status=RegistrationStatus.WITHDRAWN)
        .select_related("participant")
        .order_by("pk")
    )


def pending_registrations(*, league: League) -> QuerySet[Registration]:
    return Registration.objects.filter(
        season__league=league, status=RegistrationStatus.PENDING
    ).select_related("participant", "season")


def season_queue(*, season: Season) -> QuerySet[SeasonQueueEntry]:
    """Who is waiting for a season game, longest first (shown on the season page)."""
    return (
        SeasonQueueEntry.objects.filter(season=season)
        .select_related("participant__user")
        .order_by("joined_at", "pk")
    )


def queued_participant_ids(*, season: Season, user: Viewer) -> set[int]:
    """The participants ``user`` answers for (themselves, their bots) now waiting."""
    if not user.is_authenticated:
        return set()
    return set(
        SeasonQueueEntry.objects.filter(season=season, queued_by=user).values_list(
            "participant_id", flat=True
        )
    ) | set(
        SeasonQueueEntry.objects.filter(
            season=season, participant__key=Participant.user_key(user.pk)
        ).values_list("participant_id", flat=True)
    )


def approved_participants(*, season: Season) -> list[Participant]:
    """Participants with an approved registration (who may queue for games)."""
    return [
        r.participant
        for r in Registration.objects.filter(
            season=season, status=RegistrationStatus.APPROVED
        ).select_related("participant__user")
    ]
