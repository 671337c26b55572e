"""Two people in a game's lobby chat: the last lines on load, new ones
arriving by themselves, text shown as text."""

from __future__ import annotations

from playwright.sync_api import expect

from community import services


def test_lobby_chat_between_two_people(arena):
    one, two = arena.player(), arena.player()
    arena.server_side(
        services.lobby_chat_post, user=one.user, game="kungfu2013", text="earlier"
    )
    for person in (one, two):
        person.page.goto("/games/kungfu2013/")
    lines = two.page.locator("#kfa-lobby-chat [data-role='chat-lines'] li")
    expect(lines.last).to_contain_text("earlier")
    one.page.locator("#kfa-lobby-chat [data-role='chat-text']").fill("<b>game?</b>")
    one.page.locator("#kfa-lobby-chat button[type=submit]").click()
    expect(lines.last).to_contain_text("<b>game?</b>", timeout=15000)
    assert two.page.locator("#kfa-lobby-chat b").count() == 0
