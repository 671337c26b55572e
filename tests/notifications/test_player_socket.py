"""The player's socket (/ws/me/) and the table watch (/ws/table/<id>/), through
real consumers over the Redis channel layer."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.routing import websocket_urlpatterns
from gameplay import lobby, services
from notifications.models import Notification, NotificationKind
from tests.gameplay.conftest import first_legal, start_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# Channels' stubs want their own URLPattern type (config/asgi.py).
APP = URLRouter(websocket_urlpatterns)  # type: ignore[arg-type]


async def open_socket(path: str, user) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(APP, path)
    # The scope's user, as AuthMiddlewareStack sets it (not in the stubs).
    user = user if user is not None else AnonymousUser()
    comm.scope["user"] = user  # type: ignore[typeddict-unknown-key]
    connected, _ = await comm.connect()
    assert connected
    return comm


async def receive(comm, timeout: float = 5) -> dict:
    return json.loads(await comm.receive_from(timeout=timeout))


async def until(comm, kind: str, timeout: float = 5) -> dict:
    """The next frame of ``kind``, skipping others."""
    while True:
        frame = await receive(comm, timeout)
        if frame["type"] == kind:
            return frame


async def test_anonymous_is_closed_with_4401():
    comm = WebsocketCommunicator(APP, "/ws/me/")
    comm.scope["user"] = AnonymousUser()
    connected, _ = await comm.connect()
    assert connected
    closed = await comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4401}


async def test_hello_lists_games_waiting_for_my_move(players):
    a, b = players[:2]
    match = await database_sync_to_async(start_match)([a, b])
    seat, _ = await database_sync_to_async(first_legal)(match)
    mover, waiter = (a, b) if seat == 0 else (b, a)
    sock = await open_socket("/ws/me/", mover)
    hello = await receive(sock)
    assert hello["type"] == "hello" and hello["protocol"] == 1
    assert [g["match"] for g in hello["your_move"]] == [str(match.public_id)]
    assert hello["your_move"][0]["url"] == f"/matches/{match.public_id}/"
    other = await open_socket("/ws/me/", waiter)
    assert (await receive(other))["your_move"] == []
    await sock.send_json_to({"type": "ping"})
    assert (await receive(sock))["type"] == "pong"
    await sock.send_to(text_data="nonsense")
    assert (await receive(sock))["code"] == "malformed"
    await sock.disconnect()
    await other.disconnect()


async def test_accepted_challenge_reaches_the_challengers_open_pages(players):
    a, b = players[:2]
    tabs = [await open_socket("/ws/me/", a), await open_socket("/ws/me/", a)]
    stranger = await open_socket("/ws/me/", players[2])
    for tab in (*tabs, stranger):
        await until(tab, "hello")
    challenge = await database_sync_to_async(lobby.challenge_create)(
        challenger=a, challenged=b, game="duelo"
    )
    match = await database_sync_to_async(lobby.challenge_accept)(
        challenge_id=challenge.pk, user=b
    )
    for tab in tabs:
        started = await until(tab, "match_started")
        assert started["url"] == f"/matches/{match.public_id}/"
        assert started["opponents"] == [b.public_name]
        note = await until(tab, "notification")
        assert note["kind"] == "game_started" and note["unread"] == 1
    # Someone else's socket hears nothing of it.
    assert await stranger.receive_nothing(timeout=0.5)
    for tab in (*tabs, stranger):
        await tab.disconnect()


async def test_turns_and_your_move_notification_arrive_live(players):
    a, b = players[:2]
    match = await database_sync_to_async(start_match)([a, b])
    seat, action = await database_sync_to_async(first_legal)(match)
    users = [a, b]
    mover, waiter = users[seat], users[1 - seat]
    sock = await open_socket("/ws/me/", waiter)
    await until(sock, "hello")
    await database_sync_to_async(services.match_act)(
        match_id=match.pk, user=mover, action_id=action
    )
    turn = await until(sock, "turn")
    assert turn["match"] == str(match.public_id) and turn["version"] == 1
    refreshed = await database_sync_to_async(first_legal)(match)
    assert turn["your_move"] is (users[refreshed[0]] == waiter)
    if turn["your_move"]:
        note = await until(sock, "notification")
        assert note["kind"] == "your_move"
        assert note["url"] == f"/matches/{match.public_id}/"
    await sock.disconnect()


async def test_challenge_and_mark_read_reach_the_page(players):
    a, b = players[:2]
    sock = await open_socket("/ws/me/", b)
    await until(sock, "hello")
    await database_sync_to_async(lobby.challenge_create)(
        challenger=a, challenged=b, game="duelo"
    )
    note = await until(sock, "notification")
    assert note["kind"] == NotificationKind.CHALLENGE
    assert note["unread"] == 1
    from notifications.services import notifications_mark_read

    await database_sync_to_async(notifications_mark_read)(user=b)
    assert (await until(sock, "unread"))["count"] == 0
    assert (
        await database_sync_to_async(
            Notification.objects.filter(read_at__isnull=True).count
        )()
        == 0
    )
    await sock.disconnect()


async def test_table_watch_follows_seats_and_the_start(players):
    host, guest = players[:2]
    table = await database_sync_to_async(lobby.table_create)(
        host=host, game="duelo", players=3
    )
    watcher = await open_socket(f"/ws/table/{table.public_id}/", None)
    first = await receive(watcher)
    assert first["type"] == "table" and first["status"] == "waiting"
    assert [s["open"] for s in first["seats"]] == [False, True, True]
    await database_sync_to_async(lobby.table_join)(match_id=table.pk, user=guest)
    frame = await until(watcher, "table")
    assert frame["seats"][1]["username"] == guest.username
    await database_sync_to_async(lobby.table_fill_with_bot)(
        match_id=table.pk, user=host, bot="random"
    )
    while frame["status"] == "waiting":
        frame = await until(watcher, "table")
    assert frame["status"] == "active"
    assert frame["seats"][2]["is_bot"] is True
    await watcher.send_json_to({"type": "ping"})
    assert (await until(watcher, "pong"))["type"] == "pong"
    await watcher.disconnect()


async def test_table_watch_unknown_or_malformed_id_is_4404():
    for path in ("/ws/table/00000000-0000-0000-0000-000000000000/", "/ws/table/x/"):
        comm = WebsocketCommunicator(APP, path)
        comm.scope["user"] = AnonymousUser()
        connected, code = await comm.connect()
        assert not connected and code == 4404


async def test_an_open_player_socket_is_known_to_every_process(players, monkeypatch):
    """Registered in Redis while open (another process reads the set, not
    this process's own count), gone when it closes."""
    from notifications import sockets

    a = players[0]
    sock = await open_socket("/ws/me/", a)
    await until(sock, "hello")
    monkeypatch.setattr(sockets, "_local", {})  # as another process sees it
    sockets.forget_snapshot()
    listening = await database_sync_to_async(sockets._listening_anywhere)()
    assert listening is not None and a.pk in listening
    assert not await database_sync_to_async(sockets.is_listening)(players[1].pk)
    monkeypatch.undo()
    await sock.disconnect()
    sockets.forget_snapshot()
    assert not await database_sync_to_async(sockets.is_listening)(a.pk)


async def test_a_move_made_before_other_processes_knew_the_socket_is_caught_up(
    players, monkeypatch
):
    """A move whose broadcast left before the mover's process knew of the
    player socket (no turn frame) reaches the page by the second hello."""
    from notifications import sockets

    monkeypatch.setattr(sockets, "REHELLO_S", 0.3)
    monkeypatch.setattr(sockets, "is_listening", lambda user_id: False)
    a, b = players[:2]
    match = await database_sync_to_async(start_match)([a, b])
    seat, action = await database_sync_to_async(first_legal)(match)
    mover = [a, b][seat]
    sock = await open_socket("/ws/me/", mover)
    first = await until(sock, "hello")
    assert [g["version"] for g in first["your_move"]] == [0]
    await database_sync_to_async(services.match_act)(
        match_id=match.pk, user=mover, action_id=action
    )
    again = await until(sock, "hello")
    # Version 1 waits for them again, or for the other player: either way
    # the page learns it without a turn frame.
    assert [g["version"] for g in again["your_move"]] in ([1], [])
    # Either way the row learns whose move it is now, from in_play.
    [row] = again["in_play"]
    assert row["match"] == str(match.public_id) and row["version"] == 1
    assert row["your_move"] == bool(again["your_move"]) and row["turns"] is True
    assert again["in_play_complete"] is True
    await sock.disconnect()


async def test_no_second_hello_when_nothing_changed(players, monkeypatch):
    from notifications import sockets

    monkeypatch.setattr(sockets, "REHELLO_S", 0.2)
    sock = await open_socket("/ws/me/", players[0])
    await until(sock, "hello")
    assert await sock.receive_nothing(timeout=0.6)
    await sock.disconnect()


def _play_steps(match, users, steps: int) -> None:
    """People move (the first legal action); a bot's seat gets its turn."""
    from gameplay.services.bot_turns import match_play_builtin_bots

    for _ in range(steps):
        match.refresh_from_db()
        if match.is_over:
            return
        seat, action = first_legal(match)
        if match.seats.get(number=seat).replaced_by_bot:
            match_play_builtin_bots(match_id=match.pk, max_steps=1)
            continue
        services.match_act(
            match_id=match.pk,
            user=users[seat],
            action_id=action,
            expected_version=match.version,
        )


async def test_a_seat_that_left_gets_no_live_version_on_its_player_socket(players):
    """A resigned seat (a bot plays on) sees what a spectator sees: the
    spectator delay holds its match socket back, so its player socket must not
    carry the live version in ``turn`` frames (issue 26: 94 of them in one
    match with a delay of 2). It still learns that the match ended."""
    users = players[:3]
    match = await database_sync_to_async(start_match)(users, spectator_delay=2)
    leaver = users[0]
    sock = await open_socket("/ws/me/", leaver)
    await until(sock, "hello")
    await database_sync_to_async(services.match_resign)(match_id=match.pk, user=leaver)
    await database_sync_to_async(_play_steps)(match, users, 8)
    await database_sync_to_async(match.refresh_from_db)()
    assert match.version >= 4, "the others should have played on"
    turns_seen = []
    while not await sock.receive_nothing(timeout=0.5):
        frame = await receive(sock)
        if frame["type"] == "turn":
            turns_seen.append(frame)
    assert [f for f in turns_seen if f["status"] == "active"] == []
    # The sync answers what the page may show: the game is no longer theirs.
    await sock.send_json_to({"type": "sync"})
    hello = await until(sock, "hello")
    assert hello["in_play"] == [] and hello["your_move"] == []
    # The end is public: the leaver's page learns it.
    await database_sync_to_async(services.match_abort)(match_id=match.pk, user=None)
    ended = await until(sock, "turn")
    assert ended["match"] == str(match.public_id)
    assert ended["status"] != "active" and ended["your_move"] is False
    await sock.disconnect()


async def test_a_seat_still_playing_gets_its_turn_frames(players):
    """Control: the others at that table still get the live version."""
    users = players[:3]
    match = await database_sync_to_async(start_match)(users, spectator_delay=2)
    sock = await open_socket("/ws/me/", users[1])
    await until(sock, "hello")
    await database_sync_to_async(services.match_resign)(
        match_id=match.pk, user=users[0]
    )
    await database_sync_to_async(_play_steps)(match, users, 4)
    await database_sync_to_async(match.refresh_from_db)()
    turn = await until(sock, "turn")
    assert turn["status"] == "active"
    while not await sock.receive_nothing(timeout=0.5):
        frame = await receive(sock)
        if frame["type"] == "turn":
            turn = frame
    assert turn["version"] == match.version
    await sock.disconnect()
