"""Duelo's full game in the browser: open a table with bots, play it by clicking.

The model for every game's full-game browser test (docs/testing.md): the person
uses only what the page offers, the bots move through the real worker, and the
game ends with its result shown and stored.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from gameplay.models import Match, MatchStatus

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


def play_by_clicking(page, *, max_clicks: int = 600, timeout: float = 240.0) -> int:
    """Click the first choice the board offers until the result shows."""
    results = page.locator("[data-role='results']")
    confirm = page.locator("dialog[data-role='confirm'][open] [data-role='confirm-ok']")
    deadline = time.monotonic() + timeout
    clicks = 0
    while not results.is_visible():
        assert time.monotonic() < deadline, f"no result after {clicks} clicks"
        assert clicks < max_clicks, "the game did not end"
        if confirm.count():
            confirm.click()
            continue
        # Our turn (a choice), the end (the result) or a confirmation.
        page.locator(
            f"{CHOICES}, [data-role='results']:not([hidden]), "
            "dialog[data-role='confirm'][open]"
        ).first.wait_for(timeout=60_000)
        steps = page.locator(STEPS)
        choice = steps.first if steps.count() else page.locator(CARDS).first
        try:
            choice.click(timeout=2000)
        except Exception:  # the board redrew under the click (a bot moved)
            continue
        clicks += 1
    return clicks


def open_table_with_bots(page, *, players: int, bots: list[str]) -> str:
    """The lobby's "Open a table" form, then "Seat a bot" until it is full."""
    page.goto("/games/duelo/")
    form = page.locator("form[action$='/tables/']")
    form.locator("select[name='players']").select_option(str(players))
    form.get_by_role("button", name="Open table").click()
    expect(page).to_have_url(MATCH_URL)
    for bot in bots:
        page.locator("select[name='bot']").select_option(bot)
        page.get_by_role("button", name="Seat a bot").click()
    return MATCH_URL.search(page.url).group(1)


def test_a_full_duelo_game_against_bots_by_clicking(arena):
    me = arena.player()
    public_id = open_table_with_bots(me.page, players=3, bots=["random", "heuristic"])
    # The last seat filled starts the game; the page shows the table.
    expect(me.page.locator("#kfa-board")).to_be_visible()
    expect(me.page.locator("[data-role='connection']")).to_contain_text("Connected")

    clicks = play_by_clicking(me.page)

    assert clicks > 0
    results = me.page.locator("[data-role='results']")
    expect(results).to_contain_text(re.compile(r"win|won|Winner", re.I))
    match = arena.wait_until(
        lambda: Match.objects.filter(
            public_id=public_id, status=MatchStatus.FINISHED
        ).first(),
        message="the match to be stored as finished",
    )
    assert match.result["winners"]
    assert match.actions.filter(seat=0).count() >= clicks // 3
    log = me.page.locator("[data-role='log'] li")
    assert log.count() > 3
