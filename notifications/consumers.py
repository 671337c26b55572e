"""The player's own socket, ``/ws/me/``: one per open page of a signed-in player.

It carries what concerns the player wherever they are on the site: a match
that started for them (the page goes there), whose move it is in each of their
games (the navigation badge), and new notifications. It is push-only apart
from ``ping`` and ``sync``; everything it says is the player's own business,
so only the signed-in player's own group is joined and the client names
nothing. Protocol: ``docs/protocol/live.md``. Separate from the match socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from gameplay import turns
from notifications import live, services, sockets

MAX_FRAME_BYTES = 1024
# Only pings and syncs come from the client: a page sends one every 20 s.
RATE_PER_SECOND = 2.0
RATE_BURST = 10.0
CLOSE_SIGN_IN = 4401


class PlayerConsumer(AsyncWebsocketConsumer):
    group: str | None = None
    rehello: asyncio.Task | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.tokens = RATE_BURST
        self.refilled_at = time.monotonic()
        await self.accept()
        if user is None or not user.is_authenticated:
            # Accepted first so the browser sees the code and stops retrying.
            await self.close(code=CLOSE_SIGN_IN)
            return
        self.user = user
        self.group = live.player_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # Turn frames go only to players with a player socket open
        # (``notifications.sockets``); registered before the hello is read.
        await sockets.opened(user.pk)
        hello = await self._hello()
        await self._send(hello)
        self.rehello = asyncio.create_task(self._hello_again(hello))

    async def _hello_again(self, first: dict[str, Any]) -> None:
        """Once every process knows of this socket (``sockets.REHELLO_S``):
        the hello again if a move made meanwhile elsewhere changed it (that
        move's turn frame may have left before its process knew)."""
        await asyncio.sleep(sockets.REHELLO_S)
        hello = await self._hello()
        if hello != first:
            # The page may have gone meanwhile (uvicorn raises
            # ClientDisconnected, an OSError): nobody is left to tell.
            with contextlib.suppress(OSError):
                await self._send(hello)

    async def disconnect(self, code: int) -> None:
        if self.rehello is not None:
            self.rehello.cancel()
        if self.group:
            await sockets.closed(self.user.pk)
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data=None) -> None:
        if self.group is None:
            return
        if text_data is None or len(text_data) > MAX_FRAME_BYTES:
            return await self._error("malformed", "frames are JSON of at most 1 KiB")
        if not self._take_token():
            return await self._error("rate_limited", "too many frames; slow down")
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):  # deep nesting fits in 1 KiB
            return await self._error("malformed", "frame is not valid JSON")
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ping":
            await self._send({"type": "pong"})
        elif kind == "sync":
            await self._send(await self._hello())
        else:
            await self._error("malformed", "send ping or sync")

    async def player_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    @database_sync_to_async
    def _hello(self) -> dict[str, Any]:
        return hello_frame(user=self.user)

    async def _send(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(frame, separators=(",", ":")))

    async def _error(self, code: str, message: str) -> None:
        await self._send({"type": "error", "code": code, "message": message})

    def _take_token(self) -> bool:
        now = time.monotonic()
        self.tokens = min(
            RATE_BURST, self.tokens + (now - self.refilled_at) * RATE_PER_SECOND
        )
        self.refilled_at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def hello_frame(*, user) -> dict[str, Any]:
    """Everything a page needs to show the player's badges and game rows from
    scratch.

    ``your_move`` feeds the badge; ``in_play`` lists every active match the
    player still plays, so a page can also correct a row whose ``turn``
    frame it missed (a move made elsewhere before every process knew of this
    socket: the second hello is then the only news). ``in_play_complete`` is
    false when the list stopped at ``turns.MAX_GAMES``: a row missing from a
    cut list may still be in play.
    """
    games = turns.in_play(user=user)
    return {
        "type": "hello",
        "protocol": live.PROTOCOL_VERSION,
        "user": user.username,
        "your_move": [
            {
                "match": str(match.public_id),
                "url": turns.match_url(match),
                "game": match.game,
                "version": match.version,
            }
            for match, yours in games
            if yours
        ],
        "in_play": [
            {
                "match": str(match.public_id),
                "version": match.version,
                "your_move": yours,
                "turns": turns.has_turns(match.game),
            }
            for match, yours in games
        ],
        "in_play_complete": len(games) < turns.MAX_GAMES,
        "unread": services.unread_count(user_id=user.pk),
    }
