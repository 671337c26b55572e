"""The worker killed mid-match (SIGKILL, no cleanup code runs): its bot must die
with it, through the parent-death signal on bwrap and bwrap's --die-with-parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from bots.sandbox import processes_of_uid
from tests.waiting import wait_until

from .conftest import BWRAP, needs_bwrap, write_bot

pytestmark = [needs_bwrap, pytest.mark.sandbox]

PROJECT_ROOT = Path(__file__).resolve().parents[3]

WORKER = """
import sys, time
from bots.protocol.transport import BotProcess
from bots.sandbox import SandboxConfig
bot = BotProcess.start(sys.argv[1], config=SandboxConfig(bwrap_path=sys.argv[2]))
reply = bot.handshake({"type": "hello"})
print(reply["pid"], bot.process.host_uid, bot.process.pid, flush=True)
time.sleep(60)
"""

BOT = """
import signal
signal.signal(signal.SIGHUP, signal.SIG_IGN)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
read()
if os.fork() == 0:  # a helper process too, to be sure the whole tree goes
    time.sleep(60)
answer({"pid": os.getpid()})
time.sleep(60)
"""


def test_bot_dies_with_a_killed_worker(tmp_path: Path) -> None:
    bot_dir = write_bot(Path(tempfile.mkdtemp(dir=tmp_path)) / "bot", BOT)
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(bot_dir), BWRAP],
        cwd=PROJECT_ROOT,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
    )
    try:
        assert worker.stdout is not None
        line = worker.stdout.readline().decode()
        _inner_pid, uid_text, bwrap_pid = line.split()
        uid = int(uid_text)
        assert len(processes_of_uid(uid)) >= 3  # bwrap, bot (pid 1 inside), helper
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(timeout=5)
        wait_until(
            lambda: processes_of_uid(uid) == [],
            timeout=5,
            interval=0.02,
            message=f"uid {uid}'s processes to end with their worker",
        )
        assert (
            not Path(f"/proc/{bwrap_pid}/status").exists()
            or "Z"
            in Path(f"/proc/{bwrap_pid}/status")
            .read_text()
            .split("State:")[1]
            .split()[0]
        )
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
