"""Bots in arenas of a bots-only or mixed pool: their owners enter, pause
and withdraw them on the page and the API; they are seated like anyone."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league.tournaments.arena import services as arena
from league.tournaments.arena.models import ArenaGame, ArenaPlayer
from tests.bots import botsrc
from tests.bots.helpers import stored_version
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return UserFactory(username="owner")


@pytest.fixture
def bots(owner):
    return [
        stored_version(owner, botsrc.FIRST_LEGAL, name=name).bot
        for name in ("Tiger", "Crane")
    ]


@pytest.mark.parametrize("kind", ["bots", "mixed"])
def test_owners_enter_their_bots_and_they_are_seated(client, owner, bots, kind):
    creator = UserFactory()
    a = arena.arena_create(
        by=creator, name="Bot arena", game="duelo", minutes=30, participants=kind
    )
    client.force_login(owner)
    url = reverse("arena:detail", args=[a.slug])
    page = client.get(url).content.decode()
    assert "Enter bot" in page and "Tiger" in page and "Crane" in page
    assert (">Join</button>" in page) == (kind == "mixed")
    response = client.post(
        reverse("arena:action", args=[a.slug, "join"]),
        {"bot_id": bots[0].pk},
        follow=True,
    )
    assert "Tiger joined" in response.content.decode()
    api = APIClient()
    api.force_authenticate(owner)
    entry = f"/api/arenas/{a.slug}/entry/"
    assert api.post(entry, {"bot_id": bots[1].pk}, format="json").status_code == 201
    page = client.get(url).content.decode()
    assert "Pause Tiger" in page and "Withdraw Crane" in page
    # A built-in bot added by the creator makes three: a Duelo table.
    arena.arena_add_builtin(arena=a, by=creator, name="random")
    (game,) = ArenaGame.objects.filter(arena=a)
    assert game.match is not None
    agents = sorted(s.agent for s in game.match.seats.all())
    expected = [
        f"bot:{bots[0].active_version_id}",
        f"bot:{bots[1].active_version_id}",
        "builtin:random",
    ]
    assert agents == sorted(expected)
    # The owner pauses a bot; someone else may not.
    client.post(reverse("arena:action", args=[a.slug, "pause"]), {"bot_id": bots[0].pk})
    assert ArenaPlayer.objects.get(participant__bot_id=bots[0].pk).paused
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())
    refused = stranger.post(
        f"/api/arenas/{a.slug}/pause/",
        {"paused": False, "bot_id": bots[0].pk},
        format="json",
    )
    assert refused.status_code == 403
    assert ArenaPlayer.objects.get(participant__bot_id=bots[0].pk).paused


def test_a_humans_only_arena_refuses_bots(client, owner, bots):
    a = arena.arena_create(
        by=UserFactory(), name="People", game="duelo", minutes=30, participants="humans"
    )
    client.force_login(owner)
    page = client.get(reverse("arena:detail", args=[a.slug])).content.decode()
    assert "Enter bot" not in page and ">Join</button>" in page
    api = APIClient()
    api.force_authenticate(owner)
    response = api.post(
        f"/api/arenas/{a.slug}/entry/", {"bot_id": bots[0].pk}, format="json"
    )
    assert response.status_code == 400 and "bots cannot take part" in str(
        response.json()
    )
    assert not ArenaPlayer.objects.exists()
