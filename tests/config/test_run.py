"""`make run` refuses an unreachable database or Redis with a clear message."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import wait_until

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


def _processes_marked(marker: bytes) -> list[int]:
    """Live processes whose environment holds ``marker``: honcho starts web, worker
    and beat in sessions of their own, so the session alone does not find them."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker in environ.split(b"\0") and state != "Z":
            found.append(int(entry.name))
    return found


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


def _exhibition_version(database: Path) -> int | None:
    import sqlite3

    try:
        with sqlite3.connect(database, timeout=10) as connection:
            row = connection.execute(
                "SELECT version FROM gameplay_match WHERE context = ? "
                "ORDER BY id DESC LIMIT 1",
                ["demo:exhibition"],
            ).fetchone()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def test_whole_platform_starts_healthy_and_ctrl_c_leaves_nothing(tmp_path) -> None:
    """A fresh start: web, worker, beat and the embedded Redis; Ctrl-C stops all.

    The database's directory does not exist yet (a fresh clone has no var/). The
    banner (URL, admin password) comes once every part is up, with no ERROR line
    before it and no routine task lines after it, and the demo's bots-only
    "Live now" game moves while nobody touches it. The bots worker logs its
    sandbox self-test. Ctrl-C ends it with exit 0 (make says nothing) and no
    ERROR line: the worker's pool children are not killed in mid-task.
    """
    import signal
    import socket
    import threading

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    database = tmp_path / "var" / "db.sqlite3"
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.development",
        "DATABASE_URL": f"sqlite:///{database}",
        "EMBEDDED_REDIS_DIR": str(tmp_path / "redis"),
        "PORT": str(port),
        "BOTS_ONLY_MOVE_DELAY": "0.5",
    }
    environment.pop("REDIS_URL", None)
    marker = f"EMBEDDED_REDIS_DIR={tmp_path / 'redis'}".encode()
    platform = subprocess.Popen(
        [sys.executable, "-m", "config.run"],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    stdout = platform.stdout
    assert stdout is not None
    reader = threading.Thread(target=lambda: lines.extend(stdout), daemon=True)
    reader.start()

    def banner_at() -> int | None:
        for index, line in enumerate(list(lines)):
            if "Kung Fu Arena is up" in line:
                return index
        return None

    try:

        def alive() -> None:
            assert platform.poll() is None, "".join(lines)[-3000:]

        wait_until(
            lambda: banner_at() is not None,
            timeout=240,
            interval=0.5,
            message="the banner",
            between=alive,
        )
        up = banner_at()
        assert up is not None
        before = _exhibition_version(database)
        assert before is not None, "the demo has no exhibition game"

        # Beat's 5 s clock sweep moves the game: wait for a move, not a period
        # (a read the busy database refuses is no move yet).
        def moved() -> bool:
            now = _exhibition_version(database)
            return now is not None and now > before

        wait_until(
            moved,
            timeout=60,
            interval=0.5,
            message="the demo's Live now game to move",
        )
        wait_until(
            lambda: any("bot sandbox self-test " in line for line in list(lines)),
            timeout=60,
            interval=0.5,
            message="the bots worker's self-test line",
        )
        assert len(_processes_in_session(platform.pid)) >= 4
        # web, worker (and its pool), beat and Redis, wherever their sessions are
        assert len(_processes_marked(marker)) >= 5
        os.killpg(platform.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        platform.wait(timeout=60)
        reader.join(timeout=10)
    finally:
        if platform.poll() is None:
            os.killpg(platform.pid, signal.SIGKILL)
            platform.wait()
            # A failed start must not leave web, worker or Redis running: honcho's
            # children may sit in their own process groups of this session.
            for pid in {
                *_processes_in_session(platform.pid),
                *_processes_marked(marker),
            }:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
    wait_until(  # the last children are being reaped
        lambda: not (_processes_in_session(platform.pid) or _processes_marked(marker)),
        timeout=15,
        message="every child of the platform to end",
    )
    assert not (tmp_path / "redis" / "redis.sock").exists()
    output = "".join(lines)
    assert "embedded Redis stopped" in output
    assert platform.returncode == 0, output[-3000:]  # no "make: *** Error 130"
    banner = "".join(lines[up : up + 5])
    assert f"http://127.0.0.1:{port}/" in banner
    assert "user admin, password " in banner
    # The README: user admin, the password kept in var/admin-password.txt
    # (beside the SQLite database).
    password = (database.parent / "admin-password.txt").read_text().strip()
    assert f"user admin, password {password}\n" in banner
    assert "kungfu-demo-2026" in banner
    start_up = "".join(lines[:up])
    assert " ERROR " not in start_up and "Traceback" not in start_up, start_up
    stopping = next(
        (i for i, line in enumerate(lines) if "SIGINT received" in line), len(lines)
    )
    quiet = "".join(lines[up:stopping])
    for routine in ("Sending due task", "succeeded in", "] received"):
        assert routine not in quiet, quiet
    stopped = "".join(lines[stopping:])
    assert "ERROR" not in stopped and "Traceback" not in stopped, stopped
