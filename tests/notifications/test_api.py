"""The notifications API: list, mark read, games waiting for your move."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from notifications.models import NotificationKind
from notifications.services import Draft, notifications_create
from tests.factories import UserFactory
from tests.gameplay.conftest import first_legal, start_match

pytestmark = pytest.mark.django_db


def make(user, key):
    notifications_create(
        drafts=[
            Draft(
                user_id=user.pk,
                kind=NotificationKind.CHALLENGE,
                key=key,
                title=f"T {key}",
                url="/games/",
            )
        ]
    )


def test_list_and_mark_read_only_your_own():
    me, other = UserFactory(), UserFactory()
    make(me, "a")
    make(me, "b")
    make(other, "c")
    api = APIClient()
    assert api.get("/api/notifications/").status_code in (401, 403)
    api.force_authenticate(me)
    body = api.get("/api/notifications/").json()
    assert body["unread"] == 2
    assert [n["title"] for n in body["results"]] == ["T b", "T a"]
    first = body["results"][0]["id"]
    answer = api.post("/api/notifications/read/", {"ids": [first]}, format="json")
    assert answer.json() == {"marked": 1, "unread": 1}
    bad = api.post("/api/notifications/read/", {"ids": ["x"]}, format="json")
    assert bad.status_code == 400
    assert api.post("/api/notifications/read/", {}, format="json").json() == {
        "marked": 1,
        "unread": 0,
    }
    api.force_authenticate(other)
    assert api.get("/api/notifications/").json()["unread"] == 1


def test_your_move(players):
    a, b = players[:2]
    match = start_match([a, b])
    seat, _ = first_legal(match)
    api = APIClient()
    api.force_authenticate([a, b][seat])
    [game] = api.get("/api/me/your-move/").json()["results"]
    assert game["match"] == str(match.public_id)
    assert game["url"].endswith(f"/matches/{match.public_id}/")
    api.force_authenticate([a, b][1 - seat])
    assert api.get("/api/me/your-move/").json()["results"] == []
