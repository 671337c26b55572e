"""The live-match WebSocket: translate frames to service calls and back.

Protocol: ``docs/protocol/live.md``. A connection is bound to the seat of the
signed-in user at that match, or is a spectator; the client never chooses its
seat, so a forged seat is refused. No rules live here.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, cast

import orjson
from asgiref.typing import WebSocketDisconnectEvent, WebSocketSendEvent
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.utils import translation
from django.utils.functional import empty
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

from config.channel_layer import set_local_hook
from gameplay import broadcast, presence, services
from gameplay.errors import BadRequest, MatchError
from gameplay.live import owner, sockets
from languages.middleware import connection_language

logger = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
# A person clicks a few times a second at most; scripts get throttled.
RATE_PER_SECOND = 20.0
RATE_BURST = 40.0


@dataclass(frozen=True)
class SocketBinding:
    """What an extension may know of a socket: its match, user and seat."""

    match_pk: int
    user: Any
    seat_number: int | None
    # The language the socket answers in (``connection_language``).
    language: str = "en"


# Other apps add frame types to this socket without gameplay importing them
# (the community app's chat). A frame handler answers a client frame with the
# frames to send back; an event filter gets each ``match.extension`` group
# event of its kind and returns the frame this socket may see, or None.
FrameHandler = Callable[
    [SocketBinding, dict[str, Any], Any], Awaitable[list[dict[str, Any]]]
]
EventFilter = Callable[
    [SocketBinding, dict[str, Any]], Awaitable[dict[str, Any] | None]
]
_frame_handlers: dict[str, FrameHandler] = {}
_event_filters: dict[str, EventFilter] = {}


def register_extension(
    *,
    frame_type: str,
    handler: FrameHandler,
    event_kind: str,
    event_filter: EventFilter,
) -> None:
    """Route client frames of ``frame_type`` and group events of ``event_kind``."""
    _frame_handlers[frame_type] = handler
    _event_filters[event_kind] = event_filter


# This process's live match sockets by channel name, for the channel
# layer's hook below.
_sockets: dict[str, MatchConsumer] = {}


def _take_quiet(channel: str, message: dict[str, Any]) -> bool:
    """The channel layer's local hook (``config.channel_layer``): a step's
    message that sends this socket's seat nothing (``broadcast.match_messages``,
    quiet steps: most of a real-time table's) is dealt with here, without
    waking the consumer; the version it reached is noted for the beats."""
    if message.get("type") != "match.frames":
        return False
    socket = _sockets.get(channel)
    if socket is None:
        return False
    version = message["version"]
    if version == socket.through + 1:  # ``heard``, inline: eight sockets a step
        socket.through = version
    seat = socket.seat_number
    # As ``broadcast.frame_for`` picks: the seat's own frame, else the public.
    text = message["frames"].get(str(seat)) if seat is not None else None
    if (message["public"] if text is None else text) == "":
        return True
    # A frame of ``version`` for this socket now waits in its queue: an ``act``
    # that made ``version`` may have its ack folded into it (``on_act``).
    socket.queued = version
    return False


set_local_hook(_take_quiet)


def _parse_frame(text: str) -> Any:
    """A client frame's JSON: orjson first, as the frames are written (the
    standard parser was 18 µs of each intent's CPU in the live server); what
    orjson refuses (an integer beyond any float, NaN) goes to the standard
    parser, so every frame reads as it always did. orjson reads an integer
    past 64 bits as a float, which is no frame integer either way
    (``broadcast.frame_int``)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _text_frame(text: str) -> WebSocketSendEvent:
    """The server's message for a text frame, as Channels' ``send`` builds it:
    ``text`` alone (the ASGI spec lets ``bytes`` be left out, and Channels'
    test communicator refuses a message with both keys; asgiref's type
    names both, hence the cast)."""
    return cast(WebSocketSendEvent, {"type": "websocket.send", "text": text})


# Put in a consumer's inbox when its client's receive failed.
_PUMP_FAILED = object()


async def _pump(receive: Any, inbox: asyncio.Queue[Any]) -> None:
    """The client's messages into the consumer's inbox, until it is gone."""
    while True:
        message = await receive()
        inbox.put_nowait(message)
        if message["type"] == "websocket.disconnect":
            return


def _pump_ended(inbox: asyncio.Queue[Any], pump: asyncio.Future[None]) -> None:
    if not pump.cancelled() and pump.exception() is not None:
        inbox.put_nowait(_PUMP_FAILED)


def _unwrapped(user: Any) -> Any:
    """The user behind Channels' lazy ``scope["user"]`` (resolved by the auth
    middleware before the consumer runs): every move reads the user's id and
    authentication a few times, and each read through the proxy is two extra
    Python calls."""
    wrapped = getattr(user, "_wrapped", empty)
    return user if wrapped is empty else wrapped


