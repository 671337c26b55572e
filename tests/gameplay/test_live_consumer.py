"""Live play through real WebSocket consumers over the Redis channel layer."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from gameplay import selectors
from gameplay.models import Match, MatchAction, MatchStatus
from gameplay.routing import websocket_urlpatterns
from gameplay.rules import get_game, view_events
from tests.gameplay.conftest import start_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

APP = URLRouter(websocket_urlpatterns)


async def connect(match: Match, user) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(APP, f"/ws/match/{match.public_id}/")
    comm.scope["user"] = user if user is not None else AnonymousUser()
    connected, _ = await comm.connect()
    assert connected
    return comm


async def receive(comm: WebsocketCommunicator, timeout: float = 5) -> dict:
    return json.loads(await comm.receive_from(timeout=timeout))


async def next_reply(comm: WebsocketCommunicator) -> dict:
    """The next ack or error, skipping state frames (presence changes send some)."""
    while True:
        frame = await receive(comm)
        if frame["type"] in ("ack", "error"):
            return frame


async def wait_for_version(comm, version: int, frames: list) -> dict:
    while True:
        frame = await receive(comm)
        frames.append(frame)
        if frame["type"] == "state" and frame["version"] >= version:
            return frame


@database_sync_to_async
def db_start(users, **kwargs) -> Match:
    return start_match(users, **kwargs)


@database_sync_to_async
def db_match(match_id: int) -> Match:
    return Match.objects.prefetch_related("seats").get(pk=match_id)


@database_sync_to_async
def db_state_at(match: Match, version: int) -> dict:
    return selectors.state_at(match=match, version=version)


@database_sync_to_async
def db_events_at(match: Match, version: int) -> list:
    action = MatchAction.objects.filter(match=match, version=version).first()
    return action.events if action else []


async def test_two_players_play_a_full_game_and_nobody_sees_hidden_cards(players):
    users = players[:2]
    match = await db_start(users)
    seats = [await connect(match, users[0]), await connect(match, users[1])]
    spectator = await connect(match, players[4])
    anonymous = await connect(match, None)
    frames: dict[str, list] = {"0": [], "1": [], "spec": [], "anon": []}
    current = [
        await wait_for_version(c, 0, frames[str(i)]) for i, c in enumerate(seats)
    ]
    await wait_for_version(spectator, 0, frames["spec"])
    await wait_for_version(anonymous, 0, frames["anon"])
    engine = get_game("duelo")
    version = 0
    while current[0]["status"] == MatchStatus.ACTIVE:
        actor = current[0]["actors"][0]
        legal = current[actor]["legal"]
        assert legal, "the acting seat must be offered its legal actions"
        assert current[1 - actor]["legal"] == []
        await seats[actor].send_json_to(
            {"type": "act", "action": legal[0]["id"], "version": version}
        )
        version += 1
        current = [
            await wait_for_version(c, version, frames[str(i)])
            for i, c in enumerate(seats)
        ]
        await wait_for_version(spectator, version, frames["spec"])
        await wait_for_version(anonymous, version, frames["anon"])
        assert version < 500
    final = await db_match(match.pk)
    assert final.status == MatchStatus.FINISHED
    assert current[0]["result"]["winners"] == final.result["winners"]
    assert current[0]["seed"] == str(final.seed)

    # Every frame anyone received is exactly what the engine allows that seat.
    for who, received in frames.items():
        seat = int(who) if who in ("0", "1") else None
        for frame in received:
            if frame["type"] != "state":
                continue
            if frame["status"] == MatchStatus.FINISHED:
                continue  # after the end everything may be revealed
            state = await db_state_at(final, frame["version"])
            assert frame["seat"] == seat
            assert frame["view"] == engine.observe(state, seat)
            events = await db_events_at(final, frame["version"])
            if frame["events"]:
                assert frame["events"] == view_events(events, seat)
            if seat is None:
                assert frame["legal"] == []
                assert frame["view"]["hand"] is None
    for comm in [*seats, spectator, anonymous]:
        await comm.disconnect()


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
