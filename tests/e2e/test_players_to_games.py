"""Bringing players to their games, in real browsers against the real server:
an accepted challenge takes the challenger's open page to the game, the
navigation badge counts games waiting for your move (live), notifications
arrive (in-site and through the browser's Notification API), and a waiting
table updates over its socket without reloading."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

from django.db import connection
from playwright.sync_api import expect

from gameplay import lobby, services
from gameplay.models import Match, MatchStatus
from gameplay.rules import get_game

MATCH_URL = re.compile(r"/matches/[0-9a-f-]{36}/$")


def server_side(fn, /, *args, **kwargs):
    """Call a service as the server would, off Playwright's event-loop thread.

    Services push to sockets after their commit with ``async_to_sync``, which
    refuses to run on a thread with a running loop (Playwright's sync API).
    """

    def run():
        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def _socket_open(page) -> None:
    """Wait until the page's player socket said hello (it is listening)."""
    page.wait_for_function(
        "async () => (await import('/static/js/player-socket.js')).pageState?.live"
    )


def test_a_challenge_accepted_takes_the_challenger_to_the_game(arena):
    challenger, challenged = arena.player(), arena.player()
    frames = arena.record_frames(challenged.page)
    challenged.page.goto("/games/")
    _socket_open(challenged.page)
    expect(challenged.page.locator("#nav-unread")).to_be_hidden()

    challenger.page.goto("/games/duelo/")
    challenger.page.get_by_label("Player to challenge").fill(challenged.user.username)
    challenger.page.get_by_role("button", name="Send challenge").click()
    expect(challenger.page.get_by_text("Challenge sent to")).to_be_visible()

    # The challenged player's open page hears of it live: badge, menu, toast.
    expect(challenged.page.locator("#nav-unread")).to_have_text("1")
    expect(challenged.page.locator(".player-toast")).to_contain_text(
        f"{challenger.user.public_name} challenges you"
    )
    challenged.page.locator("#notif-menu summary").click()
    expect(challenged.page.locator("#notif-list .notif-item").first).to_contain_text(
        f"{challenger.user.public_name} challenges you"
    )
    assert any(
        isinstance(f["data"], dict)
        and f["data"].get("type") == "notification"
        and f["url"].endswith("/ws/me/")
        for f in frames
    )

    # The challenger waits on the game page; the challenged follows the
    # notification there and accepts.
    _socket_open(challenger.page)
    challenged.page.locator("#notif-list .notif-item a").first.click()
    expect(challenged.page).to_have_url(re.compile(r"/games/duelo/#challenges$"))
    challenged.page.locator("#challenges").get_by_role("button", name="Accept").click()
    expect(challenged.page).to_have_url(MATCH_URL)
    # Nobody touched the challenger's page: the socket took it to the game.
    expect(challenger.page).to_have_url(challenged.page.url)
    # The "game started" notice is settled by being at the game (the bell
    # counts what needs attention, docs/notifications.md): no badge.
    expect(challenger.page.locator("#nav-unread")).to_be_hidden()
    public_id = challenger.page.url.rstrip("/").split("/")[-1]
    match = Match.objects.get(public_id=public_id)
    assert match.status == MatchStatus.ACTIVE
    assert {s.user_id for s in match.seats.all()} == {
        challenger.user.pk,
        challenged.user.pk,
    }


def _start(users) -> Match:
    match = services.match_create(
        game="duelo", seats=[services.SeatSpec(user=u) for u in users]
    )
    return server_side(services.match_start, match_id=match.pk)


def _mover(match: Match) -> int:
    match.refresh_from_db()
    return get_game(match.game).actors(match.state)[0]


def test_the_badge_counts_games_waiting_for_your_move_live(arena):
    me, rival_a, rival_b = arena.player(), arena.create_user(), arena.create_user()
    first = _start([me.user, rival_a])
    second = _start([me.user, rival_b])
    waiting = sum(_mover(m) == 0 for m in (first, second))
    me.page.goto("/leagues/")
    badge = me.page.locator("#nav-turns")
    if waiting:
        expect(badge).to_be_visible()
        expect(badge.locator("[data-count]")).to_have_text(str(waiting))
    else:
        expect(badge).to_be_hidden()
    _socket_open(me.page)
    # Play moves in both games until each waits for me: the badge follows live.
    users = {0: me.user}
    for match, rival in ((first, rival_a), (second, rival_b)):
        users[1] = rival
        while _mover(match) != 0:
            seat = _mover(match)
            action = get_game("duelo").legal_action_ids(match.state, seat)[0]
            server_side(
                services.match_act,
                match_id=match.pk,
                user=users[seat],
                action_id=action,
            )
    expect(badge.locator("[data-count]")).to_have_text("2")
    expect(badge).to_be_visible()
    # The home page lists both, marked as my move, with links.
    me.page.goto("/")
    games = me.page.locator("#your-games")
    expect(games.locator("tr.your-move")).to_have_count(2)
    for match in (first, second):
        expect(games.locator(f'a[href="/matches/{match.public_id}/"]')).to_be_visible()
    # A move in one game takes it off the badge and the list without a reload.
    _socket_open(me.page)
    me.page.evaluate("() => { window.__sameDocument = true; }")
    first.refresh_from_db()
    action = get_game("duelo").legal_action_ids(first.state, 0)[0]
    server_side(services.match_act, match_id=first.pk, user=me.user, action_id=action)
    if _mover(first) != 0:
        expect(badge.locator("[data-count]")).to_have_text("1")
        expect(games.locator("tr.your-move")).to_have_count(1)
    # Resigning the other ends it: off the badge, "Over" in the list.
    server_side(services.match_resign, match_id=second.pk, user=me.user)
    row = games.locator(f'tr[data-match="{second.public_id}"]')
    expect(row.locator("[data-turn]")).to_have_text("Over")
    expect(badge.locator("[data-count]")).to_have_text(
        "0" if _mover(first) != 0 else "1"
    )
    assert me.page.evaluate("() => window.__sameDocument") is True


def test_browser_notification_when_allowed_and_away(arena):
    me = arena.player()
    rival = arena.create_user()
    # A stand-in for the browser's Notification: records what the page shows.
    me.context.add_init_script(
        """
        window.__shown = [];
        window.Notification = function (title, options) {
          window.__shown.push({title: title, body: options.body, tag: options.tag});
        };
        window.Notification.permission = "default";
        window.Notification.requestPermission = function () {
          window.Notification.permission = "granted";
          return Promise.resolve("granted");
        };
        document.hasFocus = function () { return false; };
        """
    )
    me.page.goto("/notifications/")
    _socket_open(me.page)
    main = me.page.get_by_role("main")
    button = main.get_by_role("button", name="Notify me in this browser")
    expect(button).to_be_visible()
    button.click()
    expect(main.get_by_text("Browser notifications are on")).to_be_visible()
    expect(button).to_be_hidden()
    server_side(
        lobby.challenge_create, challenger=rival, challenged=me.user, game="duelo"
    )
    me.page.wait_for_function("() => window.__shown.length === 1")
    shown = me.page.evaluate("() => window.__shown[0]")
    assert shown["title"] == f"{rival.public_name} challenges you to Duelo: Kung Fu"
    assert shown["tag"].startswith("kfa-")


def test_the_waiting_table_updates_without_reload(arena):
    host, guest = arena.player(), arena.create_user()
    table = lobby.table_create(host=host.user, game="duelo", players=3)
    host.page.goto(f"/matches/{table.public_id}/")
    seats = host.page.locator("#table-seats")
    expect(seats.locator("tr")).to_have_count(3)
    # Choose a bot strength, and mark the page: a reload would lose both.
    bot = host.page.locator('select[name="bot"]')
    bot.select_option("heuristic")
    host.page.evaluate("() => { window.__sameDocument = true; }")
    # The first frame of the table's socket fills the status line: it listens.
    expect(host.page.locator("#table-status")).to_have_text("1 of 3 seats taken.")
    server_side(lobby.table_join, match_id=table.pk, user=guest)
    expect(seats).to_contain_text(guest.public_name)
    expect(host.page.locator("#table-status")).to_have_text("2 of 3 seats taken.")
    assert host.page.evaluate("() => window.__sameDocument") is True
    assert bot.input_value() == "heuristic"
    # Seating the chosen bot fills the table: it starts, and the page is the game.
    host.page.get_by_role("button", name="Seat a bot").click()
    expect(host.page.locator("#table-seats")).to_have_count(0)
    table.refresh_from_db()
    assert table.status == MatchStatus.ACTIVE
    assert [s.agent for s in table.seats.all()][2] == "builtin:heuristic"


def test_badges_menu_and_lists_fit_a_390px_screen(arena):
    me = arena.player(viewport={"width": 390, "height": 844})
    rival = arena.create_user(display_name="A rather long display name")
    _start([me.user, rival])
    server_side(
        lobby.challenge_create, challenger=rival, challenged=me.user, game="duelo"
    )
    wide = "() => document.documentElement.scrollWidth"
    for path in ("/", "/notifications/"):
        me.page.goto(path)
        assert me.page.evaluate(wide) <= 390, path
    # The badge sits beside the brand, visible without opening the menu.
    me.page.goto("/")
    expect(me.page.locator("#your-games")).to_be_visible()
    me.page.locator(".nav-toggle-label").click()
    me.page.locator("#notif-menu summary").click()
    expect(me.page.locator("#notif-list .notif-item")).to_have_count(2)
    assert me.page.evaluate(wide) <= 390
