"""The player's games by urgency (home page and API), and the API that keeps
each browser's push subscription."""

from __future__ import annotations

import base64
import os
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from gameplay.models import Match
from notifications.models import PushSubscription
from tests.gameplay.conftest import first_legal, start_match

pytestmark = pytest.mark.django_db


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def keys():
    return {"p256dh": b64(b"\x04" + os.urandom(64)), "auth": b64(os.urandom(16))}


def game_waiting_for(me, other, *, days, started_ago):
    """A correspondence game of ``days`` per move where ``me`` is to move,
    their clock started ``started_ago``."""
    match = start_match([me, other], time_control={"days": days})
    seat, _ = first_legal(match)
    if seat != 0:  # put me in the seat to act
        match.seats.filter(number=seat).update(user=me)
        match.seats.filter(number=1 - seat).update(user=other)
    Match.objects.filter(pk=match.pk).update(
        turn_started_at=timezone.now() - started_ago
    )
    return match


@pytest.fixture
def urgent_games(players):
    me, a, b, c = players[:4]
    relaxed = game_waiting_for(me, a, days=3, started_ago=timedelta(hours=1))
    urgent = game_waiting_for(me, b, days=1, started_ago=timedelta(hours=20))
    middle = game_waiting_for(me, c, days=2, started_ago=timedelta(hours=2))
    # A game waiting for the opponent: after every game waiting for me.
    theirs = start_match([a, me], time_control={"days": 1})
    seat, _ = first_legal(theirs)
    if seat != 0:
        theirs.seats.filter(number=seat).update(user=a)
        theirs.seats.filter(number=1 - seat).update(user=me)
    return me, [urgent, middle, relaxed], theirs


def test_api_lists_my_games_by_time_left(urgent_games):
    me, by_urgency, theirs = urgent_games
    api = APIClient()
    api.force_authenticate(me)
    rows = api.get("/api/me/games/").json()["results"]
    assert [r["match"] for r in rows] == [
        *(str(m.public_id) for m in by_urgency),
        str(theirs.public_id),
    ]
    assert [r["your_move"] for r in rows] == [True, True, True, False]
    left = [r["time_left"] for r in rows[:3]]
    assert left == sorted(left)
    assert 3 * 3600 <= left[0] <= 4 * 3600 + 60  # 1 day less 20 h
    assert rows[3]["time_left"] is None and rows[3]["deadline"] is None
    # The badge's list: my moves only, in the same order.
    mine = api.get("/api/me/your-move/").json()["results"]
    assert [r["match"] for r in mine] == [str(m.public_id) for m in by_urgency]
    assert mine[0]["deadline"] == rows[0]["deadline"]
    assert abs(mine[0]["time_left"] - left[0]) <= 5  # read a moment later


def test_home_page_lists_my_games_by_time_left(urgent_games, client):
    me, by_urgency, theirs = urgent_games
    client.force_login(me)
    html = client.get("/").content.decode()
    positions = [
        html.index(f'data-match="{m.public_id}"') for m in [*by_urgency, theirs]
    ]
    assert positions == sorted(positions)
    assert "data-time-left" in html


def test_push_subscriptions_are_kept_per_browser(players):
    me, other = players[:2]
    api = APIClient()
    api.force_authenticate(me)
    url = "/api/me/push-subscriptions/"
    assert api.get(url).json()["public_key"]
    phone = {"endpoint": "https://push.example.com/s/phone", "keys": keys()}
    answer = api.post(url, {**phone, "device": "Firefox on Android"}, format="json")
    assert answer.status_code == 201
    laptop = {"endpoint": "https://push.example.com/s/laptop", "keys": keys()}
    assert api.post(url, laptop, format="json").status_code == 201
    # The same browser again: its keys are updated, not a second row.
    assert api.post(url, {**phone, "keys": keys()}, format="json").status_code == 201
    devices = api.get(url).json()["results"]
    assert sorted(d["device"] for d in devices) == ["", "Firefox on Android"]
    assert PushSubscription.objects.filter(user=me).count() == 2
    # Another player's DELETE of my endpoint removes nothing.
    api.force_authenticate(other)
    api.delete(url, {"endpoint": phone["endpoint"]}, format="json")
    assert PushSubscription.objects.filter(user=me).count() == 2
    api.force_authenticate(me)
    answer = api.delete(url, {"endpoint": phone["endpoint"]}, format="json")
    assert answer.status_code == 204
    assert list(
        PushSubscription.objects.filter(user=me).values_list("endpoint", flat=True)
    ) == [laptop["endpoint"]]


@pytest.mark.parametrize(
    ("endpoint", "key_set", "words"),
    [
        ("http://push.example.com/x", None, "https"),
        ("https://10.0.0.7/x", None, "not an address"),
        ("https://[::1]/x", None, "not an address"),
        ("https://localhost/x", None, "internet"),
        ("https://push.example.com/x", {"p256dh": "abc", "auth": "abc"}, "P-256"),
        ("https://push.example.com/x", {"p256dh": "!!", "auth": "x"}, "base64url"),
    ],
)
def test_bad_subscriptions_are_refused_and_change_nothing(
    players, endpoint, key_set, words
):
    api = APIClient()
    api.force_authenticate(players[0])
    answer = api.post(
        "/api/me/push-subscriptions/",
        {"endpoint": endpoint, "keys": key_set or keys()},
        format="json",
    )
    assert answer.status_code == 400
    assert words in str(answer.json())
    assert not PushSubscription.objects.exists()


def test_push_api_needs_sign_in(players):
    api = APIClient()
    assert api.get("/api/me/push-subscriptions/").status_code in (401, 403)
    assert api.get("/api/me/games/").status_code in (401, 403)


def test_without_vapid_keys_push_is_off_and_says_so(players, client, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_GENERATE = False
    me = players[0]
    client.force_login(me)
    html = client.get("/accounts/profile/edit/").content.decode()
    assert "not set up on this server" in html
    assert "Turn on push" not in html
    api = APIClient()
    api.force_authenticate(me)
    answer = api.post(
        "/api/me/push-subscriptions/",
        {"endpoint": "https://push.example.com/s/x", "keys": keys()},
        format="json",
    )
    assert answer.status_code == 409
    assert not PushSubscription.objects.exists()
    assert api.get("/api/me/push-subscriptions/").json()["public_key"] == ""


def test_profile_page_offers_push_with_the_server_key(players, client, settings):
    client.force_login(players[0])
    html = client.get("/accounts/profile/edit/").content.decode()
    assert f'data-vapid-key="{settings.VAPID_PUBLIC_KEY}"' in html
    assert "Turn on push in this browser" in html
    assert 'name="your_move_email"' in html and 'name="your_move_site"' in html
