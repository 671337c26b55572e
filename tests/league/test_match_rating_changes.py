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
