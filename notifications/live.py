"""The player's own socket groups and the frames pushed to them.

Every open page of a signed-in player holds one ``/ws/me/`` connection in the
group ``player.<user id>``; anything that concerns the player (a match started,
whose move it is, a new notification) is sent to that group. Protocol:
``docs/protocol/live.md`` ("The player's socket").
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
Messages = list[tuple[str, dict[str, Any]]]


def player_group(user_id: int) -> str:
    return f"player.{user_id}"


def message(user_id: int, frame: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A (group, channel-layer message) pair carrying ``frame`` to the player."""
    text = json.dumps(frame, separators=(",", ":"))
    return player_group(user_id), {"type": "player.frame", "text": text}


def push(messages: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """Send the messages in one trip to the event loop; never raise.

    Called after commits; a channel layer outage must not turn a committed
    change (an accepted challenge, a paired round) into an error page.
    """
    messages = list(messages)
    layer = get_channel_layer()
    if not messages or layer is None:
        return
    try:
        async_to_sync(_send_all)(layer, messages)
    except Exception:
        logger.exception("push to players' sockets failed")


async def _send_all(layer, messages: list[tuple[str, dict[str, Any]]]) -> None:
    for group, msg in messages:
        await layer.group_send(group, msg)
