"""A finished rated match's frames carry each rated player's rating change."""

from __future__ import annotations

import pytest

from gameplay import frames, selectors
from league.models import RatingPool
from league.ratings.services import rating_apply_match
from tests.factories import UserFactory
from tests.gameplay.conftest import play_to_end, start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(db):
    return [UserFactory(username=f"r{i}") for i in range(2)]


def test_results_frame_shows_each_rated_players_change(players) -> None:
    match = start_match(players[:2], rated=True)
    play_to_end(match, players[:2])
    match.refresh_from_db()
    frame = frames.seat_frame(match=match, seat=0)
    assert frame["rating_changes"] == []  # the rating task has not run yet
    rating_apply_match(match_id=match.pk)
    match = selectors.match_by_public_id(public_id=str(match.public_id))
    changes = frames.seat_frame(match=match, seat=0)["rating_changes"]
    assert {c["name"] for c in changes} == {
        players[0].public_name,
        players[1].public_name,
    }
    assert {tuple(c["seats"]) for c in changes} == {(0,), (1,)}
    by_seat = {c["seats"][0]: c for c in changes}
    assert match is not None and match.result is not None
    winners = match.result["winners"]
    if len(winners) == 1:  # a deck-out can end level
        loser = 1 - winners[0]
        assert by_seat[winners[0]]["delta"] > 0 > by_seat[loser]["delta"]
        assert by_seat[winners[0]]["after"] > by_seat[winners[0]]["before"]
    else:
        assert all(c["delta"] == 0 for c in changes)
    # Pools are named by the game's name, never its id.
    assert all(c["pool"] == "Duelo: Kung Fu global ladder" for c in changes)
    assert str(RatingPool.objects.get(game="duelo")) == "Duelo: Kung Fu global ladder"


def test_casual_matches_have_no_rating_changes(players) -> None:
    match = start_match(players[:2])
    play_to_end(match, players[:2])
    match.refresh_from_db()
    assert "rating_changes" not in frames.seat_frame(match=match, seat=0)


def test_a_season_game_is_labelled_rated_and_shows_its_season_changes(
    client, players
) -> None:
    """A season game is not rated on the global ladder (``match.rated`` false)
    but feeds the league's and season's ladders: the page says so and the
    results panel shows those changes (issue 26, section 4)."""
    from django.urls import reverse

    from gameplay.models import Match
    from league import services as league_services
    from tests.factories import SeasonFactory

    season = SeasonFactory(status="running")
    registrations = [
        league_services.season_register(season=season, user=u) for u in players
    ]
    match = league_services.league_match_create(
        season=season,
        by=None,
        participant_ids=[r.participant_id for r in registrations],
    )
    assert not match.rated
    client.force_login(players[0])
    page = client.get(reverse("gameplay:match", args=[match.public_id]))
    body = page.content.decode()
    assert "rated in the season&#x27;s ladder" in body
    assert "casual" not in body
    play_to_end(match, players)
    match = Match.objects.get(pk=match.pk)
    frame = frames.seat_frame(match=match, seat=0)
    assert frame["rated"] is True and frame["rating_changes"] == []
    rating_apply_match(match_id=match.pk)
    match = selectors.match_by_public_id(public_id=str(match.public_id))
    changes = frames.seat_frame(match=match, seat=0)["rating_changes"]
    pools = {c["pool"] for c in changes}
    assert str(RatingPool.objects.get(season=season)) in pools
    assert {c["name"] for c in changes} == {p.public_name for p in players}
