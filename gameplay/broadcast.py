"""Tell connected clients that a match changed, each seat only what it may see.

Called after the commit of every change. Each seat's group gets that seat's own
view and events; the public group gets the spectators' view, held back by the
table's spectator delay until the match is over.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from gameplay import selectors
from gameplay.models import Match

logger = logging.getLogger(__name__)


def seat_group(match_id: int, seat: int) -> str:
    return f"match.{match_id}.seat.{seat}"


def public_group(match_id: int) -> str:
    return f"match.{match_id}.public"


def match_changed(
    *,
    match_id: int,
    state: dict[str, Any] | None = None,
    events: list[dict[str, Any]] | None = None,
    version: int | None = None,
) -> None:
    """Send every seat and the spectators their frame for the match's new version.

    ``state`` and ``events`` are what the writer just committed, passed along so
    the common case needs no extra read of the state.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        match = Match.objects.prefetch_related("seats__user").get(pk=match_id)
        if version is not None and version != match.version:
            # The match moved on before this broadcast ran: the newer version's
            # own broadcast carries its events; these would be misfiled.
            events = None
        elif state is not None:
            match.state = state
        send = async_to_sync(layer.group_send)
        for seat in match.seats.all():
            frame = selectors.seat_frame(match=match, seat=seat.number, events=events)
            send(
                seat_group(match_id, seat.number),
                {"type": "match.frame", "frame": frame},
            )
        frame = selectors.spectator_frame(match=match, events=events)
        send(public_group(match_id), {"type": "match.frame", "frame": frame})
    except Exception:  # a broadcast failure must never undo a committed move
        logger.exception("broadcast of match %s version %s failed", match_id, version)
