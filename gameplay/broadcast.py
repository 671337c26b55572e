"""Tell connected clients that a match changed, each seat only what it may see.

Called after the commit of every change. One channel-layer message per change
goes to the match's group, which every socket of the match joins (seats and
spectators): it carries each seat's own frame (view and events) and the
spectators' frame (held back by the table's spectator delay until the match is
over), each encoded once. Each socket sends its client only the frame of its
own seat (``consumers.MatchConsumer.match_frames``), or the public one. So a
change costs one publish, and each web process receives it once whatever
number of the match's sockets it holds (the pub/sub layer fans it out in the
process), instead of one publish per seat plus one for the spectators.

The seats' private frames thus travel to every web process holding a socket
of the match, never further: what leaves a process for a browser is chosen by
the seat the socket is bound to at connect (the signed-in user's seat).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

import orjson
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from gameplay import frames, selectors
from gameplay.live.reader import read_match
from gameplay.models import Match, MatchStatus, Seat

logger = logging.getLogger(__name__)


def match_group(public_id: Any) -> str:
    """Every socket of the match, seated or spectating, in any web process.

    Named by the match's public id (canonical text), which a socket knows
    from its URL: it joins before reading the match, so no broadcast falls
    between its read and its join."""
    return f"match.{public_id}"


# Where a ``match.frames`` message's frame text takes the seats' public part
# (``shared``): a NUL, which orjson never writes (it escapes U+0000 in
# strings), so nothing a player names or sends can stand for it.
SHARED_MARK = "\x00"
_SHARED_FRAGMENT = orjson.Fragment(SHARED_MARK.encode())


def frame_for(message: dict[str, Any], seat: int | None) -> str:
    """The encoded frame of ``seat`` (None: a spectator) in a ``match.frames``
    message. A seat without its own frame there (it resigned or was left while
    the match goes on) gets the public one, as does any seat number the
    message does not know. The seats' public part, which every frame of the
    message shares, travels once (``shared``) and is put back here."""
    text = message["public"]
    if seat is not None:
        text = message["frames"].get(str(seat), text)
    shared = message.get("shared")
    return text if shared is None else text.replace(SHARED_MARK, shared, 1)


# (group, channel-layer message) pairs that a listener adds to a broadcast.
Messages = list[tuple[str, dict[str, Any]]]
_listeners: list[Callable[[Match], Messages]] = []


def add_listener(listener: Callable[[Match], Messages]) -> None:
    """Have ``listener(match)`` add messages to every match broadcast.

    For other sockets that follow a match from outside its table (a player's
    own socket learns whose move it is, a waiting table's watchers see its
    seats). The listener gets the match as committed, seats and users loaded,
    and its messages travel in the same trip to the event loop as the seats'
    frames, so a move costs no extra round trip and gameplay names no app.
    """
    if listener not in _listeners:
        _listeners.append(listener)


def _listener_messages(match: Match) -> Messages:
    messages: Messages = []
    for listener in _listeners:
        try:
            messages.extend(listener(match))
        except Exception:  # one listener's fault must not silence the match
            logger.exception("broadcast listener %r failed", listener)
    return messages


def match_changed(
    *,
    match_id: int,
    state: dict[str, Any] | None = None,
    events: list[dict[str, Any]] | None = None,
    version: int | None = None,
    step: dict[str, Any] | None = None,
) -> None:
    """Send every seat and the spectators their frame for the match's new version.

    ``state`` and ``events`` are what the writer just committed, passed along so
    the common case needs no extra read of the state. Live moves made by the
    match's owner (``gameplay.live``) do not come here: it builds the same
    frames from the match it holds (``match_messages``) and sends them itself.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        match, overtaken = _load(match_id, state=state, version=version)
        if overtaken:
            # The match moved on before this broadcast ran: the newer version's
            # own broadcast carries its events; these would be misfiled.
            events = None
        # A frame built from a fresh read (no state passed: presence, seats,
        # results) tells every owner holding this match to read it again.
        messages = match_messages(
            match=match, events=events, step=step, reread=state is None
        )
        # One trip to the event loop for all groups, not one per group: called
        # from a consumer's database thread, every trip waits for the loop, and
        # the next move of every match waits for that thread.
        async_to_sync(_send_all)(layer, messages)
    except Exception:  # a broadcast failure must never undo a committed move
        logger.exception("broadcast of match %s version %s failed", match_id, version)


