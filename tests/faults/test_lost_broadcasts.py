"""A broadcast lost in a Redis blip: the mover still gets its ack, and the
opponent learns the version from the beat and resyncs (the client side is in
tests/frontend/live-client.test.js)."""

from __future__ import annotations

import json

import pytest
from celery.app.task import Task
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from kombu.exceptions import OperationalError

from gameplay import broadcast
from gameplay.models import Match
from gameplay.routing import websocket_urlpatterns
from tests.gameplay.conftest import first_legal, start_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _connect(match: Match, user) -> WebsocketCommunicator:
    # Channels' stubs want their own URLPattern type (config/asgi.py).
    router = URLRouter(websocket_urlpatterns)  # type: ignore[arg-type]
    comm = WebsocketCommunicator(router, f"/ws/match/{match.public_id}/")
    # The scope's user, as AuthMiddlewareStack sets it (not in the stubs).
    comm.scope["user"] = user  # type: ignore[typeddict-unknown-key]
    assert (await comm.connect())[0]
    return comm


async def _until(comm: WebsocketCommunicator, kind: str) -> dict:
    for _ in range(100):
        frame = json.loads(await comm.receive_from(timeout=5))
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


async def test_a_committed_move_is_acked_when_the_broker_and_broadcast_fail(
    players, settings, monkeypatch
):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # production: hooks only enqueue
    settings.PRESENCE_TTL = 0.6
    match = await database_sync_to_async(start_match)(
        players[:2], time_control={"per_move": 30}
    )
    seats = [await _connect(match, players[0]), await _connect(match, players[1])]
    mover, action = await database_sync_to_async(first_legal)(match)

    def refuse(self, *args, **kwargs):
        raise OperationalError("Error 111 connecting to redis. Connection refused.")

    monkeypatch.setattr(Task, "apply_async", refuse)  # the clock check fails
    monkeypatch.setattr(broadcast, "match_changed", lambda **kwargs: None)  # lost
    await seats[mover].send_to(
        text_data=json.dumps(
            {"type": "act", "action": action, "version": 0, "request_id": "m1"}
        )
    )
    ack = await _until(seats[mover], "ack")
    assert ack == {"type": "ack", "version": 1, "request_id": "m1"}
    # The opponent got no state frame for version 1, but the beat tells it.
    other = seats[1 - mover]
    beat = await _until(other, "beat")
    while beat["version"] < 1:
        beat = await _until(other, "beat")
    assert beat["version"] == 1
    await other.send_to(text_data=json.dumps({"type": "sync", "version": 0}))
    history = await _until(other, "history")
    assert [step["version"] for step in history["steps"]] == [1]
    assert (await _until(other, "state"))["version"] == 1
    # The mover's socket is still open.
    await seats[mover].send_to(text_data=json.dumps({"type": "ping"}))
    assert (await _until(seats[mover], "pong"))["type"] == "pong"
    for comm in seats:
        await comm.disconnect()
