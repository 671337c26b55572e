"""What the live benchmarks share: the services they start and how they measure.

``bench/live_load.py``, ``bench/live_realtime.py``, ``bench/live_floor.py`` and
``bench/live_move_cpu.py`` run the real stack: a Redis (``REDIS_URL``'s server at
a private logical database, else an embedded one), a database (a dedicated
PostgreSQL database on ``DATABASE_URL``, else a fresh SQLite file), uvicorn web
processes with ``make run``'s flags, each child in its own session, and an
ordered tear-down that leaves nothing behind. Here too: logged-in users in bulk,
CPU seconds per process and per machine from ``/proc``, percentiles and the
optional py-spy profile of a measured window. The WebSocket seat client is
``bench/live_client.py``.
"""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
BENCH_DIR = ROOT / "var" / "bench"


def log(message: str) -> None:
    """A progress line on stderr, named after the benchmark that runs."""
    name = Path(sys.argv[0]).stem or "live"
    print(f"[{name} {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr)


# As `make run` (config/run.py) starts the web process.
UVICORN_ARGS = [
    "--ws",
    "websockets-sansio",
    "--ws-per-message-deflate",
    "false",
    "--ws-max-size",
    "65536",
    "--lifespan",
    "off",
]


# Production settings (DEBUG off, the deploy checks, secure cookies; the bench
# gives them a throw-away secret and 127.0.0.1 as the allowed host); another
# module lets a proposed settings change be measured before anyone commits it.
SETTINGS_MODULE = os.environ.get("LIVE_LOAD_SETTINGS", "config.settings.production")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """utime + stime of one process (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pids_named(name: str) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if Path(f"/proc/{entry}/comm").read_text().strip() == name:
                    out.append(int(entry))
    return out


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def private_redis_db(url: str, db: int | None = None) -> str:
    """The configured Redis, but logical database ``db``: by default 15 (pub/sub
    is per server), or ``LIVE_BENCH_REDIS_DB`` (a session's own benchmark
    database).

    Matches finishing and players leaving enqueue Celery tasks (ratings, grace
    periods). On a shared Redis a real worker would run them against its own
    database, where the bench's match ids mean other matches; in database 15
    no worker listens, and the key prefixes keep channels and cache apart.
    """
    if not url:
        return ""
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    if db is None:
        db = int(os.environ.get("LIVE_BENCH_REDIS_DB", "15"))
    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = dict(parse_qsl(parts.query), db=str(db))
        return f"unix://{parts.path}?{urlencode(query)}"
    return urlunsplit(parts._replace(path=f"/{db}"))


def bench_redis(run_dir: Path, db: int | None = None) -> tuple[Any, str]:
    """(the embedded Redis started, or None; its URL): ``REDIS_URL``'s server
    at the bench's logical database (``private_redis_db``), else a private
    embedded Redis under ``run_dir``, which the caller stops."""
    url = private_redis_db(os.environ.get("REDIS_URL", ""), db)
    if url:
        return None, url
    from config.embedded_redis import EmbeddedRedis

    redis = EmbeddedRedis(run_dir / "redis")
    redis.start()
    return redis, redis.url


class Database:
    """SQLite under the run directory, or a dedicated database on DATABASE_URL."""

    def __init__(self, run_dir: Path) -> None:
        self.admin_url = os.environ.get("DATABASE_URL", "")
        self.name = ""
        if self.admin_url:
            import environ

            config = environ.Env.db_url_config(self.admin_url)
            if "postgresql" not in config["ENGINE"]:
                raise SystemExit("live_load: DATABASE_URL must be PostgreSQL or unset")
            self.config = config
            self.name = f"kfa_bench_live_{os.getpid()}"
            base, _, _ = self.admin_url.rpartition("/")
            self.url = f"{base}/{self.name}"
            self.kind = "postgresql"
        else:
            self.url = f"sqlite:///{run_dir / 'db.sqlite3'}"
            self.kind = "sqlite"

    def _admin(self):
        import psycopg

        c = self.config
        return psycopg.connect(
            dbname=c["NAME"],
            user=c["USER"] or None,
            password=c["PASSWORD"] or None,
            host=c["HOST"] or None,
            port=c["PORT"] or None,
            autocommit=True,
        )

    def create(self) -> None:
        if self.kind == "postgresql":
            with self._admin() as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}"')
                conn.execute(f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        if self.kind == "postgresql":
            with self._admin() as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def describe(self) -> str:
        if self.kind == "postgresql":
            with self._admin() as conn:
                version = conn.execute("show server_version").fetchone()[0]
            return f"postgresql {version} (dedicated database {self.name})"
        import sqlite3

        return f"sqlite {sqlite3.sqlite_version} (WAL, fresh file)"


def prepare_django(db: Database, redis_url: str, prefix: str) -> None:
    """Environment shared by this process and the server, then django.setup()."""
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": SETTINGS_MODULE,
            # Production runs without DEBUG; with it Django keeps every query.
            "DEBUG": "0",
            "DATABASE_URL": db.url,
            "REDIS_URL": redis_url,
            "CHANNELS_PREFIX": prefix,
            "CACHE_PREFIX": prefix,
            "LOG_LEVEL": "WARNING",
        }
    )
    # What production settings insist on, for a loopback-only run.
    os.environ.setdefault("SECRET_KEY", f"live-load-bench-{os.getpid()}-not-secret")
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def users_with_sessions(prefix: str, count: int) -> tuple[list[Any], list[str]]:
    """``count`` users (``<prefix><i>``, no usable password), each logged in:
    the users and their session keys (the ``sessionid`` cookie a seat's socket
    sends), the sessions in one commit."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from accounts.models import User

    store = import_module(settings.SESSION_ENGINE).SessionStore
    backend = "django.contrib.auth.backends.ModelBackend"
    users = User.objects.bulk_create(
        User(username=f"{prefix}{i}", password=make_password(None))
        for i in range(count)
    )
    sessions = []
    with transaction.atomic():
        for user in users:
            session = store()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = backend
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            sessions.append(session.session_key)
    return users, sessions


@contextlib.contextmanager
def quiet_match_starts():
    """Around starting the bench's matches before the server runs. Nobody
    listens yet, so no start broadcasts; and what a start hands to workers and
    notifications (no-show checks, "a game started") is skipped: neither
    touches a live move, and on a loaded machine they made set-up take a
    quarter of an hour."""
    from django.test import override_settings

    from gameplay.services import matches

    with (
        override_settings(CHANNEL_LAYERS={}),
        mock.patch.object(matches, "_arm_no_show_checks", lambda *a: None),
        mock.patch.object(matches, "match_announce_started", lambda **k: None),
    ):
        yield


def uvicorn_command(
    app: str, port: int, extra: tuple[str, ...] | list[str] = ()
) -> list[str]:
    """uvicorn serving ``app`` on 127.0.0.1 with ``make run``'s flags, quiet."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        app,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        *UVICORN_ARGS,
        "--log-level",
        "warning",
        "--no-access-log",
        *extra,
    ]


def start_server(
    run_dir: Path, port: int, extra: list[str], index: int = 0
) -> subprocess.Popen:
    args = uvicorn_command("config.asgi:application", port, extra)
    return start_logged(args, run_dir / f"server{index}.log")


def start_logged(args: list[str], log_path: Path) -> subprocess.Popen:
    """A server-side child (web process, worker) in its own session, from the
    repository root, its output unbuffered into ``log_path``."""
    # The child keeps its own copy of the log's descriptor.
    with open(log_path, "wb") as out:
        return subprocess.Popen(
            args,
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def wait_ready(server: subprocess.Popen, port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"live_load: the server exited ({server.returncode})")
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", port), timeout=1),
        ):
            return
        time.sleep(0.1)
    raise SystemExit("live_load: the server did not come up")


def stop_process(proc: subprocess.Popen | BaseProcess, timeout: float = 10.0) -> None:
    """SIGTERM, wait, then SIGKILL; always reaped."""
    if isinstance(proc, subprocess.Popen):
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        return
    if proc.is_alive():
        proc.terminate()
        proc.join(timeout)
        if proc.is_alive():
            proc.kill()
    proc.join()


def tear_down(
    *,
    clients: list[BaseProcess],
    processes: list[tuple[subprocess.Popen, Path, Path]],
    db: Database,
    redis: Any,
    run_dir: Path,
) -> None:
    """End a run in order, whatever got started: the clients first (nothing
    talks to the server any more), then each server process (its log copied
    from the first path to the second, kept for a look afterwards), this
    process's connections before the bench database is dropped, the embedded
    Redis, the run directory."""
    for proc in clients:
        stop_process(proc)
    for server, log_path, kept in processes:
        stop_process(server)
        with contextlib.suppress(OSError):
            shutil.copyfile(log_path, kept)
    with contextlib.suppress(Exception):
        from django.db import connections

        connections.close_all()
    with contextlib.suppress(Exception):
        db.drop()
    if redis is not None:
        redis.stop()
    shutil.rmtree(run_dir, ignore_errors=True)


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))
    return round(ordered[index], 2)


class CpuMeter:
    """CPU seconds of each part, sampled at window edges."""

    def __init__(self, parts: dict[str, list[int]], db_kind: str) -> None:
        self.parts = parts
        self.db_kind = db_kind

    def sample(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            name: sum(cpu_seconds(p) for p in pids) for name, pids in self.parts.items()
        }
        if self.db_kind == "postgresql":
            # Per backend: backends come and go, so only deltas per pid add up.
            out["_db"] = {p: cpu_seconds(p) for p in pids_named("postgres")}
        busy, total = machine_cpu()
        out["_busy"], out["_total"] = busy, total
        out["_wall"] = time.monotonic()
        return out

    @staticmethod
    def share(a: dict[str, Any], b: dict[str, Any]) -> dict[str, float]:
        wall = b["_wall"] - a["_wall"]
        shares = {
            f"{name}_cpu_pct": round(100 * (b[name] - a[name]) / wall, 1)
            for name in a
            if not name.startswith("_")
        }
        if "_db" in a:
            spent = sum(cpu - a["_db"].get(pid, 0.0) for pid, cpu in b["_db"].items())
            shares["db_cpu_pct"] = round(100 * spent / wall, 1)
        cores = os.cpu_count() or 1
        machine = (
            100 * cores * (b["_busy"] - a["_busy"]) / max(1, b["_total"] - a["_total"])
        )
        shares["machine_cpu_pct"] = round(machine, 1)
        # Per-process server shares ("server0_cpu_pct"...) are inside "server".
        ours = sum(
            v
            for k, v in shares.items()
            if k != "machine_cpu_pct" and not k.removeprefix("server")[:1].isdigit()
        )
        shares["other_cpu_pct"] = round(max(0.0, machine - ours), 1)
        shares["load_1m"] = round(os.getloadavg()[0], 2)  # as `uptime` shows it
        return shares


def start_pyspy(pid: int, path: str, seconds: float) -> subprocess.Popen | None:
    """Sample the server for one window (development aid; py-spy not a dependency)."""
    exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(exe).exists():
        log("LIVE_LOAD_PYSPY set but py-spy is not installed; not profiling")
        return None
    fmt = (
        "speedscope"
        if path.endswith(".json")
        else "raw"
        if path.endswith(".txt")
        else "flamegraph"
    )
    log(f"profiling the server with py-spy for {seconds:.0f} s -> {path}")
    return subprocess.Popen(
        [
            exe,
            "record",
            "--pid",
            str(pid),
            "--duration",
            str(int(seconds)),
            "--rate",
            "200",
            "--nonblocking",
            "--threads",
            "--format",
            fmt,
            "-o",
            path,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def run_in_process(name: str, measure: Callable[[], dict[str, Any]]) -> None:
    """Run ``measure`` in this process against a dedicated database and Redis
    with the production settings, and print its result as one JSON line.

    The in-process benchmarks (``live_move_cpu``, ``live_step_frames``) share
    this set-up and tear-down; ``name`` keeps their temporary files and
    channel/cache prefixes apart.
    """
    import json
    import tempfile

    run_dir = Path(tempfile.mkdtemp(prefix=f"kfa-{name}-"))
    redis, redis_url = bench_redis(run_dir)
    db = Database(run_dir)
    try:
        db.create()
        os.environ.update(
            {
                "DJANGO_SETTINGS_MODULE": "config.settings.production",
                "DEBUG": "0",
                "DATABASE_URL": db.url,
                "REDIS_URL": redis_url,
                "CHANNELS_PREFIX": f"kfa-{name}-{os.getpid()}",
                "CACHE_PREFIX": f"kfa-{name}-{os.getpid()}",
                "LOG_LEVEL": "ERROR",
                "SECRET_KEY": "bench-not-secret",
                "ALLOWED_HOSTS": "127.0.0.1",
            }
        )
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", interactive=False, verbosity=0)
        result = measure()
        result["db"] = db.describe()
        result["load_average"] = os.getloadavg()
        print(json.dumps(result))
    finally:
        from django.db import connections

        connections.close_all()
        db.drop()
        if redis is not None:
            redis.stop()
        shutil.rmtree(run_dir, ignore_errors=True)
