"""Who has a player socket (``/ws/me/``) open, in any web process.

Every broadcast of a match carries a ``turn`` frame per seated player for
their own sockets (``receivers.turn_messages``): built, encoded and published
by the process that made the move, whether anyone listens or not. A player
at the table without another page open (the common case while playing, and
every player of ``bench/live_load.py``) listens on no player socket, so the
listener sends turn frames only to players who have one open somewhere.

Each web process registers the players it holds a player socket for in one
Redis sorted set (member ``<user id>:<process>``, score: when it expires),
refreshed every third of ``TTL`` while a socket is open and removed when the
process's last socket of that player closes; a killed process's entries
expire after ``TTL``. Whoever builds a broadcast (a web process's database
thread, a worker) reads the set at most once per ``SNAPSHOT_S`` (one
``ZRANGEBYSCORE``) and knows its own process's sockets at once. A socket
opened on another process may therefore miss turn frames for up to
``SNAPSHOT_S``: the socket checks its ``hello`` again after that
(``REHELLO_S``) and sends it when a move changed it meanwhile. When the set
cannot be read (Redis away) everybody counts as listening: frames are sent
as before, and the publish fails or not on its own.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
import uuid
import weakref
from typing import Any, cast

from django.conf import settings

logger = logging.getLogger(__name__)

TTL = 30.0
SNAPSHOT_S = 1.0
REHELLO_S = SNAPSHOT_S + 0.5
_TIMEOUT_S = 0.5  # a Redis that does not answer must not hold a move

# This process's open player sockets per user (touched by event loops;
# read by any thread).
_local: dict[int, int] = {}
_snapshot: list[Any] = [None, None]  # [taken at (monotonic), users or None]
_snapshot_lock = threading.Lock()
# Whether the last read of the set failed: an outage is logged once when it
# starts (with the traceback) and once when it ends, not on every broadcast.
_unreadable = False
_process: dict[int, str] = {}  # pid -> this process's name in the set
_sync_client: dict[int, Any] = {}
_async_clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_refreshers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _key() -> str:
    prefix = settings.CACHES["default"].get("KEY_PREFIX") or "kfa"
    return f"{prefix}:player-sockets"


def _member(user_id: int) -> str:
    pid = os.getpid()  # a forked worker is another process
    name = _process.get(pid)
    if name is None:
        name = _process[pid] = f"{pid}-{uuid.uuid4().hex[:8]}"
    return f"{user_id}:{name}"


def _async_client():
    import redis.asyncio as aioredis

    loop = asyncio.get_running_loop()
    client = _async_clients.get(loop)
    if client is None:
        client = _async_clients[loop] = aioredis.Redis.from_url(
            settings.REDIS_URL,
            socket_timeout=_TIMEOUT_S,
            socket_connect_timeout=_TIMEOUT_S,
        )
    return client


async def opened(user_id: int) -> None:
    """A player socket of ``user_id`` opened in this process."""
    _local[user_id] = _local.get(user_id, 0) + 1
    loop = asyncio.get_running_loop()
    task = _refreshers.get(loop)
    if task is None or task.done():
        _refreshers[loop] = loop.create_task(_refresh_forever(), name="player-sockets")
    if _local[user_id] == 1:
        try:
            await _async_client().zadd(
                _key(), {_member(user_id): time.time() + TTL}, gt=True
            )
        except Exception:  # Redis away: the refresher registers it later
            logger.warning("player socket registration failed", exc_info=True)


async def closed(user_id: int) -> None:
    """A player socket of ``user_id`` closed in this process."""
    left = _local.get(user_id, 0) - 1
    if left > 0:
        _local[user_id] = left
        return
    _local.pop(user_id, None)
    try:
        await _async_client().zrem(_key(), _member(user_id))
    except Exception:  # it expires after TTL
        logger.warning("player socket removal failed", exc_info=True)


async def _refresh_forever() -> None:
    while True:
        await asyncio.sleep(TTL / 3)
        if not _local:
            return
        now = time.time()
        try:
            client = _async_client()
            await client.zadd(_key(), {_member(u): now + TTL for u in list(_local)})
            await client.zremrangebyscore(_key(), "-inf", now)  # dead processes
        except Exception:
            logger.warning("player socket refresh failed", exc_info=True)


def _listening_anywhere() -> frozenset[int] | None:
    """Users with a player socket open in any process (None: unknown)."""
    now = time.monotonic()
    taken, users = _snapshot
    if taken is not None and now - taken < SNAPSHOT_S:
        return users
    with _snapshot_lock:
        taken, users = _snapshot
        if taken is not None and now - taken < SNAPSHOT_S:
            return users
        try:
            client = _sync_client.get(os.getpid())
            if client is None:
                import redis

                client = _sync_client[os.getpid()] = redis.Redis.from_url(
                    settings.REDIS_URL,
                    socket_timeout=_TIMEOUT_S,
                    socket_connect_timeout=_TIMEOUT_S,
                )
            # A sync client answers at once (redis-py types sync and async alike).
            members = cast(
                list[bytes], client.zrangebyscore(_key(), time.time(), "+inf")
            )
            users = frozenset(int(m.split(b":", 1)[0]) for m in members)
        except Exception:
            if not _unreadable:
                logger.warning("player sockets unknown (Redis)", exc_info=True)
            _set_unreadable(True)
            users = None
        else:
            if _unreadable:
                logger.warning("player sockets readable again")
            _set_unreadable(False)
        _snapshot[:] = [time.monotonic(), users]
        return users


def _set_unreadable(value: bool) -> None:
    global _unreadable
    _unreadable = value


def is_listening(user_id: int) -> bool:
    """Whether ``user_id`` may have a player socket open (in doubt: True)."""
    if user_id in _local:
        return True
    users = _listening_anywhere()
    return users is None or user_id in users


def forget_snapshot() -> None:
    """Read the set again at the next question (tests)."""
    _snapshot[:] = [None, None]
