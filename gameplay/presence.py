"""Each web process vouches for its own live sockets, and tells them the version.

``Seat.connected`` counts a seat's open sockets, but only ``disconnect`` lowers
it, and a web process that is killed never runs ``disconnect``. So a seat is
present only while a process keeps vouching for it: one loop per process (one
per event loop) refreshes ``Seat.seen_at`` for every seat it holds a socket for,
every third of PRESENCE_TTL, in one UPDATE. When the process dies the
refreshes stop, the seat turns absent within the TTL and beat's sweep
(``services.seats_sweep_absent``) starts the grace period from the last refresh.

The same loop sends every socket, seated or spectating, a ``beat`` frame with
the version it should be at (docs/protocol/live.md). A broadcast lost in a
Redis blip is then noticed by the client within one beat, and it resyncs.
"""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from typing import Any, Protocol

from channels.db import database_sync_to_async
from django.conf import settings
from django.db.models import Prefetch

from gameplay import broadcast, services
from gameplay.live import owner
from gameplay.models import Match, Seat

logger = logging.getLogger(__name__)


class Beating(Protocol):
    """What the loop needs of a socket (``consumers.MatchConsumer``)."""

    match_pk: int
    seat_pk: int | None

    async def send_beat(self, version: int) -> None: ...


# Per event loop: the sockets it serves and its heartbeat task.
_sockets: weakref.WeakKeyDictionary[Any, weakref.WeakSet] = weakref.WeakKeyDictionary()
_tasks: weakref.WeakKeyDictionary[Any, asyncio.Task] = weakref.WeakKeyDictionary()


# Beats leave in slices with a short pause between them: sent all at once, a
# process's 200 beats held its event loop for 4-16 ms (every intent arriving
# then waited) and reached the clients as one burst, every 10 s.
BEAT_SLICE = 20
BEAT_SLICE_PAUSE_S = 0.01


def refresh_seconds() -> float:
    return max(0.05, float(getattr(settings, "PRESENCE_TTL", 30)) / 3)


def register(socket: Beating) -> None:
    """Start vouching for ``socket`` (and beating it) from this process."""
    loop = asyncio.get_running_loop()
    _sockets.setdefault(loop, weakref.WeakSet()).add(socket)
    task = _tasks.get(loop)
    if task is None or task.done():
        _tasks[loop] = loop.create_task(_beat_forever(loop), name="presence-beat")


def unregister(socket: Beating) -> None:
    loop = asyncio.get_running_loop()
    sockets = _sockets.get(loop)
    if sockets is not None:
        sockets.discard(socket)


def _versions(
    *, seat_ids: list[int], match_ids: list[int]
) -> tuple[dict[int, tuple[int, int]], set[int], list[int]]:
    """Refresh presence; (match -> (version, public version), forfeited seats,
    matches whose seats were revived). Three queries (four with held matches),
    whatever the sockets."""
    revived = services.seats_seen(seat_ids=seat_ids)
    matches = (
        Match.objects.filter(pk__in=match_ids)
        .only("pk", "version", "status", "spectator_delay")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.filter(forfeited=True).only("pk", "match_id"),
            )
        )
    )
    versions: dict[int, tuple[int, int]] = {}
    forfeited: set[int] = set()
    for match in matches:
        versions[match.pk] = (match.version, match.public_version)
        forfeited.update(seat.pk for seat in match.seats.all())
    _refresh_held(versions)
    return versions, forfeited, revived


def _refresh_held(versions: dict[int, tuple[int, int]]) -> None:
    """Bring the matches this process holds in memory (``gameplay.live``) up to
    date with presence: seen-at stamps other processes refreshed, and a copy
    whose version is behind (a missed broadcast) is dropped. One query."""
    held = [pk for pk in owner.held_ids() if pk in versions]
    if not held:
        return
    rows = list(
        Seat.objects.filter(match_id__in=held).values_list(
            "pk", "match_id", "connected", "seen_at", "disconnected_at"
        )
    )
    owner.refresh_seats(rows, {pk: versions[pk][0] for pk in held})


async def beat_once(loop: Any | None = None) -> int:
    """One refresh and one beat to every socket of this loop; returns beats sent."""
    loop = loop or asyncio.get_running_loop()
    sockets = list(_sockets.get(loop, ()))
    if not sockets:
        return 0
    seat_ids = sorted({s.seat_pk for s in sockets if s.seat_pk is not None})
    match_ids = sorted({s.match_pk for s in sockets})
    versions, forfeited, revived = await database_sync_to_async(_versions)(
        seat_ids=seat_ids, match_ids=match_ids
    )
    for match_id in revived:
        await database_sync_to_async(broadcast.match_changed)(match_id=match_id)
    sent = 0
    for index, socket in enumerate(sockets):
        if index and index % BEAT_SLICE == 0:
            await asyncio.sleep(BEAT_SLICE_PAUSE_S)
        if socket.match_pk not in versions:
            continue
        version, public = versions[socket.match_pk]
        # A spectator, or a seat that left (it sees the public view), is held
        # back by the spectator delay: the beat must not reveal the real count.
        seated = socket.seat_pk is not None and socket.seat_pk not in forfeited
        try:
            await socket.send_beat(version if seated else public)
            sent += 1
        except Exception:  # a socket closing under us is not the loop's problem
            logger.debug("beat to a closing socket failed", exc_info=True)
    return sent


async def _beat_forever(loop: Any) -> None:
    # The first beat at a random point of the period: web processes started
    # together (a deploy, the benchmark) would otherwise beat at one moment,
    # every period, and their refreshes and beats pile up on the machine.
    pause = refresh_seconds() * random.uniform(0.5, 1.0)
    while True:
        await asyncio.sleep(pause)
        if not _sockets.get(loop):
            _tasks.pop(loop, None)  # the next socket starts a new loop
            return
        try:
            await beat_once(loop)
            pause = refresh_seconds()
        except Exception:
            # The database is away. Once it is back, vouch again within a
            # second: seats last vouched for before a long outage look absent
            # past their grace period until this refresh lands.
            logger.warning("presence refresh failed; retrying", exc_info=True)
            pause = min(1.0, refresh_seconds())
