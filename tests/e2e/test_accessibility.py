"""axe-core on every page the browser tests visit, in both colour schemes.

The pages are the narrow-screen test's set with real content (a signed-in
player with a bot, a league and season, a tournament, a waiting table, a
finished game's replay), plus, for each of the four games, a live table the
player sits at, a bots' table watched, a finished game's replay, the lobby and
the rules, a few more pages other tests open (connected bots, community
standing, vacation), and the pages a visitor sees. axe-core
(tests/e2e/a11y.py) checks each, once with ``prefers-color-scheme: light`` and
once with ``dark``: no serious or critical violation, text contrast (WCAG 2.2
AA) included.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from gameplay import services
from gameplay.models import Match
from gameplay.services import SeatSpec
from tests.e2e import conftest as e2e_conftest
from tests.e2e.a11y import (
    assert_accessible_in_both_schemes,
    axe_failures,
    axe_report,
    url_pattern,
)
from tests.e2e.conftest import _axe_at_end
from tests.e2e.test_narrow_screens import ANONYMOUS, _content

GAMES = {
    "duelo": ({}, 2),
    "kungfu2009": ({}, 3),
    "kungfu2013": ({"life": 5}, 2),
    "kungfu2019": ({"players": 3, "draft": False}, 3),
}
#: A bots' game of Kung Fu (2009) runs to its time limit: its table is watched
#: live rather than replayed.
REPLAYED = ("duelo", "kungfu2013", "kungfu2019")
SCHEMES = ("light", "dark")
#: Pages other browser tests visit that the narrow-screen set has not. The API
#: docs (Swagger UI) are checked as drawn; their open states in
#: test_the_api_docs_pass_axe_open_tried_and_in_their_dialog.
MORE = {
    "connected bots": "/bots/connected/",
    "community standing": "/community/standing/",
    "vacation": "/vacation/",
    "API docs": "/api/docs/",
}


def _games(arena, user) -> tuple[dict[str, str], dict[str, str], list[int]]:
    """For every game: a live table ``user`` sits at, a bots' table, the lobby
    and the rules; then the replays of the bots' games (once they finish)."""
    pages: dict[str, str] = {}
    replays: dict[str, str] = {}
    pending: list[int] = []
    for game, (config, players) in GAMES.items():
        bots = [SeatSpec(agent="builtin:random") for _ in range(players - 1)]
        live = arena.server_side(
            services.match_create,
            game=game,
            seats=[SeatSpec(user=user), *bots],
            config=dict(config),
        )
        arena.server_side(services.match_start, match_id=live.pk)
        done = arena.server_side(
            services.match_create,
            game=game,
            seats=[SeatSpec(agent="builtin:random") for _ in range(players)],
            config=dict(config),
        )
        arena.server_side(services.match_start, match_id=done.pk)
        pages[f"{game} live"] = f"/matches/{live.public_id}/"
        pages[f"{game} bots' table"] = f"/matches/{done.public_id}/"
        pages[f"{game} rules"] = f"/games/{game}/rules/"
        pages[f"{game} lobby"] = f"/games/{game}/"
        if game in REPLAYED:
            pending.append(done.pk)
            replays[f"{game} replay"] = f"/matches/{done.public_id}/replay/"
    return pages, replays, pending


def _sweep(viewer, urls: dict[str, str]) -> list[str]:
    failures: list[str] = []
    for name, url in urls.items():
        response = viewer.goto(url)
        assert response.ok, f"{name} ({url}) answered {response.status}"
        viewer.wait_for_load_state("load")
        if url == "/api/docs/":  # drawn by its script once the schema loads
            viewer.locator("#swagger-ui .opblock").first.wait_for()
        for scheme in SCHEMES:
            # Without motion: a move's fade-in caught half way is no colour
            # anybody is left reading.
            viewer.emulate_media(color_scheme=scheme, reduced_motion="reduce")
            failures += [
                f"{name} ({url}, {scheme}): {line}" for line in axe_failures(viewer)
            ]
    return failures


@pytest.mark.slow  # about 4 min: CI's second pass runs it (docs/testing.md)
@pytest.mark.timeout(600)
def test_axe_finds_no_serious_violation_on_any_page_in_either_scheme(
    arena, new_context
):
    started = time.monotonic()
    me = arena.player()
    games, replays, pending = _games(arena, me.user)
    pages = {**_content(arena, me.user), **MORE, **games}
    visitor = new_context().new_page()
    failures = _sweep(me.page, pages) + _sweep(visitor, ANONYMOUS)

    def unfinished() -> list[str]:
        return [m.game for m in Match.objects.filter(pk__in=pending) if not m.is_over]

    arena.wait_until(lambda: not unfinished(), timeout=120, message="bots' games")
    failures += _sweep(me.page, replays)
    assert not failures, f"{len(failures)} axe findings:\n" + "\n".join(failures)
    print(
        f"axe: {len(pages) + len(ANONYMOUS) + len(replays)} pages in "
        f"{time.monotonic() - started:.0f} s"
    )


