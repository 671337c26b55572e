"""A live match's sockets in this web process: opened, closed, resynced.

A socket's connect counts the user's seat in and reads the match in one
database call (one round trip on PostgreSQL), and the read becomes the
owner's copy (``owner.attach``); its close counts the seat out and tells the
table who is connected now. Both run on Channels' one database thread, not
the moves' (``open_socket``'s comment says why). The moves themselves are
``gameplay.live.owner``'s.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from django.utils import timezone

from gameplay import broadcast, frames, selectors
from gameplay.contexts import match_is_sealed
from gameplay.live import copies, reader
from gameplay.live.copies import LiveMatch
from gameplay.live.owner import attach
from gameplay.models import Match
from gameplay.services import connections

logger = logging.getLogger(__name__)


def _frames_of(
    match: Match,
    user: Any,
    seated: bool,
    after_version: int | None,
    base: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """A socket's own frames from ``match`` as just read (``base``: its
    ``frames.frame_base``, when the caller built it for a broadcast too)."""
    out: list[dict[str, Any]] = []
    # A seat that resigned or was left sees only the public view from then on.
    seat = selectors.viewer_seat(match=match, user=user) if seated else None
    if after_version is not None:
        steps = selectors.events_since(
            match=match, seat=seat, after_version=after_version
        )
        out.append({"type": "history", "after_version": after_version, "steps": steps})
    if seat is None:
        out.append(frames.spectator_frame(match=match, base=base))
    else:
        out.append(frames.seat_frame(match=match, seat=seat, base=base))
    return out


def _frames_sync(
    live: LiveMatch, user: Any, seated: bool, after_version: int | None
) -> list[dict[str, Any]]:
    """A socket's own frames (``sync``): from a fresh read, which also becomes
    the copy (a client asking to resync may know of a move this process
    missed)."""
    return _frames_of(copies.read(live), user, seated, after_version)


@dataclass(frozen=True)
class Opened:
    """What a socket learns at connect, from one database call."""

    match_pk: int
    seat_number: int | None  # the user's seat (None: a spectator)
    seat_pk: int | None
    match: Match  # as read after the seat was counted
    frames: list[dict[str, Any]]
    messages: broadcast.Messages  # the table's broadcast: who is connected now
    # A spectator of a sealed match (``gameplay.contexts``): nothing to send,
    # the socket is closed with 4403.
    sealed: bool = False


def _open_sync(public_id: str, user: Any) -> Opened | None:
    """A socket opened on ``public_id``: count the user's seat (if they have
    one) and read the match, after the count, for the socket's own frame,
    the table's broadcast and this process's copy.

    One call on the database thread, and on PostgreSQL one round trip: the
    count (by the match's public id) and the read go as one message
    (``reader.read_match_after``); the seat is taken from the read's seats.
    None: no such match.
    """
    counting = user is not None and user.is_authenticated
    statement = None
    if counting:
        # No row for a user without a seat: then nothing is counted.
        statement = connections.seat_connected_statement(
            user=user,
            now=timezone.now(),
            match=(reader.match_id_sql(), [reader.public_id_param(public_id)]),
        )
    counted, match, _also = reader.read_match_after(statement, public_id=public_id)
    if match is None:
        return None
    match_pk = match.pk
    if counted:
        connections.seat_counted_in(match_id=match_pk, user=user, announce=False)
    seat = selectors.user_seat(match=match, user=user)
    seated = seat is not None
    if not seated and match_is_sealed(match):
        return Opened(
            match_pk=match_pk,
            seat_number=None,
            seat_pk=None,
            match=match,
            frames=[],
            messages=[],
            sealed=True,
        )
    # The part every frame shares, built once for the socket's own frame and
    # the table's broadcast.
    base = frames.frame_base(match=match)
    own = _frames_of(match, user, seated, None, base)
    messages: broadcast.Messages = []
    if seated:
        try:
            messages = broadcast.match_messages(match=match, reread=True, base=base)
        except Exception:  # the socket still gets its own frame
            logger.exception("connect broadcast of match %s failed", match_pk)
    return Opened(
        match_pk=match_pk,
        seat_number=seat.number if seat is not None else None,
        seat_pk=seat.pk if seat is not None else None,
        match=match,
        frames=own,
        messages=messages,
    )


def _close_sync(match_pk: int, user: Any) -> broadcast.Messages:
    """A seated socket closed: the seat counted out (and the grace check armed
    when it was the last), and the table's broadcast of who is connected now,
    built here from a fresh read and sent by the event loop (``close_socket``).

    A finished match's (every finished game closes its players' sockets):
    the count, the read and the rematch's question (its frames carry the
    rematch) as one round trip on PostgreSQL (``reader.read_match_after``);
    a match in play's: the seat's locked count-out
    (``connections.seat_disconnected_in_play``), then the read."""
    if user is None or not user.is_authenticated:
        return []  # no seat: nothing changed at the table
    now = timezone.now()
    statement = connections.counted_out_after_the_end_statement(
        match_id=match_pk, user=user, now=now
    )
    counted, match, rematch = reader.read_match_after(
        statement,
        match_id=match_pk,
        also=selectors.open_rematch_statement(match_pk),
    )
    if counted and match is not None:
        match.open_rematch = bool(rematch)
    if not counted:
        if not connections.seat_disconnected_in_play(
            match_id=match_pk, user=user, now=now, announce=False
        ):
            return []  # no seat: nothing changed at the table
        match = None
    try:
        if match is None:
            match = copies.read(LiveMatch(pk=match_pk))
        return broadcast.match_messages(match=match, reread=True)
    except Exception:  # counted out; the others learn it from the next beat
        logger.exception("disconnect broadcast of match %s failed", match_pk)
        return []


_frames_in_db_thread = database_sync_to_async(_frames_sync)
_open_in_db_thread = database_sync_to_async(_open_sync)
_close_in_db_thread = database_sync_to_async(_close_sync)


async def open_socket(*, public_id: str, user: Any) -> Opened | None:
    """A socket of this process opened on a match (``public_id`` canonical):
    the seat counted, the table told, the match held (``attach``; the socket
    must ``detach`` when it closes). None: no such match, nothing held."""
    # On Channels' one database thread, not the moves' threads: when many
    # sockets open at once (a round of 400 games starting) on a saturated
    # process, connects there starved the moves of the games in play (p50
    # 2 s, moves lost in ``bench/live_load.py``); on the one thread the games
    # in play keep moving and the connects wait.
    opened = await _open_in_db_thread(public_id, user)
    if opened is None or opened.sealed:
        return opened
    live = attach(opened.match_pk)
    # The read becomes the copy unless a move holds the match (it sets the
    # copy itself) or the copy is already newer.
    if not live.lock.locked() and (
        live.match is None or live.match.version <= opened.match.version
    ):
        live.match = opened.match
        live.reads += 1
    try:
        await broadcast.send_messages(opened.messages)
    except Exception:  # Redis away: the others learn it from the next beat
        logger.warning(
            "connect broadcast of match %s failed", opened.match_pk, exc_info=True
        )
    return opened


async def close_socket(*, match_pk: int, user: Any) -> None:
    """A seated socket of this process closed: count it out and tell the
    table (on Channels' database thread, like ``open_socket``; the broadcast
    leaves from the event loop, not by a hop back to it)."""
    messages = await _close_in_db_thread(match_pk, user)
    try:
        await broadcast.send_messages(messages)
    except Exception:  # Redis away: the others learn it from the next beat
        logger.warning("disconnect broadcast of match %s failed", match_pk)


async def state_frames(
    *, match_pk: int, user: Any, seated: bool, after_version: int | None
) -> list[dict[str, Any]]:
    live = copies.matches.get(match_pk) or LiveMatch(pk=match_pk)
    return await _frames_in_db_thread(live, user, seated, after_version)
