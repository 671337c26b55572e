"""Chat on the match socket: the ``chat`` frame in, ``chat`` frames out.

Registered with ``gameplay.consumers`` by this app's config: the socket
passes a client's ``chat`` frame here and each ``chat`` group event through
``chat_event_for``, which sends a line only to a socket whose reader may see
it (``community.visibility``), has not muted its author and has chat on.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.utils import translation

from community import selectors, services, visibility
from community.errors import CommunityError
from gameplay.consumers import SocketBinding


async def on_chat_frame(
    binding: SocketBinding, message: dict[str, Any], request_id: Any
) -> list[dict[str, Any]]:
    try:
        await database_sync_to_async(_chat_post)(binding, message)
    except CommunityError as exc:
        return [
            {
                "type": "chat_error",
                "code": exc.code,
                "message": exc.message,
                "request_id": request_id,
            }
        ]
    return [{"type": "chat_ok", "request_id": request_id}]


def _chat_post(binding: SocketBinding, message: dict[str, Any]) -> None:
    """Post the line; a refusal is worded in the writer's own language (a
    socket has no locale middleware: the socket's, chosen as a page's is)."""
    with translation.override(binding.language):
        services.chat_post(
            user=binding.user,
            match_id=binding.match_pk,
            channel=str(message.get("channel", "")),
            text=message.get("text"),
            to_seat=message.get("to_seat"),
        )


def _reader_filters(user_id: int, match_pk: int) -> tuple[bool, set[int]]:
    return (
        selectors.chat_is_off(user_id=user_id, match_pk=match_pk),
        selectors.muted_ids(user_id=user_id),
    )


async def chat_event_for(
    binding: SocketBinding, event: dict[str, Any]
) -> dict[str, Any] | None:
    removed = event.get("removed")
    if isinstance(removed, int):
        # A moderator took a line down: every page drops it (only its id goes).
        return {"type": "chat_removed", "id": removed}
    line = event.get("message")
    if not isinstance(line, dict):
        return None
    if not visibility.may_read(
        channel=line["channel"],
        seat=line["seat"],
        to_seat=line["to_seat"],
        viewer_seat=binding.seat_number,
        rated=bool(event.get("rated")),
        over=bool(event.get("over")),
        system=bool(line.get("system")),
    ):
        return None
    user = binding.user
    if user is not None and user.is_authenticated:
        off, muted = await database_sync_to_async(_reader_filters)(
            user.pk, binding.match_pk
        )
        if off or line["author_id"] in muted:
            return None
    return {"type": "chat", "message": line}
