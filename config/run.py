"""`make run`: the whole platform in one terminal.

Starts the embedded Redis (unless REDIS_URL is set), migrates, loads the demo
data, then runs the web server (HTTP + WebSockets), a Celery worker and Celery
beat under honcho, which prefixes every line with its process name. Ctrl-C stops
every process it started, the embedded Redis included, and exits 0.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from honcho.compat import ProcessManager
from honcho.manager import Manager

#: Exit codes honcho gives a stop that was asked for (Ctrl-C, a SIGTERM).
ASKED_TO_STOP = (130, 143)


class _PoliteStop(ProcessManager):
    """honcho's process signals, but the first SIGTERM goes to each process
    alone, not to its whole group: the Celery worker then stops its pool
    children itself (a warm shutdown) instead of each child being killed in
    the middle of a task (an ERROR line and a WorkerLostError traceback per
    child at every Ctrl-C). honcho's SIGKILL after its wait still takes the
    whole group."""

    def terminate(self, pid: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGTERM)


def _fail(message: str) -> None:
    print(f"\nmake run: {message}\n", file=sys.stderr)
    sys.exit(1)


def _manage(*args: str) -> None:
    result = subprocess.run([sys.executable, "manage.py", *args], check=False)
    if result.returncode != 0:
        _fail(f"'manage.py {' '.join(args)}' failed (exit {result.returncode}).")


def _parts_up(host: str, port: int) -> bool:
    """Whether the web server listens and a Celery worker answers, asked directly.

    /healthz answers 503 until the worker is up, and Django logs every 503 at
    ERROR; polling it from the start would put ERROR lines into every normal
    start. So the probe asks the same questions itself first.
    """
    from config.health import check_celery

    try:
        with socket.create_connection((host, port), timeout=1):
            pass
    except OSError:
        return False
    return check_celery() is None


def _banner(url: str) -> str:
    """The last lines before the quiet logs: where to go and how to sign in."""
    from league.management.commands.seed_demo import (
        DEMO_PASSWORD,
        DEMO_PLAYERS,
        admin_password,
    )

    players = ", ".join(name for name, _ in DEMO_PLAYERS)
    return (
        f"\n  Kung Fu Arena is up: {url}\n"
        f"  Admin: {url}admin/  user admin, password {admin_password()}\n"
        f"  Demo players ({players}): password {DEMO_PASSWORD}\n"
        f"  API: {url}api/   Ctrl-C stops everything.\n"
    )


def _announce_when_healthy(
    url: str, host: str, port: int, *, timeout: float = 120.0
) -> None:
    """Print the banner once /healthz says every part is up."""
    deadline = time.monotonic() + timeout
    last = "the web server or the Celery worker is not up"
    while time.monotonic() < deadline:
        if not _parts_up(host, port):
            time.sleep(0.5)
            continue
        try:
            with urllib.request.urlopen(f"{url}healthz", timeout=3) as response:
                if response.status == 200:
                    print(_banner(url), flush=True)
                    return
        except urllib.error.HTTPError as exc:
            last = ", ".join(json.loads(exc.read() or b"{}").get("failing", []))
        except (OSError, ValueError) as exc:
            last = str(exc)
        time.sleep(1)
    print(
        f"\nmake run: not healthy after {timeout:.0f} s (failing: {last})", flush=True
    )


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.development")
    import django

    django.setup()
    from django.conf import settings

    from config.embedded_redis import EmbeddedRedisError
    from config.health import check_database

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        # SQLite creates the file but not its directory (var/ on a fresh clone).
        Path(database["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    error = check_database()
    if error:
        where = database.get("HOST") or database.get("NAME")
        _fail(
            f"the database ({database['ENGINE'].rsplit('.', 1)[-1]} at {where}) "
            f"is unreachable: {error.splitlines()[0]}\n"
            "Check DATABASE_URL, or unset it to use the built-in SQLite database."
        )

    started_redis = False
    if settings.USING_EMBEDDED_REDIS:
        try:
            started_redis = settings.EMBEDDED_REDIS.start()
        except EmbeddedRedisError as exc:
            _fail(str(exc))
        print(f"embedded Redis at {settings.REDIS_URL}", flush=True)
    else:
        from config.health import check_redis

        error = check_redis()
        if error:
            _fail(
                f"Redis at REDIS_URL={settings.REDIS_URL} is unreachable: {error}\n"
                "Start it, fix REDIS_URL, or unset REDIS_URL to use the embedded Redis."
            )

    host = os.environ.get("HOST", "127.0.0.1")
    port = os.environ.get("PORT", "8000")
    url = f"http://{host}:{port}/"
    python = sys.executable
    env = {**os.environ, "REDIS_URL": settings.REDIS_URL, "PYTHONUNBUFFERED": "1"}
    try:
        _manage("migrate", "--no-input")
        _manage("seed_demo")
        manager = Manager()
        # honcho's own attribute (honcho 2.x): see _PoliteStop.
        manager._procmgr = _PoliteStop()
        # "exec": the shell honcho starts becomes the process, so the SIGTERM
        # reaches Python itself.
        manager.add_process(
            "web",
            f"exec {python} -m uvicorn config.asgi:application --host {host} "
            f"--port {port} --ws websockets-sansio --ws-per-message-deflate false "
            "--ws-max-size 65536 --lifespan off",
            env=env,
        )
        manager.add_process(
            "worker",
            f"exec {python} -m celery -A config worker -l INFO "
            "-Q default,ratings,bots,analysis --concurrency 2 -n worker@%h",
            env=env,
        )
        manager.add_process(
            "beat",
            f"exec {python} -m celery -A config beat -l INFO "
            "--scheduler django_celery_beat.schedulers:DatabaseScheduler",
            env=env,
        )
        threading.Thread(
            target=_announce_when_healthy, args=(url, host, int(port)), daemon=True
        ).start()
        manager.loop()
        code = manager.returncode or 0
        # Ctrl-C (or a SIGTERM) is how one stops it: a clean end, so that
        # make does not report "make: *** [run] Error 130".
        if code in ASKED_TO_STOP:
            code = 0
    finally:
        if started_redis:
            settings.EMBEDDED_REDIS.stop()
            print("embedded Redis stopped", flush=True)
    sys.exit(code)


if __name__ == "__main__":
    main()
