"""`make run` refuses an unreachable database or Redis with a clear message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_platform(**env: str) -> subprocess.CompletedProcess[str]:
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.development",
    }
    environment.pop("REDIS_URL", None)
    environment.pop("DATABASE_URL", None)
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-m", "config.run"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"DATABASE_URL": "postgres://nobody@127.0.0.1:1/nothing"},
            "the database (postgresql at 127.0.0.1) is unreachable",
        ),
        (
            {"REDIS_URL": "redis://127.0.0.1:1/0"},
            "Redis at REDIS_URL=redis://127.0.0.1:1/0 is unreachable",
        ),
    ],
)
def test_unreachable_service_gives_a_clear_message(env, message) -> None:
    result = run_platform(**env)
    assert result.returncode == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def _processes_in_session(sid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # fields: state ppid pgrp session ...
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def test_whole_platform_starts_healthy_and_ctrl_c_leaves_nothing(tmp_path) -> None:
    """Start web, worker, beat and the embedded Redis; Ctrl-C stops them all."""
    import signal
    import socket
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.development",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "EMBEDDED_REDIS_DIR": str(tmp_path / "redis"),
        "PORT": str(port),
    }
    environment.pop("REDIS_URL", None)
    platform = subprocess.Popen(
        [sys.executable, "-m", "config.run"],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    output = []
    try:
        deadline = time.monotonic() + 90
        healthy = False
        while time.monotonic() < deadline and not healthy:
            time.sleep(1)
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/healthz", timeout=3
                ) as response:
                    healthy = response.status == 200
            except OSError:
                continue
        assert healthy, "the platform did not report healthy within 90 s"
        assert len(_processes_in_session(platform.pid)) >= 4
        os.killpg(platform.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        out, _ = platform.communicate(timeout=60)
        output.append(out)
    finally:
        if platform.poll() is None:
            os.killpg(platform.pid, signal.SIGKILL)
            platform.wait()
    time.sleep(0.5)
    assert _processes_in_session(platform.pid) == []
    assert not (tmp_path / "redis" / "redis.sock").exists()
    assert "embedded Redis stopped" in output[0]
