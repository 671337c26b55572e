"""Kung Fu (2009) on a phone in Chromium (issue 26 §4): the prompt is pinned at
the bottom of the first screen as in the other games, with KUNG FU in it, so
the shout is one tap away without scrolling; the match clock is in the bar at
the top; and a run of one's own rearrangements takes one line of the log.

One person (390 x 844, touch) with a stacked deal (four Dragons make any easy
combination) and three built-in bots.
"""

from __future__ import annotations

import itertools
import re

from playwright.sync_api import expect

from gameplay import services
from gameplay.models import Match, MatchAction
from gameplay.services import SeatSpec
from tests.e2e.kungfu2009 import shout_until_scored
from tests.e2e.test_kungfu2009_live import stacked

PHONE = {"width": 390, "height": 844}


def in_first_screen(page, locator) -> bool:
    box = locator.bounding_box()
    return (
        box is not None
        and page.evaluate("window.scrollY") == 0
        and box["y"] >= 0
        and box["y"] + box["height"] <= PHONE["height"]
    )


def test_on_a_phone_kungfu_is_on_the_first_screen_and_moves_fold_in_the_log(arena):
    person = arena.player(viewport=PHONE, is_mobile=True, has_touch=True)
    match = arena.server_side(
        services.match_create,
        game="kungfu2009",
        seats=[
            SeatSpec(user=person.user),
            SeatSpec(agent="builtin:heuristic"),
            SeatSpec(agent="builtin:heuristic"),
            SeatSpec(agent="builtin:random"),
        ],
        config={
            "deck": stacked(["DDDDT", "MCRTM", "CRTMC", "RTMCR"]),
            "minutes": 5,
        },
        private_options=True,
    )
    arena.server_side(services.match_start, match_id=match.pk)
    page = person.page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/matches/{match.public_id}/")
    expect(page.locator("[data-role='connection']")).to_contain_text("Connected")

    # The first screen, unscrolled: the clock at the top, the pinned prompt with
    # KUNG FU and the impasse vote at the bottom.
    # The prompt grows as claims appear (bots trade and shout meanwhile), so each
    # is checked once the layout has settled, within a bounded wait.
    kungfu = page.locator('[data-role="kungfu"] button').first
    expect(kungfu).to_be_visible(timeout=15_000)
    clock = page.locator("[data-role='match-clock']")
    vote = page.locator('[data-role="prompt"] [data-action="impasse"]')
    expect(vote).to_be_visible()

    # The pinned prompt is at most a third of the screen and scrolls by itself
    # when much waits (three KUNG FU claims wrap to two rows): a control in it
    # counts once it shows after scrolling the prompt alone, never the page.
    def shown(locator, pinned: bool) -> bool:
        if pinned:
            locator.evaluate("(el) => el.scrollIntoView({block: 'nearest'})")
        return in_first_screen(page, locator)

    for name, locator, pinned in (
        ("KUNG FU", kungfu, True),
        ("clock", clock, False),
        ("vote", vote, True),
    ):
        arena.wait_until(
            lambda locator=locator, pinned=pinned: shown(locator, pinned),
            timeout=5,
            message=f"the {name} on the first screen",
        )
    prompt = page.locator('[data-role="prompt"]')
    assert prompt.evaluate("(el) => getComputedStyle(el).position") == "fixed"
    shout_until_scored(arena, page, match_pk=match.pk)

    # Three rearrangements in a row: one line of the log, not three.
    cards = page.locator('[data-role="my-hand"] [data-index]')
    expect(page.locator("#kfa-board.kf09-paused")).to_have_count(0, timeout=30_000)
    expect(cards).to_have_count(5, timeout=30_000)

    def moves() -> int:
        return MatchAction.objects.filter(
            match=match, seat=0, action_id__startswith="move:"
        ).count()

    # A bot's claim can pause the game or re-deal the hands between the two taps
    # (the first card's selection then rightly lapses): such a pair is tapped
    # again, a bounded number of times.
    paused = page.locator("#kfa-board.kf09-paused")
    made = 0
    for _attempt in range(8):
        if made == 3:
            break
        before = moves()
        expect(paused).to_have_count(0, timeout=30_000)
        cards.nth(0).tap()
        cards.nth(3).tap()
        try:
            arena.wait_until(
                lambda before=before: moves() > before, timeout=10, message="a move"
            )
        except AssertionError:
            continue
        made += 1
    assert made == 3, f"{made} of 3 moves made by tapping"
    log = page.locator('[data-role="log"] li')
    expect(log.filter(has_text="Your hand, left to right")).not_to_have_count(0)
    lines = log.all_inner_texts()
    mine = ["Your hand, left to right" in line for line in lines]
    runs = [k for k, (a, b) in enumerate(itertools.pairwise(mine)) if a and b]
    assert runs == [], lines
    hand = Match.objects.get(pk=match.pk).state["hands"][0]
    names = {"T": "Tiger", "M": "Monkey", "C": "Crab", "R": "Crane", "D": "Dragon"}
    last = [x for x in lines if "Your hand, left to right" in x][-1]
    assert re.search(", ".join(names[c] for c in hand), last), (last, hand)
    assert errors == []
