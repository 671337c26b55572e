"""A bot owner enters an uploaded bot in a tournament and registers it for a
season from the pages, in a real browser (issue 26, 1.4)."""

from __future__ import annotations

from playwright.sync_api import expect

from league.models import Entrant, Registration, RegistrationStatus
from league.tournaments import services as ts
from tests.bots import botsrc
from tests.bots.helpers import stored_version
from tests.factories import LeagueFactory, SeasonFactory


def test_an_owner_enters_a_bot_in_a_tournament_and_a_season(arena):
    owner = arena.player()
    bot = stored_version(owner.user, botsrc.FIRST_LEGAL, name=arena.unique("Tiger")).bot
    organiser = arena.create_user()
    tournament = ts.tournament_create(
        by=organiser,
        name=arena.unique("Bot cup "),
        game="duelo",
        format="swiss_tables",
        participants="bots",
    )
    page = owner.page
    page.goto(f"/tournaments/{tournament.slug}/")
    # Bots only: no "Enter" for the person, the owner's bot in the form.
    expect(page.get_by_role("button", name="Enter", exact=True)).to_have_count(0)
    page.get_by_label("Bot").select_option(str(bot.pk))
    page.get_by_role("button", name="Enter bot").click()
    expect(page.locator("body")).to_contain_text(f"{bot.name} entered")
    withdraw = page.get_by_role("button", name=f"Withdraw {bot.name}")
    expect(withdraw).to_be_visible()
    # Every bot of the owner is in: nothing more to enter.
    expect(page.get_by_role("button", name="Enter bot")).to_have_count(0)
    assert Entrant.objects.filter(tournament=tournament, participant__bot_id=bot.pk)
    withdraw.click()
    expect(page.locator("body")).to_contain_text("Entry withdrawn")
    expect(page.get_by_role("button", name="Enter bot")).to_be_visible()

    season = SeasonFactory(
        league=LeagueFactory(
            slug=arena.unique("bots-league-"), game="duelo", participants="bots"
        )
    )
    page.goto(f"/leagues/{season.league.slug}/seasons/{season.number}/")
    expect(page.get_by_role("button", name="Register", exact=True)).to_have_count(0)
    page.get_by_label("Bot").select_option(str(bot.pk))
    page.get_by_role("button", name="Register bot").click()
    expect(page.locator("body")).to_contain_text(f"{bot.name} is registered")
    expect(page.get_by_role("button", name=f"Withdraw {bot.name}")).to_be_visible()
    registration = Registration.objects.get(season=season, participant__bot_id=bot.pk)
    assert registration.status == RegistrationStatus.APPROVED
