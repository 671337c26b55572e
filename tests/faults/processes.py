"""Private processes for fault tests: a Redis to stop and restart, workers.

Never the machine's shared Redis: each test gets its own ``redis-server`` on a
Unix socket in its temporary directory, with an append-only file so its data
outlives a restart, as a production Redis' does.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
REDIS_SERVER = shutil.which("redis-server")


@dataclass
class PrivateRedis:
    directory: Path
    process: subprocess.Popen | None = None

    @property
    def socket(self) -> Path:
        return self.directory / "redis.sock"

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self) -> None:
        assert REDIS_SERVER is not None, "redis-server is not on PATH"
        self.process = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port", "0",
                "--unixsocket", str(self.socket),
                "--unixsocketperm", "700",
                "--dir", str(self.directory),
                "--appendonly", "yes",
                "--save", "",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_until(self.socket.exists, timeout=20, message="redis to listen")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: Redis flushes its AOF and exits
            self.process.wait(timeout=20)
        self.process = None
        wait_until(
            lambda: not self.socket.exists(), timeout=10, message="redis socket to go"
        )

    def restart(self, down_for: float = 2.0) -> None:
        self.stop()
        time.sleep(down_for)
        self.start()


@dataclass
class Worker:
    """A Celery worker of this project, started with the given environment."""

    env: dict[str, str]
    log: Path
    queues: str = "default,ratings"
    process: subprocess.Popen | None = field(default=None)

    def start(self) -> None:
        handle = self.log.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "config", "worker",
                "-l", "INFO", "-Q", self.queues, "--concurrency", "1",
                "-n", f"fault-{os.getpid()}-{time.monotonic_ns()}@%h",
                "--without-gossip", "--without-mingle",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        wait_until(
            lambda: "ready." in self.text(),
            timeout=120,
            message="the worker to be ready",
        )

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """kill -9 the worker and its pool children."""
        process = self.process
        if process is not None and process.poll() is None:  # alive()
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=20)

    def stop(self) -> None:
        process = self.process
        if process is not None and process.poll() is None:  # alive()
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


def needs_redis_server() -> None:
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed")


def base_env(redis: PrivateRedis, tmp: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "CELERY_", "REDIS_", "DATABASE_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.development",
        REDIS_URL=redis.url,
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        CELERY_TASK_ALWAYS_EAGER="false",
        PYTHONUNBUFFERED="1",
    )
    return env
