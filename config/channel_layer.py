"""The channel layer: channels_redis's pub/sub layer, delivering a group message
to this process's own members without the round trip through Redis.

``channels_redis.pubsub`` publishes every group message to Redis and delivers
it to the process's own members only when Redis sends it back on the
process's subscription: the sender pays the publish, then the receive of its
own message (redis-py reading and parsing it, a wake-up of the receive task)
and every local member's decode of it (msgpack, once per socket). In a live
match most sockets of a move sit in the process that made it (both players,
when the match is spread by match), so that echo was most of the layer's
work per move.

Here a group message goes to this event loop's members of the group at once
(each receives its own shallow copy: no encode, no decode), then to Redis for
the members in other processes, tagged with the sending loop layer's origin
(``MAGIC`` and 16 random bytes). The receive loop drops a message that
carries its own origin, so each member gets each message exactly once: the
local copy, never the echo. Other processes strip the tag and deliver as
before; an untagged message (another publisher) is delivered unchanged.

The publishes leave in call order through one outbox per shard: a caller
that must not wait for Redis (the live owner, whose ack and next intent
should not wait on a Redis round trip) hands its messages over with
``group_send_many(..., wait=False)`` and goes on; a drain task publishes what
queued up meanwhile, several broadcasts in one pipeline when they came
together, and logs a failure (there is nobody left to tell). Callers that
wait get the failure raised, as before. Order per process is call order
whether or not the caller waited.

A message its sender marks ``PUBLISH_IF_SHARED`` (the live owner's steps)
is published, by a process in the group, only when another process is
known to be in it too. A match whose sockets all sit in one process
(routing by match) then costs Redis nothing a step: neither the publish
nor reading back its echo. What makes that safe is the join: a process
subscribing to a group says hello on it (``HELLO``) and waits, before
``group_add`` returns and so before its socket reads the match, for an
answer (``HERE``) from every other process the hello reached (PUBLISH
says how many subscribers it reached; the hello's own echo says whether
that count included this process). A process answers only after marking
the group shared, so from the answer on it publishes every message of
the group, and whatever it skipped before was committed before the
joiner's read. Only members say hello and answer; a message from a
publisher outside the group (a Celery worker's step) shares nothing. A
peer that does not answer within ``JOIN_WAIT_S`` (hung, not dead: a dead
one's subscriptions die with its connection) is not waited for longer; a
step it then skips before it reads the hello reaches the joiner's
sockets only by their resync (version beats), and that wait is logged.

A hook (``set_local_hook``) may take a message meant for a local member
before it is queued: waking a consumer for a message it would drop costs
Channels' dispatch (a task wake-up, ``asyncio.wait`` over its receives).

A consumer's own channel (``new_channel``) is its event loop's alone, not
subscribed in Redis: nothing here sends to one but its own loop (messages
travel by group), and the subscription cost every socket's connect and
close a Redis round trip each; a ``send`` to another process's is refused.

Delivery is otherwise channels_redis's pub/sub (at most once, in order per
sender): a member in another process gets a message when Redis held its
subscription at the publish, and a message lost with Redis is made good by
the live clients' resync (version beats). Local members now get their
messages even while Redis is unreachable (the publish then fails after
them, and the caller logs it).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import deque
from collections.abc import Callable
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close

# 0xc1 is the one byte msgpack never writes, so a tagged payload cannot be
# mistaken for an untagged one (channels_redis's default serializer).
MAGIC = b"\xc1kfa"
_ORIGIN = 16
_HEADER = len(MAGIC) + _ORIGIN

logger = logging.getLogger(__name__)

# A group message with this key set is published only when another process
# is known to hold members of the group (``LocalFirstLoopLayer.shared``); the
# join (``LocalFirstShard.subscribe``) makes sure a newcomer is known before
# it reads (the live owner's steps, ``gameplay.broadcast.match_messages``).
PUBLISH_IF_SHARED = "publish_if_shared"
# The bodies of the tagged messages by which processes learn of each other in
# a group: ``HELLO`` when a process subscribes to it, ``HERE`` the answer of
# every process already subscribed. Never delivered to members.
HELLO = b""
HERE = b"\xc1"
# How long a joining process waits for the answers to its hello: far above
# a round trip through Redis and a busy event loop (milliseconds), short
# enough that a hung peer delays a socket's open by a second, not forever.
JOIN_WAIT_S = 1.0

# Takes a group message meant for a local member before it is queued for
# its consumer: ``hook(channel, message)`` returns True when it has dealt
# with the message (the consumer then never wakes for it). The live sockets
# use it for the steps that send their seat nothing (gameplay.consumers).
LocalHook = Callable[[str, dict[str, Any]], bool]
_local_hook: LocalHook | None = None


def set_local_hook(hook: LocalHook | None) -> None:
    global _local_hook
    _local_hook = hook


class _Join:
    """A hello of this layer's on a group, waiting for its answers."""

    def __init__(self) -> None:
        self.done = asyncio.Event()
        self.answers: set[bytes] = set()  # the answering layers' origins
        self.counted_itself = False  # its own echo came: PUBLISH counted it
        self.receivers: int | None = None  # PUBLISH's reply

    def others(self) -> int:
        """Other processes the hello reached (so far as the echo has told)."""
        if self.receivers is None:
            return 0
        return self.receivers - 1 if self.counted_itself else self.receivers

    def reached(self, receivers: int) -> None:
        self.receivers = receivers
        self._check()

    def heard_itself(self) -> None:
        self.counted_itself = True
        self._check()

    def answered_by(self, origin: bytes) -> None:
        self.answers.add(origin)
        self._check()

    def _check(self) -> None:
        # Without its echo yet, the hello may have reached one more process
        # than answers came from: wait for the echo or for that answer.
        if self.receivers is not None and len(self.answers) >= self.others():
            self.done.set()


