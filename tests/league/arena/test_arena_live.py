"""Arena pages follow their arena over a socket: a join, a pairing, a
result reach the watchers."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.routing import websocket_urlpatterns
from league.tournaments.arena import services as arena
from league.tournaments.arena.models import Arena
from league.tournaments.arena.selectors import live_version
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# Channels' stubs type URLRouter's routes and a test scope narrowly.
ROUTER = URLRouter(websocket_urlpatterns)  # type: ignore[arg-type]


@database_sync_to_async
def db_arena() -> Arena:
    a = arena.arena_create(
        by=UserFactory(), name="Live arena", game="kungfu2013", minutes=30
    )
    arena.arena_join(arena=a, user=UserFactory())
    return a


@database_sync_to_async
def db_join(a: Arena) -> str:
    arena.arena_join(arena=a, user=UserFactory())  # paired at once
    return live_version(Arena.objects.get(pk=a.pk))


@database_sync_to_async
def db_version(a: Arena) -> str:
    return live_version(Arena.objects.get(pk=a.pk))


async def _connect(path: str):
    comm = WebsocketCommunicator(ROUTER, path)
    comm.scope["user"] = AnonymousUser()  # type: ignore[typeddict-unknown-key]
    connected, _ = await comm.connect(timeout=10)
    return comm, connected


async def test_a_watcher_is_told_when_someone_joins_and_is_paired():
    a = await db_arena()
    comm, connected = await _connect(f"/ws/arenas/{a.slug}/")
    assert connected
    hello = json.loads(await comm.receive_from(timeout=5))
    assert hello == {"type": "tournament", "version": await db_version(a)}
    after = await db_join(a)
    assert after != hello["version"]
    assert json.loads(await comm.receive_from(timeout=5)) == {"type": "tournament"}
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    while (frame := json.loads(await comm.receive_from(timeout=5)))["type"] != "pong":
        assert frame == {"type": "tournament"}
    await comm.disconnect()


async def test_an_unknown_arena_is_refused():
    comm, connected = await _connect("/ws/arenas/no-such-arena/")
    if connected:
        assert (await comm.receive_output(timeout=5))["code"] == 4404
    await comm.disconnect()
