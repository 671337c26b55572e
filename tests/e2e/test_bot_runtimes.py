"""Bots in other languages from the page: the limits, and a compiler error.

The upload page lists every runtime with its limits; a C bot that does not
compile fails its validation in the real sandbox, and its owner (and only its
owner) reads the compiler's messages on the bot page.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from bots.models import Bot

BOT_URL = re.compile(r"/bots/(\d+)/$")
BROKEN_C = b'#define GAME "duelo"\nint main(void) { return missing_name; }\n'


def test_runtimes_listed_and_compiler_errors_shown_to_the_owner(arena):
    author = arena.player()
    page = author.page
    page.goto("/bots/new/")
    table = page.locator("#runtimes")
    for label in ("Python 3", "JavaScript", "C (zig cc", "C++ (zig c++", "WebAssembly"):
        expect(table).to_contain_text(label)
    expect(page.locator("#runtime-wasm")).to_contain_text("fuel")
    expect(page.locator("#runtime-javascript")).to_contain_text("JavaScript heap")

    page.get_by_label("Name").fill(arena.unique("Cbot"))
    page.get_by_label("Game").select_option("duelo")
    page.get_by_label("File").set_input_files(
        {"name": "bot.c", "mimeType": "text/x-csrc", "buffer": BROKEN_C}
    )
    page.get_by_role("button", name="Upload").click()
    expect(page).to_have_url(BOT_URL)
    bot_id = int(BOT_URL.search(page.url).group(1))
    arena.wait_until(
        lambda: Bot.objects.get(pk=bot_id).versions.get().status == "failed",
        timeout=180,
        message="the C bot's build to fail in the sandbox",
    )
    page.reload()
    row = page.locator("tr[data-version='1']")
    expect(row).to_contain_text("C (zig cc")
    expect(row).to_contain_text("Compile error")
    messages = row.locator("details.build-output")
    expect(messages.locator("summary")).to_have_text("Compiler messages")
    expect(messages.locator("pre")).to_contain_text("missing_name")  # open already

    stranger = arena.player()
    stranger.page.goto(f"/bots/{bot_id}/")
    expect(stranger.page.locator("tr[data-version='1']")).to_contain_text("C (zig cc")
    expect(stranger.page.locator("details.build-output")).to_have_count(0)
    expect(stranger.page.get_by_text("missing_name")).to_have_count(0)
