"""The project's channel layer (config/channel_layer.py) on a real Redis.

A group message reaches this process's members once (the local copy, not
Redis's echo of it) and still reaches members in other processes (another
layer instance: its own connections, subscriptions and origin).
"""

from __future__ import annotations

import asyncio

import pytest
from django.conf import settings

from config import channel_layer
from config.channel_layer import (
    MAGIC,
    PUBLISH_IF_SHARED,
    LocalFirstPubSubChannelLayer,
)
from tests.waiting import wait_until_async

pytestmark = [pytest.mark.asyncio, pytest.mark.services]


def new_layer() -> LocalFirstPubSubChannelLayer:
    """A layer as another web process would hold it (same Redis, same prefix)."""
    return LocalFirstPubSubChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])


async def subscribed(group: str, layers: int, timeout: float = 10.0) -> None:
    """Wait until ``layers`` layers' subscriptions to ``group`` have reached Redis
    (PUBSUB NUMSUB), so a publish from now on is heard by each of them."""
    probe = new_layer()._get_layer()
    shard = probe._shards[0]
    shard._ensure_redis()
    channel = probe._get_group_channel_name(group)

    async def reached() -> bool:
        return (await shard._redis.pubsub_numsub(channel))[0][1] >= layers

    try:
        await wait_until_async(
            reached,
            timeout=timeout,
            interval=0.01,
            message=f"{layers} subscriptions to {group} to reach Redis",
        )
    finally:
        await shard.flush()


async def received(layer, channel: str, within: float = 0.5) -> list[dict]:
    """Everything ``channel`` receives within ``within`` seconds."""
    messages = []
    loop_layer = layer._get_layer()
    deadline = asyncio.get_running_loop().time() + within
    while (left := deadline - asyncio.get_running_loop().time()) > 0:
        try:
            # Read the queue itself: ``receive`` unsubscribes when cancelled.
            data = await asyncio.wait_for(loop_layer.channels[channel].get(), left)
        except TimeoutError:
            break
        messages.append(layer.deserialize(data))
    return messages


async def test_local_members_get_each_message_once_and_other_processes_too():
    here, there = new_layer(), new_layer()
    try:
        local_a = await here.new_channel()
        local_b = await here.new_channel()
        remote = await there.new_channel()
        for layer, channel in ((here, local_a), (here, local_b), (there, remote)):
            await layer.group_add("match.abc", channel)
        await subscribed("match.abc", layers=2)
        await here.group_send("match.abc", {"type": "match.frames", "n": 1})
        await here.group_send_many(
            [
                ("match.abc", {"type": "match.frames", "n": 2}),
                ("match.abc", {"type": "match.frames", "n": 3}),
            ]
        )
        expected = [{"type": "match.frames", "n": n} for n in (1, 2, 3)]
        assert await received(here, local_a) == expected
        assert await received(here, local_b) == expected
        assert await received(there, remote) == expected
        # Handed over locally, never through Redis's echo.
        assert here._get_layer().delivered_locally == 6
        assert there._get_layer().delivered_locally == 0
    finally:
        await here.flush()
        await there.flush()


async def test_each_local_member_gets_its_own_copy():
    layer = new_layer()
    try:
        a, b = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("g", a)
        await layer.group_add("g", b)
        await layer.group_send("g", {"type": "x", "seats": [1, 2]})
        (got_a,) = await received(layer, a, 0.2)
        (got_b,) = await received(layer, b, 0.2)
        got_a["type"] = "changed"
        assert got_b["type"] == "x"
    finally:
        await layer.flush()


async def test_a_message_from_a_process_with_no_local_members_arrives_once():
    sender, listener = new_layer(), new_layer()
    try:
        channel = await listener.new_channel()
        await listener.group_add("player.7", channel)
        await subscribed("player.7", layers=1)
        await sender.group_send("player.7", {"type": "player.frame", "text": "{}"})
        # A sender outside the group knows nothing of its members: published.
        flagged = {"type": "player.frame", "text": "[]", PUBLISH_IF_SHARED: True}
        await sender.group_send("player.7", flagged)
        assert await received(listener, channel) == [
            {"type": "player.frame", "text": "{}"},
            flagged,
        ]
        # ...and a publisher outside the group (a worker) holds no members:
        # the listener's own flagged messages still stay in its process.
        group_channel = listener._get_layer()._get_group_channel_name("player.7")
        assert group_channel not in listener._get_layer().shared
    finally:
        await sender.flush()
        await listener.flush()


