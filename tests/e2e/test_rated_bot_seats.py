"""A rated table seats each bot once, and a game that was not rated says so
(issue 26 §1.2), in a real browser."""

from __future__ import annotations

from playwright.sync_api import expect

from gameplay import lobby, services
from gameplay.models import Match, MatchStatus
from gameplay.services import SeatSpec
from league.ratings.selectors import REPEATED_BOT_NOTE


def test_rated_table_offers_each_bot_once_and_says_why(arena):
    host = arena.player()
    table = arena.server_side(
        lobby.table_create, host=host.user, game="kungfu2019", players=3, rated=True
    )
    page = host.page
    page.goto(f"/matches/{table.public_id}/")
    note = page.get_by_test_id("rated-bot-note")
    expect(note).to_contain_text("each bot takes one seat")
    menu = page.locator('select[name="bot"]')
    menu.select_option("heuristic")
    page.get_by_role("button", name="Seat a bot").click()
    expect(page.locator("#table-seats")).to_contain_text("Heuristic bot")
    # The heuristic bot is seated: the menu no longer offers it.
    values = menu.locator("option").evaluate_all("els => els.map(e => e.value)")
    assert "heuristic" not in values and "random" in values
    menu.select_option("random")
    page.get_by_role("button", name="Seat a bot").click()
    arena.wait_until(
        lambda: Match.objects.get(pk=table.pk).status != MatchStatus.WAITING,
        message="the table to start",
    )


def test_a_game_that_could_not_be_rated_says_so(arena):
    ana = arena.player()

    def make() -> Match:
        # Made before tables refused it: a rated game with one bot twice.
        match = services.match_create(
            game="kungfu2019",
            seats=[
                SeatSpec(user=ana.user),
                SeatSpec(agent="builtin:random"),
                SeatSpec(agent="builtin:random"),
            ],
        )
        Match.objects.filter(pk=match.pk).update(rated=True)
        return services.match_start(match_id=match.pk)

    match = arena.server_side(make)
    arena.server_side(services.match_resign, match_id=match.pk, user=ana.user)
    arena.wait_until(
        lambda: Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED,
        timeout=60,
        message="the bots to finish the game",
    )
    page = ana.page
    page.goto(f"/matches/{match.public_id}/")
    panel = page.locator('[data-role="rating-changes"]')
    expect(panel).to_contain_text(REPEATED_BOT_NOTE)
    expect(panel).not_to_contain_text("appear here in a moment")
