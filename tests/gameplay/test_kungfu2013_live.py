"""Kung Fu (2013) live: the WebSocket frames of a full game against each seat's view."""

from __future__ import annotations

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


async def test_full_game_frames_match_each_seats_allowed_view(players):
    """Two people play a whole game over WebSockets (seeded random moves); every
    frame each seat, a spectator and an anonymous watcher received equals the
    engine's observation for that seat at that version, its events are exactly
    the events that seat may see, and no frame names a card hidden from it."""
    import random

    users = players[:2]
    match = await db_start(users, game="kungfu2013", config={"life": 5})
    seats = [await connect(match, users[0]), await connect(match, users[1])]
    spectator = await connect(match, players[4])
    anonymous = await connect(match, None)
    frames: dict[str, list] = {"0": [], "1": [], "spec": [], "anon": []}
    current = [
        await wait_for_version(c, 0, frames[str(i)]) for i, c in enumerate(seats)
    ]
    await wait_for_version(spectator, 0, frames["spec"])
    await wait_for_version(anonymous, 0, frames["anon"])
    engine = get_game("kungfu2013")
    rnd = random.Random(7)
    version = 0
    while current[0]["status"] == MatchStatus.ACTIVE:
        actor = current[0]["actors"][0]
        legal = current[actor]["legal"]
        assert legal and current[1 - actor]["legal"] == []
        choice = legal[rnd.randrange(len(legal))]["id"]
        await seats[actor].send_json_to(
            {"type": "act", "action": choice, "version": version}
        )
        version += 1
        current = [
            await wait_for_version(c, version, frames[str(i)])
            for i, c in enumerate(seats)
        ]
        await wait_for_version(spectator, version, frames["spec"])
        await wait_for_version(anonymous, version, frames["anon"])
        assert version < 2000
    final = await db_match(match.pk)
    assert final.status == MatchStatus.FINISHED
    assert current[0]["result"]["winners"] == final.result["winners"]
    for who, received in frames.items():
        seat = int(who) if who in ("0", "1") else None
        for frame in received:
            if frame["type"] != "state" or frame["status"] == MatchStatus.FINISHED:
                continue
            state = await db_state_at(final, frame["version"])
            assert frame["seat"] == seat
            assert frame["view"] == engine.observe(state, seat)
            events = await db_events_at(final, frame["version"])
            if frame["events"]:
                assert frame["events"] == view_events(events, seat)
            # The other hand's cards never appear in this seat's frame.
            text = json.dumps(frame)
            for other in (0, 1):
                if other == seat:
                    continue
                for card in engine.observe(state, other)["hand"]:
                    if card["code"] not in json.dumps(engine.observe(state, seat)):
                        assert f'"code": "{card["code"]}"' not in text
            if seat is None:
                assert frame["legal"] == [] and frame["view"]["hand"] is None
    for comm in [*seats, spectator, anonymous]:
        await comm.disconnect()
