"""Tournament pages follow their tournament over a socket (issue 26, section 4):
a change of a round, a pairing or the tournament reaches the watchers."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.routing import websocket_urlpatterns
from league.live import live_version
from league.models import Tournament
from league.tournaments import services as ts
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ROUTER = URLRouter(websocket_urlpatterns)  # type: ignore[arg-type]


@database_sync_to_async
def db_tournament() -> Tournament:
    organiser = UserFactory(username="boss")
    t = ts.tournament_create(
        by=organiser, name="Live cup", game="duelo", format="swiss"
    )
    for i in range(4):
        ts.tournament_enter(tournament=t, user=UserFactory(username=f"live{i}"))
    return t


@database_sync_to_async
def db_start(t: Tournament) -> str:
    assert t.created_by is not None
    ts.tournament_start(tournament=t, by=t.created_by)
    t.refresh_from_db()
    return live_version(t)


@database_sync_to_async
def db_version(t: Tournament) -> str:
    return live_version(Tournament.objects.get(pk=t.pk))


async def _connect(path: str):
    comm = WebsocketCommunicator(ROUTER, path)
    comm.scope["user"] = AnonymousUser()  # type: ignore[typeddict-unknown-key]
    connected, _ = await comm.connect(timeout=10)
    return comm, connected


async def test_a_watcher_is_told_when_the_tournament_moves_on():
    t = await db_tournament()
    comm, connected = await _connect(f"/ws/tournaments/{t.slug}/")
    assert connected
    hello = json.loads(await comm.receive_from(timeout=5))
    assert hello == {"type": "tournament", "version": await db_version(t)}
    after = await db_start(t)
    assert after != hello["version"]  # round 1 paired: the version moved on
    frame = json.loads(await comm.receive_from(timeout=5))
    assert frame == {"type": "tournament"}
    # Pings are answered; anything else gets an error, the socket stays.
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    while (frame := json.loads(await comm.receive_from(timeout=5)))["type"] != "pong":
        assert frame == {"type": "tournament"}
    await comm.send_to(text_data="[" * 2000)
    while (frame := json.loads(await comm.receive_from(timeout=5)))["type"] != "error":
        assert frame == {"type": "tournament"}
    await comm.disconnect()


async def test_an_unknown_tournament_is_refused():
    comm, connected = await _connect("/ws/tournaments/no-such-cup/")
    if connected:
        assert (await comm.receive_output(timeout=5))["code"] == 4404
    await comm.disconnect()
