"""The game table in a real browser: take-back, the only opponent chosen without a
click, Claim win when the server accepts it, the rematch, and the table's pages
at a phone's width."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from django.utils import timezone
from playwright.sync_api import expect

from gameplay import clocks, services
from gameplay.models import Match, MatchAction, MatchStatus
from gameplay.services import SeatSpec

SHOTS = os.environ.get("KFA_SCREENSHOTS")  # a folder: save pages for a look


def _shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def _duel_table(users, *, start: int = 0) -> Match:
    match = services.match_create(
        game="duelo",
        seats=[SeatSpec(user=user) for user in users],
        config={"start": start},
        private_options=True,  # a fixed first seat is for server-made matches
    )
    return services.match_start(match_id=match.pk)


def _no_horizontal_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    # Name the widest culprits (elements reaching past the screen) on failure.
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > 391)
        .slice(0, 6)
        .map((el) => el.tagName + '.' + el.className + ' '
             + Math.round(el.getBoundingClientRect().right))"""
    )
    assert width <= 390, f"{page.url} is {width} px wide at 390 px: {wide}"


def test_a_card_and_face_can_be_taken_back_and_the_only_opponent_is_chosen(arena):
    ana, bruno = arena.player(), arena.player()
    match = _duel_table([ana.user, bruno.user], start=0)
    page = ana.page
    page.goto(f"/matches/{match.public_id}/")
    expect(page.locator(".conn-text")).to_have_text("Connected")
    hand = page.locator('[data-role="you"] button.kcard-choice')
    expect(hand).to_have_count(3)
    hand.nth(0).click()
    expect(hand.nth(0)).to_have_attribute("aria-pressed", "true")
    prompt = page.locator('[data-role="prompt"]')
    back = prompt.get_by_role("button", name="Back: choose another card")
    expect(back).to_be_visible()
    _shot(page, "table-staged-1280")
    # Nothing was sent: the server still waits for the card.
    assert not MatchAction.objects.filter(match=match).exists()
    back.click()
    expect(hand.nth(0)).to_have_attribute("aria-pressed", "false")
    hand.nth(2).click()
    down = prompt.locator('[data-choice="face:down"]')
    expect(down).to_contain_text(f"duel {bruno.user.public_name}")
    down.click()
    # One click sent the card, the face and the only possible opponent.
    actions = arena.wait_until(
        lambda: (
            list(
                MatchAction.objects.filter(match=match)
                .order_by("version")
                .values_list("action_id", flat=True)
            )
            if MatchAction.objects.filter(match=match).count() >= 3
            else None
        ),
        message="card, face and target sent",
    )
    assert actions[0].startswith("card:")
    assert actions[1:3] == ["face:down", "target:1"]
    expect(page.locator('[data-role="status"], .prompt-text').first).to_contain_text(
        bruno.user.public_name
    )
    # The connection badge says offline as soon as the network goes.
    ana.context.set_offline(True)
    expect(page.locator(".conn-text")).to_contain_text("Offline", timeout=5_000)
    ana.context.set_offline(False)
    expect(page.locator(".conn-text")).to_have_text("Connected", timeout=20_000)


