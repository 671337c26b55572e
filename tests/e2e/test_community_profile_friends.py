"""Profiles and friends in the browser: the profile's bio, zone and challenge
setting; following from a profile; the home page's friends list with a
one-click challenge."""

from __future__ import annotations

from playwright.sync_api import expect

from gameplay.models import Challenge


def test_profile_setting_follow_and_friends_challenge(arena):
    one, two = arena.player(), arena.player()
    # One fills in the profile: a bio with markup, a zone, friends only.
    one.page.goto("/accounts/profile/edit/")
    one.page.fill("#id_bio", "<b>bold</b> player")
    one.page.fill("#id_country", "Portugal")
    one.page.select_option("#id_time_zone", "Asia/Tokyo")
    one.page.select_option("#id_accept_challenges", "friends")
    one.page.get_by_role("button", name="Save").click()
    expect(one.page.locator(".bio")).to_have_text("<b>bold</b> player")
    assert one.page.locator(".bio b").count() == 0
    expect(one.page.locator(".time-zone")).to_contain_text("Asia/Tokyo")
    # Two cannot challenge one: not a player one follows.
    two.page.goto("/games/duelo/")
    two.page.fill("#id_challenge_username", one.user.username)
    two.page.get_by_role("button", name="Send challenge").click()
    expect(two.page.locator(".messages")).to_contain_text("not available")
    # One follows two from two's profile; two's home page has no list entry
    # for one (two follows nobody), one's lists two with a challenge button.
    one.page.goto(f"/accounts/u/{two.user.username}/")
    one.page.get_by_role("button", name="Follow").click()
    expect(one.page.get_by_role("button", name="Unfollow")).to_be_visible()
    one.page.goto("/")
    friend = one.page.locator(f"#friends li[data-username='{two.user.username}']")
    expect(friend.locator(".presence")).to_have_text("online")
    friend.get_by_role("button", name="Duelo: Kung Fu").click()
    expect(one.page.locator(".messages")).to_contain_text("Challenge sent")
    assert arena.server_side(
        lambda: Challenge.objects.filter(
            challenger=one.user, challenged=two.user
        ).exists()
    )
    # Now that one follows two, two's challenge goes through.
    two.page.goto("/games/duelo/")
    two.page.fill("#id_challenge_username", one.user.username)
    two.page.get_by_role("button", name="Send challenge").click()
    expect(two.page.locator(".messages")).to_contain_text("Challenge sent")
