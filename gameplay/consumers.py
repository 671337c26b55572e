"""The live-match WebSocket: translate frames to service calls and back.

Protocol: ``docs/protocol/live.md``. A connection is bound to the seat of the
signed-in user at that match, or is a spectator; the client never chooses its
seat, so a forged seat is refused. No rules live here.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from gameplay import broadcast, presence, selectors, services
from gameplay.errors import BadRequest, Forbidden, MatchError
from gameplay.models import Match

logger = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
# A person clicks a few times a second at most; scripts get throttled.
RATE_PER_SECOND = 20.0
RATE_BURST = 40.0


class MatchConsumer(AsyncWebsocketConsumer):
    match_pk: int
    seat_number: int | None
    seat_pk: int | None
    groups_joined: list[str]

    async def connect(self) -> None:
        self.groups_joined = []
        self.seat_number = None
        self.seat_pk = None
        self.user = self.scope.get("user")
        self.tokens = RATE_BURST
        self.refilled_at = time.monotonic()
        public_id = self.scope["url_route"]["kwargs"]["public_id"]
        found = await self._load(public_id)
        if found is None:
            # Accept first: a close before accept is an HTTP 403 on the
            # handshake, and the protocol promises the client code 4404.
            await self.accept()
            await self.close(code=4404)
            return
        self.match_pk, self.seat_number, self.seat_pk = found
        group = (
            broadcast.public_group(self.match_pk)
            if self.seat_number is None
            else broadcast.seat_group(self.match_pk, self.seat_number)
        )
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)
        await self.accept()
        if self.seat_number is not None:
            await database_sync_to_async(services.seat_connected)(
                match_id=self.match_pk, user=self.user
            )
        # This process now vouches for the seat and beats the version to it.
        presence.register(self)
        await self._send_state(after_version=None)

    async def disconnect(self, code: int) -> None:
        presence.unregister(self)
        for group in self.groups_joined:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # Redis away: the seat must still be let go
                logger.warning("group discard failed for %s", group, exc_info=True)
        if getattr(self, "seat_number", None) is not None:
            await database_sync_to_async(services.seat_disconnected)(
                match_id=self.match_pk, user=self.user
            )

    async def receive(self, text_data: str | None = None, bytes_data=None) -> None:
        if text_data is None or len(text_data) > MAX_FRAME_BYTES:
            await self._error("malformed", "frames are JSON text of at most 4 KiB")
            return
        if not self._take_token():
            await self._error("rate_limited", "too many frames; slow down")
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):  # deep nesting fits in 4 KiB
            await self._error("malformed", "frame is not valid JSON")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self._error("malformed", "frame must be an object with a 'type'")
            return
        request_id = message.get("request_id")
        if request_id is not None and not isinstance(request_id, (str, int)):
            request_id = None
        handler = getattr(self, f"on_{message['type']}", None)
        if handler is None:
            await self._error(
                "malformed", f"unknown frame type {message['type']!r}", request_id
            )
            return
        try:
            await handler(message, request_id)
        except MatchError as exc:
            await self._error(exc.code, exc.message, request_id)
        except Exception:
            # Any other failure answers this frame and keeps the connection (and
            # the seat's presence) alive; an escaped exception would drop the
            # socket without ``disconnect`` and leave the seat "connected".
            logger.exception("live frame %r failed", message.get("type"))
            await self._error("server_error", "that frame failed", request_id)

    # --- client frames ------------------------------------------------------

    async def on_act(self, message: dict[str, Any], request_id: Any) -> None:
        if "seat" in message and message["seat"] != self.seat_number:
            raise Forbidden("that seat is not yours")
        outcome = await database_sync_to_async(services.match_act)(
            match_id=self.match_pk,
            user=self.user,
            action_id=message.get("action"),
            expected_version=message.get("version"),
        )
        await self._send(
            {"type": "ack", "version": outcome.version, "request_id": request_id}
        )

    async def on_sync(self, message: dict[str, Any], request_id: Any) -> None:
        version = message.get("version")
        if version is not None and (not isinstance(version, int) or version < 0):
            raise BadRequest("version must be a non-negative integer")
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

    async def match_frame(self, event: dict[str, Any]) -> None:
        text = event.get("text")
        if text is None:  # a frame dict, as senders before pre-encoding sent
            await self._send(event["frame"])
        else:
            await self.send(text_data=text)

    # --- helpers ------------------------------------------------------------

    async def send_beat(self, version: int) -> None:
        """The version this socket should be at (``gameplay.presence``)."""
        await self._send({"type": "beat", "version": version})

    @database_sync_to_async
    def _load(self, public_id: str) -> tuple[int, int | None, int | None] | None:
        try:
            uuid.UUID(str(public_id))
        except ValueError:
            return None
        match = (
            Match.objects.filter(public_id=public_id).prefetch_related("seats").first()
        )
        if match is None:
            return None
        seat = selectors.user_seat(match=match, user=self.user)
        if seat is None:
            return match.pk, None, None
        return match.pk, seat.number, seat.pk

    @database_sync_to_async
    def _state_frames(self, after_version: int | None) -> list[dict[str, Any]]:
        match = Match.objects.prefetch_related("seats__user").get(pk=self.match_pk)
        frames: list[dict[str, Any]] = []
        # A seat that resigned or was left sees only the public view from then on.
        seat = (
            None
            if self.seat_number is None
            else selectors.viewer_seat(match=match, user=self.user)
        )
        if after_version is not None:
            frames.append(
                {
                    "type": "history",
                    "after_version": after_version,
                    "steps": selectors.events_since(
                        match=match, seat=seat, after_version=after_version
                    ),
                }
            )
        if seat is None:
            frames.append(selectors.spectator_frame(match=match))
        else:
            frames.append(selectors.seat_frame(match=match, seat=seat))
        return frames

    async def _send_state(self, *, after_version: int | None) -> None:
        for frame in await self._state_frames(after_version):
            await self._send(frame)

    async def _send(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(frame, separators=(",", ":")))

    async def _error(self, code: str, message: str, request_id: Any = None) -> None:
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
