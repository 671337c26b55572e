"""Live play through real WebSocket consumers over the Redis channel layer."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator

from gameplay.models import MatchStatus
from gameplay.rules import get_game, view_events
from tests.gameplay.live import (
    APP,
    assert_frames_are_each_seats_view,
    connect,
    db_events_at,
    db_match,
    db_start,
    next_reply,
    play_two_seat_game,
    receive,
    wait_for_version,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_two_players_play_a_full_game_and_nobody_sees_hidden_cards(players):
    match = await db_start(players[:2])
    game = await play_two_seat_game(
        match,
        players[:2],
        players[4],
        choose=lambda legal: legal[0]["id"],
        max_moves=500,
    )
    assert game.final.status == MatchStatus.FINISHED
    assert game.last[0]["result"]["winners"] == game.final.result["winners"]
    assert game.last[0]["seed"] == str(game.final.seed)
    # Every frame anyone received is exactly what the engine allows that seat.
    await assert_frames_are_each_seats_view(game, get_game("duelo"))


async def test_errors_for_stale_illegal_malformed_and_out_of_turn(players):
    users = players[:2]
    match = await db_start(users)
    socks = [await connect(match, users[0]), await connect(match, users[1])]
    first = [await receive(s) for s in socks]
    actor = first[0]["actors"][0]
    other = 1 - actor
    legal = first[actor]["legal"][0]["id"]
    cases = [
        (socks[actor], {"type": "act", "action": legal, "version": 9}, "stale_version"),
        (
            socks[actor],
            {"type": "act", "action": "nope:1", "version": 0},
            "illegal_action",
        ),
        (socks[other], {"type": "act", "action": legal, "version": 0}, "not_your_turn"),
        (socks[actor], {"type": "act", "action": legal, "seat": other}, "forbidden"),
        (socks[actor], {"type": "act", "version": 0}, "malformed"),
        (socks[actor], {"type": "teleport"}, "malformed"),
        (socks[actor], ["not", "an", "object"], "malformed"),
    ]
    for sock, message, code in cases:
        await sock.send_json_to(message)
        reply = await next_reply(sock)
        assert reply["type"] == "error", message
        assert reply["code"] == code, (message, reply)
    await socks[actor].send_to(text_data="{not json")
    assert (await next_reply(socks[actor]))["code"] == "malformed"
    await socks[actor].send_to(text_data="x" * 10000)
    assert (await next_reply(socks[actor]))["code"] == "malformed"
    assert (await db_match(match.pk)).version == 0
    for s in socks:
        await s.disconnect()


async def test_spectator_and_anonymous_cannot_act(players):
    match = await db_start(players[:2])
    for user in (players[6], None):
        sock = await connect(match, user)
        frame = await receive(sock)
        assert frame["seat"] is None
        await sock.send_json_to({"type": "act", "action": "card:1", "version": 0})
        reply = await next_reply(sock)
        assert reply["code"] == "forbidden"
        await sock.disconnect()
    assert (await db_match(match.pk)).version == 0


async def test_unknown_match_is_refused(players):
    comm = WebsocketCommunicator(APP, "/ws/match/00000000-0000-0000-0000-000000000000/")
    comm.scope["user"] = players[0]
    connected, _ = await comm.connect()
    # Accepted, then closed with 4404: a close before accepting would reach a
    # real client as an HTTP 403 on the handshake, without the code.
    assert connected
    assert await comm.receive_output(timeout=5) == {
        "type": "websocket.close",
        "code": 4404,
    }


async def test_reconnect_resumes_with_nothing_lost(players):
    users = players[:2]
    match = await db_start(users)
    socks = [await connect(match, users[0]), await connect(match, users[1])]
    frames = [await receive(s) for s in socks]
    actor = frames[0]["actors"][0]
    away = 1 - actor
    await socks[away].disconnect()
    version = 0
    # The other player keeps moving while one is away (until it is their turn).
    while True:
        current = await wait_for_version(socks[actor], version, [])
        if current["status"] != MatchStatus.ACTIVE or actor not in current["actors"]:
            break
        await socks[actor].send_json_to(
            {"type": "act", "action": current["legal"][0]["id"], "version": version}
        )
        version += 1
    back = await connect(match, users[away])
    await receive(back)  # the fresh state on connect
    await back.send_json_to({"type": "sync", "version": 0})
    history = await receive(back)
    while history["type"] != "history":  # skip presence-triggered state frames
        history = await receive(back)
    assert history["type"] == "history"
    assert [step["version"] for step in history["steps"]] == list(range(1, version + 1))
    final = await db_match(match.pk)
    for step in history["steps"]:
        events = await db_events_at(final, step["version"])
        assert step["events"] == view_events(events, away)
    state = await receive(back)
    assert state["type"] == "state" and state["version"] == version
    await back.disconnect()
    await socks[actor].disconnect()


async def test_two_conflicting_actions_at_once_apply_exactly_one(players):
    users = players[:2]
    match = await db_start(users)
    first = await connect(match, users[0])
    frame = await receive(first)
    actor = frame["actors"][0]
    await first.disconnect()
    tab_a = await connect(match, users[actor])
    tab_b = await connect(match, users[actor])
    frame_a = await receive(tab_a)
    await receive(tab_b)
    legal = [a["id"] for a in frame_a["legal"]]
    await asyncio.gather(
        tab_a.send_json_to({"type": "act", "action": legal[0], "version": 0}),
        tab_b.send_json_to({"type": "act", "action": legal[-1], "version": 0}),
    )
    replies = [await next_reply(tab) for tab in (tab_a, tab_b)]
    kinds = sorted(r["type"] for r in replies)
    assert kinds == ["ack", "error"]
    assert [r["code"] for r in replies if r["type"] == "error"] == ["stale_version"]
    final = await db_match(match.pk)
    assert final.version == 1
    await tab_a.disconnect()
    await tab_b.disconnect()


async def test_one_inbox_in_arrival_order_and_the_channel_closed_at_the_end(players):
    """``MatchConsumer`` reads one inbox, its channel's queue, into which its
    client's messages are put as they arrive: whatever reaches the inbox is
    handled in that order, and the socket's channel is forgotten when the
    socket closes."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    match = await db_start(players[:2])
    sock = await connect(match, players[0])
    await receive(sock)  # the state frame
    (channel,) = layer._get_layer().channels

    async def pong() -> int:
        frame = await sock.receive_json_from()
        while frame["type"] != "pong":  # the table's presence frames meanwhile
            frame = await sock.receive_json_from()
        return frame["request_id"]

    await sock.send_json_to({"type": "ping", "request_id": 1})
    assert await pong() == 1
    # A message put in the inbox directly is handled before a client frame
    # that arrives after it.
    layer.inbox(channel).put_nowait(
        {"type": "websocket.receive", "text": '{"type": "ping", "request_id": 2}'}
    )
    await sock.send_json_to({"type": "ping", "request_id": 3})
    assert await pong() == 2
    assert await pong() == 3
    await sock.disconnect()
    assert channel not in layer._get_layer().channels


