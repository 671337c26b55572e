"""A watcher's season page follows the season live, in a real browser: a new
registration, the queue's "Waiting now", a season game played and rated
show up in the standings without a reload (issue 26, section 4, first
point: brackets and standings update live over the socket)."""

from __future__ import annotations

from playwright.sync_api import expect

from gameplay import services as gameplay_services
from gameplay.models import MatchStatus
from league import services
from tests.factories import LeagueFactory, SeasonFactory


def _games_cell(live, name: str):
    # Columns: rank, player, games, won, points, season rating.
    return live.locator("tr", has_text=name).locator("td.num").nth(1)


def test_a_watchers_season_page_shows_registrations_queue_and_results(arena, page):
    ana, bo, cy = arena.create_user(), arena.create_user(), arena.create_user()
    season = SeasonFactory(
        status="running", league=LeagueFactory(slug=arena.unique("live-season-"))
    )
    for user in (ana, bo):
        arena.server_side(services.season_register, season=season, user=user)
    page.goto(f"/leagues/{season.league.slug}/seasons/{season.number}/")
    live = page.locator("#tournament-live")
    expect(live).to_contain_text(ana.username)
    expect(live).not_to_contain_text(cy.username)
    page.evaluate("window.__notReloaded = true")
    expect(page.locator("body[data-live-socket='open']")).to_have_count(1)

    # A new registration joins the standings.
    arena.server_side(services.season_register, season=season, user=cy)
    expect(live.locator("tr", has_text=cy.username)).to_be_visible()
    # Somebody waits for a game, then a second player completes it.
    arena.server_side(services.season_queue_join, season=season, user=ana)
    waiting = page.locator("#season-waiting")
    expect(waiting).to_contain_text(ana.username)
    match = arena.server_side(services.season_queue_join, season=season, user=bo)
    assert match is not None
    expect(waiting).to_contain_text("Nobody is waiting")
    expect(_games_cell(live, ana.username)).to_have_text("0")
    # The game ends; once the worker has rated it the standings count it.
    arena.server_side(gameplay_services.match_resign, match_id=match.pk, user=bo)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    expect(_games_cell(live, ana.username)).to_have_text("1", timeout=30_000)
    expect(_games_cell(live, bo.username)).to_have_text("1")
    expect(live.get_by_role("heading", name="Latest rated games")).to_be_visible()
    assert page.evaluate("window.__notReloaded") is True
