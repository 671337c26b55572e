"""An Arena tournament in a real browser (issue 31, section 1): a player
creates an arena on /arenas/ and joins it; when an opponent joins she is
taken to her game, and a watcher's standings follow the arena without a
reload; she pauses (no new game) and comes back."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from gameplay import services as gameplay_services
from league.tournaments.arena import services as arena_services
from league.tournaments.arena.models import Arena, ArenaGame, ArenaPlayer
from tests.e2e.a11y import axe_failures

MATCH_URL = re.compile(r"/matches/[0-9a-f-]{36}/$")


def test_join_play_standings_update_live_and_pause(arena, page):
    alice = arena.player()
    mine = alice.page
    mine.goto("/arenas/")
    name = arena.unique("Arena ")
    mine.get_by_label("Name:").fill(name)
    mine.get_by_label("Game:").select_option("kungfu2013")
    mine.get_by_label("Minutes:").fill("30")
    mine.get_by_role("button", name="Create arena").click()
    expect(mine.locator("h1")).to_have_text(name)
    the_arena = Arena.objects.get(name=name)
    url = f"/arenas/{the_arena.slug}/"
    mine.get_by_role("button", name="Join", exact=True).click()
    expect(mine.locator("#arena-me")).to_contain_text("waiting for an opponent")

    page.goto(url)  # an anonymous watcher
    standings = page.locator("#arena-standings")
    expect(standings).to_contain_text(alice.user.public_name)
    expect(page.locator("#tournament-live")).to_contain_text("None right now")
    # The countdown to the end runs in the page (29:59, 29:58, ...).
    expect(page.locator("#arena-ends-in")).to_have_text(re.compile(r"^(29|30):\d\d$"))
    page.evaluate("window.__notReloaded = true")

    # Bob joins from elsewhere: both are paired at once. Alice is taken to her
    # game; the watcher sees Bob and the game to watch.
    bob = arena.create_user()
    arena.server_side(arena_services.arena_join, arena=the_arena, user=bob)
    expect(mine).to_have_url(MATCH_URL, timeout=15000)
    expect(mine.locator(".match-context")).to_contain_text(name)
    expect(standings).to_contain_text(bob.public_name, timeout=15000)
    expect(page.locator("#arena-playing")).to_contain_text("Watch")

    # Bob resigns: the worker scores the game, the watcher's standings show it.
    game = ArenaGame.objects.get(arena=the_arena)
    arena.server_side(gameplay_services.match_resign, match_id=game.match_id, user=bob)
    alice_row = standings.locator("tr", has_text=alice.user.public_name)
    expect(alice_row.locator("td.num strong")).to_have_text("2", timeout=15000)
    expect(alice_row).to_contain_text("waiting")
    assert page.evaluate("window.__notReloaded") is True

    # Alice steps out from the arena's page; the watcher sees it.
    mine.goto(url)
    mine.get_by_role("button", name="Pause").click()
    expect(mine.get_by_role("button", name="Come back")).to_be_visible()
    expect(alice_row).to_contain_text("paused", timeout=15000)
    player = ArenaPlayer.objects.get(arena=the_arena, participant__user=alice.user)
    assert player.paused and player.score == 2
    # A newcomer is paired with Bob (free), never with the paused Alice.
    carol = arena.create_user()
    arena.server_side(arena_services.arena_join, arena=the_arena, user=carol)
    expect(standings).to_contain_text(carol.public_name, timeout=15000)
    newest = ArenaGame.objects.filter(arena=the_arena).first()
    assert newest is not None and newest.pk != game.pk
    assert {s.player.participant.user_id for s in newest.seats.all()} == {
        bob.pk,
        carol.pk,
    }
    mine.get_by_role("button", name="Come back").click()
    expect(mine.locator("#arena-me")).to_contain_text("waiting for an opponent")
    player.refresh_from_db()
    assert not player.paused

    # Both pages pass axe-core in both colour schemes (the fire, the forms).
    failures = []
    for viewer in (mine, page):
        for scheme in ("light", "dark"):
            viewer.emulate_media(color_scheme=scheme)
            failures += [f"{viewer.url} {scheme}: {f}" for f in axe_failures(viewer)]
    assert not failures, "\n".join(failures)
