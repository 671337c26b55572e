"""Kung Fu (2013)'s full game in the browser: open a table from the game's page,
seat a built-in bot, play by clicking what the board offers, see the result.

Follows tests/e2e/test_duelo_full_game.py: the person uses only the page, the
bot moves through the real worker, and the stored match ends finished.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from gameplay.models import Match, MatchStatus
from gameplay.services import SeatSpec

MATCH_URL = re.compile(r"/matches/([0-9a-f-]{36})/$")
CHOICES = (
    "#kfa-board button.choice:not([disabled]), #kfa-board .kcard-choice:not([disabled])"
)
CONFIRM = "dialog[data-role='confirm'][open] [data-role='confirm-ok']"
RESULTS = "[data-role='results']"


def test_a_full_kungfu2013_game_against_a_bot_by_clicking(arena):
    me = arena.player()
    page = me.page
    page.goto("/games/kungfu2013/")
    form = page.locator("form[action$='/tables/']")
    form.locator("input[name='opt_life']").fill("5")
    form.get_by_role("button", name="Open table").click()
    expect(page).to_have_url(MATCH_URL)
    public_id = MATCH_URL.search(page.url).group(1)
    page.locator("select[name='bot']").select_option("heuristic")
    page.get_by_role("button", name="Seat a bot").click()
    expect(page.locator("#kfa-board")).to_be_visible()
    expect(page.locator("[data-role='connection']")).to_contain_text("Connected")
    # The board shows both life totals, the two decks and the opponent's hand.
    expect(page.locator("[data-role='deck-red']")).to_be_visible()
    expect(page.locator("[data-role='deck-blue']")).to_be_visible()
    expect(page.locator("[data-role='life-0']").first).to_contain_text("5")

    results = page.locator(RESULTS)
    deadline = time.monotonic() + 300
    clicks = 0
    while not results.is_visible():
        assert time.monotonic() < deadline, f"no result after {clicks} clicks"
        assert clicks < 800, "the game did not end"
        page.locator(
            f"{CHOICES}, {RESULTS}:not([hidden]), dialog[data-role='confirm'][open]"
        ).first.wait_for(timeout=60_000)
        if page.locator(CONFIRM).count():
            page.locator(CONFIRM).click()
            continue
        choice = page.locator(CHOICES).first
        if not choice.count():
            continue
        try:
            # Near the top left: the overlapped cards of a long hand row show
            # only that strip (the next card lies over the rest).
            choice.click(timeout=2000, position={"x": 12, "y": 12})
            clicks += 1
        except Exception:  # the board redrew under the click (the bot moved)
            continue

    assert clicks > 0
    expect(results).to_contain_text(re.compile(r"win|draw", re.I))
    match = arena.wait_until(
        lambda: Match.objects.filter(
            public_id=public_id, status=MatchStatus.FINISHED
        ).first(),
        message="the match to be stored as finished",
    )
    assert match.game == "kungfu2013" and match.result["winners"]
    assert match.actions.filter(seat=0).exists()
    assert page.locator("[data-role='log'] li").count() > 5


def test_the_kungfu2013_pages_fit_a_390_px_phone(arena):
    from gameplay import services
    from gameplay.services import SeatSpec

    from .test_narrow_screens import OVERFLOW, PHONE

    me = arena.player(viewport=PHONE)
    live = services.match_create(
        game="kungfu2013",
        seats=[SeatSpec(user=me.user), SeatSpec(agent="builtin:random")],
        config={"start": 0},
        private_options=True,
    )
    arena.server_side(services.match_start, match_id=live.pk)
    too_wide = []
    for url in (
        f"/matches/{live.public_id}/",
        "/games/kungfu2013/",
        "/games/kungfu2013/rules/",
    ):
        assert me.page.goto(url).ok, url
        me.page.wait_for_load_state("networkidle")
        found = me.page.evaluate(OVERFLOW)
        if found["over"] > 0:
            too_wide.append(f"{url}: {found['over']} px too wide, {found['widest']}")
    assert not too_wide, "\n".join(too_wide)
    # The live table shows the hand as buttons at this width too.
    me.page.goto(f"/matches/{live.public_id}/")
    expect(me.page.locator("[data-role='my-hand']")).to_be_visible()


def _big_hand_battle(arena, me, size: int = 19):
    """A live match where ``me`` (seat 0) holds ``size`` cards or more and a
    battle is on the table with both values shown: both players first pass the
    initiative back and forth (the passer draws three), then seat 0 keeps it
    and they fight until a battle waits for a decision after the block."""
    from gameplay import services
    from gameplay.rules import get_game

    engine = get_game("kungfu2013")
    rival = arena.player().user
    live = services.match_create(
        game="kungfu2013",
        seats=[SeatSpec(user=me.user), SeatSpec(user=rival)],
        config={"start": 0},
        private_options=True,
    )
    arena.server_side(services.match_start, match_id=live.pk)
    users = {0: me.user, 1: rival}
    for _ in range(500):
        live.refresh_from_db()
        state = live.state
        big = len(state["hands"][0]) >= size
        battle = state["b"]
        if big and battle["blocked"] and battle["ac"] and state["phase"] != "over":
            return live
        seat = engine.actors(state)[0]
        ids = engine.legal_action_ids(state, seat)
        action = ids[0]
        if not big and "initiative:pass" in ids:
            action = "initiative:pass"
        arena.server_side(
            services.match_act, match_id=live.pk, user=users[seat], action_id=action
        )
    raise AssertionError("no battle with a big hand")


HAND_LAYOUT = """() => {
  const hand = document.querySelector("[data-role='my-hand']");
  const cards = [...hand.querySelectorAll(".kcard")];
  // Each card's value (top left) is in sight: the topmost element there is
  // that card (or inside it), not a neighbour lying over it.
  // (Each card scrolled to the top first: on a phone your prompt is a sheet
  // over the bottom of the screen.)
  const hidden = cards.filter((card) => {
    card.scrollIntoView({block: "start"});
    const r = card.querySelector(".kcard-focus").getBoundingClientRect();
    const top = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
    return !top || !card.contains(top);
  }).map((card) => card.dataset.code);
  const box = hand.getBoundingClientRect();
  const rows = new Set(cards.map((c) => Math.round(c.getBoundingClientRect().top)));
  return {cards: cards.length, height: box.height, lines: rows.size,
          cardHeight: cards[0].getBoundingClientRect().height, hidden: hidden};
}"""

VALUE_TAGS = """() => {
  const rgb = (text) => text.match(/[0-9.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = c.map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const area = document.querySelector("[data-role='battle']");
  return [...document.querySelectorAll("[data-role='battle'] .badge")].map((tag) => {
    tag.scrollIntoView({block: "center"});
    const r = tag.getBoundingClientRect();
    const battle = area.getBoundingClientRect();
    const style = getComputedStyle(tag);
    const [l1, l2] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const inside = r.top >= battle.top && r.bottom <= battle.bottom
      && r.left >= battle.left && r.right <= battle.right;
    const cut = tag.scrollWidth > tag.clientWidth
      || tag.scrollHeight > tag.clientHeight;
    return {text: tag.textContent, inside: inside, cut: cut,
            covered: !top || !tag.contains(top),
            contrast: (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05)};
  });
}"""


@pytest.mark.parametrize(
    "viewport, max_lines",
    [({"width": 1280, "height": 900}, 2), ({"width": 390, "height": 844}, 4)],
    ids=["desktop", "phone"],
)
def test_a_big_hand_stays_compact_and_the_value_tags_show(arena, viewport, max_lines):
    # Issue 26: a 19-card hand wrapped three cards a row (the page 2,300 px
    # tall), and the battle's "Value" tags were hard to read.
    from .test_narrow_screens import OVERFLOW

    me = arena.player(viewport=viewport)
    live = _big_hand_battle(arena, me)
    me.page.goto(f"/matches/{live.public_id}/")
    me.page.locator("[data-role='battle'] .badge").first.wait_for()
    layout = me.page.evaluate(HAND_LAYOUT)
    assert layout["cards"] >= 19
    # One row per colour, wrapped at most once more on a phone.
    assert layout["lines"] <= max_lines, layout
    assert layout["height"] <= max_lines * (layout["cardHeight"] + 12) + 24, layout
    assert layout["hidden"] == [], layout
    assert me.page.evaluate(OVERFLOW)["over"] <= 0
    tags = me.page.evaluate(VALUE_TAGS)
    assert len(tags) == 2, tags
    for tag in tags:
        assert tag["text"].startswith("Value ")
        assert tag["inside"] and not tag["cut"] and not tag["covered"], tag
        assert tag["contrast"] >= 4.5, tag
    # A card in the middle of the overlapped row is still whole on hover.
    # (Scrolled to the top first, as above: on a phone the value tags were
    # last centred and the card can lie under the prompt's sheet or below the
    # screen, where elementFromPoint finds nothing.)
    card = me.page.locator("[data-role='hand-red'] .kcard").nth(1)
    card.evaluate("(el) => el.scrollIntoView({block: 'start'})")
    card.hover(position={"x": 12, "y": 40})  # on its visible strip
    box = card.bounding_box()
    size = me.page.viewport_size
    point = [box["x"] + box["width"] - 8, box["y"] + box["height"] / 2]
    assert 0 <= point[0] < size["width"] and 0 <= point[1] < size["height"], box
    top = me.page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('.kcard')"
        "?.dataset.code ?? null",
        point,
    )
    assert top == card.get_attribute("data-code")