@pytest.mark.axe_at_end(False)  # the page is broken on purpose
def test_the_axe_check_can_fail(arena, page, request):
    """The check itself: a page with an unlabelled button and grey-on-white
    text is reported, by axe and by the check every browser test ends with;
    the dark scheme really changes the page's colours."""
    page.goto("/")
    background = "() => getComputedStyle(document.documentElement).backgroundColor"
    page.emulate_media(color_scheme="light")
    light = page.evaluate(background)
    page.emulate_media(color_scheme="dark")
    assert page.evaluate(background) != light
    page.emulate_media(color_scheme="light")
    page.evaluate(
        "() => { const m = document.querySelector('main');"
        " m.insertAdjacentHTML('beforeend', '<button id=x></button>"
        '<p style="color:#ccc;background:#fff">faint</p>\'); }'
    )
    ids = {v["id"] for v in axe_report(page)}
    assert {"button-name", "color-contrast"} <= ids
    assert any("button-name" in line for line in axe_failures(page))
    # The check at every browser test's end (conftest.py) fails on it too and
    # names the page: every rule in the light scheme, contrast in the dark.
    with pytest.raises(AssertionError) as caught:
        _axe_at_end(request.node, [page.context], arena.base_url)
    found = str(caught.value)
    assert "/ at the test's end (light): [critical] button-name" in found
    assert "/ at the test's end (dark): [serious] color-contrast" in found
    assert "(dark): [critical] button-name" not in found


def test_the_check_at_the_end_runs_once_per_page_state(
    arena, page, request, monkeypatch
):
    """A page whose state already passed this session is left out; the same
    page with another kind of element on it, or asked for ``every`` page, is
    checked again (conftest._axe_at_end, a11y.page_state)."""
    monkeypatch.setattr(e2e_conftest, "AXE_EVERY_PAGE", False)
    cost = e2e_conftest._axe_cost
    page.goto("/")

    def check(**kwargs) -> tuple[float, float]:
        before = (cost["pages"], cost["seen"])
        _axe_at_end(request.node, [page.context], arena.base_url, **kwargs)
        return cost["pages"] - before[0], cost["seen"] - before[1]

    check()  # checked, or seen if an earlier test left this state
    assert check() == (0, 1)
    page.evaluate(
        "() => document.querySelector('main').insertAdjacentHTML("
        "'beforeend', '<p class=\"kfa-another-kind\">another kind</p>')"
    )
    assert check() == (1, 0)
    assert check() == (0, 1)
    assert check(every=True) == (1, 0)


def test_a_pages_url_pattern_leaves_out_what_names_one_row():
    assert url_pattern("http://h/matches/12/replay/?seat=1") == (
        "/matches/<n>/replay/?seat=<n>"
    )
    assert url_pattern("http://h/players/user4242x17/") == "/players/<n>/"
    assert url_pattern("http://h/games/kungfu2013/?b=2&a=x") == (
        "/games/kungfu2013/?a=x&b=<n>"
    )


def test_the_api_docs_pass_axe_open_tried_and_in_their_dialog(arena):
    """drf-spectacular's Swagger UI with the project's settings and CSS
    (static/css/api-docs.css, static/js/api-docs.js): as drawn, with
    operations open and a request tried, and with the Authorize dialog open.
    Everything by keyboard: the operations are buttons, no link inside them."""
    me = arena.player()
    page = me.page
    page.goto("/api/docs/")
    operations = page.locator("#swagger-ui .opblock-summary-control")
    operations.first.wait_for()
    assert page.locator(".opblock-summary-control a[href]").count() == 0
    assert_accessible_in_both_schemes(page, "the API docs")
    # Open the first GET operation by keyboard and try it.
    get = page.locator(".opblock-get .opblock-summary-control").first
    get.focus()
    page.keyboard.press("Enter")
    expect(get).to_have_attribute("aria-expanded", "true")
    page.get_by_role("button", name="Try it out").first.focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Execute").first.focus()
    page.keyboard.press("Enter")
    expect(
        page.locator(".live-responses-table .response-col_status").first
    ).to_be_visible()
    # A POST opened too: its example body and parameters.
    page.locator(".opblock-post .opblock-summary-control").first.click()
    expect(page.locator(".opblock-post .opblock-body").first).to_be_visible()
    assert_accessible_in_both_schemes(page, "the API docs, operations open")
    page.get_by_role("button", name="Authorize").first.click()
    dialog = page.locator(".modal-ux")
    expect(dialog).to_be_visible()
    # Its close button (an icon alone in Swagger) is named by static/js/api-docs.js.
    expect(dialog.locator("button.close-modal")).to_have_attribute(
        "aria-label", "Close"
    )
    assert_accessible_in_both_schemes(page, "the API docs' Authorize dialog")
