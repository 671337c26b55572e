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


def test_api_plays_a_bot_in_one_call_and_lists_the_strengths() -> None:
    from rest_framework.test import APIClient

    person = UserFactory()
    api = APIClient()
    listed = api.get("/api/play-bot/?game=kungfu2009")
    assert listed.status_code == 200
    # ISMCTS sits out the real-time game, as in the page's menu.
    assert [row["bot"] for row in listed.json()] == ["random", "heuristic"]
    assert listed.json()[1] == {
        "bot": "heuristic",
        "strength": "Intermediate",
        "name": "Heuristic bot",
    }
    unknown = api.get("/api/play-bot/?game=chess")
    assert unknown.status_code == 400 and unknown.json()["code"] == "malformed"

    anonymous = api.post("/api/play-bot/", {"game": "duelo"}, format="json")
    assert anonymous.status_code in (401, 403)
    api.force_authenticate(person)
    started = api.post(
        "/api/play-bot/",
        {"game": "kungfu2019", "bot": "ismcts", "rated": True},
        format="json",
    )
    assert started.status_code == 201, started.json()
    match = Match.objects.get(host=person)
    assert started.json()["id"] == str(match.public_id)
    assert match.rated and match.seats.get(number=1).agent == "builtin:ismcts"
    assert started.json()["seats"][0]["username"] == person.username
    # Bad choices: a clear error, no game.
    for body in (
        {"game": "duelo", "bot": "skynet"},
        {"game": "kungfu2009", "bot": "ismcts"},
        {"bot": "random"},
    ):
        refused = api.post("/api/play-bot/", body, format="json")
        assert refused.status_code == 400, (body, refused.json())
    assert Match.objects.filter(host=person).count() == 1


def test_play_bot_endpoint_is_in_the_openapi_schema() -> None:
    from rest_framework.test import APIClient

    spec = (
        APIClient()
        .get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        .json()
    )
    operations = spec["paths"]["/api/play-bot/"]
    assert set(operations) >= {"get", "post"}
    body = operations["post"]["requestBody"]["content"]["application/json"]
    ref = body["schema"]["$ref"].rsplit("/", 1)[-1]
    assert set(spec["components"]["schemas"][ref]["properties"]) == {
        "game",
        "bot",
        "rated",
    }