def match_messages(
    *,
    match: Match,
    events: list[dict[str, Any]] | None = None,
    step: dict[str, Any] | None = None,
    reread: bool = False,
) -> Messages:
    """The channel-layer messages of one broadcast, built from ``match`` as given.

    ``match`` must carry its seats (and their users) prefetched. One
    ``match.frames`` message to the match's group: ``frames`` maps each seat's
    number (as text) to that seat's own encoded frame, ``public`` is the
    spectators', ``shared`` the seats' public part that all of them carry,
    once (read a frame with ``frame_for``). It also carries the version, and,
    when the frames came from a fresh read (presence, seats, results), the
    status and the seats' changeable fields (``seat_rows``): other processes'
    owners (``gameplay.live``) use them to notice that the match moved on
    without them, or to take the seats' new presence over without reading the
    match again. Listeners' messages (other sockets: the players' own, a table's
    watchers) follow it.

    A step's seat frame leaves out its menu (``legal``) when this process
    sent that seat the same menu (same ``legal_digest``) in the frames of
    the version before: a real-time table's step usually changes few
    seats' menus, and eight ~30-entry menus were the largest part of its
    frames. The frame still names the menu by digest; the client keeps the
    last one and resyncs when it holds none of that digest.
    """
    seats = selectors.seats_of(match)
    # The part every frame shares (the seats' public part, a finished match's
    # result, rematch and rating changes) is the same in every frame: built once.
    base = frames.frame_base(match=match)
    public = frames.spectator_frame(match=match, events=events, step=step, base=base)
    # A seat that resigned or was left (a bot plays on) has no frame of its
    # own (``frame_for`` gives it the public one): its old owner's socket must
    # not receive the bot's private events.
    active = match.status == MatchStatus.ACTIVE
    # The menus this process put in the previous version's frames: a step's
    # frame leaves out a seat's menu that has not changed since
    # (``legal_digest`` names it). Other frames (presence, seats) are rare
    # and carry every menu.
    sent = _menus_sent(match) if events is not None else {}
    digests: dict[int, str] = {}
    encoded: dict[str, str] = {}
    # The seats' public part is the same list in every frame, and half of a
    # Kung Fu (2009) seat frame's bytes: encoded once, carried once in the
    # message (``shared``), put back into each socket's text (``frame_for``).
    shared = base["seats"]
    actors = frames.frame_actors(match=match)  # the same in every seat's frame
    for seat in seats:
        if seat.forfeited and active:
            continue
        frame = frames.seat_frame(
            match=match,
            seat=seat.number,
            events=events,
            step=step,
            base=base,
            actors=actors,
        )
        digest = frame.get("legal_digest")
        if digest is not None:
            digests[seat.number] = digest
            if frame["legal"] and sent.get(seat.number) == digest:
                del frame["legal"]
        # Encoded once here, not per socket: the group may hold many.
        encoded[str(seat.number)] = _encode_sharing(frame, shared)
    _remember_menus(match, digests if active else None)
    message: dict[str, Any] = {
        "type": "match.frames",
        "version": match.version,
        "frames": encoded,
        # A delayed spectators' frame has seats of its own (no clocks): then
        # its text is whole.
        "public": _encode_sharing(public, shared),
        "shared": encode_json(shared),
    }
    if reread:
        # Read afresh: the seats as committed, for owners to take over in place.
        message["status"] = match.status
        message["seats"] = seat_rows(seats)
    messages: Messages = [(match_group(match.public_id), message)]
    messages.extend(_listener_messages(match))
    return messages


# Writer-side memory of the menus in the seats' frames this process last
# built, per match: {match pk: (version, {seat: menu digest})}. Only a hint: a
# frame that leaves a menu out names it by digest, and a client that does not
# hold a menu of that digest (it missed the frame that carried it, or another
# process wrote the versions between) asks for a full frame, so stale or
# missing memory costs bytes or a resync, never a wrong menu. Bounded.
MENUS_KEPT = 4096
_menus: dict[int, tuple[int, dict[int, str]]] = {}
_menus_lock = threading.Lock()


def _menus_sent(match: Match) -> dict[int, str]:
    """The seats' menu digests this process sent at the version before this
    one (the frame a client following the match holds), else none."""
    kept = _menus.get(match.pk)
    if kept is None or kept[0] != match.version - 1:
        return {}
    return kept[1]


def _remember_menus(match: Match, digests: dict[int, str] | None) -> None:
    """Keep this broadcast's menu digests (None: the match is over, forget)."""
    with _menus_lock:
        _menus.pop(match.pk, None)
        if digests is None:
            return
        _menus[match.pk] = (match.version, digests)
        while len(_menus) > MENUS_KEPT:  # the least recently broadcast first
            _menus.pop(next(iter(_menus)))


