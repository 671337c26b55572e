"""A watcher's tournament page follows the tournament live, in a real browser:
when the organiser closes round 1 and round 2 is paired, the watcher's page
shows it without a reload (issue 26, section 4: a watcher's page showed round
1 "in play" five rounds later)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from gameplay import services as gameplay_services
from league.tournaments import services as ts


def test_a_watchers_page_shows_the_next_round_without_a_reload(arena, page):
    boss = arena.player()
    # Services on the server's side of the test (their live update is sent
    # with async_to_sync, which the browser's event loop thread refuses).
    tournament = arena.server_side(
        ts.tournament_create,
        by=boss.user,
        name=arena.unique("Live cup "),
        game="duelo",
        format="swiss",
    )
    for _ in range(4):
        arena.server_side(
            ts.tournament_enter, tournament=tournament, user=arena.create_user()
        )
    arena.server_side(ts.tournament_start, tournament=tournament, by=boss.user)
    url = f"/tournaments/{tournament.slug}/"
    frames = arena.record_frames(page)
    with page.expect_websocket(lambda ws: "/ws/tournaments/" in ws.url) as socket:
        page.goto(url)  # an anonymous watcher
    live = page.locator("#tournament-live")
    expect(live).to_contain_text("Round 1")
    expect(live).to_contain_text("In play")
    expect(live).not_to_contain_text("Round 2")
    page.evaluate("window.__notReloaded = true")
    # The socket is subscribed once the server's opening frame (the
    # tournament's version, sent after joining the group) has arrived.
    if not _opening_frame(frames):
        socket.value.wait_for_event("framereceived", timeout=10000)
    assert _opening_frame(frames), frames
    # The organiser closes round 1 now (nobody moved: both sides forfeit).
    boss.page.goto(url)
    boss.page.get_by_role("button", name="Advance now").click()
    expect(boss.page.locator("body")).to_contain_text("Round 2")
    expect(live.locator("h3", has_text="Round 2")).to_be_visible(timeout=15000)
    expect(live.locator("h3", has_text="Round 1")).to_contain_text("Complete")
    assert page.evaluate("window.__notReloaded") is True


def _opening_frame(frames: list[dict[str, Any]]) -> bool:
    return any(
        frame["direction"] == "received"
        and isinstance(frame["data"], dict)
        and frame["data"].get("type") == "tournament"
        for frame in frames
    )


def test_a_watchers_page_shows_entrants_and_standings_without_a_reload(arena, page):
    boss = arena.player()
    tournament = arena.server_side(
        ts.tournament_create,
        by=boss.user,
        name=arena.unique("Live field "),
        game="duelo",
        format="swiss",
    )
    url = f"/tournaments/{tournament.slug}/"
    page.goto(url)  # an anonymous watcher, during registration
    entrants = page.locator("#tournament-entrants")
    expect(entrants).to_contain_text("No entrants yet.")
    page.evaluate("window.__notReloaded = true")
    expect(page.locator("body[data-live-socket='open']")).to_have_count(1)
    people = [arena.create_user() for _ in range(4)]
    for user in people:
        arena.server_side(ts.tournament_enter, tournament=tournament, user=user)
    expect(entrants.get_by_role("heading")).to_have_text("Entrants (4)")
    for user in people:
        expect(entrants).to_contain_text(user.username)
    # Started: the standings appear, then round 1's results reach them.
    arena.server_side(ts.tournament_start, tournament=tournament, by=boss.user)
    live = page.locator("#tournament-live")
    expect(live.get_by_role("heading", name="Standings")).to_be_visible()
    rows = live.locator("table").first.locator("tbody tr")
    expect(rows).to_have_count(4)
    # Round 1: in each game one player resigns; the results reach the table.
    first_round = tournament.rounds.get(number=1)
    winners = []
    for pairing in first_round.pairings.select_related("match"):
        seats = {s.number: s.user for s in pairing.match.seats.all()}
        winners.append(seats[1].username)
        arena.server_side(
            gameplay_services.match_resign, match_id=pairing.match_id, user=seats[0]
        )
    for name in winners:
        # Columns: rank, points, games (the name cell is not numeric).
        points = rows.filter(has_text=name).locator("td.num").nth(1)
        expect(points).to_have_text("1", timeout=30_000)
    expect(live.locator("h3", has_text="Round 1")).to_contain_text("Complete")
    assert page.evaluate("window.__notReloaded") is True