async def test_untagged_messages_from_other_publishers_are_delivered():
    layer = new_layer()
    try:
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        await subscribed("g", layers=1)
        loop_layer = layer._get_layer()
        shard = loop_layer._shards[0]
        payload = layer.serialize({"type": "x", "from": "plain"})
        assert not payload.startswith(MAGIC)
        await shard.publish(loop_layer._get_group_channel_name("g"), payload)
        assert await received(layer, channel) == [{"type": "x", "from": "plain"}]
    finally:
        await layer.flush()


async def test_unwaited_sends_reach_other_processes_in_call_order():
    here, there = new_layer(), new_layer()
    try:
        local = await here.new_channel()
        remote = await there.new_channel()
        await here.group_add("match.order", local)
        await there.group_add("match.order", remote)
        await subscribed("match.order", layers=2)
        # The owner's moves hand over and go on; a waited send queues behind.
        for n in range(1, 6):
            await here.group_send_many(
                [("match.order", {"type": "match.frames", "n": n})], wait=False
            )
        # Handed to the local member before the call returned.
        assert here._get_layer().delivered_locally == 5
        await here.group_send_many([("match.order", {"type": "match.frames", "n": 6})])
        expected = [{"type": "match.frames", "n": n} for n in range(1, 7)]
        assert await received(here, local) == expected
        assert await received(there, remote) == expected
    finally:
        await here.flush()
        await there.flush()


async def test_an_unwaited_publish_that_fails_is_logged_not_raised(caplog):
    layer = new_layer()
    try:
        local = await layer.new_channel()
        await layer.group_add("g", local)
        shard = layer._get_layer()._shards[0]

        async def redis_away(publishes):
            raise ConnectionError("Redis is away")

        shard.publish_many = redis_away
        await layer.group_send_many([("g", {"type": "x"})], wait=False)
        assert await received(layer, local, 0.1) == [{"type": "x"}]
        await wait_until_async(  # the drain
            lambda: "publish of 1 group messages failed" in caplog.text,
            timeout=10,
            interval=0.01,
            message=lambda: "the drain's failure in the log:\n" + caplog.text,
        )
        # A waited send hears of the failure itself.
        with pytest.raises(ConnectionError):
            await layer.group_send_many([("g", {"type": "y"})])
    finally:
        del shard.publish_many
        await layer.flush()


async def test_a_consumers_own_channel_is_its_loops_alone():
    """``new_channel`` subscribes nothing in Redis: a group message still
    reaches the channel (its group is subscribed), this layer's own ``send``
    to it is delivered here, and another layer's is refused, not lost."""
    here, there = new_layer(), new_layer()
    try:
        mine = await here.new_channel()
        theirs = await there.new_channel()
        shards = here._get_layer()._shards + there._get_layer()._shards
        assert not any(
            channel in shard._subscribed_to
            for shard in shards
            for channel in (mine, theirs)
        )
        await here.send(mine, {"type": "x", "n": 1})
        assert await received(here, mine, 0.2) == [{"type": "x", "n": 1}]
        with pytest.raises(ValueError):
            await here.send(theirs, {"type": "x", "n": 2})
        await here.group_add("own.g", mine)
        await subscribed("own.g", layers=1)
        await there.group_send("own.g", {"type": "x", "n": 3})
        assert await received(here, mine) == [{"type": "x", "n": 3}]
    finally:
        await here.flush()
        await there.flush()


async def _shared(layer, group: str) -> None:
    loop_layer = layer._get_layer()
    channel = loop_layer._get_group_channel_name(group)
    await wait_until_async(
        lambda: channel in loop_layer.shared,
        timeout=10,
        interval=0.01,
        message=f"another process heard of in {group}",
    )


