"""Two people at one Duelo table in two browsers, and a spectator who must never
see a hidden card, on the page or in the WebSocket frames."""

from __future__ import annotations

import random
import re
import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from gameplay import services
from gameplay.models import Match, MatchStatus
from gameplay.rules import get_game

from .duelo import CHOICES, CONFIRM, RESULTS, click_a_choice, open_table


def _wait_for_a_turn(match: Match, pages: dict[int | None, Any]) -> None:
    """Until a page offers its next click (or the result shows): the frame of
    the other player's move reaching it, or a board redrawn under a click,
    settled. Each page is waited on in turn, for short spells: which seat the
    engine waits on can change between reading the match and the wait (a
    move lands, a reload re-renders), and a wait fixed on one page then sits
    out its whole timeout. An event, not a pause; the failure says where the
    table stood."""
    wanted = f"{CHOICES}, {CONFIRM}, {RESULTS}:not([hidden])"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for page in pages.values():
            try:
                page.locator(wanted).first.wait_for(timeout=1_000)
            except PlaywrightTimeout:
                continue
            return
    match.refresh_from_db()
    actors = [] if match.is_over else get_game("duelo").actors(match.state)
    seats = {seat.number: seat.user_id for seat in match.seats.all()}
    status = {
        user: (
            page.locator("[data-role='connection']").inner_text(),
            page.locator("#kfa-board button:not([disabled])").count(),
            page.locator("#kfa-board .kcard-choice").count(),
        )
        for user, page in pages.items()
    }
    raise AssertionError(
        f"no page offered a click for 60 s: version {match.version}, "
        f"actors {actors}, seats {seats}, pages (connection, enabled buttons, "
        f"choosable cards) {status}"
    )


def test_two_people_play_live_and_one_reloads_mid_game(arena):
    host, guest = arena.player(), arena.player()
    public_id = open_table(host.page, players=2)
    guest.page.goto(f"/matches/{public_id}/")
    guest.page.get_by_role("button", name="Take a seat").click()
    # The table filled: both pages show the game (the host's without a reload).
    for person in (host, guest):
        expect(person.page.locator("#kfa-board")).to_be_visible()
        expect(person.page.locator("[data-role='connection']")).to_contain_text(
            "Connected"
        )

    match = Match.objects.get(public_id=public_id)
    reloaded = False
    deadline = time.monotonic() + 240
    while not (host.page.locator(RESULTS).is_visible()):
        assert time.monotonic() < deadline, "the live game did not end"
        moved = click_a_choice(host.page) | click_a_choice(guest.page)
        match.refresh_from_db()
        if not reloaded and match.version >= 3 and not match.is_over:
            # Mid-game the guest reloads: the table comes back as it was and
            # the game goes on.
            logged = guest.page.locator("[data-role='log'] li")
            before = logged.count()
            guest.page.reload()
            expect(guest.page.locator("[data-role='connection']")).to_contain_text(
                "Connected"
            )
            expect(guest.page.locator("[data-role='round']")).to_contain_text("Round")
            # The log is rebuilt from the server: nothing said before is lost.
            guest.page.wait_for_function(
                "n => document.querySelectorAll('[data-role=log] li').length >= n",
                arg=before,
            )
            reloaded = True
        if not moved:
            _wait_for_a_turn(
                match, {host.user.pk: host.page, guest.user.pk: guest.page}
            )

    assert reloaded, "the game ended before anyone could reload"
    expect(guest.page.locator(RESULTS)).to_be_visible()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    winners = [s.user for s in match.seats.all() if s.placement == 1]
    assert winners
    if len(winners) == 1:  # each page tells its own player the result
        (winner,) = winners
        loser = guest if winner.pk == host.user.pk else host
        champion = host if loser is guest else guest
        expect(champion.page.locator(RESULTS)).to_contain_text("You win")
        expect(loser.page.locator(RESULTS)).to_contain_text(
            re.compile(rf"{re.escape(winner.public_name)} wins", re.I)
        )


def _secrets(frame: dict) -> list[str]:
    """Hidden Duelo information in one frame, for a viewer who holds no seat."""
    found = []
    kind = frame.get("type")
    events = list(frame.get("events") or [])
    if kind == "history":
        events += [e for step in frame.get("steps", []) for e in step.get("events", [])]
    for event in events:
        if event.get("private"):
            found.append(f"a private event part: {event}")
    view = frame.get("view") if kind == "state" else None
    if view:
        if view.get("hand") is not None:
            found.append(f"a hand: {view['hand']}")
        if view.get("private"):
            found.append(f"a private sight: {view['private']}")
        if any("hand" in seat for seat in view.get("seats", [])):
            found.append("a seat's hand")
        play = view.get("play") or {}
        if play and play.get("face") is None and play.get("card") is not None:
            found.append(f"a card before it is played face up or down: {play}")
        duel = view.get("duel") or {}
        if duel and view.get("phase") in ("target", "answer") and any(duel["cards"]):
            found.append(f"a face-down duel card: {duel}")
        if frame.get("legal"):
            found.append(f"legal moves: {frame['legal']}")
        if frame.get("status") == "active" and frame.get("seed") is not None:
            found.append("the seed during the game")
    return found


def test_a_spectator_sees_no_hidden_card_in_the_page_or_the_frames(arena, page):
    players = [arena.create_user(), arena.create_user()]
    match = services.match_create(
        game="duelo", seats=[services.SeatSpec(user=u) for u in players]
    )
    arena.server_side(services.match_start, match_id=match.pk)
    seated = arena.player()  # control: a seated viewer's frames do carry secrets
    seated_match = services.match_create(
        game="duelo",
        seats=[services.SeatSpec(user=seated.user), services.SeatSpec(user=players[0])],
    )
    arena.server_side(services.match_start, match_id=seated_match.pk)
    seated_frames = arena.record_frames(seated.page)
    seated.page.goto(f"/matches/{seated_match.public_id}/")

    frames = arena.record_frames(page)
    page.goto(f"/matches/{match.public_id}/")
    expect(page.locator("[data-role='connection']")).to_contain_text("Connected")
    engine = get_game("duelo")
    rng = random.Random(9)
    checked_dom = 0
    for _ in range(400):
        match.refresh_from_db()
        if match.is_over:
            break
        seat = engine.actors(match.state)[0]
        arena.server_side(
            services.match_act,
            match_id=match.pk,
            user=players[seat],
            action_id=rng.choice(engine.legal_action_ids(match.state, seat)),
            expected_version=match.version,
        )
        expect(page.locator("[data-role='log'] li").last).to_be_attached()
        if checked_dom < 8:
            # On the page: every hand is closed (backs only) and there is no
            # "your hand"; a face-down card in play shows its back.
            expect(page.locator("[data-role='you']")).to_be_hidden()
            assert page.locator(".my-hand").count() == 0
            faces = page.locator(
                "[data-role='opponents'] .hand .kcard:not(.kcard-back)"
            )
            assert faces.count() == 0
            checked_dom += 1
    assert match.is_over
    expect(page.locator(RESULTS)).to_be_visible()

    received = [f["data"] for f in frames if f["direction"] == "received"]
    states = [f for f in received if isinstance(f, dict) and f.get("type") == "state"]
    assert len(states) > 5, "the spectator's page received no live frames"
    leaks = [s for f in received if isinstance(f, dict) for s in _secrets(f)]
    assert leaks == []
    # The check can fail: the seated player's own frames carry a hand.
    arena.wait_until(lambda: seated_frames, message="the seated player's frames")
    mine = [f["data"] for f in seated_frames if f["direction"] == "received"]
    assert any(_secrets(f) for f in mine if isinstance(f, dict))
