"""The launcher (the worker's fork server for sandboxes) under concurrency and
across a fork of the worker process."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest

from bots.protocol.transport import BotFault, BotProcess, TimeControl
from bots.sandbox import SandboxConfig, processes_of_uid
from tests.bots.helpers import survivors_of
from tests.waiting import wait_until

from .conftest import needs_bwrap, write_bot

pytestmark = [needs_bwrap, pytest.mark.sandbox]

ECHO = """
while (msg := read()) is not None:
    answer({"echo": msg})
"""


def test_bots_started_and_closed_from_several_threads(
    tmp_path: Path, sandbox_config: SandboxConfig
) -> None:
    bot_dir = write_bot(tmp_path / "bot", ECHO)
    results: dict[int, object] = {}
    bots: dict[int, BotProcess] = {}

    def play(n: int) -> None:
        try:
            bot = BotProcess.start(
                bot_dir, config=sandbox_config, time_control=TimeControl(startup=10)
            )
            bots[n] = bot
            results[n] = [bot.handshake({"n": n}), bot.request({"m": n})]
        except Exception as exc:  # reported by the assertion below
            results[n] = exc

    threads = [threading.Thread(target=play, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert results == {n: [{"echo": {"n": n}}, {"echo": {"m": n}}] for n in range(4)}
    uids = {bot.process.host_uid for bot in bots.values()}
    assert len(uids) == 4  # four slots, four uids
    closers = [threading.Thread(target=bot.close) for bot in bots.values()]
    for closer in closers:
        closer.start()
    for closer in closers:
        closer.join(timeout=30)
    for uid in uids:
        assert uid is not None and survivors_of(uid, sandbox_config.lock_dir) == []
    assert all(bot.exit_status is not None for bot in bots.values())


def test_a_forked_worker_gets_its_own_launcher(
    tmp_path: Path, sandbox_config: SandboxConfig
) -> None:
    """Celery forks its pool processes: each must talk to a launcher it owns."""
    bot_dir = write_bot(tmp_path / "bot", ECHO)
    with BotProcess.start(bot_dir, config=sandbox_config) as bot:  # parent's launcher
        assert bot.handshake({"who": "parent"}) == {"echo": {"who": "parent"}}
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child process
        code = 1
        try:
            with BotProcess.start(bot_dir, config=sandbox_config) as child_bot:
                if child_bot.handshake({"who": "child"}) == {"echo": {"who": "child"}}:
                    code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    with BotProcess.start(bot_dir, config=sandbox_config) as bot:  # parent still fine
        assert bot.handshake({"who": "again"}) == {"echo": {"who": "again"}}


def test_a_dead_launcher_takes_its_bots_and_is_replaced(
    tmp_path: Path, sandbox_config: SandboxConfig
) -> None:
    """If the launcher dies (OOM killer, bug), its bots die with it, nothing
    hangs waiting for their exit, and the next bot gets a new launcher."""
    from bots.sandbox.launcher import default_launcher

    bot_dir = write_bot(tmp_path / "bot", ECHO)
    bot = BotProcess.start(bot_dir, config=sandbox_config)
    assert bot.handshake({"n": 1}) == {"echo": {"n": 1}}
    uid = bot.process.host_uid
    launcher = default_launcher()._proc
    assert launcher is not None
    os.kill(launcher.pid, signal.SIGKILL)
    launcher.wait()
    assert uid is not None
    wait_until(
        lambda: processes_of_uid(uid) == [],
        timeout=5,
        interval=0.02,
        message=f"uid {uid}'s processes to end with the launcher",
    )
    with pytest.raises(BotFault):
        bot.request({"n": 2})
    assert bot.exit_status is not None  # closed without hanging
    with BotProcess.start(bot_dir, config=sandbox_config) as fresh:
        assert fresh.handshake({"n": 3}) == {"echo": {"n": 3}}
    assert default_launcher()._proc is not launcher