SEAT_FIELDS = (
    "connected",
    "seen_at",
    "disconnected_at",
    "forfeited",
    "replaced_by_bot",
    "forfeit_reason",
    "clock_ms",
    "placement",
)
_STAMPS = ("seen_at", "disconnected_at")


def seat_rows(seats: list[Seat]) -> list[list[Any]]:
    """The seats' changeable fields, channel-layer safe (stamps as ISO text)."""
    rows = []
    for seat in seats:
        row: list[Any] = [seat.pk]
        for name in SEAT_FIELDS:
            value = getattr(seat, name)
            row.append(value.isoformat() if name in _STAMPS and value else value)
        rows.append(row)
    return rows


def apply_seat_rows(seats: list[Seat], rows: list[list[Any]]) -> None:
    """Put ``seat_rows`` (from a broadcast) onto a held match's seats."""
    by_pk = {row[0]: row[1:] for row in rows}
    for seat in seats:
        values = by_pk.get(seat.pk)
        if values is None:
            continue
        for name, value in zip(SEAT_FIELDS, values, strict=True):
            if name in _STAMPS and value:
                value = datetime.fromisoformat(value)
            setattr(seat, name, value)


async def send_messages(messages: Messages, *, wait: bool = True) -> None:
    """Send a broadcast's messages from the event loop (the owner's path).

    ``wait`` False: return once this process's sockets have them; the publish
    to other processes follows in order (the project's layer logs a failure
    instead of raising it). The live owner's moves use it, so the ack and the
    match's next intent do not wait on a Redis round trip."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    await _send_all(layer, messages, wait=wait)


def _load(
    match_id: int, *, state: dict[str, Any] | None, version: int | None
) -> tuple[Match, bool]:
    """(the match as committed with seats and users, whether it moved on).

    Two queries. When the writer passed its state and the row is still at its
    version, the state column (the largest) is not read and decoded again.
    """
    if state is None:
        return _read(match_id), False
    match = _read(match_id, with_state=False)
    if version is not None and version != match.version:
        return _read(match_id), True
    match.state = state
    return match, False


def _read(match_id: int, *, with_state: bool = True) -> Match:
    match = read_match(match_id, with_state=with_state)
    if match is None:
        raise Match.DoesNotExist(f"no match {match_id}")
    return match


# The largest integer a client may send where a frame echoes it (a version, a
# request id): orjson encodes 64-bit integers only, and a browser reads
# integers exactly up to 2**53 - 1 (``Number.MAX_SAFE_INTEGER``).
MAX_FRAME_INT = 2**53 - 1


def frame_int(value: Any, *, low: int = 0) -> bool:
    """Whether ``value`` is an integer a frame can carry (bools are not)."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and low <= value <= MAX_FRAME_INT
    )


def encode(frame: dict[str, Any]) -> str:
    """A frame as compact JSON text, as every socket sends it.

    orjson, not ``json``: a real-time table encodes eight seats' frames (a few
    KB each) per intent, and the standard encoder was the largest single cost
    of a broadcast (about 7x slower on these frames). Seat numbers may key a
    view's dicts, hence ``OPT_NON_STR_KEYS``; the text is UTF-8, not escaped.
    """
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


def encode_json(value: Any) -> str:
    """Any part of a frame as ``encode`` writes it."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _encode_sharing(frame: dict[str, Any], shared: list[Any]) -> str:
    """``frame`` encoded with ``SHARED_MARK`` where its seats are, when they
    are the broadcast's ``shared`` list itself; else whole."""
    if frame.get("seats") is not shared:
        return encode(frame)
    frame["seats"] = _SHARED_FRAGMENT  # the caller's own copy of the base
    return encode(frame)


async def _send_all(
    layer, messages: list[tuple[str, dict[str, Any]]], *, wait: bool = True
) -> None:
    """A broadcast's messages, in order (the match's frames first).

    The project's layer (``config.channel_layer``) hands them to this
    process's sockets at once and publishes them for other processes in one
    round trip (``wait`` False: without waiting for it); any other layer gets
    ``group_send`` one by one, waited for.
    """
    send_many = getattr(layer, "group_send_many", None)
    if send_many is not None:
        await send_many(messages, wait=wait)
        return
    for group, message in messages:
        await layer.group_send(group, message)
