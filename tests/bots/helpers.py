"""Helpers for bot tests: stored versions and all-bot matches."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from bots import enqueue, services
from bots.models import Bot, BotStatus, BotVersion, VersionStatus
from bots.sandbox import processes_of_uid
from gameplay.models import Match
from gameplay.services import SeatSpec, match_create


def stored_version(
    owner, source: bytes, *, name: str, active: bool = True
) -> BotVersion:
    """A version stored through the upload service, marked active (no validation)."""
    original = enqueue.validation
    enqueue.validation = lambda version_id: None
    try:
        version = services.bot_create(
            owner=owner, game="duelo", name=name, filename=f"{name}.py", data=source
        )
    finally:
        enqueue.validation = original
    if active:
        BotVersion.objects.filter(pk=version.pk).update(status=VersionStatus.ACTIVE)
        Bot.objects.filter(pk=version.bot_id).update(
            status=BotStatus.ACTIVE, active_version=version
        )
        version.refresh_from_db()
    return version


def assert_validates_to(version_id: int, expected: str) -> None:
    """Run the version's validation and check the status it ends in; a wrong
    one fails with the version's ``status_detail``, which says why (a refused
    sandbox, a forfeited game, a compile error)."""
    status = services.bot_version_validate(version_id=version_id)
    detail = BotVersion.objects.get(pk=version_id).status_detail
    assert status == expected, f"validation ended {status!r}: {detail}"


def bot_match(*agents: str, context: str = "test") -> Match:
    """A waiting match with the given seat agents (``bot:<id>``, ``builtin:x``)."""
    return match_create(
        game="duelo",
        seats=[SeatSpec(agent=agent, label=agent) for agent in agents],
        config={},
        context=context,
    )


def survivors_of(uid: int, lock_dir: str) -> list[int]:
    """The processes left under a closed bot's slot ``uid`` (none, when the
    close did its job), looked at while holding the slot's lock.

    Other test sessions on this machine (the other xdist worker first: all
    take the lowest free slot) use the same slot uids, and one that takes the
    slot as soon as the close frees it runs its own bot under the uid: a slot
    taken meanwhile is not looked at, its processes are not this bot's.
    """
    fd = os.open(Path(lock_dir) / f"uid-{uid}.lock", os.O_RDWR)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return []
        return processes_of_uid(uid)
    finally:
        os.close(fd)
