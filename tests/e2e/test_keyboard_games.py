"""Kung Fu (2013), (2019) and (2009) played whole with the keyboard alone.

The model is the Duelo game of tests/e2e/test_keyboard_and_screen_reader.py:
the person never clicks. ``a`` (the page's shortcut) goes to the first
choice, Tab and Shift+Tab move between the choices, Enter takes one, and a
confirmation dialog is answered by tabbing to its OK. Each game at its
quickest table: Kung Fu (2013) at 5 life, Kung Fu (2019) for two players
without the draft, Kung Fu (2009) with its one-minute limit, where the hand
is also rearranged by keys (Enter selects a card, the arrows move it).
"""

from __future__ import annotations

import contextlib
import re
import time

import pytest
from playwright.sync_api import expect

from gameplay import services
from gameplay.models import Match, MatchAction
from gameplay.services import SeatSpec

RESULTS = "[data-role='results']"
#: What a person may take: the prompt's buttons, or (Kung Fu 2013's cards)
#: the cards on the table that are buttons.
CHOICE = (
    "[data-role='prompt'] button:not([disabled]):not([data-choice='back']), "
    "#kfa-board .board-table button:not([disabled])"
)
CONFIRM = "dialog[data-role='confirm'][open]"

FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {tag: null, choice: false, role: null};
  const style = getComputedStyle(el);
  return {
    tag: el.tagName.toLowerCase(),
    role: el.dataset.role || null,
    action: el.dataset.action || null,
    choice: el.tagName === 'BUTTON' && !!el.closest('#kfa-board')
      && el.dataset.choice !== 'back' && !el.closest('[data-role=log]'),
    inDialog: !!el.closest('dialog[open]'),
    inBoard: !!el.closest('#kfa-board'),
    enabled: !el.disabled,
    outline: style.outlineStyle + ' ' + style.outlineWidth,
    name: (el.getAttribute('aria-label') || el.textContent).trim().slice(0, 60),
  };
}"""


def focused(page) -> dict:
    return page.evaluate(FOCUSED)


def _live(arena, user, game: str, *, bots: int, config: dict):
    match = arena.server_side(
        services.match_create,
        game=game,
        seats=[SeatSpec(user=user)]
        + [SeatSpec(agent="builtin:random") for _ in range(bots)],
        config=config,
        private_options=True,
    )
    arena.server_side(services.match_start, match_id=match.pk)
    return match


def answer_dialog(page) -> None:
    """Tab to the open confirmation dialog's OK and press Enter."""
    for _ in range(6):
        if focused(page)["role"] == "confirm-ok":
            page.keyboard.press("Enter")
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the dialog's OK")


def _take(page, prefer: tuple[str, ...]) -> dict | None:
    """Go to the first choice (``a``), Tab along the choices, and put the
    focus on the one to take: the first of ``prefer`` (by data-action) that
    is offered, else the first choice that does not take a card back."""
    page.keyboard.press("a")
    seen: list[dict] = []
    for _ in range(30):
        focus = focused(page)
        if not (focus["choice"] and focus["enabled"]) or focus in seen[:1]:
            break
        seen.append(focus)
        page.keyboard.press("Tab")
    wanted = [
        i for i, f in enumerate(seen) if not (f["action"] or "").startswith("unplay")
    ]
    for action in prefer:
        found = [i for i, f in enumerate(seen) if f["action"] == action]
        if found:
            wanted = found
            break
    if not wanted:
        return None
    page.keyboard.press("a")
    for _ in range(wanted[0]):
        page.keyboard.press("Tab")
    focus = focused(page)
    return focus if focus["choice"] and focus["enabled"] else None


def play_by_keyboard(
    page, *, seconds: float, presses: int, trace: list, prefer: tuple[str, ...] = ()
) -> set:
    """Take choices by keys until the result shows; returns the focus rings
    seen on the choices taken."""
    results = page.locator(RESULTS)
    deadline = time.monotonic() + seconds
    done = 0
    rings: set[str] = set()
    while not results.is_visible():
        assert time.monotonic() < deadline, f"no result after {done} presses"
        assert done < presses, "the game did not end"
        page.locator(f"{CHOICE}, {RESULTS}:not([hidden]), {CONFIRM}").first.wait_for(
            timeout=90_000
        )
        if page.locator(CONFIRM).count():
            answer_dialog(page)
            trace.append("dialog OK")
            continue
        focus = _take(page, prefer)
        if focus is None:
            continue  # the table moved on meanwhile
        rings.add(focus["outline"])
        trace.append(f"{focus['tag']}:{focus['action']}:{focus['name']}")
        page.keyboard.press("Enter")
        done += 1
    return rings


