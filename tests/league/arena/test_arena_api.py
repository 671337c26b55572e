"""The arena API: list, create, read, join, pause, berserk, leave; refusals
answer with a code and change nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from league.tournaments.arena.models import Arena, ArenaPlayer
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_an_arena_through_the_api() -> None:
    alice, bob = UserFactory(), UserFactory()
    api = APIClient()
    body = {
        "name": "API arena",
        "game": "kungfu2013",
        "minutes": 30,
        "time_control": {"total": 300},
    }
    assert api.post("/api/arenas/", body, format="json").status_code in (401, 403)
    api.force_authenticate(alice)
    created = api.post("/api/arenas/", body, format="json")
    assert created.status_code == 201 and created.json()["berserk"] is True
    slug = created.json()["slug"]
    assert api.post(f"/api/arenas/{slug}/entry/", {}, format="json").status_code == 201
    answer = api.post(f"/api/arenas/{slug}/berserk/", {"berserk": True}, format="json")
    assert answer.status_code == 200 and answer.json()["berserk"] is True
    other = APIClient()
    other.force_authenticate(bob)
    assert (
        other.post(f"/api/arenas/{slug}/entry/", {}, format="json").status_code == 201
    )
    detail = APIClient().get(f"/api/arenas/{slug}/").json()
    assert [row["games"] for row in detail["standings"]] == [0, 0]
    assert len(detail["playing"]) == 1 and detail["playing"][0]["match"]
    seats = detail["playing"][0]["seats"]
    assert sorted(s["berserk"] for s in seats) == [False, True]
    answer = api.post(f"/api/arenas/{slug}/pause/", {"paused": True}, format="json")
    assert answer.status_code == 200 and answer.json()["paused"] is True
    again = api.post(f"/api/arenas/{slug}/pause/", {"paused": True}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "conflict"
    assert (
        api.delete(f"/api/arenas/{slug}/entry/", {}, format="json").status_code == 204
    )
    assert ArenaPlayer.objects.get(participant__user=alice).withdrawn
    listed = APIClient().get("/api/arenas/").json()["results"]
    assert [a["slug"] for a in listed] == [slug]


def test_bad_requests_change_nothing() -> None:
    api = APIClient()
    api.force_authenticate(UserFactory())
    for body in (
        {"name": "x", "game": "chess", "minutes": 30},
        {"name": "x", "game": "duelo", "minutes": 1},
        {"name": "x", "game": "duelo", "minutes": 30, "time_control": {"days": 3}},
        {"name": "x", "game": "duelo", "minutes": 30, "time_control": "fast"},
    ):
        assert api.post("/api/arenas/", body, format="json").status_code == 400
    assert not Arena.objects.exists()
    assert api.get("/api/arenas/nope/").status_code == 404
    assert api.post("/api/arenas/nope/entry/", {}, format="json").status_code == 404
