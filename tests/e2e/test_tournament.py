"""A tournament in the browser: created, entrants added, started, bracket shown."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from league.models import Tournament

TOURNAMENT_URL = re.compile(r"/tournaments/([\w-]+)/$")


def test_a_tournament_created_entrants_added_started_bracket_shown(arena):
    organiser, entrant = arena.player(), arena.player()
    invited = arena.create_user()
    name = f"Cup {arena.unique('t')}"
    page = organiser.page

    page.goto("/tournaments/")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Game").select_option("duelo")
    page.get_by_label("Format").select_option("single_elim")
    page.get_by_role("button", name="Create").click()
    expect(page).to_have_url(TOURNAMENT_URL)
    expect(page.get_by_text(f"{name} created")).to_be_visible()
    slug = TOURNAMENT_URL.search(page.url).group(1)

    # A player enters on their own; the organiser adds a player and two bots.
    entrant.page.goto(f"/tournaments/{slug}/")
    entrant.page.get_by_role("button", name="Enter", exact=True).click()
    expect(entrant.page.get_by_role("button", name="Withdraw my entry")).to_be_visible()

    page.reload()
    page.get_by_placeholder("username").fill(invited.username)
    page.get_by_role("button", name="Add player").click()
    expect(page.get_by_text(f"{invited.public_name} entered.")).to_be_visible()
    for bot in ("random", "heuristic"):
        page.locator("#add-builtin select[name='builtin']").select_option(bot)
        page.get_by_role("button", name="Add built-in bot").click()
    expect(page.get_by_role("heading", name="Entrants (4)")).to_be_visible()

    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.get_by_role("heading", name="Bracket", level=2)).to_be_visible()
    bracket = page.locator(".bracket")
    for person in (entrant.user, invited):
        expect(bracket).to_contain_text(person.public_name)
    expect(bracket).to_contain_text(re.compile("Random bot", re.I))
    expect(page.locator(".bracket-match").first).to_be_visible()

    tournament = Tournament.objects.get(slug=slug)
    assert tournament.status == "running"
    assert tournament.entrants.count() == 4
    assert tournament.pairings.count() >= 2
    # The first round's games are real matches a spectator can open.
    watch = page.locator(".bracket-match .mid a").first
    watch.click()
    expect(page.locator("#kfa-board")).to_be_visible()
