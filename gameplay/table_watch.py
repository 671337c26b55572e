"""Watching a waiting table live: who sits where, and the moment it starts.

The table page (a match still ``waiting`` for players) follows
``/ws/table/<match uuid>/`` instead of reloading itself: every broadcast of a
match at version 0 (a seat taken or given back, a bot seated, the table
started or closed) sends its watchers a ``table`` frame. The frame names only
what the page already shows anyone (seats' public names), so anybody may
watch, signed in or not. Protocol: ``docs/protocol/live.md``.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db.models import Prefetch

from gameplay import broadcast
from gameplay.models import Match, Seat
from gameplay.turns import match_url

MAX_FRAME_BYTES = 1024


def table_group(match_id: int) -> str:
    return f"table.{match_id}"


def table_frame(*, match: Match) -> dict[str, Any]:
    return {
        "type": "table",
        "protocol": 1,
        "match": str(match.public_id),
        "status": match.status,
        "url": match_url(match),
        "host": match.host.username if match.host is not None else None,
        "seats": [
            {
                "number": seat.number,
                "name": seat.display_name,
                "username": seat.user.username if seat.user is not None else None,
                "is_bot": bool(seat.agent),
                "open": seat.is_open,
            }
            for seat in match.seats.all()
        ],
    }


def table_messages(match: Match) -> broadcast.Messages:
    """Broadcast listener: a frame for the table's watchers until the first move.

    After the first move nobody watches the table page any more (it has become
    the game), so later broadcasts add nothing.
    """
    if match.version != 0:
        return []
    text = json.dumps(table_frame(match=match), separators=(",", ":"))
    return [(table_group(match.pk), {"type": "table.frame", "text": text})]


class TableWatchConsumer(AsyncWebsocketConsumer):
    """Read-only: sends the table on connect and on every change; takes pings."""

    group: str | None = None

    async def connect(self) -> None:
        found = await self._frame()
        if found is None:
            await self.close(code=4404)
            return
        match_pk, frame = found
        self.group = table_group(match_pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=json.dumps(frame))

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data=None) -> None:
        if text_data is None or len(text_data) > MAX_FRAME_BYTES:
            return await self._error("frames are JSON text of at most 1 KiB")
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):  # deep nesting fits in 1 KiB
            return await self._error("frame is not valid JSON")
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ping":
            await self.send(text_data=json.dumps({"type": "pong"}))
        elif kind == "sync":
            found = await self._frame()
            if found is not None:
                await self.send(text_data=json.dumps(found[1]))
        else:
            await self._error("send ping or sync; this socket only watches")

    async def table_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def _error(self, message: str) -> None:
        frame = {"type": "error", "code": "malformed", "message": message}
        await self.send(text_data=json.dumps(frame))

    @database_sync_to_async
    def _frame(self) -> tuple[int, dict[str, Any]] | None:
        try:
            public_id = uuid.UUID(str(self.scope["url_route"]["kwargs"]["public_id"]))
        except ValueError:
            return None  # not a match id: answered 4404 like an unknown one
        match = (
            Match.objects.select_related("host")
            .prefetch_related(
                Prefetch("seats", queryset=Seat.objects.select_related("user"))
            )
            .filter(public_id=public_id)
            .first()
        )
        if match is None:
            return None
        return match.pk, table_frame(match=match)
