"""The home page's friends list: online, what they play, one-click challenge;
a blocker never appears in the blocked user's list."""

from __future__ import annotations

import pytest
from django.urls import reverse

from community import presence, selectors, services
from gameplay import lobby
from gameplay.models import Challenge
from tests.gameplay.conftest import start_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_presence(clean_cache):
    yield


def test_friends_list_shows_online_and_games(client, players):
    me, idle, busy, stranger = players[:4]
    for friend in (idle, busy):
        services.follow_set(user=me, target=friend, following=True)
    start_match([busy, stranger], game="duelo")
    rows = selectors.friends(user=me)
    assert [row["user"] for row in rows] == [busy, idle]
    assert rows[0]["online"]
    assert rows[0]["playing"] == ["Duelo: Kung Fu"]
    assert not rows[1]["online"] and rows[1]["playing"] == []
    # A request by idle marks them online.
    client.force_login(idle)
    client.get("/")
    assert selectors.friends(user=me)[1]["online"]
    assert selectors.friends(user=stranger) == []


def test_home_page_lists_friends_and_challenges_in_one_click(client, players):
    me, friend = players[0], players[1]
    services.follow_set(user=me, target=friend, following=True)
    client.force_login(me)
    page = client.get("/").content.decode()
    assert 'id="friends"' in page and friend.public_name in page
    challenge_url = reverse("gameplay:challenge", args=["duelo"])
    assert f'formaction="{challenge_url}"' in page
    client.post(challenge_url, {"username": friend.username})
    assert Challenge.objects.filter(challenger=me, challenged=friend).exists()


def test_a_blocker_is_not_in_the_blocked_users_list(client, players):
    me, blocker, other = players[0], players[1], players[2]
    for friend in (blocker, other):
        services.follow_set(user=me, target=friend, following=True)
    services.block_set(user=blocker, target=me, blocked=True)
    assert [row["user"] for row in selectors.friends(user=me)] == [other]
    client.force_login(me)
    page = client.get("/").content.decode()
    assert blocker.public_name not in page
    # Following them again is accepted as ever (no hint of the block).
    services.follow_set(user=me, target=blocker, following=True)
    assert [row["user"] for row in selectors.friends(user=me)] == [other]


def test_online_marks_expire_with_the_cache(players):
    presence.mark_seen(user_id=players[0].pk)
    assert presence.online_ids(user_ids=[players[0].pk, players[1].pk]) == {
        players[0].pk
    }


def test_a_blockers_open_table_is_not_in_the_blocked_users_list(client, players):
    blocker, blocked, other = players[0], players[1], players[2]
    table = lobby.table_create(host=blocker, game="duelo", players=3)
    url = reverse("gameplay:game_detail", args=["duelo"])
    marker = reverse("gameplay:match", args=[table.public_id])
    client.force_login(blocked)
    assert marker in client.get(url).content.decode()
    services.block_set(user=blocker, target=blocked, blocked=True)
    assert marker not in client.get(url).content.decode()
    client.force_login(other)
    assert marker in client.get(url).content.decode()