class LocalFirstShard(RedisSingleShardConnection):
    """A shard connection whose receive loop drops its own layer's messages
    and whose publishes go out in call order through an outbox."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # (publishes, future of the caller waiting for them, or None).
        self._outbox: deque[tuple[list[tuple[str, bytes]], Any]] = deque()
        self._drain_task: asyncio.Task | None = None

    def queue_publishes(
        self, publishes: list[tuple[str, bytes]], *, wait: bool
    ) -> asyncio.Future | None:
        """Queue ``publishes`` behind every earlier call's; a future that
        resolves once they are published (``wait``), else None."""
        loop = asyncio.get_running_loop()
        future = loop.create_future() if wait else None
        self._outbox.append((publishes, future))
        if self._drain_task is None or self._drain_task.done():
            self._drain_task = loop.create_task(self._drain())
        return future

    async def _drain(self) -> None:
        """Publish the outbox, each time everything queued so far in one
        round trip, until it is empty."""
        while self._outbox:
            batch: list[tuple[str, bytes]] = []
            waiting: list[asyncio.Future] = []
            unwaited = False
            while self._outbox:
                publishes, future = self._outbox.popleft()
                batch.extend(publishes)
                if future is None:
                    unwaited = True
                else:
                    waiting.append(future)
            try:
                await self.publish_many(batch)
            except Exception as exc:
                for future in waiting:
                    if not future.done():
                        future.set_exception(exc)
                if unwaited:  # nobody else will hear of it
                    logger.warning(
                        "publish of %d group messages failed", len(batch), exc_info=True
                    )
            else:
                for future in waiting:
                    if not future.done():
                        future.set_result(None)

    def _receive_message(self, message: dict[str, Any] | None) -> None:
        if message is None:
            return
        data = message["data"]
        layer = self.channel_layer
        name = message["channel"]
        if isinstance(name, bytes):
            name = name.decode()
        tagged = isinstance(data, bytes) and data.startswith(MAGIC)
        if tagged:
            origin = data[len(MAGIC) : _HEADER]
            data = data[_HEADER:]
            joining = layer.joins.get(name)
            if origin == layer.origin:
                if joining is not None and data == HELLO:
                    joining.heard_itself()
                return  # our own: its local members already have it
            if joining is not None and data == HERE:
                joining.answered_by(origin)
            message = {**message, "data": data}
        if tagged and data in (HELLO, HERE):
            # Another process holding members of a group held here: from now
            # on every message of the group is published. A message from a
            # publisher outside the group (a Celery worker's step) says
            # nothing of members and leaves the group as it was.
            if name in layer.groups:
                layer.shared.add(name)
            if data == HELLO:
                # Answered after the group is marked shared. A process leaving
                # the group (no members left, its unsubscribe under way)
                # answers too: outside a group every message to it is published.
                self.queue_publishes([(name, layer._tag + HERE)], wait=False)
            return
        super()._receive_message(message)

    async def subscribe(self, channel: str) -> None:
        """channels_redis's subscribe; the first to a group also joins it:
        says hello to the group's other processes and waits (at most
        ``JOIN_WAIT_S``) until each one the hello reached has answered
        (``HERE``), that is, has marked the group shared and publishes
        every message of it from then on.

        The hello is published after the SUBSCRIBE was written, on another
        connection, so Redis may count this process among the hello's
        receivers or not: its own echo says which. Both sides end up
        publishing every message of the group."""
        new = channel not in self._subscribed_to
        await super().subscribe(channel)
        if new and channel in self.channel_layer.groups:
            await self._join(channel)

    async def _join(self, channel: str) -> None:
        layer = self.channel_layer
        joining = layer.joins[channel] = _Join()
        try:
            async with self._lock:
                self._ensure_redis()
                reached = await self._redis.publish(channel, layer._tag + HELLO)
            joining.reached(reached)
            try:
                await asyncio.wait_for(joining.done.wait(), JOIN_WAIT_S)
            except TimeoutError:
                logger.warning(
                    "joined %s with %d of %d other processes answering in %.1f s",
                    channel,
                    len(joining.answers),
                    joining.others(),
                    JOIN_WAIT_S,
                )
        finally:
            layer.joins.pop(channel, None)
        if joining.answers or joining.others():
            layer.shared.add(channel)

    async def unsubscribe(self, channel: str) -> None:
        await super().unsubscribe(channel)
        self.channel_layer.shared.discard(channel)

    async def flush(self) -> None:
        """Publish what is queued, then close as channels_redis does."""
        if self._drain_task is not None and not self._drain_task.done():
            await asyncio.shield(self._drain_task)
        await super().flush()

    async def publish_many(self, publishes: list[tuple[str, bytes]]) -> None:
        """Publish in one round trip, in order (``publish`` waits for each
        reply before the next: a write and a read per message)."""
        async with self._lock:
            self._ensure_redis()
            if len(publishes) == 1:
                await self._redis.publish(*publishes[0])
                return
            pipe = self._redis.pipeline(transaction=False)
            for channel, payload in publishes:
                pipe.publish(channel, payload)
            await pipe.execute()


class LocalFirstLoopLayer(RedisPubSubLoopLayer):
    """One event loop's layer: local members first, then Redis, tagged."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.origin = uuid.uuid4().bytes
        self._tag = MAGIC + self.origin
        self._shards: list[LocalFirstShard] = [
            LocalFirstShard(shard.host, self) for shard in self._shards
        ]
        # Messages handed to local members, for tests and the benchmark.
        self.delivered_locally = 0
        # The groups (their Redis channels) another process publishes to or
        # holds members of, as far as this layer has heard since it
        # subscribed: their ``PUBLISH_IF_SHARED`` messages are published.
        self.shared: set[str] = set()
        # The groups this layer is joining, waiting for its hello's answers.
        self.joins: dict[str, _Join] = {}

    async def new_channel(self, prefix: str = "specific.") -> str:
        """A consumer's own channel: a queue of this loop's layer, not
        subscribed in Redis.

        channels_redis subscribes every new channel in Redis, so that other
        processes may ``send`` to it. Nothing here does: messages reach
        consumers through their groups (subscribed in ``group_add``), and
        this loop's own ``send`` to the channel is delivered here (another
        process's is refused, not lost: ``send``). The subscription was a
        Redis round trip and about 690 Python calls at every socket's connect
        (its unsubscribe about 130 at the close), and at 400 live Duelo games
        twenty sockets open and twenty close every second.
        """
        channel = f"{self.prefix}{prefix}{uuid.uuid4().hex}"
        self.channels[channel] = asyncio.Queue()
        return channel

    def inbox(self, channel: str) -> asyncio.Queue[Any]:
        """The queue of ``channel`` (``new_channel``'s): a consumer may read it
        itself and put its client's messages in it too (one inbox in arrival
        order; ``gameplay.consumers.MatchConsumer``)."""
        return self.channels[channel]

    def close_channel(self, channel: str) -> None:
        """Forget ``channel`` (``new_channel``'s: nothing to unsubscribe), as
        channels_redis's ``receive`` does when its reader is cancelled."""
        self.channels.pop(channel, None)

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        """To a channel of this loop's: queued here (the consumer's receive
        copies it, ``deserialize``). To another process's own channel
        (``new_channel``'s, not subscribed in Redis): refused. Any other
        channel: published, as channels_redis does."""
        queue = self.channels.get(channel)
        if queue is not None:
            queue.put_nowait(message)
            return
        if channel.startswith(f"{self.prefix}specific."):
            raise ValueError(
                f"{channel} is a consumer's own channel in another process or "
                "event loop: it is not subscribed in Redis (send to a group)"
            )
        await super().send(channel, message)

    def _deliver_locally(self, group_channel: str, message: dict[str, Any]) -> None:
        members = self.groups.get(group_channel)
        if not members:
            return
        hook = _local_hook
        for channel in members:
            queue = self.channels.get(channel)
            if queue is not None:
                if hook is not None and hook(channel, message):
                    continue
                # The consumer's receive copies it (``deserialize``).
                queue.put_nowait(message)
                self.delivered_locally += 1

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.group_send_many([(group, message)])

    async def group_send_many(
        self, messages: list[tuple[str, dict[str, Any]]], *, wait: bool = True
    ) -> None:
        """Send several group messages: to local members at once, in order,
        then to Redis in one round trip per shard, in order behind every
        earlier call's. ``wait`` False: return once the local members have
        them (the publish follows; a failure is logged, not raised)."""
        serialize = self.channel_layer.serialize
        by_shard: dict[LocalFirstShard, list[tuple[str, bytes]]] = {}
        for group, message in messages:
            group_channel = self._get_group_channel_name(group)
            self._deliver_locally(group_channel, message)
            if (
                message.get(PUBLISH_IF_SHARED)
                and group_channel in self.groups
                and group_channel not in self.shared
            ):
                continue  # in the group, and no other process heard of in it
            shard = self._get_shard(group_channel)
            by_shard.setdefault(shard, []).append(
                (group_channel, self._tag + serialize(message))
            )
        futures = [
            shard.queue_publishes(publishes, wait=wait)
            for shard, publishes in by_shard.items()
        ]
        for future in futures:
            if future is not None:
                await future


class LocalFirstPubSubChannelLayer(RedisPubSubChannelLayer):
    """``channels_redis.pubsub.RedisPubSubChannelLayer`` with local delivery
    (settings: ``CHANNEL_LAYERS``). Same configuration."""

    def deserialize(self, message: Any) -> Any:
        if isinstance(message, dict):  # handed over locally
            return dict(message)
        return super().deserialize(message)

    def _get_layer(self) -> LocalFirstLoopLayer:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = LocalFirstLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer
