"""A game's lobby chat, live: ``/ws/lobby/<game>/chat/``.

A read-only socket (``gameplay.watching.WatchConsumer``): anybody may read a
lobby's chat (signed in or not), so anybody may follow it. Lines are written
with the lobby chat's ``POST`` (``community.views.lobby_chat``); after the
commit the service sends each line, and each moderator's removal, to the
game's lobby group, and every socket passes it through ``lobby_event_for``:
a signed-in reader who switched chat off everywhere, or muted the author,
is not sent the line. Protocol: ``docs/protocol/live.md``.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async

from community import selectors
from community.services import lobby_group
from gameplay.rules import GameError, get_game
from gameplay.watching import WatchConsumer


def _reader_filters(user_id: int) -> tuple[bool, set[int]]:
    return (
        selectors.chat_off_everywhere(user_id=user_id),
        selectors.muted_ids(user_id=user_id),
    )


async def lobby_event_for(user: Any, event: dict[str, Any]) -> dict[str, Any] | None:
    """The frame ``user``'s socket gets for one lobby event, or None."""
    removed = event.get("removed")
    if isinstance(removed, int):
        return {"type": "chat_removed", "id": removed}
    line = event.get("message")
    if not isinstance(line, dict):
        return None
    if user is not None and user.is_authenticated:
        off, muted = await database_sync_to_async(_reader_filters)(user.pk)
        if off or line.get("author_id") in muted:
            return None
    return {"type": "chat", "message": line}


class LobbyChatConsumer(WatchConsumer):
    async def opening(self) -> tuple[str, dict[str, Any]] | None:
        game = str(self.scope["url_route"]["kwargs"].get("game_id", ""))
        try:
            get_game(game)
        except GameError:
            return None
        return lobby_group(game), {"type": "lobby_chat", "protocol": 1, "game": game}

    async def lobby_chat(self, event: dict[str, Any]) -> None:
        frame = await lobby_event_for(self.scope.get("user"), event)
        if frame is not None:
            await self.send(text_data=json.dumps(frame))
