"""Clicking through Duelo's board like a person: shared by the Duelo browser tests."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

MATCH_URL = re.compile(r"/matches/([0-9a-f-]{36})/$")
#: What the board offers for the player's turn, in the order a player goes:
#: the next step of a turn being built (face, target) before a card from the
#: hand (choosing another card would start the turn over); never "back" nor a
#: chosen card (both take the choice back).
STEPS = (
    "#kfa-board button.choice:not([disabled]):not([data-choice='back']), "
    "#kfa-board button.seat-choice:not([disabled])"
)
CARDS = "#kfa-board .kcard-choice:not(.kcard-staged):not([disabled])"
CHOICES = f"{STEPS}, {CARDS}"
CONFIRM = "dialog[data-role='confirm'][open] [data-role='confirm-ok']"
RESULTS = "[data-role='results']"


def click_a_choice(page) -> bool:
    """Make one click of the player's turn if the board offers one now."""
    if page.locator(CONFIRM).count():
        page.locator(CONFIRM).click()
        return True
    steps = page.locator(STEPS)
    choice = steps.first if steps.count() else page.locator(CARDS).first
    if not choice.count():
        return False
    try:
        choice.click(timeout=2000)
    except Exception:  # the board redrew under the click (someone moved)
        return False
    return True


def play_by_clicking(page, *, max_clicks: int = 600, timeout: float = 240.0) -> int:
    """Click the first choice the board offers until the result shows."""
    results = page.locator(RESULTS)
    deadline = time.monotonic() + timeout
    clicks = 0
    while not results.is_visible():
        assert time.monotonic() < deadline, f"no result after {clicks} clicks"
        assert clicks < max_clicks, "the game did not end"
        # Our turn (a choice), the end (the result) or a confirmation.
        page.locator(
            f"{CHOICES}, {RESULTS}:not([hidden]), dialog[data-role='confirm'][open]"
        ).first.wait_for(timeout=60_000)
        clicks += click_a_choice(page)
    return clicks


def open_table(page, *, players: int) -> str:
    """The lobby's "Open a table" form; returns the match's public id."""
    page.goto("/games/duelo/")
    form = page.locator("form[action$='/tables/']")
    form.locator("select[name='players']").select_option(str(players))
    form.get_by_role("button", name="Open table").click()
    expect(page).to_have_url(MATCH_URL)
    found = MATCH_URL.search(page.url)
    assert found is not None
    return found.group(1)


def seat_bots(page, bots: list[str]) -> None:
    """The host's "Seat a bot", once per bot."""
    for bot in bots:
        page.locator("select[name='bot']").select_option(bot)
        page.get_by_role("button", name="Seat a bot").click()
