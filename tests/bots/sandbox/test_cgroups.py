"""Each bot is capped as a whole (its slot cgroup), not per process: measured.

Before, ten children of one bot held 3.8 GiB together (RLIMIT_AS is per
process) and fourteen spinning children slowed the host's other matches 1.5x.
"""

from __future__ import annotations

import os
import time

import pytest

from bots.protocol.transport import BotFault, TimeControl
from bots.sandbox import SandboxConfig, SandboxLimits
from bots.sandbox.cgroups import CgroupLayout, cgroup_layout

from .conftest import StartBot, needs_bwrap

LAYOUT = cgroup_layout(SandboxConfig()) if os.geteuid() == 0 else "not root"

pytestmark = [
    needs_bwrap,
    pytest.mark.sandbox,
    pytest.mark.skipif(
        not isinstance(LAYOUT, CgroupLayout), reason=f"no slot cgroups: {LAYOUT}"
    ),
]

MIB = 1024 * 1024


def test_children_together_cannot_exceed_the_bots_memory(
    start_bot: StartBot, sandbox_config: SandboxConfig
) -> None:
    """Six children of 200 MiB each (each well inside RLIMIT_AS) would hold
    1.2 GiB; the bot's cgroup holds them all to 512 MiB: the kernel's OOM
    killer ends some of them, inside this bot only."""
    bot = start_bot(
        """
        import subprocess
        req = read()
        code = ("import sys, time; b = bytearray(b'x') * (%d << 20); "
                "sys.stdout.write('ok\\\\n'); sys.stdout.flush(); time.sleep(30)")
        kids = [subprocess.Popen([sys.executable, "-c", code % req["mib"]],
                                 stdout=subprocess.PIPE)
                for _ in range(req["n"])]
        filled = sum(1 for k in kids if k.stdout.readline() == b"ok\\n")
        time.sleep(0.3)
        alive = sum(1 for k in kids if k.poll() is None)
        answer({"filled": filled, "alive": alive})
        """,
        time_control=TimeControl(startup=30, per_move=30, bank=0),
    )
    reply = bot.handshake({"n": 6, "mib": 200})
    cap = sandbox_config.limits.memory_bytes
    assert reply["alive"] * 200 * MIB <= cap, reply
    assert reply["alive"] < 6
    cgroup = bot.process.cgroup
    assert cgroup is not None
    peak = cgroup.memory_peak()
    assert peak is not None and cap // 2 < peak <= cap, peak


def test_spinning_children_get_at_most_the_bots_cpu_quota(
    start_bot: StartBot, sandbox_config: SandboxConfig
) -> None:
    """Four spinning processes for 1.5 s of wall time: together they get at
    most ``cpu_cores`` (1) CPU, however many cores the host has."""
    bot = start_bot(
        """
        import subprocess
        wall = read()["wall"]
        code = "import time; end = time.time() + %r\\nwhile time.time() < end: pass"
        started = time.monotonic()
        kids = [subprocess.Popen([sys.executable, "-c", code % wall])
                for _ in range(4)]
        for k in kids:
            k.wait()
        elapsed = time.monotonic() - started
        t = os.times()
        answer({"cpu": t.children_user + t.children_system, "elapsed": elapsed})
        """,
        time_control=TimeControl(startup=30, per_move=30, bank=0),
    )
    reply = bot.handshake({"wall": 1.5})
    cores = sandbox_config.limits.cpu_cores
    # CFS enforces the quota per 100 ms period; allow one period of slack.
    assert reply["cpu"] <= cores * reply["elapsed"] + 0.15, reply


def test_processes_and_threads_are_capped_per_bot(
    start_bot: StartBot, sandbox_config: SandboxConfig
) -> None:
    bot = start_bot(
        """
        import threading
        read()
        started = 0
        stop = threading.Event()
        try:
            for _ in range(100):
                threading.Thread(target=stop.wait, daemon=True).start()
                started += 1
        except RuntimeError as exc:
            error = str(exc)
        else:
            error = ""
        stop.set()
        answer({"started": started, "error": error})
        """
    )
    reply = bot.handshake({})
    assert reply["error"], reply
    assert reply["started"] < sandbox_config.limits.max_processes
    cgroup = bot.process.cgroup
    assert cgroup is not None
    pids_max = cgroup.dir("pids") / "pids.max"
    assert pids_max.read_text().strip() == str(sandbox_config.limits.max_processes)


def test_the_bots_cgroup_is_removed_once_it_is_gone(start_bot: StartBot) -> None:
    bot = start_bot(
        """
        read()
        answer({"ok": True})
        time.sleep(30)
        """
    )
    bot.handshake({})
    cgroup = bot.process.cgroup
    assert cgroup is not None
    dirs = list(cgroup.dirs)
    assert all(os.path.isdir(d) for d in dirs)
    bot.close()
    assert not any(os.path.exists(d) for d in dirs)


def test_a_bot_over_its_memory_is_killed_not_the_worker(
    start_bot: StartBot,
) -> None:
    """One process under RLIMIT_AS (1 GiB) but over the bot's memory (128 MiB)."""
    config = SandboxConfig(
        limits=SandboxLimits(memory_bytes=128 * MIB, address_space_bytes=1024 * MIB)
    )
    bot = start_bot(
        """
        read()
        b = bytearray(b"x") * (400 << 20)
        answer({"survived": True})
        """,
        config=config,
    )
    started = time.monotonic()
    with pytest.raises(BotFault) as fault:
        bot.handshake({})
    assert fault.value.reason == "crash"
    assert "SIGKILL" in str(fault.value)
    assert time.monotonic() - started < 5
