"""A duplicate event in the browser: created with the form, joined, started;
a player opens their deal from the event page while a spectator finds it
sealed; when the round ends the organiser's page, not reloaded, shows the
seeds, matchpoints and par."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from gameplay import services as gameplay_services
from league.duplicate.models import DuplicateEvent, DuplicateGame, RoundStatus

EVENT_URL = re.compile(r"/duplicate/([\w-]+)/$")


def test_a_duplicate_event_from_the_form_to_its_results(arena, page):
    organiser, first, second = arena.player(), arena.player(), arena.player()
    name = f"Duplicate {arena.unique('d')}"
    boss = organiser.page

    boss.goto("/tournaments/")
    boss.get_by_role("link", name="duplicate events").click()
    boss.get_by_label("Name").fill(name)
    boss.get_by_label("Game").select_option("kungfu2013")
    boss.get_by_label("Deals").fill("1")
    # The fastest built-in bot plays par: a heuristic par game cost a minute of
    # the worker's time on a loaded machine (and once ran out the 90 s below).
    boss.get_by_label("Par bot").select_option("random")
    boss.get_by_role("button", name="Create event").click()
    expect(boss).to_have_url(EVENT_URL)
    expect(boss.get_by_text(f"{name} created.")).to_be_visible()
    slug = EVENT_URL.search(boss.url).group(1)

    for player in (first, second):
        player.page.goto(f"/duplicate/{slug}/")
        player.page.get_by_role("button", name="Join").click()
        expect(
            player.page.get_by_role("button", name="Leave the event")
        ).to_be_visible()

    boss.reload()
    expect(boss.get_by_role("heading", name="Players (2)")).to_be_visible()
    boss.get_by_role("button", name="Start the event").click()
    round_one = boss.locator("#round-1")
    expect(round_one).to_contain_text("Round 1")
    expect(round_one.locator("code.commitment")).to_have_count(1)
    expect(round_one).to_contain_text("revealed after the round")
    expect(round_one.locator("code.seed")).to_have_count(0)

    # A player goes to their deal from the event page (the start also sent
    # their open pages to the game, as every started match does).
    first.page.goto(f"/duplicate/{slug}/")
    first.page.get_by_role("link", name="Play round 1, deal 1").click()
    expect(first.page.locator("#kfa-board")).to_be_visible()
    match_path = first.page.url.split(arena.base_url, 1)[1]
    # Anyone else finds the game sealed while the round is played.
    page.goto(match_path)
    expect(
        page.get_by_role("heading", name="Sealed until its round is over")
    ).to_be_visible()
    expect(page.locator("#kfa-board")).to_have_count(0)

    # The organiser's page follows the event live from here on.
    boss.evaluate("window.__notReloaded = true")
    # The second player resigns; par is played by the server's bot worker.
    game = DuplicateGame.objects.get(round__event__slug=slug, table=1)
    arena.server_side(
        gameplay_services.match_resign, match_id=game.match_id, user=second.user
    )
    arena.wait_until(
        lambda: (
            DuplicateEvent.objects.get(slug=slug)
            .round_set.filter(status=RoundStatus.FINISHED)
            .exists()
        ),
        timeout=90,
        message="the round to end (par played by the worker)",
    )
    standings = boss.locator("#standings")
    expect(standings).to_contain_text(first.user.public_name)
    expect(standings).to_contain_text("Matchpoints")
    expect(boss.locator("#round-1 code.seed")).to_have_count(1)
    results = boss.locator("#round-1 table.results")
    expect(results).to_contain_text(re.compile(r"place \d, [\d.½]+/1"))
    assert boss.evaluate("window.__notReloaded") is True
    # The game is open to all now.
    page.goto(match_path)
    expect(page.locator("#kfa-board")).to_be_visible()
