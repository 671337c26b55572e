"""Live and correspondence games rated apart (issue 30 §1, the organiser's choice)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from gameplay import services as gameplay_services
from gameplay.services import SeatSpec
from league import services as league_services
from league.errors import PermissionDenied
from league.models import PoolScope, RatingEvent, SeasonStatus
from league.ratings.services import rating_apply_match
from tests.factories import LeagueFactory, SeasonFactory, UserFactory
from tests.league.conftest import play_out

pytestmark = pytest.mark.django_db

GAME = "kungfu2013"


def _rated_game(users, time_control, context=""):
    match = gameplay_services.match_create(
        game=GAME,
        seats=[SeatSpec(user=u) for u in users],
        rated=True,
        time_control=time_control,
        context=context,
    )
    gameplay_services.match_start(match_id=match.pk)
    play_out(match)
    rating_apply_match(match_id=match.pk)
    return match


def _scopes(match) -> set[str]:
    return set(
        RatingEvent.objects.filter(match=match).values_list("pool__scope", flat=True)
    )


def test_correspondence_games_have_a_ladder_of_their_own(users, client, settings):
    live = _rated_game(users[:2], {"per_move": 30})
    corr = _rated_game(users[:2], {"days": 3})
    assert _scopes(live) == {PoolScope.GLOBAL}
    assert _scopes(corr) == {PoolScope.CORRESPONDENCE}
    page = client.get(reverse("league:rankings") + f"?game={GAME}").content.decode()
    assert "correspondence ladder" in page
    # The site may keep one ladder for both.
    settings.SEPARATE_CORRESPONDENCE_LADDER = False
    shared = _rated_game(users[2:4], {"days": 3})
    assert _scopes(shared) == {PoolScope.GLOBAL}


def test_a_league_organiser_chooses_a_correspondence_ladder(users, client):
    organiser = UserFactory(username="org")
    league = LeagueFactory(game=GAME)
    league.organisers.add(organiser)
    now = timezone.now()
    season = SeasonFactory(
        league=league,
        status=SeasonStatus.RUNNING,
        starts_at=now - timedelta(days=1),
        ends_at=now + timedelta(days=30),
        time_control={"days": 2},
    )
    context = f"league:{league.pk}:season:{season.pk}"
    before = _rated_game(users[:2], {"days": 2}, context=context)
    assert PoolScope.LEAGUE in _scopes(before)
    with pytest.raises(PermissionDenied):
        league_services.league_set_correspondence_pool(
            league=league, by=users[0], separate=True
        )
    client.force_login(organiser)
    response = client.post(
        reverse("league:correspondence_pool", args=[league.slug]), {"separate": "on"}
    )
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.correspondence_pool
    after = _rated_game(users[:2], {"days": 2}, context=context)
    assert _scopes(after) == {
        PoolScope.CORRESPONDENCE,
        PoolScope.LEAGUE_CORRESPONDENCE,
        PoolScope.SEASON,
    }
    live = _rated_game(users[:2], {"per_move": 60}, context=context)
    assert _scopes(live) == {PoolScope.GLOBAL, PoolScope.LEAGUE, PoolScope.SEASON}