async def test_a_failed_client_receive_reaches_the_consumer():
    """The client's receive failing (a server error) is raised in the
    consumer's loop, not left waiting on its inbox."""
    from gameplay import consumers

    inbox: asyncio.Queue = asyncio.Queue()

    async def broken():
        raise ConnectionError("the server's receive failed")

    pump = asyncio.ensure_future(consumers._pump(broken, inbox))
    pump.add_done_callback(lambda task: consumers._pump_ended(inbox, task))
    assert await inbox.get() is consumers._PUMP_FAILED
    with pytest.raises(ConnectionError):
        pump.result()


async def test_cancelling_the_socket_cancels_its_inbox_reader(players):
    """The inbox is read in a task of its own: the server cancelling the
    socket's application (a shutdown) ends that task and frees the channel."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    match = await db_start(players[:2])
    sock = await connect(match, players[0])
    await receive(sock)
    (channel,) = layer._get_layer().channels

    def readers() -> list[asyncio.Task]:
        return [
            task
            for task in asyncio.all_tasks()
            if "_read_inbox" in repr(task.get_coro()) and not task.done()
        ]

    assert len(readers()) == 1
    sock.future.cancel()
    with pytest.raises(asyncio.CancelledError):
        await sock.future
    await asyncio.sleep(0)
    assert readers() == []
    assert channel not in layer._get_layer().channels
