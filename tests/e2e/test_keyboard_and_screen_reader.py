"""The live table without a mouse and without eyes (docs/ui.md, "Accessibility").

- A whole Duelo game (the quickest game) played with the keyboard alone: the
  page's ``a`` key goes to the first choice, Enter takes it, and the focus
  stays on the table between moves; the focus ring is visible.
- The screen-reader mode of each game, read as a screen reader reads it: the
  accessible names and roles (Playwright's ARIA snapshot and get_by_role) of
  the table in words, the clocks and the choices; a choice taken from the
  mode with the keyboard is played and announced in the polite live region.
- ``prefers-reduced-motion`` stops the card animations.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from gameplay import services
from gameplay.models import Match, MatchAction
from gameplay.services import SeatSpec
from tests.e2e.a11y import assert_accessible

RESULTS = "[data-role='results']"
REGION = "The table in words"


def _live(arena, user, game: str, *, bots: int = 1, config: dict | None = None):
    match = arena.server_side(
        services.match_create,
        game=game,
        seats=[SeatSpec(user=user)]
        + [SeatSpec(agent="builtin:random") for _ in range(bots)],
        config=config or {},
        private_options=True,  # Duelo's "start": 0 (the person moves first)
    )
    arena.server_side(services.match_start, match_id=match.pk)
    return match


def _focused(page) -> dict:
    return page.evaluate(
        """() => {
          const el = document.activeElement;
          if (!el || el === document.body) return {inBoard: false};
          const style = getComputedStyle(el);
          return {
            inBoard: !!el.closest('#kfa-board'),
            choice: !!el.closest('[data-role=prompt]') && el.dataset.choice !== 'back',
            tag: el.tagName.toLowerCase(),
            enabled: !el.disabled,
            outline: style.outlineStyle + ' ' + style.outlineWidth,
            name: el.getAttribute('aria-label') || el.textContent.trim(),
          };
        }"""
    )


@pytest.mark.slow  # a whole game (about 45 s): CI's second pass runs it
def test_a_whole_duelo_game_by_keyboard_alone(arena):
    me = arena.player()
    page = me.page
    match = _live(arena, me.user, "duelo", config={"start": 0})
    page.goto(f"/matches/{match.public_id}/")
    expect(page.locator("[data-role='connection']")).to_contain_text("Connected")
    # The shortcuts are listed on the page.
    keys = page.get_by_role("group").filter(has_text="Keyboard shortcuts")
    keys.locator("summary").focus()
    page.keyboard.press("Enter")
    for key in ("go to your first choice", "read whose turn it is", "read the clocks"):
        expect(keys).to_contain_text(key)

    results = page.locator(RESULTS)
    deadline = time.monotonic() + 240
    presses = 0
    rings: set[str] = set()
    while not results.is_visible():
        assert time.monotonic() < deadline, f"no result after {presses} presses"
        assert presses < 600, "the game did not end"
        page.locator(
            f"[data-role='prompt'] button:not([disabled]), {RESULTS}:not([hidden])"
        ).first.wait_for(timeout=60_000)
        focus = _focused(page)
        if not (focus["choice"] and focus["tag"] == "button" and focus["enabled"]):
            page.keyboard.press("a")
            focus = _focused(page)
            if not (focus["choice"] and focus["tag"] == "button"):
                continue  # the table moved on meanwhile
        rings.add(focus["outline"])
        page.keyboard.press("Enter")
        presses += 1

    assert presses >= 2
    # Keyboard focus was drawn as the 3 px ring every time.
    assert rings == {"solid 3px"}, rings
    expect(results).to_contain_text(re.compile(r"win|over", re.I))
    stored = arena.wait_until(
        lambda: Match.objects.filter(pk=match.pk, status="finished").first(),
        message="the match to be stored as finished",
    )
    assert stored.actions.filter(seat=0).exists()


GAMES = {
    "duelo": {"bots": 1, "config": {"start": 0}},
    "kungfu2009": {"bots": 2, "config": {}},
    "kungfu2013": {"bots": 1, "config": {"life": 5}},
    "kungfu2019": {"bots": 2, "config": {"players": 3, "draft": False}},
}


def test_each_game_has_a_screen_reader_mode_read_by_accessible_names(arena):
    me = arena.player()
    page = me.page
    name = me.user.public_name
    # All started before the first page opens: a game of yours that starts
    # while you watch another sends its "started" to the open page.
    matches = {
        game: _live(arena, me.user, game, **setup) for game, setup in GAMES.items()
    }
    for game, match in matches.items():
        page.goto(f"/matches/{match.public_id}/")
        expect(page.locator("[data-role='connection']")).to_contain_text("Connected")
        if game == "duelo":
            # The first Tab offers to skip the top bar.
            page.keyboard.press("Tab")
            assert _focused(page)["name"] == "Skip to the content"
            page.keyboard.press("Enter")
            assert page.evaluate("document.activeElement.id") == "main"
        toggle = page.get_by_role("button", name="Screen-reader mode")
        if toggle.get_attribute("aria-pressed") != "true":
            toggle.focus()
            page.keyboard.press("Enter")
        expect(toggle).to_have_attribute("aria-pressed", "true")
        region = page.get_by_role("region", name=REGION)
        expect(region).to_be_visible()
        # The drawn table is out of the way; the words are there instead.
        expect(page.locator(".board-table")).to_be_hidden()
        expect(region.get_by_role("heading", name="Clocks")).to_be_visible()
        expect(
            region.get_by_role("listitem").filter(has_text=f"{name} (you)")
        ).to_have_count(1)
        expect(region.get_by_role("heading", name="Your choices")).to_be_visible()
        # The choices are buttons (or a list box and a button) in named groups.
        first = region.locator(".sr-action:not([disabled])").first
        first.wait_for(timeout=60_000)
        snapshot = region.aria_snapshot()
        assert f'heading "{REGION}"' in snapshot, snapshot
        assert re.search(r"^ *- group \"", snapshot, re.M), snapshot
        assert re.search(r"^ *- '?button \"", snapshot, re.M), snapshot
        assert not re.search(r"\bseat \d\b", snapshot, re.I), snapshot
        # The engine's menu, worded for people, is what the buttons are named.
        acted = MatchAction.objects.filter(match=match, seat=0).count()
        page.keyboard.press("a")
        focused = _focused(page)
        assert focused["tag"] in ("button", "select"), (game, focused)
        # Kung Fu (2009)'s first choice is "Do nothing for now": the next one.
        while focused["tag"] == "select" or focused["name"] == "Do nothing for now":
            page.keyboard.press("Tab")
            focused = _focused(page)
        page.keyboard.press("Enter")
        arena.wait_until(
            lambda m=match, n=acted: (
                MatchAction.objects.filter(match=m, seat=0).count() > n
            ),
            timeout=30,
            message=f"{game}: the choice made in the screen-reader mode",
        )
        announcer = page.locator("[data-role='sr-announce']")
        expect(announcer).to_have_attribute("aria-live", "polite")
        expect(announcer).to_have_text(re.compile(r"\w"))
        # The log does not read the same lines a second time.
        expect(page.locator("[data-role='log']")).to_have_attribute("aria-live", "off")
        # The "c" key reads the clocks through the live region.
        page.locator("[data-role='sr-status']").focus()
        page.keyboard.press("c")
        expect(announcer).to_contain_text(re.compile(r"Clocks|No clocks"))
        # axe on the mode itself, in both schemes (without the moves' fade-in:
        # a half-faded line is no colour a reader is left with).
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
            assert_accessible(page, f"{game}'s screen-reader mode ({scheme})")
        page.emulate_media(color_scheme="light", reduced_motion="no-preference")
    # The confirmation dialog (Resign) passes axe and closes with Escape.
    page.get_by_role("button", name="Resign").focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="Resign this match?")
    expect(dialog).to_be_visible()
    assert_accessible(page, "the Resign dialog")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    # The mode is remembered for the next table; "s" turns it off.
    page.keyboard.press("s")
    expect(page.get_by_role("button", name="Screen-reader mode")).to_have_attribute(
        "aria-pressed", "false"
    )
    expect(page.locator(".board-table")).to_be_visible()
    expect(page.get_by_role("region", name=REGION)).to_be_hidden()


def test_reduced_motion_stops_the_card_animations(arena, new_context):
    me = arena.player()
    match = _live(arena, me.user, "duelo", config={"start": 0})
    running = {}
    for motion in ("no-preference", "reduce"):
        context = new_context(reduced_motion=motion)
        arena.login(context, me.user)
        page = context.new_page()
        page.goto(f"/matches/{match.public_id}/")
        expect(page.locator("#kfa-board .kcard").first).to_be_visible()
        # What a move does to the table: it glows and its new cards slide in.
        running[motion] = page.evaluate(
            """() => {
              const board = document.getElementById('kfa-board');
              board.classList.add('just-moved');
              for (const seat of board.querySelectorAll('.seat[data-seat]')) {
                seat.classList.add('seat-acted');
              }
              return document.getAnimations().length;
            }"""
        )
    assert running["no-preference"] > 0
    assert running["reduce"] == 0


def test_the_replay_says_each_step_in_words(arena, page):
    done = arena.server_side(
        services.match_create,
        game="duelo",
        seats=[SeatSpec(agent="builtin:random"), SeatSpec(agent="builtin:heuristic")],
    )
    arena.server_side(services.match_start, match_id=done.pk)
    arena.wait_until(
        lambda: Match.objects.get(pk=done.pk).is_over,
        timeout=90,
        message="the bots' game",
    )
    page.goto(f"/matches/{done.public_id}/replay/")
    words = page.get_by_role("group").filter(has_text="The table in words")
    words.locator("summary").focus()
    page.keyboard.press("Enter")
    lines = words.get_by_role("listitem")
    expect(lines.first).to_contain_text("Random bot")
    expect(lines.filter(has_text="Deck: ")).to_have_count(1)
    deck = next(t for t in lines.all_inner_texts() if t.startswith("Deck: "))
    # The keys step through the game; the words follow the step shown.
    page.keyboard.press("End")
    expect(page.locator("[data-role='step-label']")).not_to_have_text("")
    expect(lines.filter(has_text="Deck: ")).not_to_have_text(deck)
