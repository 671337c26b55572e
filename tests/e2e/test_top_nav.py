"""The top bar fits one row on a 1280 px screen, also when "Your move N" shows.

Measured in the browser: every link of the bar (brand, "Your move", the page
links, notifications, the account links) sits on the same row, at the widest
everyday content (a staff member with a long display name and games waiting).
"""

from __future__ import annotations

from playwright.sync_api import expect

from gameplay import services
from gameplay.services import SeatSpec

DESKTOP = {"width": 1280, "height": 800}
ROWS = """() => {
  const bar = document.querySelector(".topbar");
  const items = [bar.querySelector(".brand"), ...bar.querySelectorAll(
    ".nav-turns:not([hidden]), .nav > *:not(.nav-spacer)")];
  const mids = items.map((el) => {
    const r = el.getBoundingClientRect();
    return Math.round(r.top + r.height / 2);
  });
  return {
    spread: Math.max(...mids) - Math.min(...mids),
    height: Math.round(bar.getBoundingClientRect().height),
    right: Math.max(...items.map((el) => el.getBoundingClientRect().right)),
    items: items.map((el, i) => el.textContent.trim().slice(0, 16) + "@" + mids[i]),
  };
}"""


def _your_move(arena, user, count: int) -> None:
    for _ in range(count):
        match = services.match_create(
            game="duelo",
            seats=[SeatSpec(user=user), SeatSpec(agent="builtin:random")],
            config={"start": 0},
            private_options=True,
        )
        arena.server_side(services.match_start, match_id=match.pk)


def test_the_top_bar_is_one_row_at_1280_px_with_your_move_showing(arena):
    me = arena.player(viewport=DESKTOP)
    me.user.display_name = "Someone with a long name"
    me.user.is_staff = True  # the Admin link too
    me.user.save(update_fields=["display_name", "is_staff"])
    _your_move(arena, me.user, 12)
    me.page.goto("/games/")
    turns = me.page.locator("#nav-turns")
    expect(turns).to_be_visible()
    expect(turns.locator("[data-count]")).to_have_text("12")
    layout = me.page.evaluate(ROWS)
    # One row: every item's middle within a few pixels of the others'.
    assert layout["spread"] <= 8, layout
    assert layout["height"] < 70, layout
    # Nothing of the bar is pushed past the screen's edge.
    assert layout["right"] <= DESKTOP["width"], layout
