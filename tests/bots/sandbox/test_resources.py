"""Hostile bots that try to exhaust the host: processes, memory, CPU, disk,
descriptors, or that try to leave a process behind. The kernel limits stop them;
the worker and a concurrent well-behaved bot carry on; nothing survives close."""

from __future__ import annotations

import os
import time

import pytest

from bots.protocol.transport import BotFault, TimeControl
from bots.sandbox import SandboxConfig, SandboxLimits, processes_of_uid
from tests.bots.helpers import survivors_of
from tests.waiting import wait_until

from .conftest import BWRAP, StartBot, needs_bwrap

pytestmark = [needs_bwrap, pytest.mark.sandbox]

ECHO = """
while (msg := read()) is not None:
    answer({"echo": msg})
"""


def test_fork_bomb_is_capped_and_fully_killed(
    start_bot: StartBot, sandbox_config: SandboxConfig
) -> None:
    neighbour = start_bot(ECHO)
    neighbour.handshake({"n": 0})
    bomb = start_bot(
        """
        read()
        if os.fork() == 0:
            os.setsid()
            while True:  # every process keeps forking, forever
                try:
                    os.fork()
                except OSError:
                    time.sleep(0.001)
        answer({"started": True})
        read()
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
        answer({"processes": len(pids)})
        read()  # stay alive (pid 1's exit would end the bomb) until closed
        """
    )
    assert bomb.handshake({}) == {"started": True}
    time.sleep(0.5)
    count = bomb.request({})["processes"]
    limit = SandboxLimits().max_processes
    assert count <= limit
    uid = bomb.process.host_uid
    assert uid is not None and 0 < len(processes_of_uid(uid)) <= limit
    # A different match's bot is unaffected while the bomb runs.
    for n in range(1, 20):
        assert neighbour.request({"n": n}) == {"echo": {"n": n}}
    bomb.close()
    assert survivors_of(uid, sandbox_config.lock_dir) == []
    # The kill saw the slot empty before it handed the slot on (what the
    # self-test's "nothing_survives" reads).
    assert bomb.process.nothing_left is True
    assert neighbour.request({"n": 99}) == {"echo": {"n": 99}}


def test_one_gibibyte_allocation_fails(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        read()
        answer(attempt(lambda: len(bytearray(1 << 30))))
        """
    )
    reply = bot.handshake({})
    assert reply["ok"] is False and "MemoryError" in reply["error"]


def test_infinite_loop_hits_the_move_deadline(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        read()
        answer({"ready": True})
        read()
        while True:
            pass
        """,
        time_control=TimeControl(startup=5, per_move=0.3, bank=0.2),
    )
    bot.handshake({})
    started = time.monotonic()
    with pytest.raises(BotFault) as fault:
        bot.request({"type": "act"})
    assert fault.value.reason == "timeout"
    assert 0.45 <= time.monotonic() - started < 3.0


def test_cpu_rlimit_kills_a_spinning_bot_nobody_is_waiting_on(
    start_bot: StartBot,
) -> None:
    """Between moves nobody watches the clock: RLIMIT_CPU is the backstop."""
    config = SandboxConfig(bwrap_path=BWRAP, limits=SandboxLimits(cpu_seconds=1))
    bot = start_bot(
        """
        read()
        answer({"ready": True})
        while True:
            pass
        """,
        config=config,
    )
    bot.handshake({})
    wait_until(
        lambda: bot.process.popen.poll() is not None,
        timeout=10,
        interval=0.05,
        message="the bot killed at its CPU limit",
    )
    assert bot.process.popen.returncode in (128 + 9, 128 + 24)  # SIGKILL / SIGXCPU
    with pytest.raises(BotFault) as fault:
        bot.request({})
    assert fault.value.reason == "crash"
    assert "signal" in fault.value.detail


def test_one_huge_file_is_capped(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        read()
        def fill(path):
            written = 0
            block = b"x" * (1 << 20)
            with open(path, "wb") as fh:
                for _ in range(200):  # try 200 MiB
                    fh.write(block)
                    fh.flush()
                    written += len(block)
            return written
        answer({"home": attempt(lambda: fill("/home/bot/big")),
                "tmp": attempt(lambda: fill("/tmp/big")),
                "size": os.path.getsize("/home/bot/big")})
        """
    )
    reply = bot.handshake({})
    assert reply["home"]["ok"] is False and reply["tmp"]["ok"] is False
    assert "File too large" in reply["home"]["error"]
    assert reply["size"] <= SandboxLimits().file_size_bytes


def test_many_files_hit_the_tmpfs_cap(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        read()
        count = 0
        def many():
            global count
            for i in range(100_000):
                with open(f"/home/bot/f{i}", "wb") as fh:
                    fh.write(b"x" * 1024)
                count += 1
        outcome = attempt(many)
        answer({"outcome": outcome, "count": count})
        """
    )
    reply = bot.handshake({})
    assert reply["outcome"]["ok"] is False
    assert "No space left" in reply["outcome"]["error"]
    # Each small file takes at least one page of the 16 MiB tmpfs.
    assert reply["count"] <= SandboxLimits().work_tmpfs_bytes // 4096


@pytest.mark.skipif(os.geteuid() != 0, reason="the inode cap needs a root worker")
@pytest.mark.parametrize("where", ["/home/bot", "/tmp"])
def test_empty_file_flood_hits_the_inode_cap(start_bot: StartBot, where: str) -> None:
    """Empty files take no bytes, so only ``nr_inodes`` stops them (each pins
    about 1.25 KB of kernel memory); measured: the flood stops at the cap."""
    bot = start_bot(
        """
        where = read()["where"]
        count = 0
        def flood():
            global count
            for i in range(200_000):
                open(f"{where}/e{i}", "w").close()
                count += 1
        outcome = attempt(flood)
        answer({"outcome": outcome, "count": count,
                "files": os.statvfs(where).f_files})
        """
    )
    reply = bot.handshake({"where": where})
    assert reply["outcome"]["ok"] is False
    assert "No space left" in reply["outcome"]["error"]
    cap = SandboxLimits().tmpfs_inodes
    assert reply["files"] == cap
    assert cap - 10 <= reply["count"] < cap  # the root directory takes one


def test_five_thousand_open_files_are_refused(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        read()
        handles = []
        def hoard():
            for _ in range(5000):
                handles.append(open("/dev/null"))
        outcome = attempt(hoard)
        answer({"outcome": outcome, "opened": len(handles)})
        """
    )
    reply = bot.handshake({})
    assert reply["outcome"]["ok"] is False
    assert "Too many open files" in reply["outcome"]["error"]
    assert reply["opened"] < SandboxLimits().open_files


@pytest.mark.parametrize("main_exits", [False, True], ids=["bot-alive", "bot-exited"])
def test_detached_daemon_does_not_survive(
    start_bot: StartBot, sandbox_config: SandboxConfig, main_exits: bool
) -> None:
    bot = start_bot(
        """
        import signal
        read()
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                signal.signal(signal.SIGHUP, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                os.closerange(0, 3)
                while True:
                    time.sleep(1)
            os._exit(0)
        os.wait()
        answer({"daemonized": True})
        if read() == {"exit": True}:
            sys.exit(0)
        read()
        """
    )
    assert bot.handshake({}) == {"daemonized": True}
    uid = bot.process.host_uid
    assert uid is not None
    assert len(processes_of_uid(uid)) >= 3  # bwrap, bot (pid 1 inside), daemon
    if main_exits:
        bot.send({"exit": True})
        bot.process.popen.wait(timeout=5)
    bot.close()
    assert survivors_of(uid, sandbox_config.lock_dir) == []
