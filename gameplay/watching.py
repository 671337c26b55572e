"""The read-only watch socket every live page shares (a table, a tournament).

Such a socket joins one channel-layer group, sends a first frame on connect
and every frame the group carries, answers ``ping``, and refuses everything
else with ``malformed``: one implementation of the frame-size check, the JSON
check and the error frame instead of a copy per page.
"""

from __future__ import annotations

import abc
import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

from languages.middleware import connection_language

MAX_FRAME_BYTES = 1024


class WatchConsumer(AsyncWebsocketConsumer, abc.ABC):
    """Subclasses say what they watch (:meth:`opening`) and may take one more
    command (:meth:`command`); group messages of type ``watch.frame`` carry
    ready-made frame text."""

    group: str | None = None
    #: Said in the error frame for anything but ``ping`` (and the subclass's own).
    accepted = N_("send ping; this socket only watches")
    #: The language of its error frames (``connection_language``).
    language = "en"

    @abc.abstractmethod
    async def opening(self) -> tuple[str, dict[str, Any]] | None:
        """The group to join and the first frame, or None (answered 4404)."""

    async def command(self, kind: object) -> bool:
        """Handle a frame type other than ``ping``; False refuses it."""
        return False

    async def connect(self) -> None:
        self.language = connection_language(
            user=self.scope.get("user"), headers=self.scope.get("headers", ())
        )
        found = await self.opening()
        if found is None:
            await self.close(code=4404)
            return
        self.group, frame = found
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=json.dumps(frame))

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data=None) -> None:
        if text_data is None or len(text_data) > MAX_FRAME_BYTES:
            return await self._error(N_("frames are JSON text of at most 1 KiB"))
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):  # deep nesting fits in 1 KiB
            return await self._error(N_("frame is not valid JSON"))
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "ping":
            await self.send(text_data=json.dumps({"type": "pong"}))
        elif not await self.command(kind):
            await self._error(self.accepted)

    async def watch_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def _error(self, text: str) -> None:
        """A ``malformed`` error frame, ``text`` worded in the reader's
        language (the user's setting, else the browser's: docs/i18n.md)."""
        with translation.override(self.language):
            message = gettext(text)
        frame = {"type": "error", "code": "malformed", "message": message}
        await self.send(text_data=json.dumps(frame))
