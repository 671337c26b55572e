"""A league with divisions in a real browser: the organiser sets the divisions
on the league page, and the season page shows each division's table with
its promotion and relegation zones coloured and explained by a legend
(issue 31, section 2)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from league.divisions.services import season_divisions_build
from league.models import Rating, SeasonStatus
from league.participants import participant_for_user
from league.ratings.services import pool_global, rating_apply_match
from tests.factories import LeagueFactory, SeasonFactory, finished_match


def test_divisions_are_set_by_the_organiser_and_shown_with_their_zones(arena):
    organiser, visitor = arena.player(), arena.player()
    league = LeagueFactory(slug=arena.unique("divisions-"), name="Division dojo")
    league.organisers.add(organiser.user)
    page = organiser.page
    page.goto(f"/leagues/{league.slug}/")
    page.get_by_label("Players per division").fill("4")
    page.get_by_label("Promoted from each division").fill("1")
    page.get_by_label("Relegated from each division").fill("1")
    page.get_by_role("button", name="Save divisions").click()
    expect(
        page.get_by_text("Divisions of 4 from the next divisions made.")
    ).to_be_visible()
    expect(page.locator("main")).to_contain_text(
        "divisions of 4: top 1 up, bottom 1 down"
    )

    league.refresh_from_db()
    assert (league.division_size, league.promotion_count) == (4, 1)
    now = timezone.now()
    season = SeasonFactory(
        league=league,
        status=SeasonStatus.RUNNING,
        starts_at=now - timedelta(days=1),
        ends_at=now + timedelta(days=20),
    )
    players = [arena.create_user() for _ in range(8)]
    pool = pool_global(game=league.game)
    for i, person in enumerate(players):
        participant = participant_for_user(person)
        Rating.objects.create(
            pool=pool, participant=participant, rating=2000 - 40 * i, peak=2000
        )
        season.registrations.create(participant=participant)
    season_divisions_build(season=season)
    context = f"league:{league.pk}:season:{season.pk}"
    for winner, loser in ((players[1], players[0]), (players[5], players[4])):
        match = finished_match([winner, loser], [1, 2], rated=False, context=context)
        rating_apply_match(match_id=match.pk)

    page = visitor.page
    page.goto(f"/leagues/{league.slug}/seasons/{season.number}/")
    legend = page.locator("#zone-legend")
    expect(legend).to_contain_text("Promotion zone: up one division next season")
    expect(legend).to_contain_text("Relegation zone: down one division next season")
    tables = page.locator("table.division-table")
    expect(tables).to_have_count(2)
    expect(page.get_by_role("heading", name="Division 1")).to_be_visible()
    top, bottom = tables.nth(0), tables.nth(1)
    # Division 1 relegates its last: those without a game rank below those
    # with one, in placement order, so players[3]; division 2 promotes its
    # only winner, players[5].
    relegated = top.locator("tr.zone-relegation")
    expect(relegated).to_have_count(1)
    expect(relegated).to_contain_text(players[3].public_name)
    expect(relegated).to_contain_text("relegation")
    promoted = bottom.locator("tr.zone-promotion")
    expect(promoted).to_have_count(1)
    expect(promoted).to_contain_text(players[5].public_name)
    expect(top.locator("tr.zone-promotion")).to_have_count(0)
    expect(bottom.locator("tr.zone-relegation")).to_have_count(0)

    # Each zone's colour is its legend swatch's (the theme may change the colour,
    # not the match), and the two zones and a plain row differ.
    def background(locator) -> str:
        return locator.evaluate("(el) => getComputedStyle(el).backgroundColor")

    green = background(page.locator(".zone-swatch.zone-promotion").first)
    red = background(page.locator(".zone-swatch.zone-relegation").first)
    plain = top.locator("tbody tr:not(.zone-promotion):not(.zone-relegation) td")
    assert len({green, red, background(plain.nth(1))}) == 3
    expect(promoted.locator("td").nth(1)).to_have_css("background-color", green)
    expect(relegated.locator("td").nth(1)).to_have_css("background-color", red)
