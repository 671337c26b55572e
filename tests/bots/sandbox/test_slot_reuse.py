"""A slot is handed on only when every process of it is gone.

A bot that filled its tmpfs with files takes a while to die (the kernel frees
every inode while its last process exits); if bwrap had to be killed, that pid 1
is orphaned to init and still exiting after close() used to return, sharing the
slot uid (and RLIMIT_NPROC) with the next bot.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bots.protocol.transport import TimeControl
from bots.sandbox import SandboxConfig, SandboxLimits, process, uids
from tests.bots.helpers import survivors_of

from .conftest import StartBot, needs_bwrap

pytestmark = [
    needs_bwrap,
    pytest.mark.sandbox,
    pytest.mark.skipif(os.geteuid() != 0, reason="per-slot uids need root"),
]

FLOOD = """
read()
n = 0
try:
    while n < 150000:
        open(f"/tmp/{n}", "w").close()
        n += 1
except OSError:
    pass
answer({"files": n})
time.sleep(60)
"""


def test_close_returns_only_when_the_slot_is_empty(
    start_bot: StartBot, sandbox_config: SandboxConfig, monkeypatch
) -> None:
    # bwrap is killed at once, so the bot's pid 1 dies orphaned under init.
    monkeypatch.setattr(process, "BWRAP_EXIT_WAIT_S", 0.0)
    # Far more inodes than the default cap, to make the bot's death slow.
    config = SandboxConfig(
        bwrap_path=sandbox_config.bwrap_path,
        limits=SandboxLimits(tmpfs_inodes=200_000),
    )
    bot = start_bot(
        FLOOD, config=config, time_control=TimeControl(startup=30, per_move=30, bank=0)
    )
    assert bot.handshake({})["files"] > 10000
    uid = bot.process.host_uid
    assert uid is not None, "the sandboxed bot runs as a slot's uid"
    started = time.monotonic()
    bot.close()
    assert survivors_of(uid, sandbox_config.lock_dir) == [], (
        "a process of the slot outlived close()"
    )
    assert time.monotonic() - started < uids.SLOT_DRAIN_S
    lock = Path(sandbox_config.lock_dir) / f"uid-{uid}.lock"
    assert lock.read_bytes() == b"clean\n"
