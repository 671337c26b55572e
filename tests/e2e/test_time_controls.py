"""Choosing a time control in the lobby and seeing it at the table (issue 30).

A correspondence table (days per move) shows its control and a clock counted
in days; when the player to move goes on vacation, the opponent's table says
"on vacation until ..." and the clock stands still. A live table with a total
and an increment shows "5 min + 5 s" and a minutes clock.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from gameplay.models import Match, MatchStatus
from gameplay.rules import get_game

MATCH_URL = re.compile(r"/matches/([0-9a-f-]{36})/$")
DAYS_CLOCK = re.compile(r"^\d+d \d+h$")


def _open_table(page, game: str, **fields: str) -> str:
    page.goto(f"/games/{game}/")
    form = page.locator("form[action$='/tables/']")
    for name, value in fields.items():
        field = form.locator(f"[name='{name}']")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    form.get_by_role("button", name="Open table").click()
    expect(page).to_have_url(MATCH_URL)
    found = MATCH_URL.search(page.url)
    assert found is not None
    return found.group(1)


def _open(page, url: str) -> None:
    """Go to ``url``; a waiting table's page reloads itself when the table starts,
    which may interrupt this navigation to the same page: then wait for that
    reload instead."""
    try:
        page.goto(url)
    except PlaywrightError as error:
        if "interrupted by another navigation" not in str(error):
            raise
        page.wait_for_load_state()


def test_a_correspondence_table_its_clock_in_days_and_a_vacation(arena):
    host, guest = arena.player(), arena.player()
    public_id = _open_table(host.page, "kungfu2013", days="3")
    control = host.page.get_by_test_id("match-time-control")
    expect(control).to_have_text("3 days/move")
    # The open-tables list names it too.
    guest.page.goto("/games/kungfu2013/")
    row = guest.page.locator("table tbody tr", has_text=host.user.public_name)
    expect(row).to_contain_text("3 days/move")
    guest.page.goto(f"/matches/{public_id}/")
    guest.page.get_by_role("button", name="Take a seat").click()
    match = arena.wait_until(
        lambda: Match.objects.filter(
            public_id=public_id, status=MatchStatus.ACTIVE
        ).first(),
        message="the table started",
    )
    assert match.time_control == {"days": 3}
    mover_number = get_game(match.game).actors(match.state)[0]
    mover = match.seats.get(number=mover_number).user
    me, other = (host, guest) if mover == host.user else (guest, host)
    for player in (host, guest):
        _open(player.page, f"/matches/{public_id}/")
        expect(player.page.get_by_test_id("match-time-control")).to_have_text(
            "3 days/move"
        )
        clock = player.page.locator(f"#kfa-board .clock[data-seat='{mover_number}']")
        expect(clock.first).to_have_text(re.compile(r"^2d 2[23]h$"))
    # The player to move goes on vacation for 5 days from the vacation page.
    me.page.goto("/vacation/")
    me.page.get_by_label("Days away").fill("5")
    me.page.get_by_role("button", name="Go on vacation").click()
    expect(me.page.get_by_test_id("vacation")).to_contain_text("You are on vacation")
    # The opponent's table says so, and the clock now runs out days later.
    note = other.page.locator("[data-role='claim-note']")
    expect(note).to_contain_text("is on vacation until")
    expect(note).to_contain_text("their clock stands still")
    clock = other.page.locator(f"#kfa-board .clock[data-seat='{mover_number}']")
    expect(clock.first).to_have_text(re.compile(r"^7d 2[23]h$"))
    # Back early: the note goes, the clock runs again.
    me.page.get_by_role("button", name="Come back now").click()
    expect(note).to_be_hidden()
    expect(clock.first).to_have_text(DAYS_CLOCK)


@pytest.mark.slow  # the browser tests are make test's critical path (docs/testing.md)
def test_a_live_table_with_a_total_and_an_increment(arena):
    me = arena.player()
    _open_table(me.page, "kungfu2013", total="5", increment="5")
    expect(me.page.get_by_test_id("match-time-control")).to_have_text("5 min + 5 s")
    me.page.locator("select[name='bot']").select_option("heuristic")
    me.page.get_by_role("button", name="Seat a bot").click()
    expect(me.page.locator("#kfa-board")).to_be_visible()
    clocks = me.page.locator("#kfa-board .clock")
    expect(clocks.first).to_have_text(re.compile(r"^[45]:\d\d$"))
