"""The presence loop's beats leave in slices (``gameplay.presence``): a
process's beats sent all at once held its event loop for milliseconds, every
intent arriving then waited, and the clients got them as one burst."""

from __future__ import annotations

import asyncio
import weakref

import pytest

from gameplay import presence

pytestmark = pytest.mark.asyncio


class FakeSocket:
    def __init__(self, match_pk: int, log: list) -> None:
        self.match_pk = match_pk
        self.seat_pk = match_pk * 10
        self.log = log

    async def send_beat(self, version: int) -> None:
        self.log.append(("beat", version))


# The refresh runs through ``database_sync_to_async``, which closes stale
# connections around the call: database access must be allowed.
@pytest.mark.django_db
async def test_every_socket_is_beaten_in_slices_with_the_loop_let_go_between(
    monkeypatch,
):
    monkeypatch.setattr(
        presence,
        "_versions",
        lambda *, seat_ids, match_ids: ({pk: (7, 7) for pk in match_ids}, set(), []),
    )
    log: list = []
    sockets = [FakeSocket(pk, log) for pk in range(1, 46)]
    loop = asyncio.get_running_loop()
    monkeypatch.setitem(presence._sockets, loop, weakref.WeakSet(sockets))

    async def other_work() -> None:
        while True:
            log.append(("other", None))
            await asyncio.sleep(0.001)

    other = asyncio.create_task(other_work())
    try:
        assert await presence.beat_once(loop) == 45
    finally:
        other.cancel()
    kinds = [kind for kind, _ in log]
    assert kinds.count("beat") == 45
    assert all(version == 7 for kind, version in log if kind == "beat")
    # Other work ran between the slices: no run of beats is longer than one.
    runs, run = [], 0
    for kind in kinds:
        if kind == "beat":
            run += 1
        elif run:
            runs.append(run)
            run = 0
    runs.append(run)
    assert max(runs) <= presence.BEAT_SLICE and len([r for r in runs if r]) >= 3
