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
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

import orjson
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.exceptions import SynchronousOnlyOperation
from django.utils import timezone

from config.channel_layer import PUBLISH_IF_SHARED
from gameplay import frames, selectors
from gameplay.clocks import presence_ttl
from gameplay.live.reader import read_match
from gameplay.models import Match, MatchStatus, Seat
from gameplay.rules import get_game

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
    message; empty when the step sends that seat (or the spectators)
    nothing (a quiet step, ``match_messages``). A seat without its own
    frame there (it resigned or was left while the match goes on) gets the
    public one, as does any seat number the message does not know. The
    seats' public part, which every frame of the message shares, travels
    once (``shared``) and is put back here."""
    text = message["public"]
    if seat is not None:
        text = message["frames"].get(str(seat), text)
    if not text:
        return text
    shared = message.get("shared")
    return text if shared is None else text.replace(SHARED_MARK, shared, 1)


def with_ack(text: str, request_id: Any) -> str:
    """An encoded state frame that also acknowledges the ``act`` that made
    its version (``"ack": true`` and the act's ``request_id``): the mover's
    socket sends one frame for its intent, not an ack and then the frame
    (docs/protocol/live.md, ``act`` with ``"ack": "state"``)."""
    return '{"ack":true,"request_id":' + encode_json(request_id) + "," + text[1:]


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
        except SynchronousOnlyOperation:
            # Built on the event loop (``gameplay.live.owner``), a listener
            # that reads or writes the database: the caller builds the whole
            # broadcast again on a database thread.
            raise
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
    quiet: bool = False,
    base: dict[str, Any] | None = None,
) -> Messages:
    """The channel-layer messages of one broadcast, built from ``match`` as given.

    ``match`` must carry its seats (and their users) prefetched. One
    ``match.frames`` message to the match's group: ``frames`` maps each seat's
    number (as text) to that seat's own encoded frame, ``public`` is the
    spectators', ``shared`` the seats' public part that all of them carry,
    once (read a frame with ``frame_for``). It also carries the version and
    this process's ``origin``, and, when the frames came from a fresh read
    (presence, seats, results), the status and the seats' changeable fields
    (``seat_rows``): other processes' owners (``gameplay.live``) use them to
    notice that the match moved on without them, or to take the seats' new
    presence over without reading the match again. Listeners' messages
    (other sockets: the players' own, a table's watchers) follow it.

    A step's seat frame leaves out its menu (``legal``) when this process
    sent that seat the same menu (same ``legal_digest``) in the frames of
    the version before: a real-time table's step usually changes few
    seats' menus, and eight ~30-entry menus were the largest part of its
    frames. The frame still names the menu by digest; the client keeps the
    last one and resyncs when it holds none of that digest.

    ``quiet`` (the live owner's own intents): a seat for whom the step
    changed nothing is sent no frame at all (its entry in ``frames`` is
    empty): its view, menu, timers and the seats' part are what this process
    sent it last, and the step's events are, for it, only the engine's
    ``quiet_events`` of another seat (Kung Fu (2009): rearranging a hand,
    building an offer). The seat's next frame names the last version it was
    sent (``since``), so its client knows it missed nothing in between.
    Most intents of a real-time table are such, and each frame was a socket
    write. A step that sends no other seat anything sends the spectators
    nothing either (``public`` empty; not while a delay holds their frames
    back), with the same ``since`` in their next frame.

    The message goes to Redis only when another process is known to hold
    sockets of the match (``config.channel_layer.PUBLISH_IF_SHARED``): a
    process joining the match's group says hello and waits for every other
    process in it to answer before its socket reads the match, and each
    answers only once it publishes every message of the group. A match whose
    sockets all sit in the owner's process (routing by match) so costs no
    publish, nor its echo, a step.

    ``base``: the match's ``frames.frame_base``, when the caller built it
    for a frame of its own too (a socket's connect).
    """
    seats = selectors.seats_of(match)
    # The part every frame shares (the seats' public part, a finished match's
    # result, rematch and rating changes) is the same in every frame: built once.
    # The seats' public part is the same list in every frame, and half of a
    # Kung Fu (2009) seat frame's bytes: encoded once, carried once in the
    # message (``shared``), put back into each socket's text (``frame_for``).
    if base is None:
        shared, shared_text = seats_part(match)
        base = frames.frame_base(match=match, seats=shared)
    else:
        shared = base["seats"]
        shared_text = encode_json(shared)
    # A seat that resigned or was left (a bot plays on) has no frame of its
    # own (``frame_for`` gives it the public one): its old owner's socket must
    # not receive the bot's private events.
    active = match.status == MatchStatus.ACTIVE
    # What this process sent each seat up to the previous version: a step's
    # frame leaves out a seat's menu that has not changed since (``legal_digest``
    # names it), and a quiet step sends an unchanged seat nothing. Other frames
    # (presence, seats: the same version again) are rare and carry every menu;
    # they too name the version of a seat's last frame (``since``).
    prior = _menus.get(match.pk)
    after = events is not None and prior is not None and prior[0] == match.version - 1
    again = events is None and prior is not None and prior[0] == match.version
    kept = prior[2] if prior is not None and (after or again) else {}
    quiet_types = _quiet_types(match, events, step) if quiet and active else None
    skip = (
        after
        and quiet_types is not None
        and prior is not None
        and prior[1] == shared_text
    )
    # The version of a seat's frame for the step before this one, or of this
    # frame's own version when it carries no step's events.
    previous = match.version - 1 if events is not None else match.version
    mover = step.get("seat") if step is not None else None
    # A step made only of the mover's quiet events changes nothing another
    # seat sees (the engine's word: docs/engine.md, ``quiet_events``): the
    # others' frames are not even built.
    mine = None if mover is None else _SEAT_KEYS.get(mover, str(mover))
    quiet_set = quiet_types or frozenset()
    others_unchanged = skip and all(
        ev["type"] in quiet_set and ev["private"].keys() <= {mine}
        for ev in events or ()
    )
    record: dict[int, tuple[int, tuple[Any, ...], str | None]] = {}
    # The spectators' frame (and that of a seat that left): a step that
    # changed nothing another seat sees changed nothing public either, and
    # the spectators are sent nothing too, unless their frame is held back
    # by a delay (then each step shows them an older one). Their next frame
    # names the version of their last one (``since``), as a seat's does.
    last_public = kept.get(SPECTATORS)
    if (
        others_unchanged
        and last_public is not None
        and selectors.spectator_version(match=match) == match.version
    ):
        public_text = ""
        record[SPECTATORS] = last_public
    else:
        public = frames.spectator_frame(
            match=match, events=events, step=step, base=base
        )
        if (
            last_public is not None
            and last_public[0] < previous
            and public.get("version") == match.version
        ):
            public["since"] = last_public[0]
        record[SPECTATORS] = (match.version, (), None)
        # A delayed spectators' frame has seats of its own (no clocks): then
        # its text is whole.
        public_text = _encode_sharing(public, shared)
    encoded: dict[str, str] = {}
    actors = frames.frame_actors(match=match)  # the same in every seat's frame
    for seat in seats:
        number = seat.number
        if seat.forfeited and active:
            continue
        if others_unchanged and number != mover and number in kept:
            encoded[str(number)] = ""  # nothing new for this seat
            record[number] = kept[number]
            continue
        frame = frames.seat_frame(
            match=match,
            seat=number,
            events=events,
            step=step,
            base=base,
            actors=actors,
        )
        digest = frame.get("legal_digest")
        seen = (
            frame["view"],
            frame["actors"],
            digest,
            frame.get("timers"),
            frame.get("retract"),
        )
        last = kept.get(number)
        if (
            skip
            and last is not None
            and number != mover
            and last[1] == seen
            and _quiet_for(frame["events"], quiet_types)
        ):
            encoded[str(number)] = ""  # nothing new for this seat
            record[number] = last
            continue
        if last is not None:
            if after and frame["legal"] and last[2] == digest:
                del frame["legal"]
            if last[0] < previous:
                frame["since"] = last[0]  # the steps between were quiet for it
        record[number] = (match.version, seen, digest)
        # Encoded once here, not per socket: the group may hold many.
        encoded[str(number)] = _encode_sharing(frame, shared)
    _remember_sent(match, (match.version, shared_text, record) if active else None)
    message: dict[str, Any] = {
        "type": "match.frames",
        "version": match.version,
        "origin": ORIGIN,
        "frames": encoded,
        "public": public_text,
        "shared": shared_text,
        # Not published unless another process is known to hold sockets of
        # the match.
        PUBLISH_IF_SHARED: True,
    }
    if reread:
        # Read afresh: the seats as committed, for owners to take over in place.
        message["status"] = match.status
        message["seats"] = seat_rows(seats)
    messages: Messages = [(match_group(match.public_id), message)]
    messages.extend(_listener_messages(match))
    return messages


# The seats' public part each match's last broadcast carried, with what it
# was built from: {match pk: (the seats list, its key, the part, its text)}.
# A step of a live table mostly leaves the seats as they were, and the part
# (every seat's name, presence, flags) with its encoding was about a tenth of
# a Kung Fu (2009) intent's server CPU (docs/performance.md, "Kung Fu (2009)
# live intents"). Bounded; a miss only builds it again.
SEAT_PARTS_KEPT = 4096
_seat_parts: dict[int, tuple[list[Seat], tuple[Any, ...], list[Any], str]] = {}
_seat_parts_lock = threading.Lock()


def seats_part(match: Match) -> tuple[list[dict[str, Any]], str]:
    """``frames.seats_public(match)`` and its text (``encode_json``), kept
    for the next broadcast of the match while the seats stay as they are.

    Kept only where the part is a function of the seats' own fields and
    nothing else: no time control (deadlines and clocks run with the time,
    and a correspondence player's vacation shows), and every seat a person
    present now (an absent seat's or a bot's claim countdown reads the
    match). Presence runs with the time too (a seat not vouched for within
    the presence window is shown away), so the key holds each seat's
    presence as of now, not the time it was last vouched for; a part built
    with anyone shown away is never kept. The seats must be the very list
    the copy holds (``selectors.seats_of``): a copy read again is a miss.
    """
    seats = selectors.seats_of(match)
    key = _seats_key(match, seats)
    if key is not None:
        kept = _seat_parts.get(match.id)
        if kept is not None and kept[0] is seats and kept[1] == key:
            return kept[2], kept[3]
    part = frames.seats_public(match=match)
    text = encode_json(part)
    if key is not None and all(seat["connected"] for seat in part):
        with _seat_parts_lock:
            _seat_parts[match.id] = (seats, key, part, text)
            if len(_seat_parts) > SEAT_PARTS_KEPT:
                _seat_parts.pop(next(iter(_seat_parts)))
    return part, text


def _seats_key(match: Match, seats: list[Seat]) -> tuple[Any, ...] | None:
    """Every field of the seats that ``frames.seats_public`` shows when each
    seat is a person present now (None: the part depends on more)."""
    if match.time_control or match.id is None:
        return None
    now = timezone.now()
    ttl = presence_ttl()
    key = []
    for seat in seats:
        # ``clocks.seat_is_present``, inline: eight seats every step.
        seen = seat.seen_at
        if (
            seat.agent
            or seat.replaced_by_bot
            or seat.connected <= 0
            or seen is None
            or now - seen >= ttl
        ):
            return None
        key.append(
            (
                seat.number,
                seat.label,
                seat.user_id,
                seat.disconnected_at,
                seat.forfeited,
                seat.forfeit_reason,
                seat.clock_ms,
                seat.placement,
            )
        )
    return (match.status, *key)


_SEAT_KEYS = {n: str(n) for n in range(16)}  # events' private parts' keys
# The spectators' entry in what a process remembers sending (``_menus``).
SPECTATORS = -1


def _quiet_types(
    match: Match, events: list[dict[str, Any]] | None, step: dict[str, Any] | None
) -> frozenset[str] | None:
    """The engine's ``quiet_events`` when this broadcast is one seat's own
    step (a timeout or a table's step is told to everyone: the log names
    it); else None."""
    if events is None or step is None or step.get("kind") != "move":
        return None
    return getattr(get_game(match.game), "quiet_events", None)


def _quiet_for(seen: list[dict[str, Any]], quiet_types: frozenset[str] | None) -> bool:
    """Whether a seat's events of a step (``view_events``) tell it nothing:
    each one quiet and without a private part of its own."""
    assert quiet_types is not None
    return all(ev["type"] in quiet_types and not ev["private"] for ev in seen)


# This process's name in the messages it builds: a process that sees a
# match's message from another process forgets what it sent there
# (``heard``), since those frames replaced what its own sockets' clients hold.
ORIGIN = uuid.uuid4().hex[:12]

# Writer-side memory of the seats' frames this process last built, per match:
# {match pk: (version, the seats' part as sent, {seat: (version of the seat's
# last frame, what that frame showed it, its menu digest)})}. Only a hint: a
# frame that leaves a menu out names it by digest, and a client that does
# not hold a menu of that digest (it missed the frame that carried it, or
# another process wrote the versions between) asks for a full frame; a frame
# after quiet steps names the version of the seat's last frame (``since``),
# and a client that has not got that far asks for the history. So stale or
# missing memory costs bytes or a resync, never a wrong menu. Bounded.
MENUS_KEPT = 4096
Sent = tuple[int, str, dict[int, tuple[int, tuple[Any, ...], str | None]]]
_menus: dict[int, Sent] = {}
_menus_lock = threading.Lock()


def _remember_sent(match: Match, sent: Sent | None) -> None:
    """Keep this broadcast's record (None: the match is over, forget)."""
    with _menus_lock:
        _menus.pop(match.pk, None)
        if sent is None:
            return
        _menus[match.pk] = sent
        while len(_menus) > MENUS_KEPT:  # the least recently broadcast first
            _menus.pop(next(iter(_menus)))


def heard(match_pk: int, message: dict[str, Any]) -> None:
    """A ``match.frames`` message reached this process: one built by another
    process may have replaced what the seats' clients hold (a presence
    frame at the same version), so what this process sent is forgotten."""
    if message.get("origin") != ORIGIN and match_pk in _menus:
        with _menus_lock:
            _menus.pop(match_pk, None)


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
