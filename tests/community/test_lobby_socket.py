"""The lobby chat's socket: new lines and removals arrive live, filtered by
each reader's mutes and chat switch; unknown games are refused."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, Permission

from community import moderation, services
from config.routing import websocket_urlpatterns

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

APP = URLRouter(websocket_urlpatterns)  # type: ignore[arg-type]
GAME = "kungfu2013"


async def lobby(user, game: str = GAME) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(APP, f"/ws/lobby/{game}/chat/")
    comm.scope["user"] = user if user is not None else AnonymousUser()  # type: ignore[typeddict-unknown-key]
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_json_from(timeout=5)
    assert first == {"type": "lobby_chat", "protocol": 1, "game": game}
    return comm


async def frames(comm) -> list[dict]:
    got = []
    while not await comm.receive_nothing(timeout=0.5):
        got.append(json.loads(await comm.receive_from()))
    return got


async def test_lines_and_removals_arrive_live_and_mutes_apply(players):
    reader, muter, visitor = (
        await lobby(players[1]),
        await lobby(players[2]),
        await lobby(None),
    )
    other_game = await lobby(players[3], game="duelo")
    await database_sync_to_async(services.mute_set)(
        user=players[2], target=players[0], muted=True
    )
    line = await database_sync_to_async(services.lobby_chat_post)(
        user=players[0], game=GAME, text="<b>anyone?</b>"
    )
    for comm in (reader, visitor):
        got = await frames(comm)
        assert [f["type"] for f in got] == ["chat"]
        assert got[0]["message"]["text"] == "<b>anyone?</b>"
        assert got[0]["message"]["id"] == line.pk
    assert await frames(muter) == []
    assert await frames(other_game) == []

    def remove() -> None:
        players[7].user_permissions.add(
            Permission.objects.get(
                codename="moderate", content_type__app_label="community"
            )
        )
        moderation.line_remove(moderator=players[7], message_id=line.pk, reason="x")

    await database_sync_to_async(remove)()
    for comm in (reader, visitor, muter):
        assert await frames(comm) == [{"type": "chat_removed", "id": line.pk}]
    for comm in (reader, muter, visitor, other_game):
        await comm.disconnect()


async def test_chat_off_everywhere_gets_nothing_and_unknown_games_close(players):
    await database_sync_to_async(services.chat_switch)(user=players[1], off=True)
    reader = await lobby(players[1])
    await database_sync_to_async(services.lobby_chat_post)(
        user=players[0], game=GAME, text="hello"
    )
    assert await frames(reader) == []
    await reader.disconnect()
    comm = WebsocketCommunicator(APP, "/ws/lobby/nosuchgame/chat/")
    comm.scope["user"] = AnonymousUser()
    connected, code = await comm.connect()
    assert not connected and code == 4404
