"""Arena pages: create, join, pause, berserk, standings with fire; bad
requests answer with a message and change nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gameplay import services as gameplay_services
from league.tournaments.arena import services as arena
from league.tournaments.arena.models import Arena, ArenaPlayer
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_create_join_pause_and_berserk_from_the_pages(client) -> None:
    alice, bob = UserFactory(), UserFactory()
    client.force_login(alice)
    response = client.post(
        reverse("arena:list"),
        {
            "name": "Lunch arena",
            "game": "kungfu2013",
            "minutes": 30,
            "starts_in": 0,
            "participants": "mixed",
            "clock": 300,
            "rated": "on",
            "berserk": "on",
        },
    )
    a = Arena.objects.get()
    assert response.status_code == 302 and response.url == f"/arenas/{a.slug}/"
    assert a.time_control == {"total": 300} and a.minutes == 30
    page = client.get(response.url).content.decode()
    assert "Join" in page and "/ws/arenas/" in page
    client.post(reverse("arena:action", args=[a.slug, "join"]))
    client.post(reverse("arena:action", args=[a.slug, "berserk-on"]))
    me = ArenaPlayer.objects.get(arena=a, participant__user=alice)
    assert me.berserk
    page = client.get(response.url).content.decode()
    assert "waiting for an opponent" in page and "Berserk off" in page
    arena.arena_join(arena=a, user=bob)
    page = client.get(response.url).content.decode()
    assert "Play your game" in page and "Watch" in page
    client.post(reverse("arena:action", args=[a.slug, "pause"]))
    me.refresh_from_db()
    assert me.paused
    page = client.get(response.url).content.decode()
    # Paused during a game: the game goes on and stays one click away.
    assert "Come back" in page and "Play your game" in page and "paused" in page


def test_fire_is_shown_after_two_wins_in_a_row(
    client, django_capture_on_commit_callbacks
) -> None:
    creator = UserFactory()
    a = arena.arena_create(by=creator, name="Fire", game="kungfu2013", minutes=30)
    hero = UserFactory(username="hero")
    others = [UserFactory() for _ in range(3)]
    arena.arena_join(arena=a, user=hero)
    for other in others:
        arena.arena_join(arena=a, user=other)
        game = a.games.filter(
            status="playing", seats__player__participant__user=hero
        ).first()
        if game is None or game.match_id is None:
            continue
        with django_capture_on_commit_callbacks(execute=True):
            gameplay_services.match_resign(match_id=game.match_id, user=other)
    hero_player = ArenaPlayer.objects.get(arena=a, participant__user=hero)
    assert hero_player.streak >= 2
    page = client.get(reverse("arena:detail", args=[a.slug])).content.decode()
    row = page[page.index(f'data-player="{hero_player.participant.name}"') :]
    row = row[: row.index("</tr>")]
    assert 'aria-label="on fire"' in row


def test_bad_requests_answer_with_a_message(client) -> None:
    creator, alice = UserFactory(), UserFactory()
    a = arena.arena_create(by=creator, name="Strict", game="kungfu2013", minutes=30)
    # Signed out: sent to sign in, nothing changes.
    response = client.post(reverse("arena:action", args=[a.slug, "join"]))
    assert response.status_code == 302 and "login" in response.url
    client.force_login(alice)
    for action, data in (
        ("dance", {}),
        ("pause", {}),
        ("join", {"bot_id": "x"}),
        ("add-builtin", {"builtin": "random"}),
    ):
        response = client.post(
            reverse("arena:action", args=[a.slug, action]), data, follow=True
        )
        assert response.status_code == 200
        assert next(iter(response.context["messages"])).level_tag == "error"
    assert not ArenaPlayer.objects.filter(arena=a).exists()
    response = client.post(reverse("arena:list"), {"name": "", "game": "duelo"})
    assert response.status_code == 400 and Arena.objects.count() == 1
    assert client.get("/arenas/no-such/").status_code == 404


def test_an_arena_games_page_names_its_arena() -> None:
    from gameplay.contexts import describe_match_context

    creator, alice, bob = UserFactory(), UserFactory(), UserFactory()
    a = arena.arena_create(by=creator, name="Named", game="kungfu2013", minutes=30)
    arena.arena_join(arena=a, user=alice)
    arena.arena_join(arena=a, user=bob)
    game = a.games.get()
    assert game.match is not None
    info = describe_match_context(game.match)
    assert info is not None and info.title == "Named"
    assert info.url == reverse("arena:detail", args=[a.slug])
    assert info.details[0] == "arena game"
