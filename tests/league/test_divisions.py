"""Leagues with divisions: placement by rating, promotion and relegation over
two seasons, late registrants, the season queue inside a division, the page
and the API (issue 31, section 2)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from league import services
from league.divisions.selectors import (
    PROMOTION,
    RELEGATION,
    member_divisions,
    season_division_tables,
)
from league.divisions.services import (
    divisions_sweep,
    season_divisions_build,
    season_divisions_close,
)
from league.models import (
    DivisionEntry,
    DivisionMember,
    DivisionMove,
    Participant,
    Rating,
    Season,
    SeasonStatus,
)
from league.participants import participant_for_user
from league.ratings.services import pool_global, rating_apply_match
from tests.factories import LeagueFactory, SeasonFactory, UserFactory, finished_match

pytestmark = pytest.mark.django_db


def _rate(user, rating: float) -> None:
    """Give ``user`` a global duelo rating (what newcomers are placed by)."""
    pool = pool_global(game="duelo")
    Rating.objects.create(
        pool=pool,
        participant=participant_for_user(user),
        rating=rating,
        peak=rating,
        games=30,
    )


def _play(season: Season, winner, loser) -> None:
    """A finished season game that ``winner`` won, applied to the pools."""
    match = finished_match(
        [winner, loser],
        [1, 2],
        rated=False,
        context=f"league:{season.league_id}:season:{season.pk}",
    )
    rating_apply_match(match_id=match.pk)


def _levels(season: Season) -> dict[str, int]:
    return {
        m.participant.name.lower(): m.division.level
        for m in DivisionMember.objects.filter(season=season).select_related(
            "participant", "division"
        )
    }


def _rollover(league, organiser, now=None) -> Season:
    now = now or timezone.now()
    return services.season_rollover(
        league=league,
        by=organiser,
        registration_opens_at=now - timedelta(days=1),
        registration_closes_at=now + timedelta(days=20),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(days=28),
    )


@pytest.fixture
def organiser():
    return UserFactory(username="organiser")


@pytest.fixture
def league(organiser):
    league = LeagueFactory(
        slug="dojo", division_size=4, promotion_count=1, relegation_count=1
    )
    league.organisers.add(organiser)
    return league


@pytest.fixture
def players():
    """p1 (strongest, 2000) .. p8 (weakest, 1650)."""
    people = [UserFactory(username=f"p{i}") for i in range(1, 9)]
    for i, person in enumerate(people):
        _rate(person, 2000 - 50 * i)
    return people


def test_first_season_is_the_rating_order_cut_into_divisions(league, players):
    season = SeasonFactory(league=league, status=SeasonStatus.RUNNING)
    for person in reversed(players):  # registration order must not matter
        services.season_register(season=season, user=person)
    assert season_divisions_build(season=season) == 8
    assert _levels(season) == {
        "p1": 1, "p2": 1, "p3": 1, "p4": 1, "p5": 2, "p6": 2, "p7": 2, "p8": 2,
    }  # fmt: skip
    assert set(DivisionMember.objects.values_list("entry", flat=True)) == {"new"}
    # Idempotent: a second build (the beat's sweep) places nobody twice.
    assert season_divisions_build(season=season) == 0
    assert divisions_sweep() == {"closed": 0, "placed": 0}
    assert DivisionMember.objects.count() == 8


def test_promotion_and_relegation_over_two_seasons(league, players, organiser):
    p1, p2, p3, p4, p5, p6, p7, p8 = players
    one = SeasonFactory(league=league, status=SeasonStatus.RUNNING)
    for person in players:
        services.season_register(season=one, user=person)
    season_divisions_build(season=one)
    # Division 1: p4 beats everyone, p1 loses every game. Division 2: p8 top.
    for winner, loser in [(p4, p1), (p4, p2), (p4, p3), (p2, p1), (p3, p1), (p2, p3)]:
        _play(one, winner, loser)
    for winner, loser in [(p8, p5), (p8, p6), (p8, p7), (p5, p6), (p5, p7), (p6, p7)]:
        _play(one, winner, loser)
    top, bottom = season_division_tables(season=one)
    assert [r.participant.name.lower() for r in top.rows] == ["p4", "p2", "p3", "p1"]
    assert [r.zone for r in top.rows] == ["", "", "", RELEGATION]
    assert [r.participant.name.lower() for r in bottom.rows] == ["p8", "p5", "p6", "p7"]
    assert [r.zone for r in bottom.rows] == [PROMOTION, "", "", ""]
    assert (top.promoted, top.relegated, bottom.promoted, bottom.relegated) == (
        0, 1, 1, 0,
    )  # fmt: skip

    # p6 stops playing; a new strong player (1900) registers for season two.
    services.season_withdraw(season=one, user=p6)
    two = _rollover(league, organiser)
    one.refresh_from_db()
    assert one.status == SeasonStatus.FINISHED
    frozen = {
        m.participant.name.lower(): (m.final_rank, m.move)
        for m in DivisionMember.objects.filter(season=one).select_related("participant")
    }
    assert frozen["p1"] == (4, DivisionMove.DOWN)
    assert frozen["p8"] == (1, DivisionMove.UP)
    assert frozen["p4"] == (1, DivisionMove.STAY)
    # Carried over: everyone still registered, in their new division already.
    assert _levels(two) == {
        "p2": 1, "p3": 1, "p4": 1, "p8": 1, "p1": 2, "p5": 2, "p7": 2,
    }  # fmt: skip
    entries = {
        name.lower(): entry
        for name, entry in DivisionMember.objects.filter(season=two).values_list(
            "participant__name", "entry"
        )
    }
    assert entries["p8"] == DivisionEntry.PROMOTED
    assert entries["p1"] == DivisionEntry.RELEGATED
    assert entries["p2"] == DivisionEntry.STAYED
    newcomer = UserFactory(username="new")
    _rate(newcomer, 1900)
    services.season_register(season=two, user=newcomer)
    # Placed by rating: division 1 is full; division 2 has room.
    assert divisions_sweep()["placed"] == 1
    assert _levels(two)["new"] == 2

    # Season two: p2 sinks to the bottom of division 1, the newcomer rises.
    for winner, loser in [(p8, p2), (p4, p2), (p3, p2), (p8, p4), (p8, p3)]:
        _play(two, winner, loser)
    for winner, loser in [(newcomer, p1), (newcomer, p5), (newcomer, p7)]:
        _play(two, winner, loser)
    three = _rollover(league, organiser)
    levels = _levels(three)
    assert levels["p2"] == 2 and levels["new"] == 1  # relegated, promoted
    assert levels["p8"] == 1 and levels["p1"] == 2  # stayed
    assert sorted(levels) == sorted(["p1", "p2", "p3", "p4", "p5", "p7", "p8", "new"])
    # Closing again changes nothing.
    assert season_divisions_close(season=two) == 0


def test_no_movement_across_the_top_and_bottom_edges(league, players, organiser):
    one = SeasonFactory(league=league, status=SeasonStatus.RUNNING)
    for person in players[:4]:
        services.season_register(season=one, user=person)
    season_divisions_build(season=one)
    (only,) = season_division_tables(season=one)
    assert (only.promoted, only.relegated) == (0, 0)
    two = _rollover(league, organiser)
    assert set(_levels(two).values()) == {1}


def test_a_tiny_bottom_division_joins_the_one_above(league, players):
    season = SeasonFactory(league=league, status=SeasonStatus.RUNNING)
    for person in players[:5]:
        services.season_register(season=season, user=person)
    season_divisions_build(season=season)
    assert sorted(_levels(season).values()) == [1, 1, 1, 1, 1]


def test_the_season_queue_pairs_within_a_division(league, players):
    season = SeasonFactory(league=league, status=SeasonStatus.RUNNING)
    for person in players:
        services.season_register(season=season, user=person)
    season_divisions_build(season=season)
    p1, p5, p2 = players[0], players[4], players[1]
    assert services.season_queue_join(season=season, user=p1) is None
    assert services.season_queue_join(season=season, user=p5) is None  # division 2
    match = services.season_queue_join(season=season, user=p2)
    assert match is not None
    assert {s.user_id for s in match.seats.all()} == {p1.pk, p2.pk}
    division = member_divisions(season=season)
    keys = [Participant.user_key(u.pk) for u in (p1, p2)]
    ids = list(Participant.objects.filter(key__in=keys).values_list("pk", flat=True))
    assert division[ids[0]] == division[ids[1]]


def test_league_without_divisions_is_unchanged(players):
    season = SeasonFactory(status=SeasonStatus.RUNNING)
    services.season_register(season=season, user=players[0])
    assert season_divisions_build(season=season) == 0
    assert season_division_tables(season=season) == []


def test_season_page_and_api_show_each_division_with_its_zones(client, league, players):
    season = SeasonFactory(league=league, status=SeasonStatus.RUNNING)
    for person in players:
        services.season_register(season=season, user=person)
    season_divisions_build(season=season)
    _play(season, players[4], players[5])
    page = client.get(f"/leagues/{league.slug}/seasons/{season.number}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="zone-legend"' in html and "Promotion zone" in html
    assert html.count('class="division-table"') == 2
    assert html.count('data-zone="promotion"') == 1  # top of division 2
    assert html.count('data-zone="relegation"') == 1  # bottom of division 1
    client.force_login(players[5])
    mine = client.get(f"/leagues/{league.slug}/seasons/{season.number}/")
    assert 'You play in <a href="#division-2">Division 2</a>' in mine.content.decode()
    data = client.get(f"/api/seasons/{season.pk}/standings/").json()
    levels = [
        (d["level"], d["promotion_zone"], d["relegation_zone"])
        for d in data["divisions"]
    ]
    assert levels == [(1, 0, 1), (2, 1, 0)]
    top_of_two = data["divisions"][1]["rows"][0]
    assert top_of_two["zone"] == PROMOTION and top_of_two["wins"] == 1
    assert top_of_two["participant"]["name"].lower() == "p5"


def test_organisers_set_divisions_on_the_page_and_the_api(client, league, organiser):
    from rest_framework.test import APIClient

    from league.divisions.services import league_set_divisions
    from league.errors import Invalid, PermissionDenied

    stranger = UserFactory(username="stranger")
    with pytest.raises(PermissionDenied):
        league_set_divisions(
            league=league,
            by=stranger,
            division_size=6,
            promotion_count=1,
            relegation_count=1,
        )
    for size, up, down in ((1, 0, 0), (65, 1, 1), (6, 4, 1), (6, 1, -1), (4, 3, 0)):
        with pytest.raises(Invalid):
            league_set_divisions(
                league=league,
                by=organiser,
                division_size=size,
                promotion_count=up,
                relegation_count=down,
            )
    league.refresh_from_db()
    assert (league.division_size, league.promotion_count) == (4, 1)

    client.force_login(organiser)
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert 'id="divisions-form"' in page
    client.post(
        f"/leagues/{league.slug}/divisions/",
        {"division_size": "6", "promotion_count": "2", "relegation_count": "3"},
    )
    league.refresh_from_db()
    assert (league.division_size, league.promotion_count, league.relegation_count) == (
        6,
        2,
        3,
    )

    api = APIClient()
    url = f"/api/leagues/{league.slug}/divisions/"
    api.force_authenticate(stranger)
    assert api.patch(url, {"division_size": 8}, format="json").status_code == 403
    api.force_authenticate(organiser)
    bad = api.patch(url, {"division_size": 8, "promotion_count": 5}, format="json")
    assert bad.status_code == 400 and "half" in bad.json()["detail"]
    off = api.patch(url, {"division_size": None}, format="json")
    assert off.status_code == 200 and off.json()["division_size"] is None
    league.refresh_from_db()
    assert not league.has_divisions


def test_beat_places_and_closes_through_the_tasks(league, players):
    from league import tasks

    season = SeasonFactory(league=league, status=SeasonStatus.RUNNING)
    for person in players[:6]:
        services.season_register(season=season, user=person)
    done = tasks.tournaments_tick()
    assert done["placed"] == 6 and done["closed"] == 0
    assert DivisionMember.objects.filter(season=season).count() == 6
    assert tasks.season_divisions(season.pk) == 0  # idempotent
    late = UserFactory(username="late")
    services.season_register(season=season, user=late)
    assert tasks.season_divisions(season.pk) == 1
    assert tasks.season_divisions(10**9) == 0  # a season that is gone
    Season.objects.filter(pk=season.pk).update(
        status=SeasonStatus.FINISHED, ends_at=timezone.now()
    )
    assert tasks.tournaments_tick()["closed"] == 1
    assert tasks.tournaments_tick()["closed"] == 0
    assert not DivisionMember.objects.filter(
        season=season, final_rank__isnull=True
    ).exists()
