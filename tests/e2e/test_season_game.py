"""A registered player starts a season game from the season page, in a real
browser: the page says how games start and what "?" means, and the game is
labelled as rated in the season's ladder, not "casual" (issue 26, section 4)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from league import services
from tests.factories import LeagueFactory, SeasonFactory

MATCH_URL = re.compile(r"/matches/[0-9a-f-]{36}/$")


def test_a_season_game_starts_from_the_page_and_is_labelled_rated(arena):
    first, second = arena.player(), arena.player()
    season = SeasonFactory(
        status="running", league=LeagueFactory(slug=arena.unique("season-league-"))
    )
    for person in (first, second):
        services.season_register(season=season, user=person.user)
    services.season_queue_join(season=season, user=first.user, players=2)
    page = second.page
    page.goto(f"/leagues/{season.league.slug}/seasons/{season.number}/")
    expect(page.locator("#season-queue")).to_contain_text(
        "your game opens here as soon as enough registered players are waiting"
    )
    expect(page.locator("#provisional-legend")).to_contain_text("provisional")
    page.get_by_role("button", name="Find a season game").click()
    expect(page).to_have_url(MATCH_URL)
    header = page.locator("main p.muted").first
    expect(header).to_contain_text("rated in the season's ladder")
    expect(header).not_to_contain_text("casual")
    expect(page.locator(".match-context")).to_contain_text("season game")
