"""One click from a game's page to a game against the computer, with no
notice for it, in a real browser (issue 26 §4)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from gameplay.models import Match
from notifications.models import Notification


def test_play_a_bot_in_one_click_rated_and_without_a_notice(arena):
    ana = arena.player()
    page = ana.page
    page.goto("/games/kungfu2019/")
    card = page.locator("#play-bot")
    expect(card.get_by_role("heading", name="Play the computer")).to_be_visible()
    strength = card.get_by_label("Strength")
    expect(strength).to_have_value("heuristic")  # the default: one click plays
    strength.select_option(label="Beginner: Random bot")
    card.get_by_label("Rated").check()
    card.get_by_role("button", name="Play a bot").click()
    expect(page).to_have_url(re.compile(r"/matches/[0-9a-f-]+/$"))
    expect(page.locator(".conn-text")).to_have_text("Connected")
    match = Match.objects.get(host=ana.user)
    assert match.rated and match.game == "kungfu2019"
    assert [s.agent for s in match.seats.order_by("number")] == [
        "",
        "builtin:random",
    ]
    expect(page.get_by_text("rated", exact=False).first).to_be_visible()
    # The bots may have moved before the page connected: still no notice.
    page.wait_for_timeout(1500)
    assert not Notification.objects.filter(user=ana.user).exists()
    expect(page.locator("#nav-unread")).to_be_hidden()
    # A reload (a moment away from the table) leaves nothing on the bell.
    page.reload()
    expect(page.locator(".conn-text")).to_have_text("Connected")
    page.wait_for_timeout(1000)
    page.reload()
    expect(page.locator("#nav-unread")).to_be_hidden()
    assert not Notification.objects.filter(user=ana.user, read_at=None).exists()


def test_a_bot_the_game_has_not_is_not_offered(arena):
    ana = arena.player()
    page = ana.page
    page.goto("/games/kungfu2009/")
    options = page.locator("#play-bot select option").all_text_contents()
    assert options == ["Beginner: Random bot", "Intermediate: Heuristic bot"]
    expect(page.locator("#play-bot")).to_contain_text("2 bots play you")
