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


def test_each_compiled_or_foreign_runtime_uploads_from_the_page_and_validates(
    arena, tmp_path
):
    """JavaScript, C, C++ and WebAssembly examples, uploaded on the upload
    page, are built and validated by the worker in the sandbox and play:
    each bot page says active with the version's runtime. (Python:
    test_bot_upload.py; a compile error: the test above.)"""
    from pathlib import Path

    from bots.runtimes.toolchain import compile_wasm

    root = Path(__file__).resolve().parents[2]
    examples = root / "bots" / "examples"
    wasm = tmp_path / "bot.wasm"
    compile_wasm(examples / "duelo_random_wasm.c", wasm, include=root / "bots" / "sdk")
    uploads = [
        ("bot.js", "text/javascript", (examples / "duelo_random.js").read_bytes(),
         "JavaScript"),
        ("bot.c", "text/x-csrc", (examples / "duelo_random_wasm.c").read_bytes(),
         "C (zig cc"),
        ("bot.cpp", "text/x-c++src", (examples / "duelo_random.cpp").read_bytes(),
         "C++ (zig c++"),
        ("bot.wasm", "application/wasm", wasm.read_bytes(), "WebAssembly"),
    ]  # fmt: skip
    author = arena.player()
    page = author.page
    bots: list[tuple[int, str]] = []
    for filename, mime, data, label in uploads:
        page.goto("/bots/new/")
        page.get_by_label("Name").fill(arena.unique("rt"))
        page.get_by_label("Game").select_option("duelo")
        page.get_by_label("File").set_input_files(
            {"name": filename, "mimeType": mime, "buffer": data}
        )
        page.get_by_role("button", name="Upload").click()
        expect(page).to_have_url(BOT_URL)
        bots.append((int(BOT_URL.search(page.url).group(1)), label))
    for bot_id, label in bots:
        arena.wait_until(
            lambda bot_id=bot_id: (
                Bot.objects.get(pk=bot_id).versions.get().status in ("active", "failed")
            ),
            timeout=300,
            message=f"the {label} bot's validation",
        )
        version = Bot.objects.get(pk=bot_id).versions.get()
        assert version.status == "active", (label, version.status_detail)
        page.goto(f"/bots/{bot_id}/")
        row = page.locator("tr[data-version='1']")
        expect(row).to_contain_text(label)
        expect(page.locator("p .badge.ok")).to_have_text(re.compile("Active", re.I))