GAMES = {
    "kungfu2013": {"bots": 1, "config": {"life": 5, "start": 0}},
    "kungfu2019": {"bots": 1, "config": {"players": 2, "draft": False}},
}
#: The choices taken first when offered: 2019's tray is filled with the
#: solver's proposal ("Load the best assignment") and finished, and a commit
#: is sent once cards are in it.
PREFER = {"kungfu2019": ("done", "best", "auto")}


@pytest.mark.slow  # a whole game: CI's second pass runs it (docs/testing.md)
@pytest.mark.timeout(600)
@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_by_keyboard_alone(arena, game):
    me = arena.player()
    page = me.page
    match = _live(arena, me.user, game, **GAMES[game])
    page.goto(f"/matches/{match.public_id}/")
    expect(page.locator("[data-role='connection']")).to_contain_text("Connected")
    trace: list[str] = []
    try:
        rings = play_by_keyboard(
            page, seconds=400, presses=600, trace=trace, prefer=PREFER.get(game, ())
        )
    finally:
        print(game, len(trace), "\n".join(trace[-40:]))
    assert rings == {"solid 3px"}, rings
    expect(page.locator(RESULTS)).to_contain_text(re.compile(r"win|draw|over", re.I))
    arena.wait_until(
        lambda: Match.objects.filter(pk=match.pk, status="finished").exists(),
        message="the match to be stored as finished",
    )
    assert MatchAction.objects.filter(match=match, seat=0).exists()


def tab_to(page, selector: str, *, limit: int = 80) -> None:
    """Press Tab (from the first choice, ``a``) until the focus is on an
    element matching ``selector``; fail when it never gets there."""
    selector += ":not([disabled])"
    for _ in range(5):  # the table may pause (a claim) and disable it a while
        page.locator(selector).first.wait_for(timeout=60_000)
        page.keyboard.press("a")
        for _ in range(limit):
            if page.evaluate(
                "(s) => !!document.activeElement && document.activeElement.matches(s)",
                selector,
            ):
                return
            page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.slow  # waits out the table's one-minute limit
@pytest.mark.timeout(600)
def test_a_whole_kungfu2009_game_by_keyboard_alone(arena):
    """The hand rearranged by keys (← moves a card, Enter selects one and the
    **Right ▶** button moves it), then KUNG FU by Tab and Enter until a
    combination scores (four Dragons dealt: any face-up easy one), until the
    one-minute limit ends the table."""
    from tests.e2e.test_kungfu2009_live import stacked

    me = arena.player(viewport={"width": 1280, "height": 1400})
    page = me.page
    match = arena.server_side(
        services.match_create,
        game="kungfu2009",
        seats=[SeatSpec(user=me.user)]
        + [SeatSpec(agent="builtin:random") for _ in range(2)],
        config={"deck": stacked(["DDDDT", "MCRTM", "CRTMC"]), "minutes": 1},
        private_options=True,
    )
    arena.server_side(services.match_start, match_id=match.pk)
    page.goto(f"/matches/{match.public_id}/")
    expect(page.locator("[data-role='connection']")).to_contain_text("Connected")
    hand = page.locator('[data-role="my-hand"] [data-index]')
    expect(hand).to_have_count(5)

    def moved(prefix: str) -> bool:
        return MatchAction.objects.filter(
            match=match, seat=0, action_id__startswith=prefix
        ).exists()

    # The last card (the Tiger) one place left with the arrow key.
    tab_to(page, '[data-role="my-hand"] [data-index="4"]')
    page.keyboard.press("ArrowLeft")
    arena.wait_until(lambda: moved("move:4:3"), timeout=30, message="move:4:3 by key")
    # Selected with Enter, then moved back with its button (the Dragons stay
    # in front: a claim is made with the hand's first cards).
    tab_to(page, '[data-role="my-hand"] [data-index="3"]')
    page.keyboard.press("Enter")
    expect(page.locator('[data-role="hand-tools"]')).to_be_visible()
    tab_to(page, '[data-role="hand-tools"] button[data-action="move:3:4"]')
    assert page.evaluate("document.activeElement.textContent") == "Right ▶"
    page.keyboard.press("Enter")
    arena.wait_until(lambda: moved("move:3:4"), timeout=30, message="Right ▶")
    assert Match.objects.get(pk=match.pk).state["hands"][0][-1] == "T"

    # KUNG FU by keys until a combination scores (a bot may take the face-up
    # card first: the button is offered again at the next one).
    shout = '[data-role="kungfu"] button'

    def scored() -> bool:
        if Match.objects.get(pk=match.pk).state["won"][0]:
            return True
        if page.locator(shout + ":not([disabled])").count():
            with contextlib.suppress(AssertionError):
                tab_to(page, shout)
                page.keyboard.press("Enter")
        return False

    arena.wait_until(scored, timeout=90, interval=1, message="a KUNG FU by keys")
    expect(page.locator(RESULTS)).to_be_visible(timeout=200_000)
    stored = Match.objects.get(pk=match.pk)
    assert stored.status == "finished"
    assert moved("claim:")
