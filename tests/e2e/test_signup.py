"""A newcomer signs up in the browser and lands signed in on the home page."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from accounts.models import User


def test_sign_up_from_the_home_page(arena, page):
    username = arena.unique("newcomer")
    page.goto("/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Email").fill(f"{username}@example.test")
    page.get_by_label(re.compile(r"^Password:?$")).fill(arena.password)
    page.get_by_label("Password confirmation").fill(arena.password)
    page.get_by_role("button", name="Sign up").click()

    expect(page.get_by_text(f"Welcome to Kung Fu Arena, {username}!")).to_be_visible()
    assert page.url == arena.url("/")
    user = User.objects.get(username=username)
    assert user.email == f"{username}@example.test"
    assert user.check_password(arena.password)


def test_sign_up_with_a_taken_username_shows_the_error(arena, page):
    taken = arena.create_user()
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(taken.username)
    page.get_by_label("Email").fill("someone-else@example.test")
    page.get_by_label(re.compile(r"^Password:?$")).fill(arena.password)
    page.get_by_label("Password confirmation").fill(arena.password)
    page.get_by_role("button", name="Sign up").click()

    expect(page.get_by_text("This username is taken.")).to_have_count(1)
    assert "/accounts/signup/" in page.url
