"""Sandbox slot uids are set per worker and checked at start-up (issue: two
workers or deployments on one host sharing fixed uids killed each other's bots).
"""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots.sandbox import SandboxConfig, SlotAllocator, run_selftest, slots
from bots.sandbox.slots import check_uid_range
from tests.waiting import wait_until

from .conftest import BWRAP, needs_bwrap

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="per-slot uids need root")


@pytest.fixture
def lock_dir() -> Iterator[Path]:
    # Under /run like the real one (pytest's tmp_path is 0700 for root).
    path = Path(tempfile.mkdtemp(prefix="kfa-test-uids-", dir="/run"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def config(lock_dir: Path, base: int, count: int = 4) -> SandboxConfig:
    return SandboxConfig(
        bwrap_path=BWRAP, lock_dir=str(lock_dir), uid_base=base, slot_count=count
    )


@pytest.mark.parametrize(
    ("base", "count", "words"),
    [
        (0, 4, "must lie within"),
        (65530, 8, "65534 (nobody)"),
        (2**31 - 2, 4, "must lie within"),
    ],
)
def test_impossible_ranges_are_refused(lock_dir, base, count, words) -> None:
    assert words in check_uid_range(config(lock_dir, base, count))


def test_a_range_holding_a_host_account_is_refused(lock_dir, monkeypatch) -> None:
    """A uid or gid of a real account would give the bot that account's files."""
    assert check_uid_range(config(lock_dir, 62000)) == ""
    account = pwd.struct_passwd(("alice", "x", 62002, 100, "", "/home/a", "/bin/sh"))
    monkeypatch.setattr(slots.pwd, "getpwall", lambda: [account])
    assert "uid 62002 belongs to the account 'alice'" in check_uid_range(
        config(lock_dir, 62000)
    )
    monkeypatch.setattr(slots.pwd, "getpwall", list)
    group = grp.struct_group(("staff2", "x", 62003, []))
    monkeypatch.setattr(slots.grp, "getgrall", lambda: [group])
    assert "gid 62003 belongs to the group 'staff2'" in check_uid_range(
        config(lock_dir, 62000)
    )


def _process_as(uid: int) -> int:
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        try:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            time.sleep(30)
        finally:
            os._exit(0)
    # Back once the child runs under the uid, which is what the checks look for.
    wait_until(
        lambda: _runs_as(pid, uid),
        timeout=10,
        interval=0.005,
        message=f"process {pid} to run as {uid}",
    )
    return pid


def _runs_as(pid: int, uid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    line = next(x for x in status.splitlines() if x.startswith("Uid:"))
    return line.split()[1:] == [str(uid)] * 4


def test_a_range_in_use_elsewhere_is_refused_at_start_up(lock_dir) -> None:
    """A process runs under a uid of the range, but not through this lock
    directory (another deployment): the check and the self-test refuse."""
    cfg = config(lock_dir, 62100)
    assert check_uid_range(cfg) == ""
    # A clean release earlier, then a foreign process under that uid.
    SlotAllocator.release(SlotAllocator(cfg).acquire()[1], clean=True)
    pid = _process_as(62100)
    try:
        problem = check_uid_range(cfg)
        assert "in use outside this worker's lock directory" in problem
        assert "BOT_SANDBOX_UID_BASE" in problem
        status = run_selftest(cfg)
        assert not status.ok and "62100" in status.reason
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert check_uid_range(cfg) == ""


def test_overlapping_ranges_in_one_lock_directory_never_share_a_uid(
    lock_dir,
) -> None:
    """Lock files are per uid, so two configurations whose ranges overlap in
    one lock directory take disjoint uids."""
    first, second = config(lock_dir, 62200, 4), config(lock_dir, 62202, 4)
    held = [SlotAllocator(first).acquire() for _ in range(4)]
    uids_first = {first.host_uid(slot) for slot, _ in held}
    assert uids_first == {62200, 62201, 62202, 62203}
    slot, fd = SlotAllocator(second).acquire()
    assert second.host_uid(slot) == 62204
    # A uid held by a live bot of the other configuration is not "in use
    # elsewhere": both share the locks.
    assert check_uid_range(second) == ""
    for _slot, lock in [*held, (slot, fd)]:
        SlotAllocator.release(lock, clean=True)


@needs_bwrap
@pytest.mark.sandbox
def test_selftest_runs_under_the_configured_range(lock_dir) -> None:
    status = run_selftest(config(lock_dir, 62300))
    assert status.ok, status.reason
    assert status.checks["host_uid_is_slot_uid"]


@pytest.mark.skipif(not shutil.which("unshare"), reason="needs util-linux unshare")
def test_a_range_in_use_in_another_container_is_refused(lock_dir) -> None:
    """The other deployment's process is invisible in /proc (its own pid
    namespace, as containers are); the host-wide per-uid process count still
    gives it away."""
    pid = _process_as(62400)
    try:
        check = (
            "import sys; from bots.sandbox import SandboxConfig; "
            "from bots.sandbox import processes_of_uid; "
            "from bots.sandbox.slots import check_uid_range; "
            f"c = SandboxConfig(lock_dir={str(lock_dir)!r}, uid_base=62400, "
            "slot_count=4); "
            "assert not processes_of_uid(62400), 'visible'; "
            "print(check_uid_range(c))"
        )
        result = subprocess.run(
            ["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c", check],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=Path(__file__).resolve().parents[3],
        )
        assert result.returncode == 0, result.stderr
        assert "sandbox uid 62400 is in use" in result.stdout
        assert "another container" in result.stdout
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert check_uid_range(config(lock_dir, 62400)) == ""
