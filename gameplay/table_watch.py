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
from django.db.models import Prefetch
from django.utils.translation import gettext_noop as N_

from gameplay import broadcast
from gameplay.models import Match, Seat
from gameplay.selectors import seats_of
from gameplay.turns import match_url
from gameplay.watching import WatchConsumer


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
            for seat in seats_of(match)
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
    return [(table_group(match.pk), {"type": "watch.frame", "text": text})]


class TableWatchConsumer(WatchConsumer):
    """Read-only: sends the table on connect and on every change; takes pings
    and ``sync`` (the table again)."""

    accepted = N_("send ping or sync; this socket only watches")

    async def opening(self) -> tuple[str, dict[str, Any]] | None:
        found = await self._frame()
        if found is None:
            return None
        match_pk, frame = found
        return table_group(match_pk), frame

    async def command(self, kind: object) -> bool:
        if kind != "sync":
            return False
        found = await self._frame()
        if found is not None:
            await self.send(text_data=json.dumps(found[1]))
        return True

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
