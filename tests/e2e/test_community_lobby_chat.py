"""Two people in a game's lobby chat: the last lines on load, new ones
arriving live over the lobby's socket (no poll, no reload), text shown as
text, a line reported from the lobby and removed by a moderator from the
queue leaving both pages at once, and times in the profile's zone."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from community import services


def _make_moderator(user) -> None:
    """The data migration's group, made again if a transactional test in the
    same session flushed it."""
    from django.contrib.auth.models import Group, Permission

    group, _ = Group.objects.get_or_create(name="moderator")
    group.permissions.add(
        Permission.objects.get(codename="moderate", content_type__app_label="community")
    )
    user.groups.add(group)


def test_lobby_chat_between_two_people_live(arena):
    one, two = arena.player(), arena.player()
    arena.server_side(
        services.lobby_chat_post, user=one.user, game="kungfu2013", text="earlier"
    )
    for person in (one, two):
        person.page.goto("/games/kungfu2013/")
        # The page follows the lobby over its socket.
        expect(person.page.locator("#kfa-lobby-chat[data-live='1']")).to_have_count(1)
    lines = two.page.locator("#kfa-lobby-chat [data-role='chat-lines'] li")
    expect(lines.last).to_contain_text("earlier")
    one.page.locator("#kfa-lobby-chat [data-role='chat-text']").fill("<b>game?</b>")
    one.page.locator(
        "#kfa-lobby-chat [data-role='chat-form'] button[type=submit]"
    ).click()
    # Live: there is no poll any more, so only the socket can bring it.
    expect(lines.last).to_contain_text("<b>game?</b>", timeout=5000)
    assert two.page.locator("#kfa-lobby-chat b").count() == 0
    mine = one.page.locator("#kfa-lobby-chat [data-role='chat-lines'] li")
    expect(mine.last).to_contain_text("<b>game?</b>", timeout=5000)

    # Two reports the line from the lobby; a moderator removes it from the
    # queue; it leaves both lobby pages without a reload.
    lines.filter(has_text="game?").get_by_role("button", name="Report").click()
    report = two.page.locator("#kfa-lobby-chat [data-role='chat-report']")
    report.locator("select[name=reason]").select_option("spam")
    report.get_by_role("button", name="Send report").click()
    expect(two.page.locator("#kfa-lobby-chat [data-role='chat-note']")).to_contain_text(
        "went to the moderators"
    )
    staff = arena.player()
    arena.server_side(_make_moderator, staff.user)
    staff.page.goto("/moderation/")
    card = staff.page.locator("section.report", has_text="game?")
    removal = card.locator("[data-testid='remove-line']")
    removal.locator("input[name=reason]").fill("spam")
    removal.get_by_role("button", name="Remove this line for everyone").click()
    expect(staff.page.locator("[data-testid='line-removed']").first).to_be_visible()
    for page_lines in (lines, mine):
        expect(page_lines.filter(has_text="game?")).to_have_count(0)
        expect(page_lines.filter(has_text="earlier")).to_have_count(1)


def _line_at_ten_utc(user, zone: str) -> None:
    from datetime import UTC, datetime

    from community.models import ChatMessage

    user.time_zone = zone
    user.save(update_fields=["time_zone"])
    line = services.lobby_chat_post(user=user, game="duelo", text="ten o'clock")
    ChatMessage.objects.filter(pk=line.pk).update(
        created_at=datetime(2026, 6, 1, 10, 0, tzinfo=UTC)
    )


def test_chat_times_are_in_the_profile_zone_not_the_browsers(arena):
    # The browser thinks it is in New York; the profile says Tokyo (UTC+9).
    person = arena.player(timezone_id="America/New_York")
    arena.server_side(_line_at_ten_utc, person.user, "Asia/Tokyo")
    person.page.goto("/games/duelo/")
    expect(person.page.locator("body")).to_have_attribute(
        "data-time-zone", "Asia/Tokyo"
    )
    stamp = person.page.locator("#kfa-lobby-chat li", has_text="ten o'clock").locator(
        "time"
    )
    expect(stamp).to_have_attribute("datetime", "2026-06-01T10:00:00+00:00")
    # 10:00 UTC in Tokyo, in the page's language (New York would be 6:00 AM).
    expect(stamp).to_have_text(re.compile(r"^\s*(19:00|7:00\sPM)\s*$"))
