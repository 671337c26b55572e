"""Arena pages follow their arena live over ``/ws/arenas/<slug>/``.

As for tournaments (``league.live``): every committed change of the arena,
a player or a game sends the watchers a frame that carries only that
something changed (and, on connect, the version), and the page
(``static/js/tournament-live.js``, shared) fetches itself again and swaps in
its live parts. Nothing hidden can leak, so anybody may watch.
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

from gameplay.watching import WatchConsumer
from league.tournaments.arena.models import Arena, ArenaGame, ArenaPlayer
from league.tournaments.arena.selectors import live_version

logger = logging.getLogger(__name__)

#: The frame type the shared live-page script listens for.
FRAME_TYPE = "tournament"


def arena_group(arena_id: int) -> str:
    return f"arena.{arena_id}"


def _send(arena_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass  # a worker or request thread may block
    else:
        logger.debug("arena %s changed inside an event loop", arena_id)
        return
    try:
        async_to_sync(layer.group_send)(
            arena_group(arena_id),
            {"type": "watch.frame", "text": json.dumps({"type": FRAME_TYPE})},
        )
    except Exception:  # a lost refresh must never undo a committed change
        logger.exception("live update of arena %s failed", arena_id)


def arena_changed(arena_id: int) -> None:
    """Tell the arena's watchers once the current transaction commits."""
    transaction.on_commit(lambda: _send(arena_id))


def _on_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    arena_id = instance.pk if isinstance(instance, Arena) else instance.arena_id
    if arena_id is not None:
        arena_changed(arena_id)


def connect_signals() -> None:
    from django.db.models.signals import post_delete, post_save

    for model in (Arena, ArenaPlayer, ArenaGame):
        post_save.connect(_on_saved, sender=model, dispatch_uid=f"arena.live.{model}")
    post_delete.connect(_on_saved, sender=ArenaPlayer, dispatch_uid="arena.live.del")


class ArenaWatchConsumer(WatchConsumer):
    """Read-only: the version on connect, a frame on every change; pings."""

    async def opening(self) -> tuple[str, dict[str, Any]] | None:
        found = await self._version()
        if found is None:
            return None
        arena_id, version = found
        return arena_group(arena_id), {"type": FRAME_TYPE, "version": version}

    @database_sync_to_async
    def _version(self) -> tuple[int, str] | None:
        slug = str(self.scope["url_route"]["kwargs"]["slug"])
        arena = Arena.objects.filter(slug=slug).first()
        if arena is None:
            return None
        return arena.pk, live_version(arena)
