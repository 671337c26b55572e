"""The Kung Fu (2009) board in Chromium, on engine frames, at 1280 and 390 px.

The board is drawn on the frames of tests/frontend/fixtures/kungfu2009.json
(every situation, without playing to it) in a page served from the platform's
origin (the live table is tests/e2e/test_kungfu2009_live.py): the real static
files (common.js, the card list, the board script, board.css and the game's
CSS) over the real server. What is checked is what node's test DOM cannot: the
page does not scroll sideways on a desktop or a phone, the style pictures load,
and real drag and drop, taps and keys send the intents the board promises.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.a11y import assert_accessible_in_both_schemes
from tests.e2e.test_narrow_screens import OVERFLOW

FIXTURE = (
    Path(__file__).resolve().parents[1] / "frontend" / "fixtures" / "kungfu2009.json"
)
FRAMES = json.loads(FIXTURE.read_text())["seat_frames"]
WIDTHS = ({"width": 1280, "height": 900}, {"width": 390, "height": 844})

HARNESS = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Kung Fu (2009) board</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/arena.css">
<link rel="stylesheet" href="/static/css/board.css">
<link rel="stylesheet" href="/static/css/boards/kungfu2009.css"></head>
<body><main class="container">
<section class="kfa-board" id="kfa-board">
 <div class="board-bar"><span class="board-round" data-role="round"></span></div>
 <div class="board-main">
  <div class="board-table">
   <div class="board-opponents" data-role="opponents"></div>
   <div class="board-center" data-role="center"></div>
   <div class="board-you" data-role="you" hidden></div>
  </div>
  <aside class="board-side">
   <div class="board-prompt" data-role="prompt">
    <p class="prompt-text" data-role="status"></p></div>
   <section class="board-log"><h2>Game log</h2>
    <ol class="log" data-role="log"></ol></section>
  </aside>
 </div>
 <details class="card-reference"><summary>The styles</summary>
  <div data-role="card-reference"></div></details>
</section></main>
<script type="module">
  import * as B from "/static/js/boards/kungfu2009.js";
  const root = document.getElementById("kfa-board");
  window.acts = []; window.plans = [];
  window.show = (frame) => {
    B.renderBoard(root, B.boardModel(frame, {}), {
      onAct: (a) => window.acts.push(a.id),
      onPlan: (ids) => window.plans.push(ids),
    });
  };
  B.renderCardReference(root.querySelector('[data-role="card-reference"]'));
</script></body></html>"""


@pytest.fixture
def board(new_context, e2e_server):
    """Open the harness at a viewport; show(frame key) draws that frame."""

    def open_at(viewport: dict) -> object:
        page = new_context(viewport=viewport).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        url = e2e_server.base_url + "/kf09-board-harness/"
        page.route(
            url, lambda route: route.fulfill(body=HARNESS, content_type="text/html")
        )
        page.goto(url)
        page.errors = errors

        def show(key: str) -> None:
            page.evaluate(
                "(f) => { acts.length = 0; plans.length = 0; show(f); }", FRAMES[key]
            )

        page.show = show
        return page

    return open_at


@pytest.mark.parametrize("viewport", WIDTHS, ids=["1280", "390"])
def test_every_situation_fits_the_screen_and_draws_its_pictures(board, viewport):
    page = board(viewport)
    for key in sorted(FRAMES):
        page.show(key)
        over = page.evaluate(OVERFLOW)
        assert over["over"] <= 0, (key, viewport, over["widest"])
        if key == "paused":
            # The greyed board of a claim check keeps every text readable
            # (a faded board once dropped the gold turn badge to 3.9:1).
            assert_accessible_in_both_schemes(page, f"2009 paused at {viewport}")
    assert page.errors == []
    page.show("play")
    image = page.evaluate(
        "getComputedStyle(document.querySelector('.kf09-hit-icon')).backgroundImage"
    )
    assert image.startswith('url("data:image/svg+xml'), image
    # The pictures are drawn at their size (an SVG that failed to parse is blank
    # but sized; a missing rule leaves the span without a size).
    box = page.locator(".kf09-hand .kf09-hit-icon").first.bounding_box()
    assert box and box["width"] >= 24 and box["height"] >= 24


def test_drag_and_drop_arranges_the_hand_and_fills_the_offer(board):
    # Tall enough that the hand and the composer are on screen together: a
    # synthetic drag does not scroll the page as a person's does.
    page = board({"width": 1280, "height": 1400})
    page.show("play")
    cards = page.locator('[data-role="my-hand"] [data-index]')
    cards.nth(3).drag_to(cards.nth(0))
    assert page.evaluate("acts") == ["move:3:0"]
    page.show("play")
    cards = page.locator('[data-role="my-hand"] [data-index]')
    cards.nth(1).drag_to(page.locator('[data-role="give-zone"]'))
    assert page.locator('[data-role="give-zone"] .kf09-given').count() == 1
    hand = FRAMES["play"]["view"]["hand"]
    page.locator('[data-role="composer"] [data-partner="all"]').click()
    page.locator('[data-role="composer"] [data-want="D"]').click()
    # The offer composer half way through a trade passes axe in both schemes.
    assert_accessible_in_both_schemes(page, "2009's offer composer mid-trade")
    page.locator('[data-role="send-offer"]').click()
    assert page.evaluate("plans") == [["to:all", "give:" + hand[1], "want:D", "send"]]
    assert page.errors == []


def test_on_a_phone_taps_and_keys_arrange_and_one_tap_accepts(board):
    page = board(WIDTHS[1])
    page.show("play")
    cards = page.locator('[data-role="my-hand"] [data-index]')
    cards.nth(0).click()
    page.locator('[data-role="my-hand"] [data-index]').nth(2).click()
    assert page.evaluate("acts")[-1] == "move:0:2"
    page.show("play")
    page.locator('[data-role="my-hand"] [data-index]').nth(1).focus()
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("acts") == ["move:1:0"]
    page.show("play")
    accept = page.locator('[data-role="offers-to-me"] .kf09-accept')
    assert accept.is_visible()
    accept.click()
    assert page.evaluate("acts")[0].startswith("accept:")
    page.show("ready")
    kungfu = page.locator('[data-role="kungfu"] button')
    assert kungfu.is_visible()
    kungfu.click()
    assert page.evaluate("acts")[0].startswith("claim:")
    assert page.errors == []


@pytest.mark.parametrize("viewport", WIDTHS, ids=["1280", "390"])
def test_the_offers_take_out_button_sits_beside_its_card(board, viewport):
    """Issue 26 §4: the composer's take-out button sat at the page's top right
    (over the site's "Sign out"): it is drawn beside the card it takes out."""
    page = board(viewport)
    page.show("play")
    page.locator('[data-role="my-hand"] [data-index]').nth(1).click()
    page.locator('[data-role="give-selected"]').click()
    given = page.locator('[data-role="give-zone"] .kf09-given')
    x = given.locator("button.kf09-take-out")
    x.scroll_into_view_if_needed()
    box, card = x.bounding_box(), given.bounding_box()
    assert box and card
    inside = (
        card["x"] <= box["x"]
        and box["x"] + box["width"] <= card["x"] + card["width"] + 1
        and card["y"] <= box["y"]
        and box["y"] + box["height"] <= card["y"] + card["height"] + 1
    )
    assert inside, (box, card)
    assert box["width"] >= 24 and box["height"] >= 24
    x.click()
    assert given.count() == 0
    assert page.errors == []
