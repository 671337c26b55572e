"""Bot leagues with divisions run on the ladder's schedule: each period pairs
the bots of every division among themselves, once per period, and the
seasons' promotion and relegation move them (issue 31, section 2)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from bots import enqueue, ladder
from bots.models import BotStatus
from gameplay.models import Match, MatchStatus
from league import services
from league.divisions.selectors import season_division_tables
from league.models import (
    DivisionMember,
    DivisionRound,
    ParticipantKind,
    Registration,
    SeasonStatus,
)
from league.participants import (
    bot_info,
    participant_for_bot,
    participant_for_user,
    seat_agent_for,
)
from league.ratings.services import rating_apply_match
from tests.factories import (
    BotFactory,
    BotVersionFactory,
    LeagueFactory,
    SeasonFactory,
    UserFactory,
)
from tests.league.conftest import play_out

pytestmark = pytest.mark.django_db

WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture
def queued(monkeypatch):
    calls: list[list[int]] = []
    monkeypatch.setattr(enqueue, "play_matches", calls.append)
    return calls


@pytest.fixture
def organiser():
    return UserFactory(username="organiser")


@pytest.fixture
def season(organiser):
    league = LeagueFactory(
        slug="bot-dojo",
        participants=ParticipantKind.BOTS,
        division_size=4,
        promotion_count=1,
        relegation_count=1,
    )
    league.organisers.add(organiser)
    season = SeasonFactory(league=league, status=SeasonStatus.RUNNING)
    for _ in range(8):
        bot = BotFactory(game="duelo", status=BotStatus.ACTIVE)
        bot.active_version = BotVersionFactory(bot=bot, status="active")
        bot.save()
        Registration.objects.create(
            season=season, participant=participant_for_bot(bot_info(bot_id=bot.pk))
        )
    return season


def _division_of(season) -> dict[int, int]:
    return dict(
        DivisionMember.objects.filter(season=season).values_list(
            "participant_id", "division__level"
        )
    )


def _play_period(season, when, capture) -> None:
    """One ladder period of ``season``: schedule it, play and rate its games."""
    with capture(execute=True):
        started = ladder.division_rounds_schedule(when=when)
    assert started == {season.pk: 4}  # two tables of two in each division
    for match in Match.objects.filter(
        context=f"league:{season.league_id}:season:{season.pk}",
        status=MatchStatus.ACTIVE,
    ).order_by("pk"):
        play_out(match)
        rating_apply_match(match_id=match.pk)


def test_each_period_pairs_within_divisions_once(
    season, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        started = ladder.division_rounds_schedule(when=WHEN)
    assert started == {season.pk: 4}
    division = _division_of(season)
    assert sorted(division.values()) == [1, 1, 1, 1, 2, 2, 2, 2]
    matches = list(Match.objects.filter(context__startswith="league:").order_by("pk"))
    assert len(matches) == 4 and queued == [[m.pk for m in matches]]
    agents = {
        seat_agent_for(r.participant)[1]: r.participant_id
        for r in Registration.objects.select_related("participant")
    }
    for match in matches:
        levels = {division[agents[s.agent]] for s in match.seats.all()}
        assert len(levels) == 1, "a game never crosses divisions"
    # The same period again: nothing new (DivisionRound is the key).
    assert ladder.division_rounds_schedule(when=WHEN + timedelta(minutes=5)) == {}
    assert DivisionRound.objects.count() == 1
    assert ladder.division_rounds_schedule(when=WHEN + timedelta(hours=1)) == {
        season.pk: 4
    }


def test_bot_league_promotes_and_relegates_over_two_seasons(
    season, organiser, queued, django_capture_on_commit_callbacks
):
    for period in range(3):
        _play_period(
            season, WHEN + timedelta(hours=period), django_capture_on_commit_callbacks
        )
    now = timezone.now()
    dates = {
        "registration_opens_at": now - timedelta(days=1),
        "registration_closes_at": now + timedelta(days=5),
        "starts_at": now - timedelta(minutes=1),
        "ends_at": now + timedelta(days=28),
    }
    for _ in range(2):
        top, bottom = season_division_tables(season=season)
        relegated = top.rows[-1].participant.pk
        promoted = bottom.rows[0].participant.pk
        stays_top = {r.participant.pk for r in top.rows[:-1]}
        next_season = services.season_rollover(
            league=season.league, by=organiser, **dates
        )
        division = _division_of(next_season)
        assert division[relegated] == 2 and division[promoted] == 1
        assert all(division[pid] == 1 for pid in stays_top)
        assert len(division) == 8
        season = next_season
        for period in range(3):
            _play_period(
                season,
                WHEN + timedelta(days=season.number, hours=period),
                django_capture_on_commit_callbacks,
            )
    assert participant_for_user(organiser).pk not in _division_of(season)