async def test_a_message_published_if_shared_stays_local_while_the_group_is_not():
    """A ``PUBLISH_IF_SHARED`` message reaches the local members and not
    Redis while no other process has said hello in the group; any other
    message is published. (The probe is a plain Redis subscriber: no layer,
    no hello.)"""
    layer = new_layer()
    probe = new_layer()._get_layer()._shards[0]
    probe._ensure_redis()
    pubsub = probe._redis.pubsub()
    try:
        local = await layer.new_channel()
        await layer.group_add("match.alone", local)
        group_channel = layer._get_layer()._get_group_channel_name("match.alone")
        await pubsub.subscribe(group_channel)
        await subscribed("match.alone", layers=2)
        flagged = {"type": "match.frames", "n": 1, PUBLISH_IF_SHARED: True}
        await layer.group_send_many([("match.alone", flagged)])
        await layer.group_send("match.alone", {"type": "match.frames", "n": 2})
        assert [m["n"] for m in await received(layer, local, 0.2)] == [1, 2]
        published = []
        deadline = asyncio.get_running_loop().time() + 0.5
        while asyncio.get_running_loop().time() < deadline:
            got = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
            body = None if got is None else got["data"][len(MAGIC) + 16 :]
            if body:  # not the layer's hello (empty)
                published.append(layer.deserialize(body))
        assert published == [{"type": "match.frames", "n": 2}]
        assert group_channel not in layer._get_layer().shared
    finally:
        await pubsub.aclose()
        await probe.flush()
        await layer.flush()


async def test_processes_in_a_group_learn_of_each_other_and_publish_everything():
    """Whichever joins first, each layer hears of the other (the newcomer's
    hello, the answer), neither delivers those to its members, and then a
    ``PUBLISH_IF_SHARED`` message reaches the other process's members."""
    first, second = new_layer(), new_layer()
    try:
        a = await first.new_channel()
        await first.group_add("match.both", a)
        await subscribed("match.both", layers=1)
        b = await second.new_channel()
        await second.group_add("match.both", b)
        # The join waited for the answer: the first process publishes every
        # message of the group before the newcomer's socket could read.
        channel = first._get_layer()._get_group_channel_name("match.both")
        assert channel in first._get_layer().shared
        assert channel in second._get_layer().shared
        for n, sender in enumerate((first, second)):
            await sender.group_send_many(
                [("match.both", {"type": "match.frames", "n": n, PUBLISH_IF_SHARED: 1})]
            )
        # Each member gets both (a local message may overtake one through
        # Redis: order holds per sender, not across processes).
        assert sorted(m["n"] for m in await received(first, a)) == [0, 1]
        assert sorted(m["n"] for m in await received(second, b)) == [0, 1]
    finally:
        await first.flush()
        await second.flush()


async def test_a_group_left_and_joined_again_says_hello_again():
    here, there = new_layer(), new_layer()
    try:
        mine, theirs = await here.new_channel(), await there.new_channel()
        await there.group_add("match.again", theirs)
        await subscribed("match.again", layers=1)
        await here.group_add("match.again", mine)
        await _shared(here, "match.again")
        await here.group_discard("match.again", mine)
        group_channel = here._get_layer()._get_group_channel_name("match.again")
        assert group_channel not in here._get_layer().shared
        await here.group_add("match.again", mine)
        await _shared(here, "match.again")
    finally:
        await here.flush()
        await there.flush()


async def test_a_join_waits_for_a_peer_that_does_not_answer_only_so_long(
    caplog, monkeypatch
):
    """A subscriber that never answers (a plain Redis subscriber here, as a
    hung process would be) is counted among the hello's receivers: the join
    waits ``JOIN_WAIT_S`` for it, says so in the log, and publishes every
    message of the group from then on."""
    monkeypatch.setattr(channel_layer, "JOIN_WAIT_S", 0.3)
    layer = new_layer()
    probe = new_layer()._get_layer()._shards[0]
    probe._ensure_redis()
    pubsub = probe._redis.pubsub()
    try:
        group_channel = layer._get_layer()._get_group_channel_name("match.hung")
        await pubsub.subscribe(group_channel)
        await subscribed("match.hung", layers=1)
        local = await layer.new_channel()
        began = asyncio.get_running_loop().time()
        await layer.group_add("match.hung", local)
        assert asyncio.get_running_loop().time() - began >= 0.3
        assert "with 0 of 1 other processes answering" in caplog.text
        assert group_channel in layer._get_layer().shared
    finally:
        await pubsub.aclose()
        await probe.flush()
        await layer.flush()


async def test_a_join_with_nobody_else_in_the_group_does_not_wait():
    layer = new_layer()
    try:
        local = await layer.new_channel()
        began = asyncio.get_running_loop().time()
        await layer.group_add("match.first", local)
        assert asyncio.get_running_loop().time() - began < channel_layer.JOIN_WAIT_S
        group_channel = layer._get_layer()._get_group_channel_name("match.first")
        assert group_channel not in layer._get_layer().shared
        assert not layer._get_layer().joins
    finally:
        await layer.flush()
