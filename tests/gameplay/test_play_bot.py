"""One click from a game's page to a game against the computer (issue 26 §4)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gameplay import lobby
from gameplay.errors import BadRequest
from gameplay.models import Match, MatchStatus
from gameplay.rules import available_games, get_game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", sorted(available_games()))
def test_play_bot_starts_a_game_against_the_chosen_bot(game: str) -> None:
    person = UserFactory()
    match = lobby.play_bot(user=person, game=game, bot="random")
    assert match.status in (MatchStatus.ACTIVE, MatchStatus.FINISHED)
    seats = list(match.seats.order_by("number"))
    assert seats[0].user == person and match.host == person
    assert len(seats) == get_game(game).min_players
    assert [s.agent for s in seats[1:]] == ["builtin:random"] * (len(seats) - 1)
    assert not match.rated


def test_rated_game_of_three_gets_different_bots_nearest_first() -> None:
    person = UserFactory()
    match = lobby.play_bot(user=person, game="kungfu2009", bot="heuristic", rated=True)
    assert match.rated
    agents = [s.agent for s in match.seats.order_by("number")][1:]
    # ISMCTS sits out real time: the heuristic bot and the random bot.
    assert agents == ["builtin:heuristic", "builtin:random"]


def test_bad_choices_are_refused_and_change_nothing() -> None:
    person = UserFactory()
    before = Match.objects.count()
    with pytest.raises(BadRequest, match="unknown built-in bot"):
        lobby.play_bot(user=person, game="duelo", bot="skynet")
    with pytest.raises(BadRequest, match="cannot play"):
        lobby.play_bot(user=person, game="kungfu2009", bot="ismcts")
    with pytest.raises(BadRequest):
        lobby.play_bot(user=person, game="chess", bot="random")
    assert Match.objects.count() == before


def test_game_page_offers_strengths_and_one_click_plays(client) -> None:
    person = UserFactory()
    client.force_login(person)
    page = client.get(reverse("gameplay:game_detail", args=["kungfu2019"]))
    body = page.content.decode()
    assert "Play a bot" in body and 'id="id_playbot_bot"' in body
    for label in ("Beginner: Random bot", "Intermediate: Heuristic bot", "Strong"):
        assert label in body
    response = client.post(
        reverse("gameplay:play_bot", args=["kungfu2019"]),
        {"bot": "ismcts", "rated": "on"},
    )
    match = Match.objects.get(host=person)
    assert response.status_code == 302
    assert response["Location"] == reverse("gameplay:match", args=[match.public_id])
    assert match.rated and match.seats.get(number=1).agent == "builtin:ismcts"
    # A bot the game has not: a message, no game.
    response = client.post(
        reverse("gameplay:play_bot", args=["kungfu2009"]), {"bot": "ismcts"}
    )
    assert (
        response.status_code == 302 and Match.objects.filter(host=person).count() == 1
    )
