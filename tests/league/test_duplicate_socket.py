"""Duplicate events over sockets: a spectator of a round's game is closed with
4403 while the round is played; the seated players connect and their frames
carry no seed (docs/protocol/live.md, close codes); the event page's watch
socket says when the event changed."""

from __future__ import annotations

from typing import Any, cast

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.routing import websocket_urlpatterns
from league.duplicate import services as dsvc
from league.duplicate.live import live_version
from league.duplicate.models import DuplicateGame
from tests.factories import UserFactory
from tests.gameplay.live import APP, connect, receive

# django-stubs type the routes as views; Channels routes ASGI apps with them.
EVENT_APP = URLRouter(cast(Any, websocket_urlpatterns))

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def _round_in_play():
    boss, ann, bob = (UserFactory(username=n) for n in ("boss", "ann", "bob"))
    event = dsvc.duplicate_event_create(
        by=boss, name="Socket night", game="kungfu2013", deals=1, par_bot="heuristic"
    )
    for user in (ann, bob):
        dsvc.duplicate_event_join(event=event, user=user)
    dsvc.duplicate_event_start(event=event, by=boss)
    game = DuplicateGame.objects.select_related("match").get(table=1)
    par = DuplicateGame.objects.select_related("match").get(table=0)
    return ann, UserFactory(username="eve"), game.match, par.match


@database_sync_to_async
def _status(match):
    match.refresh_from_db()
    return match.status


async def test_spectators_are_closed_and_players_get_no_seed():
    ann, eve, match, par = await _round_in_play()
    for watched, user in ((match, eve), (match, None), (par, ann)):
        comm = WebsocketCommunicator(APP, f"/ws/match/{watched.public_id}/")
        comm.scope["user"] = user if user is not None else AnonymousUser()
        connected, _ = await comm.connect()
        assert connected
        assert await comm.receive_output(timeout=5) == {
            "type": "websocket.close",
            "code": 4403,
        }
    # Par has finished (the bots' task played it), yet ann, who plays this
    # deal now, gets no frame of it; at her own table she gets her view.
    assert await _status(par) == "finished"
    sock = await connect(match, ann)
    frame = await receive(sock)
    assert frame["type"] == "state" and frame["seat"] is not None
    assert "seed" not in frame or frame["seed"] is None
    await sock.disconnect()


async def test_the_event_page_socket_says_when_the_event_changed():
    @database_sync_to_async
    def setup():
        boss = UserFactory(username="host")
        event = dsvc.duplicate_event_create(
            by=boss, name="Watched night", game="kungfu2013"
        )
        return event, live_version(event)

    @database_sync_to_async
    def join(event):
        dsvc.duplicate_event_join(event=event, user=UserFactory(username="joiner"))

    event, version = await setup()
    comm = WebsocketCommunicator(EVENT_APP, f"/ws/duplicate/{event.slug}/")
    connected, _ = await comm.connect()
    assert connected
    assert await receive(comm) == {"type": "tournament", "version": version}
    await join(event)
    # Only that something changed: the page fetches itself again.
    assert await receive(comm) == {"type": "tournament"}
    await comm.disconnect()
    missing = WebsocketCommunicator(EVENT_APP, "/ws/duplicate/nope/")
    connected, code = await missing.connect()
    assert (connected, code) == (False, 4404)
