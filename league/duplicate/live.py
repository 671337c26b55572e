"""A duplicate event's page follows the event live, as tournament pages do
(league/live.py): every committed change of the event (a player joining, a
round dealt or over, a game ending) sends its watchers a frame saying only
that something changed, and the page (``static/js/tournament-live.js``, shared
with tournaments and arenas, hence the frame type ``tournament``) fetches
itself again and swaps in its live parts. The frame carries no data, so
anybody may watch and nothing sealed can leak; the page itself shows a round's
results only once it is over.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import Count, Q

from gameplay.models import MatchStatus
from gameplay.watching import WatchConsumer
from league.duplicate.models import DuplicateEvent, DuplicateGame

logger = logging.getLogger(__name__)


def event_group(event_id: int) -> str:
    return f"duplicate.{event_id}"


def live_version(event: DuplicateEvent) -> str:
    """Changes whenever the page's live parts would: status, round, players,
    games dealt and games over."""
    games = DuplicateGame.objects.filter(round__event=event).aggregate(
        n=Count("pk"),
        over=Count(
            "pk",
            filter=Q(match__status__in=[MatchStatus.FINISHED, MatchStatus.ABORTED]),
        ),
    )
    players = event.players.count()
    rounds_over = event.round_set.filter(status="finished").count()
    return (
        f"{event.status}.{event.current_round}.{rounds_over}.{players}."
        f"{games['n']}.{games['over']}"
    )


def _send(event_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass  # a worker or request thread: it may block on the send
    else:
        logger.debug("duplicate event %s changed inside an event loop", event_id)
        return
    text = json.dumps({"type": "tournament"})
    try:
        async_to_sync(layer.group_send)(
            event_group(event_id), {"type": "watch.frame", "text": text}
        )
    except Exception:  # a lost refresh must never undo a committed change
        logger.exception("live update of duplicate event %s failed", event_id)


def event_changed(event_id: int) -> None:
    """Tell the event's watchers once the current transaction commits."""
    transaction.on_commit(lambda: _send(event_id))


class DuplicateWatchConsumer(WatchConsumer):
    """Read-only: the version on connect, a frame on every change; pings."""

    async def opening(self) -> tuple[str, dict[str, Any]] | None:
        found = await self._version()
        if found is None:
            return None
        event_id, version = found
        return event_group(event_id), {"type": "tournament", "version": version}

    @database_sync_to_async
    def _version(self) -> tuple[int, str] | None:
        slug = str(self.scope["url_route"]["kwargs"]["slug"])
        event = DuplicateEvent.objects.filter(slug=slug).first()
        if event is None:
            return None
        return event.pk, live_version(event)
