"""Chat at a rated table in three browsers: two players and a spectator.

The players' chat is live between the players and hidden from the spectator
until the match ends; the spectator's chat is apart; lines are text (no HTML
runs); a mute takes the muted player's lines, earlier ones too, off the
muter's page at once."""

from __future__ import annotations

from playwright.sync_api import expect

from gameplay import services
from gameplay.services import SeatSpec

XSS = '<img src=x onerror="window.pwned=1">gg'


def _rated_match(one, two):
    match = services.match_create(
        game="duelo",
        seats=[SeatSpec(user=one), SeatSpec(user=two)],
        config={},
        rated=True,
    )
    return services.match_start(match_id=match.pk)


def _say(page, text: str) -> None:
    page.locator("[data-role='chat-text']").fill(text)
    page.locator("[data-role='chat-form'] button[type=submit]").click()


def test_players_chat_spectator_chat_apart_and_mute(arena):
    host, guest, watcher = arena.player(), arena.player(), arena.player()
    match = arena.server_side(_rated_match, host.user, guest.user)
    for person in (host, guest, watcher):
        person.page.goto(f"/matches/{match.public_id}/")
        expect(person.page.locator("[data-role='connection']")).to_contain_text(
            "Connected"
        )
    lines = {
        name: p.page.locator("[data-role='chat-lines'] li:not(.chat-system)")
        for name, p in (("host", host), ("guest", guest), ("watcher", watcher))
    }
    expect(watcher.page.locator("[data-role='chat-note']")).to_contain_text(
        "opens to spectators when the match ends"
    )

    _say(host.page, XSS)
    expect(lines["guest"]).to_have_count(1)
    # Shown as the text typed: no element made of it, no script run.
    expect(lines["guest"].first).to_contain_text(XSS)
    assert guest.page.locator("[data-role='chat-lines'] img").count() == 0
    assert guest.page.evaluate("window.pwned") is None

    _say(watcher.page, "seat one is bluffing")
    expect(lines["watcher"]).to_have_count(1)
    expect(lines["watcher"].first).to_contain_text("seat one is bluffing")
    # Neither chat crosses over while the rated match is in play. The proof
    # waits on events, not on time: a line said in each chat after the other
    # chat's line arrives on its pages, and the server handled the earlier
    # line first, so had it crossed over it would be there already.
    _say(guest.page, "your move")
    expect(lines["host"]).to_have_count(2)
    expect(lines["host"].last).to_contain_text("your move")
    _say(watcher.page, "or not")
    expect(lines["watcher"]).to_have_count(2)
    expect(lines["watcher"].last).to_contain_text("or not")
    expect(lines["guest"]).to_have_count(2)
    for name in ("host", "guest"):
        expect(lines[name].filter(has_text="bluffing")).to_have_count(0)
    expect(lines["watcher"].filter(has_text="your move")).to_have_count(0)

    # The guest mutes the host: the host's earlier line goes at once, and the
    # next one never shows (the guest's own line after it arrives, it does not),
    # while the host still sees their own.
    lines["guest"].first.get_by_role("button", name="Mute").click()
    expect(lines["guest"]).to_have_count(1)
    expect(lines["guest"].first).to_contain_text("your move")
    _say(host.page, "still there?")
    expect(lines["host"]).to_have_count(3)
    expect(lines["host"].last).to_contain_text("still there?")
    _say(guest.page, "muted you")
    expect(lines["guest"]).to_have_count(2)
    expect(lines["guest"].last).to_contain_text("muted you")
    expect(lines["guest"].filter(has_text="still there?")).to_have_count(0)

    # The match ends: the spectator now reads the players' chat too.
    arena.server_side(services.match_resign, match_id=match.pk, user=guest.user)
    expect(watcher.page.locator("[data-role='chat-lines']")).to_contain_text(
        "still there?"
    )
    expect(watcher.page.locator("[data-role='chat-note']")).to_contain_text("over")
    # System lines are set apart from people's words, for everyone.
    for person in (host, watcher):
        expect(person.page.locator(".chat-system").last).to_contain_text(
            f"{guest.user.public_name} resigned"
        )
