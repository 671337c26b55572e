"""The profile's bio, country, time zone and challenge setting; follows."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import ChallengesFrom
from community import services
from community.models import Follow
from gameplay import lobby
from gameplay.errors import BadRequest
from gameplay.models import Challenge

pytestmark = pytest.mark.django_db


def _edit(client, user, **fields):
    client.force_login(user)
    data = {
        "display_name": user.display_name,
        "email": user.email,
        "email_tournament_rounds": "on",
        "bio": "",
        "country": "",
        "time_zone": "",
        "accept_challenges": "everyone",
        **fields,
    }
    return client.post(reverse("accounts:profile_edit"), data)


def test_profile_fields_are_saved_and_shown_escaped(client, players):
    me = players[0]
    answer = _edit(
        client,
        me,
        bio="  Kung <script>alert(1)</script>\n fan  ",
        country="Portugal",
        time_zone="Asia/Tokyo",
        accept_challenges="friends",
    )
    assert answer.status_code == 302
    me.refresh_from_db()
    assert me.bio == "Kung <script>alert(1)</script> fan"
    assert (me.country, me.time_zone) == ("Portugal", "Asia/Tokyo")
    assert me.accept_challenges == ChallengesFrom.FRIENDS
    client.logout()
    page = client.get(reverse("accounts:profile", args=[me.username])).content
    assert b"<script>alert(1)" not in page
    assert b"Kung &lt;script&gt;alert(1)&lt;/script&gt; fan" in page
    assert b"Portugal" in page and b"Asia/Tokyo" in page
    assert b"only from players" in page


def test_bad_profile_input_is_refused_and_changes_nothing(client, players):
    me = players[0]
    for bad in (
        {"time_zone": "Mars/Olympus"},
        {"accept_challenges": "enemies"},
        {"bio": "x" * 301},
    ):
        answer = _edit(client, me, **bad)
        assert answer.status_code == 200
        assert answer.context["form"].errors
        me.refresh_from_db()
        assert (me.time_zone, me.accept_challenges, me.bio) == ("", "everyone", "")


def test_times_are_shown_in_the_signed_in_users_zone(client, players):
    me = players[0]
    me.time_zone = "Asia/Tokyo"
    me.save(update_fields=["time_zone"])
    me.date_joined = dt.datetime(2026, 3, 1, 20, 0, tzinfo=dt.UTC)
    me.save(update_fields=["date_joined"])
    url = reverse("accounts:profile", args=[me.username])
    # 20:00 UTC on 1 March is already 2 March in Tokyo.
    assert b"1 March 2026" in client.get(url).content
    client.force_login(me)
    assert b"2 March 2026" in client.get(url).content
    # The zone is the request's only: nothing leaks into later code.
    assert timezone.get_current_timezone_name() == "UTC"


@pytest.mark.parametrize(
    ("setting", "follows", "allowed"),
    [
        ("everyone", False, True),
        ("friends", False, False),
        ("friends", True, True),
        ("nobody", True, False),
    ],
)
def test_the_challenge_setting_is_enforced(players, setting, follows, allowed):
    challenger, challenged = players[0], players[1]
    challenged.accept_challenges = setting
    challenged.save(update_fields=["accept_challenges"])
    if follows:
        services.follow_set(user=challenged, target=challenger, following=True)
    if allowed:
        lobby.challenge_create(
            challenger=challenger, challenged=challenged, game="duelo"
        )
        assert Challenge.objects.count() == 1
        return
    with pytest.raises(BadRequest, match=r"^this player is not available$"):
        lobby.challenge_create(
            challenger=challenger, challenged=challenged, game="duelo"
        )
    assert not Challenge.objects.exists()
    # Following the challenged player oneself gives no way in.
    services.follow_set(user=challenger, target=challenged, following=True)
    with pytest.raises(BadRequest, match="not available"):
        lobby.challenge_create(
            challenger=challenger, challenged=challenged, game="duelo"
        )


def test_follow_from_the_profile(client, players):
    me, them = players[0], players[1]
    client.force_login(me)
    url = reverse("community:follow", args=[them.username])

    def post(target: str, following: object):
        return client.post(
            target,
            json.dumps({"following": following}),
            content_type="application/json",
        )

    assert post(url, "maybe").status_code == 400
    assert post(url, True).status_code == 200
    assert post(url, True).status_code == 200
    assert Follow.objects.filter(follower=me, followed=them).count() == 1
    assert not Follow.objects.filter(follower=them).exists()
    assert post(url, False).json() == {"following": False}
    assert not Follow.objects.exists()
    assert (
        post(reverse("community:follow", args=[me.username]), True).status_code == 400
    )
    assert client.get(url).status_code == 405


def test_the_page_tells_its_scripts_the_profile_zone(client, players):
    assert 'data-time-zone="UTC"' in client.get("/").content.decode()
    players[0].time_zone = "America/Sao_Paulo"
    players[0].save(update_fields=["time_zone"])
    client.force_login(players[0])
    assert 'data-time-zone="America/Sao_Paulo"' in client.get("/").content.decode()
