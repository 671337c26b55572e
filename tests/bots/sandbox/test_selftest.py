"""The start-up self-test and the refusal policy when there is no sandbox."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bots.protocol.transport import BotProcess, TimeControl
from bots.sandbox import (
    SandboxConfig,
    SandboxStatus,
    SandboxUnavailable,
    run_selftest,
    sandbox_available,
)

from .conftest import needs_bwrap, write_bot

ECHO = """
while (msg := read()) is not None:
    answer({"echo": msg})
"""


@needs_bwrap
@pytest.mark.sandbox
def test_selftest_proves_every_layer(sandbox_config: SandboxConfig) -> None:
    status = run_selftest(sandbox_config)
    assert status.ok, status.reason
    expected = {
        "no_inherited_fds",
        "uid_unprivileged",
        "no_capabilities",
        "no_new_privs",
        "seccomp_active",
        "inet_blocked",
        "inet6_blocked",
        "network_namespace_empty",
        "own_network_namespace",
        "host_sockets_hidden",
        "shadow_unreadable",
        "work_hidden",
        "host_passwd_hidden",
        "system_read_only",
        "work_dir_writable",
        "environment_clean",
        "userns_denied",
        "ptrace_denied",
        "seccomp_filters_stacked",
        "new_syscalls_denied",
        "pid_namespace",
        "core_dumps_off",
        "cpu_limited",
        "memory_limited",
        "processes_limited",
        "files_limited",
        "oom_killer_first",
        "host_uid_unprivileged",
    }
    if os.geteuid() == 0:
        expected.add("tmpfs_inodes_limited")
    if status.per_slot_uid:
        expected |= {"host_uid_is_slot_uid", "nothing_survives"}
    assert expected <= set(status.checks)
    assert all(status.checks.values())
    assert status.bwrap_version.startswith("bubblewrap")


@needs_bwrap
@pytest.mark.sandbox
def test_selftest_fails_when_a_layer_is_missing(sandbox_config: SandboxConfig) -> None:
    """A sandbox that starts but leaks must count as unavailable, not as safe."""
    # An interpreter that is not there: the probe never reports.
    broken = SandboxConfig(bwrap_path=sandbox_config.bwrap_path, interpreter="/nope")
    status = run_selftest(broken)
    assert not status.ok
    assert "/nope" in status.reason


def test_missing_bwrap_refuses_uploaded_bots(tmp_path: Path) -> None:
    config = SandboxConfig(bwrap_path=str(tmp_path / "no-such-bwrap"))
    status = sandbox_available(config)
    assert not status.ok
    assert "bubblewrap not found" in status.reason
    bot_dir = write_bot(tmp_path / "bot", ECHO)
    with pytest.raises(SandboxUnavailable, match="uploaded bots are refused"):
        BotProcess.start(bot_dir, config=config)


def test_a_failed_verdict_is_checked_again_a_passed_one_is_kept(
    tmp_path: Path, monkeypatch
) -> None:
    """A probe that a busy machine slowed past its time must not keep the
    worker refusing bots until it restarts: a failure stands for a while."""
    from bots.sandbox import selftest

    verdicts = iter([False, True])
    runs: list[SandboxConfig] = []

    def run(config: SandboxConfig) -> SandboxStatus:
        runs.append(config)
        ok = next(verdicts)
        return SandboxStatus(ok=ok, reason="verified" if ok else "no report")

    monkeypatch.setattr(selftest, "run_selftest", run)
    config = SandboxConfig(bwrap_path=str(tmp_path / "bwrap"))
    monkeypatch.setattr(selftest, "FAILED_VERDICT_S", 3600.0)
    assert sandbox_available(config).reason == "no report"
    assert sandbox_available(config).reason == "no report"  # still standing
    assert len(runs) == 1
    monkeypatch.setattr(selftest, "FAILED_VERDICT_S", 0.0)  # it has stood long
    assert sandbox_available(config).ok
    assert sandbox_available(config).ok  # a pass is kept
    assert len(runs) == 2


def test_dev_override_runs_unsandboxed_only_when_asked(tmp_path: Path) -> None:
    config = SandboxConfig(bwrap_path=str(tmp_path / "no-such-bwrap"))
    bot_dir = write_bot(tmp_path / "bot", ECHO)
    with BotProcess.start(
        bot_dir,
        config=config,
        allow_unsandboxed=True,
        time_control=TimeControl(startup=5),
    ) as bot:
        assert not bot.process.sandboxed
        assert bot.handshake({"type": "hello"}) == {"echo": {"type": "hello"}}
    assert bot.process.popen.poll() is not None
