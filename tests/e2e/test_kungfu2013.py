"""Kung Fu (2013)'s full game in the browser: open a table from the game's page,
seat a built-in bot, play by clicking what the board offers, see the result.

Follows tests/e2e/test_duelo_full_game.py: the person uses only the page, the
bot moves through the real worker, and the stored match ends finished.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from gameplay.models import Match, MatchStatus

MATCH_URL = re.compile(r"/matches/([0-9a-f-]{36})/$")
CHOICES = (
    "#kfa-board button.choice:not([disabled]), #kfa-board .kcard-choice:not([disabled])"
)
CONFIRM = "dialog[data-role='confirm'][open] [data-role='confirm-ok']"
RESULTS = "[data-role='results']"


def test_a_full_kungfu2013_game_against_a_bot_by_clicking(arena):
    me = arena.player()
    page = me.page
    page.goto("/games/kungfu2013/")
    form = page.locator("form[action$='/tables/']")
    form.locator("input[name='opt_life']").fill("5")
    form.get_by_role("button", name="Open table").click()
    expect(page).to_have_url(MATCH_URL)
    public_id = MATCH_URL.search(page.url).group(1)
    page.locator("select[name='bot']").select_option("heuristic")
    page.get_by_role("button", name="Seat a bot").click()
    expect(page.locator("#kfa-board")).to_be_visible()
    expect(page.locator("[data-role='connection']")).to_contain_text("Connected")
    # The board shows both life totals, the two decks and the opponent's hand.
    expect(page.locator("[data-role='deck-red']")).to_be_visible()
    expect(page.locator("[data-role='deck-blue']")).to_be_visible()
    expect(page.locator("[data-role='life-0']").first).to_contain_text("5")

    results = page.locator(RESULTS)
    deadline = time.monotonic() + 300
    clicks = 0
    while not results.is_visible():
        assert time.monotonic() < deadline, f"no result after {clicks} clicks"
        assert clicks < 800, "the game did not end"
        page.locator(
            f"{CHOICES}, {RESULTS}:not([hidden]), dialog[data-role='confirm'][open]"
        ).first.wait_for(timeout=60_000)
        if page.locator(CONFIRM).count():
            page.locator(CONFIRM).click()
            continue
        choice = page.locator(CHOICES).first
        if not choice.count():
            continue
        try:
            choice.click(timeout=2000)
            clicks += 1
        except Exception:  # the board redrew under the click (the bot moved)
            continue

    assert clicks > 0
    expect(results).to_contain_text(re.compile(r"win|draw", re.I))
    match = arena.wait_until(
        lambda: Match.objects.filter(
            public_id=public_id, status=MatchStatus.FINISHED
        ).first(),
        message="the match to be stored as finished",
    )
    assert match.game == "kungfu2013" and match.result["winners"]
    assert match.actions.filter(seat=0).exists()
    assert page.locator("[data-role='log'] li").count() > 5


def test_the_kungfu2013_pages_fit_a_390_px_phone(arena):
    from gameplay import services
    from gameplay.services import SeatSpec

    from .test_narrow_screens import OVERFLOW, PHONE

    me = arena.player(viewport=PHONE)
    live = services.match_create(
        game="kungfu2013",
        seats=[SeatSpec(user=me.user), SeatSpec(agent="builtin:random")],
        config={"start": 0},
        private_options=True,
    )
    arena.server_side(services.match_start, match_id=live.pk)
    too_wide = []
    for url in (
        f"/matches/{live.public_id}/",
        "/games/kungfu2013/",
        "/games/kungfu2013/rules/",
    ):
        assert me.page.goto(url).ok, url
        me.page.wait_for_load_state("networkidle")
        found = me.page.evaluate(OVERFLOW)
        if found["over"] > 0:
            too_wide.append(f"{url}: {found['over']} px too wide, {found['widest']}")
    assert not too_wide, "\n".join(too_wide)
    # The live table shows the hand as buttons at this width too.
    me.page.goto(f"/matches/{live.public_id}/")
    expect(me.page.locator("[data-role='my-hand']")).to_be_visible()
