"""Tournaments and uploaded bots in a real browser against the real server: a
tournament created on the page, entrants added on the page, started, its
bracket shown; a person plays a whole table against an uploaded bot that the
worker drives in the sandbox."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from gameplay import lobby
from gameplay.models import Match, MatchStatus
from league.models import Tournament
from tests.bots import botsrc
from tests.bots.helpers import stored_version

MATCH_URL = re.compile(r"/matches/[0-9a-f-]{36}/$")


def test_a_tournament_is_created_filled_started_and_its_bracket_shown(arena):
    boss = arena.player()
    entrants = [arena.create_user(), arena.create_user()]
    page = boss.page
    page.goto("/")
    page.get_by_role("link", name="Tournaments").first.click()
    name = arena.unique("Cup ")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Format").select_option("single_elim")
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    for person in entrants:
        page.get_by_label("Player").fill(person.username)
        page.get_by_role("button", name="Add player").click()
        expect(page.locator("body")).to_contain_text(f"{person.public_name} entered")
    page.get_by_label("Built-in bot").select_option("random")
    page.get_by_role("button", name="Add built-in bot").click()
    expect(page.locator("body")).to_contain_text("Random bot entered")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("body")).to_contain_text("Tournament started")
    expect(
        page.get_by_role("heading", name="Bracket", exact=True).first
    ).to_be_visible()
    bracket = page.locator(".bracket")
    for person in entrants:
        expect(bracket).to_contain_text(person.public_name)
    tournament = Tournament.objects.get(name=name)
    assert tournament.status == "running" and tournament.entrants.count() == 3
    # The tournament's game pages name it, with the round and its deadline.
    pairing = arena.wait_until(
        lambda: tournament.pairings.exclude(match=None).first(), message="a game"
    )
    page.goto(f"/matches/{pairing.match.public_id}/")
    context = page.locator(".match-context")
    expect(context).to_contain_text(name)
    expect(context).to_contain_text("round 1")
    expect(context).to_contain_text("deadline")


def _play_my_moves(arena, page, match: Match, timeout: float = 240.0) -> Match:
    """Click the first enabled action until the match is over."""
    deadline = time.monotonic() + timeout
    choice = page.locator(
        '.actions button:not([disabled]):not([data-choice="back"])'
    ).first
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.is_over:
            return match
        arena.server.assert_alive()
        try:
            choice.click(timeout=1500)
        except Exception:  # not my turn yet: the bot is thinking
            time.sleep(0.3)
    raise AssertionError(f"the match was not over after {timeout} s")


def test_a_person_plays_a_table_against_an_uploaded_bot(arena):
    author, host = arena.create_user(), arena.player()
    version = stored_version(author, botsrc.FIRST_LEGAL, name=arena.unique("Tiger"))
    table = lobby.table_create(host=host.user, game="duelo", players=2)
    page = host.page
    page.goto(f"/matches/{table.public_id}/")
    page.locator('select[name="bot"]').select_option(f"upload:{version.bot_id}")
    page.get_by_role("button", name="Seat a bot").click()
    table = arena.wait_until(
        lambda: Match.objects.filter(pk=table.pk, status=MatchStatus.ACTIVE).first(),
        message="the table to start",
    )
    expect(page.locator(".kfa-board")).to_be_visible()
    expect(page.locator("body")).to_contain_text(f"{version.bot.name} v1")
    match = _play_my_moves(arena, page, table)
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == "completed", match.end_reason
    bot_seat = match.seats.get(agent=version.agent)
    assert match.actions.filter(seat=bot_seat.number).exists(), "the bot moved"
    expect(page.locator(".results-inner")).to_be_visible()
