"""Duelo's full game in the browser: open a table with bots, play it by clicking.

The model for every game's full-game browser test (docs/testing.md): the person
uses only what the page offers, the bots move through the real worker, and the
game ends with its result shown and stored.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from gameplay.models import Match, MatchStatus

from .duelo import open_table, play_by_clicking, seat_bots


def test_a_full_duelo_game_against_bots_by_clicking(arena):
    me = arena.player()
    public_id = open_table(me.page, players=3)
    seat_bots(me.page, ["random", "heuristic"])
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
    assert match.actions.filter(seat=0).exists()
    assert me.page.locator("[data-role='log'] li").count() > 3
