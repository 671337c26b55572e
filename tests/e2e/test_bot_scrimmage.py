"""The bot page's own flows: a scrimmage started, played, and read back.

The owner picks an opponent and a number of games on the bot page; the
Celery worker plays them in the sandbox (unrated, duplicate deals); the
scrimmage's page shows each game's result with its replay, and the bot page
shows the head-to-head against that opponent and the version's record.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from bots.models import Scrimmage
from gameplay.models import Match, MatchStatus
from tests.bots import botsrc
from tests.bots.helpers import stored_version


def test_a_scrimmage_from_the_bot_page_to_results_and_head_to_head(arena):
    author = arena.player()
    page = author.page
    version = stored_version(author.user, botsrc.FIRST_LEGAL, name=arena.unique("Sc"))
    page.goto(f"/bots/{version.bot_id}/")
    form = page.locator("#scrimmage")
    form.get_by_role("combobox", name="Opponent").select_option("builtin:random")
    form.get_by_role("spinbutton", name="Games").fill("2")
    form.get_by_role("button", name="Start the scrimmage").click()
    expect(page).to_have_url(re.compile(rf"/bots/{version.bot_id}/scrimmages/\d+/$"))
    scrimmage = Scrimmage.objects.get(bot_id=version.bot_id)
    assert scrimmage.games == 2 and scrimmage.opponent == "builtin:random"
    rows = page.locator("#scrimmage-games tbody tr")
    expect(rows).to_have_count(2)

    def finished() -> bool:
        matches = Match.objects.filter(context__startswith=f"{scrimmage.context}:")
        return all(m.status == MatchStatus.FINISHED for m in matches)

    arena.wait_until(finished, timeout=120, message="the scrimmage's games")
    page.reload()
    for index in range(2):
        row = rows.nth(index)
        expect(row).to_have_attribute("data-outcome", re.compile("^(won|drawn|lost)$"))
        expect(row.get_by_role("link", name="Replay")).to_be_visible()
    summary = page.locator("#scrimmage-summary")
    expect(summary).not_to_contain_text("still to play")
    matches = list(Match.objects.filter(context__startswith=f"{scrimmage.context}:"))
    assert all(not m.rated for m in matches)

    # The bot page: head to head against the random bot, the version's record.
    page.get_by_role("link", name=re.compile(version.bot.name)).first.click()
    h2h = page.locator("#head-to-head tr[data-opponent='builtin:random']")
    expect(h2h.locator("td").nth(1)).to_have_text("2")
    expect(h2h.get_by_role("link")).to_have_count(2)
    version_row = page.locator("tr[data-version='1']")
    expect(version_row.locator("td").nth(4)).to_have_text("2")
    # Scrimmages are unrated: the version has no rating yet.
    expect(version_row.locator("[data-rating]")).to_have_text("—")
    h2h.get_by_role("link").first.click()
    expect(page).to_have_url(re.compile(r"/replay"))
