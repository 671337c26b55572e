"""One click from a game's page to a game against the computer, with no
notice for it, in a real browser (issue 26 §4)."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from gameplay.models import Match
from notifications.models import Notification


class _PlayerSocket:
    """The page's player socket (``/ws/me/``): the newest one, once the server
    has registered it (its hello came: turn frames go only to registered
    sockets), across reloads."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.sockets: list[Any] = []
        self.registered: list[Any] = []
        page.on("websocket", self._opened)

    @staticmethod
    def _is_mine(ws: Any) -> bool:
        return "/ws/me/" in ws.url

    @staticmethod
    def _is_hello(payload: str | bytes) -> bool:
        return json.loads(payload).get("type") == "hello"

    def _opened(self, ws: Any) -> None:
        if self._is_mine(ws):
            self.sockets.append(ws)
            ws.on(
                "framereceived",
                lambda p: self.registered.append(ws) if self._is_hello(p) else None,
            )

    def current(self) -> Any:
        open_ = [ws for ws in self.sockets if not ws.is_closed()]
        ws = open_[-1] if open_ else None
        if ws is None:
            ws = self.page.wait_for_event("websocket", predicate=self._is_mine)
        if ws not in self.registered:
            ws.wait_for_event("framereceived", predicate=self._is_hello)
        return ws


def _to_act(match: Match) -> set[int]:
    from gameplay import turns

    match.refresh_from_db()
    return turns.actors_of(match)


def _a_later_broadcast_arrives(arena: Any, match: Match, socket: Any) -> None:
    """A broadcast of ``match`` made now, and its ``turn`` frame reaching the
    page's player socket: the event that comes after any "your move" notice.

    A notice is made while a broadcast is built (``turn_messages``, the
    broadcast listener) and its frame goes to the same player socket group
    as the turn frames, in order; so once the turn frame of a broadcast begun
    after the bots' moves and the page's (re)connection is on the page, every
    notice they could have made exists. This replaces fixed pauses that only
    hoped a notice would have come by then.
    """
    from gameplay import broadcast
    from notifications import sockets

    def our_turn_frame(payload: str | bytes) -> bool:
        frame = json.loads(payload)
        return frame.get("type") == "turn" and frame.get("match") == str(
            match.public_id
        )

    with socket.expect_event("framereceived", predicate=our_turn_frame):
        sockets.forget_snapshot()  # the test process reads who listens afresh
        arena.server_side(broadcast.match_changed, match_id=match.pk)


def test_play_a_bot_in_one_click_rated_and_without_a_notice(arena):
    ana = arena.player()
    page = ana.page
    player_socket = _PlayerSocket(page)
    page.goto("/games/kungfu2019/")
    card = page.locator("#play-bot")
    expect(card.get_by_role("heading", name="Play the computer")).to_be_visible()
    strength = card.get_by_label("Strength")
    expect(strength).to_have_value("heuristic")  # the default: one click plays
    strength.select_option(label="Beginner: Random bot")
    card.get_by_label("Rated").check()
    card.get_by_role("button", name="Play a bot").click()
    expect(page).to_have_url(re.compile(r"/matches/[0-9a-f-]+/$"))
    expect(page.locator(".conn-text")).to_have_text("Connected")
    match = Match.objects.get(host=ana.user)
    assert match.rated and match.game == "kungfu2019"
    assert [s.agent for s in match.seats.order_by("number")] == [
        "",
        "builtin:random",
    ]
    expect(page.get_by_text("rated", exact=False).first).to_be_visible()
    # The bots may have moved before the page connected: still no notice.
    # The bot chooses at once (a simultaneous game), then waits on Ana.
    arena.wait_until(lambda: _to_act(match) == {0}, message="the bot's first choice")
    _a_later_broadcast_arrives(arena, match, player_socket.current())
    assert not Notification.objects.filter(user=ana.user).exists()
    expect(page.locator("#nav-unread")).to_be_hidden()
    # A reload (a moment away from the table) leaves nothing on the bell.
    page.reload()
    expect(page.locator(".conn-text")).to_have_text("Connected")
    _a_later_broadcast_arrives(arena, match, player_socket.current())
    page.reload()
    expect(page.locator(".conn-text")).to_have_text("Connected")
    expect(page.locator("#nav-unread")).to_be_hidden()
    _a_later_broadcast_arrives(arena, match, player_socket.current())
    assert not Notification.objects.filter(user=ana.user, read_at=None).exists()


def test_a_bot_the_game_has_not_is_not_offered(arena):
    ana = arena.player()
    page = ana.page
    page.goto("/games/kungfu2009/")
    options = page.locator("#play-bot select option").all_text_contents()
    assert options == ["Beginner: Random bot", "Intermediate: Heuristic bot"]
    expect(page.locator("#play-bot")).to_contain_text("2 bots play you")
