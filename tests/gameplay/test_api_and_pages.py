"""The match API and the lobby, match and replay pages."""

from __future__ import annotations

import hashlib

import pytest
from django.urls import reverse

from gameplay.models import MatchStatus
from gameplay.rules import get_game
from tests.gameplay.conftest import api_for, first_legal, play_to_end, start_match

pytestmark = pytest.mark.django_db


def test_api_state_is_the_callers_view(players) -> None:
    match = start_match(players[:2])
    engine = get_game("duelo")
    own = api_for(players[0]).get(f"/api/matches/{match.public_id}/").json()
    assert own["seat"] == 0
    assert own["view"] == engine.observe(match.state, 0)
    public = api_for(None).get(f"/api/matches/{match.public_id}/").json()
    assert public["seat"] is None and public["view"]["hand"] is None
    assert "seed" not in public


def test_api_act_and_error_codes(players) -> None:
    match = start_match(players[:2])
    seat, legal = first_legal(match)
    url = f"/api/matches/{match.public_id}/act/"
    wrong = api_for(players[1 - seat]).post(url, {"action": legal, "version": 0})
    assert wrong.status_code == 409 and wrong.json()["code"] == "not_your_turn"
    anon = api_for(None).post(url, {"action": legal, "version": 0})
    assert anon.status_code in (401, 403)
    stale = api_for(players[seat]).post(url, {"action": legal, "version": 3})
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    bad = api_for(players[seat]).post(url, {"version": 0}, format="json")
    assert bad.status_code == 400
    ok = api_for(players[seat]).post(url, {"action": legal, "version": 0})
    assert ok.status_code == 200 and ok.json()["version"] == 1


def test_api_tables_flow(players) -> None:
    host = api_for(players[0])
    created = host.post(
        "/api/tables/",
        {"game": "duelo", "players": 2, "options": {"rounds": 2}},
        format="json",
    )
    assert created.status_code == 201, created.json()
    table = created.json()["id"]
    assert api_for(None).get("/api/tables/?game=duelo").json()[0]["id"] == table
    refused = host.post(
        "/api/tables/",
        {"game": "duelo", "players": 2, "options": {"deck": [1]}},
        format="json",
    )
    assert refused.status_code == 400 and "public tables" in refused.json()["detail"]
    joined = api_for(players[1]).post(f"/api/tables/{table}/join/")
    assert joined.status_code == 200
    assert joined.json()["status"] == MatchStatus.ACTIVE


def test_api_challenges_and_queue(players) -> None:
    sent = api_for(players[0]).post(
        "/api/challenges/", {"username": "p1", "game": "duelo"}, format="json"
    )
    assert sent.status_code == 201
    cid = sent.json()["id"]
    assert api_for(players[2]).post(f"/api/challenges/{cid}/accept/").status_code == 403
    accepted = api_for(players[1]).post(f"/api/challenges/{cid}/accept/")
    assert accepted.json()["status"] == "accepted" and accepted.json()["match"]
    nobody = api_for(players[0]).post(
        "/api/challenges/", {"username": "ghost", "game": "duelo"}, format="json"
    )
    assert nobody.status_code == 400
    queue = api_for(players[3]).post("/api/queue/", {"game": "duelo"}, format="json")
    assert queue.json() == {"status": "waiting"}
    matched = api_for(players[4]).post("/api/queue/", {"game": "duelo"}, format="json")
    assert matched.json()["status"] == "matched"


def test_replay_and_record_only_after_the_end(players, client) -> None:
    match = start_match(players[:3])
    replay_api = f"/api/matches/{match.public_id}/replay/"
    assert api_for(None).get(replay_api).status_code == 409
    assert api_for(players[0]).get(replay_api).status_code == 409
    assert (
        client.get(reverse("gameplay:replay", args=[match.public_id])).status_code
        == 409
    )
    assert (
        client.get(reverse("gameplay:record", args=[match.public_id])).status_code
        == 409
    )
    play_to_end(match, players[:3])
    match.refresh_from_db()

    record = client.get(reverse("gameplay:record", args=[match.public_id])).json()
    assert record["seed"] == str(match.seed)
    digest = hashlib.sha256(f"{record['match']}:{record['seed']}".encode()).hexdigest()
    assert digest == record["seed_hash"] == match.seed_hash
    engine = get_game("duelo")
    state = engine.setup(record["config"], int(record["seed"]))
    for step in record["actions"]:
        state, _ = engine.apply(state, step["seat"], step["action"])
    assert state == match.state

    full = api_for(None).get(replay_api).json()
    assert len(full["steps"]) == match.version + 1
    assert all(len(step["hands"]) == 3 for step in full["steps"])
    seat1 = api_for(None).get(replay_api + "?perspective=seat:1").json()
    for step, full_step in zip(seat1["steps"], full["steps"], strict=True):
        assert "hands" not in step
        assert step["view"]["hand"] == full_step["hands"][1]
        for event in step["events"]:
            assert set(event["private"]) <= {"card", "hand", "target", "source"}
    spectator = api_for(None).get(replay_api + "?perspective=spectator").json()
    assert all(step["view"]["hand"] is None for step in spectator["steps"])
    bad = api_for(None).get(replay_api + "?perspective=seat:9")
    assert bad.status_code == 400


def test_pages_render(players, client) -> None:
    match = start_match(players[:2])
    assert client.get(reverse("gameplay:games")).status_code == 200
    lobby_page = client.get(reverse("gameplay:game_detail", args=["duelo"]))
    assert lobby_page.status_code == 200
    assert "Sign in to play" in lobby_page.content.decode()
    client.force_login(players[0])
    page = client.get(reverse("gameplay:game_detail", args=["duelo"])).content.decode()
    assert "Open a table" in page and "Quick play" in page
    board = client.get(reverse("gameplay:match", args=[match.public_id]))
    assert board.status_code == 200
    assert 'id="initial-frame"' in board.content.decode()
    assert board.context["initial_frame"]["seat"] == 0
    assert (
        client.get(reverse("gameplay:game_detail", args=["chess"])).status_code == 404
    )


def test_table_page_forms(players, client) -> None:
    client.force_login(players[0])
    response = client.post(
        reverse("gameplay:table_create", args=["duelo"]),
        {
            "players": 2,
            "opt_start": "random",
            "opt_rounds": 1,
            "spectator_delay": 0,
        },
    )
    assert response.status_code == 302
    table_url = response.url
    assert "Take a seat" not in client.get(table_url).content.decode()
    client.force_login(players[1])
    assert "Take a seat" in client.get(table_url).content.decode()
    client.post(table_url + "table/join/")
    client.force_login(players[0])
    page = client.get(table_url)
    assert page.status_code == 200


def test_profile_lists_finished_games_with_replay_links(players, client) -> None:
    match = start_match(players[:2])
    play_to_end(match, players[:2])
    page = client.get(reverse("accounts:profile", args=["p0"])).content.decode()
    assert "Games" in page
    assert reverse("gameplay:replay", args=[match.public_id]) in page
    assert players[1].public_name in page