def test_claim_win_appears_when_the_server_accepts_it_then_rematch(arena):
    ana, bruno = arena.player(), arena.player()
    match = _duel_table([ana.user, bruno.user])
    # Bruno never connects: he counts as away since the start, 55 s ago.
    Match.objects.filter(pk=match.pk).update(
        started_at=timezone.now() - timedelta(seconds=clocks.GRACE_SECONDS - 5)
    )
    page = ana.page
    page.goto(f"/matches/{match.public_id}/")
    claim = page.locator('[data-control="claim-win"]')
    note = page.locator('[data-role="claim-note"]')
    expect(note).to_contain_text("you may claim the win")
    expect(claim).to_be_hidden()
    expect(claim).to_be_visible(timeout=12_000)
    claim.click()
    page.locator('[data-role="confirm-ok"]').click()
    arena.wait_until(
        lambda: Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED,
        message="the claim ends the match",
    )
    finished = Match.objects.get(pk=match.pk)
    assert finished.result["winners"] == [0]
    log = page.locator('[data-role="log"]')
    expect(log).to_contain_text("was away too long and lost the match")
    rematch = page.locator('[data-role="rematch"]')
    expect(rematch).to_have_text("Rematch")
    _shot(page, "table-finished-1280")
    rematch.click()
    new = arena.wait_until(
        lambda: Match.objects.filter(rematch_of=match).first(), message="rematch"
    )
    page.wait_for_url(f"**/matches/{new.public_id}/")
    assert new.status == MatchStatus.WAITING
    assert new.seats.get(number=0).user == ana.user
    # Bruno's old page offers it; joining starts the rematch.
    other = bruno.page
    other.goto(f"/matches/{match.public_id}/")
    expect(other.locator('[data-role="rematch"]')).to_have_text("Join the rematch")
    other.locator('[data-role="rematch"]').click()
    other.wait_for_url(f"**/matches/{new.public_id}/")
    arena.wait_until(
        lambda: Match.objects.get(pk=new.pk).status == MatchStatus.ACTIVE,
        message="the rematch starts when both are seated",
    )


def test_table_pages_fit_a_phone(arena):
    ana = arena.player(viewport={"width": 390, "height": 844})
    bot_match = services.match_create(
        game="duelo",
        seats=[
            SeatSpec(user=ana.user),
            SeatSpec(agent="builtin:heuristic"),
            SeatSpec(agent="builtin:heuristic"),
        ],
    )
    services.match_start(match_id=bot_match.pk)
    page = ana.page
    for path in (
        f"/matches/{bot_match.public_id}/",
        "/games/duelo/rules/",
        "/games/duelo/",
        "/games/",
        f"/accounts/u/{ana.user.username}/",
        "/bots/",
    ):
        page.goto(path)
        _shot(page, "phone" + path.replace("/", "_"))
        _no_horizontal_scroll(page)
    # Two heuristic bots are told apart on the table.
    page.goto(f"/matches/{bot_match.public_id}/")
    seats = page.locator(".seat-name")
    expect(seats.filter(has_text="Heuristic bot 2")).to_have_count(1)
    # ... and no name is cut short on a phone (both would read "Heuristic …").
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.seat-name')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.textContent)"""
    )
    assert cut == []


def test_bot_pages_and_a_played_profile_fit_a_phone(arena):
    from bots.models import BotMatchLog
    from gameplay.services import match_forfeit, match_start
    from tests.bots.botsrc import FIRST_LEGAL
    from tests.bots.helpers import bot_match, stored_version
    from tests.gameplay.conftest import play_to_end

    owner = arena.player(viewport={"width": 390, "height": 844})
    version = stored_version(owner.user, FIRST_LEGAL, name=arena.unique("phonebot"))
    match = bot_match(version.agent, "builtin:random")
    match_start(match_id=match.pk)
    match_forfeit(match_id=match.pk, seat_number=0, reason="bot crash")
    BotMatchLog.objects.create(
        version=version,
        match=match,
        seat=0,
        fault="crash",
        stderr="Traceback (most recent call last): " + "x" * 300,
    )
    # A finished game between people with long names, for the profile's table.
    rival = arena.create_user(display_name="A rather long display name indeed")
    game = _duel_table([owner.user, rival])
    play_to_end(game, [owner.user, rival])
    bot = version.bot
    page = owner.page
    for path in (
        f"/bots/{bot.pk}/",
        f"/bots/{bot.pk}/logs/",
        f"/bots/{bot.pk}/versions/{version.number}/source/",
        f"/bots/by/{owner.user.username}/",
        "/bots/new/",
        "/bots/docs/protocol/",
        "/bots/docs/writing/",
        f"/accounts/u/{owner.user.username}/",
        f"/accounts/u/{rival.username}/",
        "/accounts/profile/edit/",
        f"/matches/{game.public_id}/",
        f"/matches/{game.public_id}/replay/",
        "/",
        "/leagues/",
        "/tournaments/",
        "/rankings/",
    ):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        _shot(page, "phone" + path.replace("/", "_"))
        _no_horizontal_scroll(page)
