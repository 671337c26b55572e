"""Kung Fu (2013) through the platform: matches, API, lobby, challenges, quick
play, built-in bots, replays and pages, with no game-specific platform code."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from gameplay import lobby, selectors, services
from gameplay.models import MatchStatus
from gameplay.rules import get_game
from gameplay.rules.kungfu2013.engine import CARDS
from gameplay.services import SeatSpec
from tests.gameplay.conftest import api_for, start_match

pytestmark = pytest.mark.django_db
GAME = "kungfu2013"
ENGINE = get_game(GAME)


def play_random(match, users, seed: int = 1, max_steps: int = 3000) -> int:
    rnd = random.Random(seed)
    for step in range(max_steps):
        match.refresh_from_db()
        if match.is_over:
            return step
        seat = ENGINE.actors(match.state)[0]
        ids = ENGINE.legal_action_ids(match.state, seat)
        services.match_act(
            match_id=match.pk,
            user=users[seat],
            action_id=ids[rnd.randrange(len(ids))],
            expected_version=match.version,
        )
    raise AssertionError("match did not end")


def test_a_full_match_finishes_with_a_result_and_replays(players, client) -> None:
    users = players[:2]
    match = start_match(users, game=GAME, config={"life": 5})
    play_random(match, users)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result is not None and match.result["winners"]
    assert match.seed is not None
    full = selectors.match_replay(match=match, perspective="full")
    assert len(full["steps"]) == match.version + 1
    assert (
        full["steps"][0]["hands"][0]
        == ENGINE.observe(ENGINE.setup({"life": 5}, match.seed), 0)["hand"]
    )
    for seat in (0, 1):
        mine = selectors.match_replay(match=match, perspective=f"seat:{seat}")
        for step in mine["steps"]:
            # A seat's replay never shows the other seat's hand.
            assert step["view"]["seat"] == seat
            assert "hands" not in step
    client.force_login(users[0])
    page = client.get(reverse("gameplay:replay", args=[match.public_id]))
    assert page.status_code == 200
    assert "js/boards/kungfu2013.js" in page.content.decode()


def test_a_match_of_an_earlier_rules_version_is_not_replayed_under_new_rules(
    players,
) -> None:
    # Rules version kungfu2013-2 changed the cards and two readings (issue 26):
    # re-playing a kungfu2013-1 match's actions would show another game.
    users = players[:2]
    match = start_match(users, game=GAME, config={"life": 5})
    play_random(match, users)
    match.refresh_from_db()
    match.state = {**match.state, "rules_version": "kungfu2013-1"}
    match.save(update_fields=["state"])
    answer = api_for(None).get(f"/api/matches/{match.public_id}/replay/")
    assert answer.status_code == 400
    assert "rules version kungfu2013-1" in str(answer.json())
    record = api_for(None).get(f"/api/matches/{match.public_id}/record/")
    assert record.status_code == 200 and record.json()["actions"]


def test_api_view_and_bad_input(players) -> None:
    match = start_match(players[:2], game=GAME)
    own = api_for(players[0]).get(f"/api/matches/{match.public_id}/").json()
    assert own["view"] == ENGINE.observe(match.state, 0)
    public = api_for(None).get(f"/api/matches/{match.public_id}/").json()
    assert public["view"]["hand"] is None
    seat = ENGINE.actors(match.state)[0]
    url = f"/api/matches/{match.public_id}/act/"
    wrong = api_for(players[1 - seat]).post(
        url, {"action": "initiative:keep", "version": 0}
    )
    assert wrong.status_code == 409 and wrong.json()["code"] == "not_your_turn"
    illegal = api_for(players[seat]).post(url, {"action": "attack:r99", "version": 0})
    assert illegal.status_code in (400, 409) and "not legal" in str(illegal.json())
    match.refresh_from_db()
    assert match.version == 0


def test_lobby_table_with_public_options_and_refused_stacked_decks(players) -> None:
    table = lobby.table_create(
        host=players[0], game=GAME, players=2, options={"life": 6}
    )
    lobby.table_join(match_id=table.pk, user=players[1])
    table.refresh_from_db()
    assert table.status == MatchStatus.ACTIVE
    assert table.state["life"] == [6, 6]
    with pytest.raises(Exception, match="red_deck"):
        lobby.table_create(
            host=players[2], game=GAME, players=2, options={"red_deck": ["r08"]}
        )
    with pytest.raises(Exception, match="2"):
        lobby.table_create(host=players[2], game=GAME, players=3)


def test_built_in_bots_fill_a_table_and_play(
    players, django_capture_on_commit_callbacks
) -> None:
    table = lobby.table_create(host=players[0], game=GAME, players=2)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.table_fill_with_bot(match_id=table.pk, user=players[0], bot="heuristic")
    table.refresh_from_db()
    assert table.status in (MatchStatus.ACTIVE, MatchStatus.FINISHED)
    if table.status == MatchStatus.ACTIVE:
        assert ENGINE.actors(table.state) == [0]


def test_bot_only_match_plays_to_the_end(django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_create(
            game=GAME,
            seats=[
                SeatSpec(agent="builtin:random"),
                SeatSpec(agent="builtin:heuristic"),
            ],
            config={"life": 5},
        )
        services.match_start(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED, match.status


def test_pages_render_the_games_board_and_rules(client, players) -> None:
    match = start_match(players[:2], game=GAME)
    client.force_login(players[0])
    page = client.get(reverse("gameplay:match", args=[match.public_id]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "js/boards/kungfu2013.js" in html
    assert 'data-role="center"' in html
    assert "boards/duelo" not in html
    rules = client.get(reverse("gameplay:rules", args=[GAME]))
    assert rules.status_code == 200
    text = rules.content.decode()
    for card in CARDS.values():
        assert card["name"].replace("'", "&#x27;") in text
    detail = client.get(reverse("gameplay:game_detail", args=[GAME]))
    assert detail.status_code == 200


def test_rated_match_feeds_the_games_own_ladder_and_rankings(
    players, django_capture_on_commit_callbacks
) -> None:
    users = players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match(users, game=GAME, rated=True, config={"life": 5})
        play_random(match, users, seed=3)
    rankings = api_for(None).get("/api/rankings/?game=kungfu2013")
    assert rankings.status_code == 200, rankings.json()
    names = str(rankings.json())
    assert users[0].username in names and users[1].username in names
    duelo = api_for(None).get("/api/rankings/?game=duelo")
    assert users[0].username not in str(duelo.json())
    unknown = api_for(None).get("/api/rankings/?game=chess")
    assert unknown.status_code == 404 and "available" in str(unknown.json())
