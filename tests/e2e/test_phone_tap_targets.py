"""Phones: checkboxes and the replay slider are 44 px tap targets.

On a 390 px touch screen the native checkbox was 13 px and the replay slider
about 16 px tall: a finger missed them. Each is now a 44 x 44 px (at least)
target, and a tap near its edge still toggles it (or moves the slider).
"""

from __future__ import annotations

from playwright.sync_api import expect

from gameplay import services
from gameplay.services import SeatSpec
from tests.gameplay.conftest import play_to_end

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}
TARGETS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.getClientRects().length)
  .map((el) => {
    const r = el.getBoundingClientRect();
    return {id: el.id || el.name || el.className, width: r.width, height: r.height};
  })"""


def _small(page, selector: str) -> list[dict]:
    found = page.evaluate(TARGETS, selector)
    assert found, f"no {selector} on {page.url}"
    return [t for t in found if t["width"] < 44 or t["height"] < 44]


def test_checkboxes_are_44_px_targets_and_a_tap_at_the_edge_toggles(arena):
    me = arena.player(**PHONE)
    for path in ("/games/duelo/", "/bots/new/"):
        me.page.goto(path)
        assert _small(me.page, "input[type=checkbox]") == [], path
    me.page.goto("/games/duelo/")
    box = me.page.locator("#id_quick_rated")
    box.scroll_into_view_if_needed()
    expect(box).not_to_be_checked()
    r = box.bounding_box()
    # Taps 3 px inside the 44 px target's edges, well off the drawn 24 px box.
    middle = r["y"] + r["height"] / 2
    me.page.touchscreen.tap(r["x"] + 3, middle)
    expect(box).to_be_checked()
    me.page.touchscreen.tap(r["x"] + r["width"] - 3, middle)
    expect(box).not_to_be_checked()
    me.page.touchscreen.tap(r["x"] + r["width"] / 2, r["y"] + 3)
    expect(box).to_be_checked()
    # The menu button is a 44 px target too.
    assert _small(me.page, ".nav-toggle-label") == []


def test_the_replay_slider_is_a_44_px_target(arena):
    me = arena.player(**PHONE)
    rival = arena.create_user()
    match = arena.server_side(
        services.match_create,
        game="duelo",
        seats=[SeatSpec(user=me.user), SeatSpec(user=rival)],
    )
    match = arena.server_side(services.match_start, match_id=match.pk, seed=1)
    arena.server_side(play_to_end, match, [me.user, rival])
    me.page.goto(f"/matches/{match.public_id}/replay/#perspective=full&step=0")
    slider = me.page.locator("[data-role='slider']")
    expect(slider).not_to_have_attribute("max", "0")
    expect(slider).to_have_value("0")
    assert _small(me.page, "[data-role='slider']") == []
    r = slider.bounding_box()
    # A tap near the slider's top edge, three quarters along, moves it there.
    me.page.touchscreen.tap(r["x"] + r["width"] * 0.75, r["y"] + 3)
    expect(slider).not_to_have_value("0")
    assert int(slider.input_value()) > int(slider.get_attribute("max")) // 2