class MatchConsumer(AsyncWebsocketConsumer):
    match_pk: int
    seat_number: int | None
    seat_pk: int | None
    groups_joined: list[str]
    shown: int
    through: int

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Channels' consumer with one inbox: its channel's queue, into which
        a task puts the client's messages as they arrive.

        Channels waits on the client's receive and the channel's with
        ``asyncio.wait`` for every message, and starts a new task for the
        next receive after each: about fifty Python calls a message, four
        messages an intent at a real-time table (its frame, the step's
        frames), a seventh of the calls of the server's whole intent
        (docs/performance.md, "Kung Fu (2009) live intents"). Here the
        consumer awaits its one queue, messages are dispatched in the order
        they arrived, and each message reaches the handler as Channels hands
        it (the layer's ``deserialize``). A layer without an inbox (another
        backend) gets Channels' own loop.

        The inbox is read in a task of its own (``_read_inbox``): run here,
        under the server's and the middlewares' coroutines, every wake-up of
        the consumer (each message, each database round trip) resumed all
        seven of them too.
        """
        # The project's layer (``config.channel_layer``), or any other.
        layer: Any = get_channel_layer(self.channel_layer_alias)
        if layer is None or not hasattr(layer, "inbox"):
            await super().__call__(scope, receive, send)
            return
        self.scope = scope
        self.channel_layer = layer
        self.channel_name = await layer.new_channel()
        self.base_send = send
        inbox = layer.inbox(self.channel_name)
        pump = asyncio.ensure_future(_pump(receive, inbox))
        pump.add_done_callback(functools.partial(_pump_ended, inbox))
        try:
            # Cancelling this coroutine (the server's) cancels the task too.
            await asyncio.ensure_future(self._read_inbox(inbox, pump))
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump
            layer.close_channel(self.channel_name)

    async def _read_inbox(self, inbox: asyncio.Queue[Any], pump: Any) -> None:
        layer: Any = self.channel_layer  # the project's: it has an inbox
        deserialize = layer.deserialize
        dispatch = self.dispatch
        try:
            while True:
                message = await inbox.get()
                if message is _PUMP_FAILED:
                    pump.result()  # the client's receive failed: raised here
                await dispatch(deserialize(message))
        except StopConsumer:
            pass

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its ``aclose_old_connections`` per message.

        Channels hops to its one database thread before every message a
        consumer handles (each frame a client sends, each broadcast each socket
        receives: three hops per move of a two-player game), only to close
        stale connections, and the message waits behind every other database
        call of the process meanwhile. This consumer touches the database only
        through ``database_sync_to_async`` (which closes stale connections
        around each call itself) and the live owner's move threads (which
        check their own connection), so the hop guards nothing here.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: WebSocketDisconnectEvent) -> None:
        """Channels' without its closing ``aclose_old_connections``.

        Channels hops to its database thread once more after ``disconnect``
        only to close stale connections: a hop per closed socket, ten games
        ending a second at 400 games. ``disconnect``'s database work goes
        through ``database_sync_to_async``, which closes them around the call
        itself. (Channels' loop over ``groups`` is left out too: this
        consumer has none; it leaves its match's group in ``disconnect``.)
        """
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def connect(self) -> None:
        self.groups_joined = []
        self.attached = False
        self.seat_number = None
        self.seat_pk = None
        # The newest version whose state frame went to the client, and the
        # version up to which every broadcast reached this socket (``through``:
        # what a ``beat`` must not call missed).
        self.shown = self.through = 0
        # The newest version whose frame the layer's hook queued for this
        # socket, and the acks waiting to go out folded into a queued frame
        # ({version: request id}; ``on_act``).
        self.queued = 0
        self.folded_acks: dict[int, Any] = {}
        self.user = _unwrapped(self.scope.get("user"))
        # Its refusals are worded in the reader's language, chosen as a
        # page's is (docs/i18n.md); codes stay as they are for programs.
        self.language = connection_language(
            user=self.user, headers=self.scope.get("headers", ())
        )
        self.tokens = RATE_BURST
        self.refilled_at = time.monotonic()
        try:
            public_id = str(
                uuid.UUID(str(self.scope["url_route"]["kwargs"]["public_id"]))
            )
        except ValueError:
            public_id = None
        if public_id is None:
            # Accept first: a close before accept is an HTTP 403 on the
            # handshake, and the protocol promises the client code 4404.
            await self.accept()
            await self.close(code=4404)
            return
        # One group for the whole match, named by its public id so the socket
        # joins before the match is read (no broadcast falls between the read
        # and the join): each broadcast carries every seat's frame and this
        # socket sends only its own seat's (``match_frames``).
        group = broadcast.match_group(public_id)
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)
        await self.accept()
        # One database call: the match and the user's seat found, the seat
        # counted, the match read once for this socket's frame, the table's
        # presence broadcast and this process's copy (``gameplay.live``).
        opened = await sockets.open_socket(public_id=public_id, user=self.user)
        if opened is None:
            await self.close(code=4404)
            return
        if opened.sealed:
            # Its deal is still played at other tables (gameplay.contexts).
            await self.close(code=4403)
            return
        self.match_pk = opened.match_pk
        self.seat_number, self.seat_pk = opened.seat_number, opened.seat_pk
        _sockets[self.channel_name] = self
        # This process now holds the match for its sockets (gameplay.live).
        self.attached = True
        # This process now vouches for the seat and beats the version to it.
        presence.register(self)
        for frame in opened.frames:
            await self._send(frame)

    async def disconnect(self, code: int) -> None:
        _sockets.pop(self.channel_name, None)
        presence.unregister(self)
        if getattr(self, "attached", False):
            owner.detach(self.match_pk)
            self.attached = False
        for group in self.groups_joined:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # Redis away: the seat must still be let go
                logger.warning("group discard failed for %s", group, exc_info=True)
        if getattr(self, "seat_number", None) is not None:
            await sockets.close_socket(match_pk=self.match_pk, user=self.user)

    async def receive(self, text_data: str | None = None, bytes_data=None) -> None:
        if text_data is None or len(text_data) > MAX_FRAME_BYTES:
            await self._error("malformed", N_("frames are JSON text of at most 4 KiB"))
            return
        if not self._take_token():
            await self._error("rate_limited", N_("too many frames; slow down"))
            return
        try:
            message = _parse_frame(text_data)
        except (ValueError, RecursionError):  # deep nesting fits in 4 KiB
            await self._error("malformed", N_("frame is not valid JSON"))
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self._error("malformed", N_("frame must be an object with a 'type'"))
            return
        request_id = message.get("request_id")
        if not (
            isinstance(request_id, str)
            or broadcast.frame_int(request_id, low=-broadcast.MAX_FRAME_INT)
        ):
            request_id = None  # nothing the answer could echo
        handler = getattr(self, f"on_{message['type']}", None)
        extension = _frame_handlers.get(message["type"])
        if handler is None and extension is not None and self.attached:
            for frame in await extension(self._binding(), message, request_id):
                await self._send(frame)
            return
        if handler is None:
            await self._error(
                "malformed",
                N_("unknown frame type '%(type)s'"),
                request_id,
                params={"type": message["type"][:40]},
            )
            return
        try:
            await handler(message, request_id)
        except MatchError as exc:
            with translation.override(self.language):
                worded = exc.worded()
            await self._send(
                {
                    "type": "error",
                    "code": exc.code,
                    "message": worded,
                    "request_id": request_id,
                    **exc.extra(),
                }
            )
        except Exception:
            # Any other failure answers this frame and keeps the connection (and
            # the seat's presence) alive; an escaped exception would drop the
            # socket without ``disconnect`` and leave the seat "connected".
            logger.exception("live frame %r failed", message.get("type"))
            await self._error("server_error", N_("that frame failed"), request_id)

    # --- client frames ------------------------------------------------------

    async def on_act(self, message: dict[str, Any], request_id: Any) -> None:
        # Through this process's owner of the match: decided by the move rule
        # (a ``seat`` not the user's is refused there, as over the API), applied
        # to the copy it holds, committed in one round trip, acknowledged after
        # the commit.
        version = await owner.act(
            match_pk=self.match_pk,
            user=self.user,
            action_id=message.get("action"),
            expected_version=message.get("version"),
            seat_number=message.get("seat"),
        )
        if message.get("ack") == "state" and self.queued == version > self.shown:
            # The client takes its ack in the state frame of ``version``, and
            # that frame waits in this socket's queue (the hook saw it go in,
            # and none of that version has been sent since): it carries the ack
            # (``match_frames``), one socket write for the intent instead of two.
            self.folded_acks[version] = request_id
            return
        await self._send({"type": "ack", "version": version, "request_id": request_id})

    async def on_sync(self, message: dict[str, Any], request_id: Any) -> None:
        version = message.get("version")
        if version is not None and not broadcast.frame_int(version):
            raise BadRequest(
                N_("version must be an integer from 0 to %(max)s"),
                params={"max": broadcast.MAX_FRAME_INT},
            )
        await self._send_state(after_version=version)

    async def on_resign(self, message: dict[str, Any], request_id: Any) -> None:
        await database_sync_to_async(services.match_resign)(
            match_id=self.match_pk, user=self.user
        )

    async def on_abort(self, message: dict[str, Any], request_id: Any) -> None:
        await database_sync_to_async(services.match_abort)(
            match_id=self.match_pk, user=self.user
        )

    async def on_claim(self, message: dict[str, Any], request_id: Any) -> None:
        await database_sync_to_async(services.match_claim)(
            match_id=self.match_pk, user=self.user, claim=message.get("claim")
        )

    async def on_ping(self, message: dict[str, Any], request_id: Any) -> None:
        await self._send({"type": "pong", "request_id": request_id})

    # --- group messages -----------------------------------------------------

    async def match_frames(self, event: dict[str, Any]) -> None:
        # A version written elsewhere, or a re-read frame: the copy is stale.
        owner.saw(self.match_pk, event)
        broadcast.heard(self.match_pk, event)
        version = event["version"]
        self.heard(version)
        # The socket's seat is fixed at connect (the signed-in user's seat):
        # only that seat's frame, or the public one, ever leaves for the client.
        text = broadcast.frame_for(event, self.seat_number)
        if self.folded_acks:
            text = await self._fold_acks(version, text)
        if text:  # empty: the step changed nothing this seat sees
            self.shown = max(self.shown, version)
            await self.base_send(_text_frame(text))

    async def _fold_acks(self, version: int, text: str) -> str:
        """``text`` (the frame of ``version``) with the ack of the intent that
        made ``version`` folded in; the acks of any older version still
        waiting go out on their own first (not expected: the frame each
        waits for is queued ahead of this one)."""
        acks = self.folded_acks
        for acked in sorted(v for v in acks if v <= version):
            request_id = acks.pop(acked)
            if acked == version and text:
                text = broadcast.with_ack(text, request_id)
            else:
                await self._send(
                    {"type": "ack", "version": acked, "request_id": request_id}
                )
        return text

    async def match_extension(self, event: dict[str, Any]) -> None:
        event_filter = _event_filters.get(str(event.get("kind")))
        if event_filter is None or not self.attached:
            return
        frame = await event_filter(self._binding(), event)
        if frame is not None:
            await self._send(frame)

    # --- helpers ------------------------------------------------------------

    def _binding(self) -> SocketBinding:
        return SocketBinding(
            match_pk=self.match_pk,
            user=self.user,
            seat_number=self.seat_number,
            language=self.language,
        )

    def heard(self, version: int) -> None:
        """A broadcast of ``version`` reached this socket (sent to the client,
        or quiet for its seat): ``through`` moves on when nothing is missing."""
        if version == self.through + 1:
            self.through = version

    async def send_beat(self, version: int) -> None:
        """The version this socket should be at (``gameplay.presence``).

        A seat sent no frame for quiet steps (``broadcast.match_messages``)
        holds an older version than the match's, and is not behind: when
        this socket got every version up to ``version`` (sent, or quiet for
        it), the beat names the newest frame it sent. The same for a
        spectator, sent no frame for steps that changed nothing public."""
        if self.through >= version:
            version = min(version, self.shown)
        await self._send({"type": "beat", "version": version})

    async def _send_state(self, *, after_version: int | None) -> None:
        frames = await sockets.state_frames(
            match_pk=self.match_pk,
            user=self.user,
            seated=self.seat_number is not None,
            after_version=after_version,
        )
        for frame in frames:
            await self._send(frame)

    async def _send(self, frame: dict[str, Any]) -> None:
        if frame["type"] == "state":
            # A whole state (connect, ``sync``): the client is at its version.
            self.shown = max(self.shown, frame["version"])
            self.through = max(self.through, frame["version"])
        # The server's send itself: Channels' ``send(text_data=...)`` only
        # builds this message, through two more coroutines, for each of the
        # three frames or so an intent sends.
        await self.base_send(_text_frame(broadcast.encode(frame)))

    async def _error(
        self,
        code: str,
        text: str,
        request_id: Any = None,
        *,
        params: dict[str, Any] | None = None,
    ) -> None:
        """An error frame: ``text`` (English, ``N_``-marked) worded in the
        socket's language."""
        with translation.override(self.language):
            message = gettext(text)
        if params:
            message %= params
        await self._send(
            {
                "type": "error",
                "code": code,
                "message": message,
                "request_id": request_id,
            }
        )

    def _take_token(self) -> bool:
        now = time.monotonic()
        self.tokens = min(
            RATE_BURST, self.tokens + (now - self.refilled_at) * RATE_PER_SECOND
        )
        self.refilled_at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
