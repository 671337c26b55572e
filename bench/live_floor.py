"""The stack's own cost of a live move: the floor under ``bench/live_harness.py``.

``python bench/live_floor.py`` (about two minutes). Issue 14 asks for at most
1 ms of server CPU per move at 400 two-player games. This benchmark measures
what the fixed stack (uvicorn's WebSocket protocol, Channels, channels-redis
with this project's layer, psycopg to PostgreSQL) costs per move when the
server does nothing else: no rules engine, no Django models, no sessions, no
frames built from a match. Whatever it reports is spent before a line of
``gameplay`` runs, so the difference to ``live_load``'s figure is what the
project's own code can still win.

The same load as ``live_load``'s 400-game level: pairs of sockets, the mover
of each pair sends an ``act`` about once a second (0.5-1.5 s, jittered), the
server answers the mover with an ``ack`` and sends both seats a state frame
of a real Duelo frame's size (1,650 bytes: the median over 60 frames of a
random game, ``frames.seat_frame`` encoded). Each mode adds one layer of
the real path:

* ``asgi``: uvicorn with ``make run``'s flags and a bare ASGI application that
  hands both frames to the pair's two sockets in memory. The floor of the web
  server and the JSON.
* ``channels``: a Channels ``AsyncWebsocketConsumer`` (with the project's
  dispatch, no per-message database hop), the frames published as one
  ``match.frames`` group message through the project's channel layer
  (``config.channel_layer``: local members at once, one publish to Redis).
* ``channels_db``: as ``channels``, plus the move's one database round trip
  as the live owner makes it: on one of four threads with their own psycopg
  connections, one statement that inserts the log row (a 510-byte jsonb, a
  real Duelo state's size) and bumps the version with a compare-and-set.
* ``channels_db_loop``: as ``channels_db``, but the statement awaited on the
  event loop over psycopg's ``AsyncConnection`` (four, kept open), with no
  thread hop: the shape of the owner's common move since session 28
  (``gameplay.live.pgasync``). Issue 33's target is a ratio to
  ``channels_db``; this mode says what the same trick saves the bare stack,
  so the ratio to it shows how much of the gain is the stack's, not ours.

Redis: ``REDIS_URL`` at logical database 15 (else an embedded Redis);
``channels_db`` and ``channels_db_loop`` need ``DATABASE_URL`` (PostgreSQL;
a dedicated database is created and dropped), and are skipped without it.
Clients run in two separate processes, as in ``live_load``. Server CPU is
the web process's own, from ``/proc``, over a 20-second window after a
4-second ramp and 4 seconds of settling. The last stdout line is one JSON
object; progress goes to stderr.

Knobs: ``LIVE_FLOOR_MODES`` ("asgi,channels,channels_db,channels_db_loop"),
``LIVE_FLOOR_GAMES`` (400), ``LIVE_FLOOR_WINDOW_S`` (20).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import platform
import queue
import random
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import live_client, live_harness  # noqa: E402

MODES = tuple(
    os.environ.get(
        "LIVE_FLOOR_MODES", "asgi,channels,channels_db,channels_db_loop"
    ).split(",")
)
GAMES = int(os.environ.get("LIVE_FLOOR_GAMES", "400"))
RAMP_S = 4.0
SETTLE_S = 4.0
WINDOW_S = float(os.environ.get("LIVE_FLOOR_WINDOW_S", "20"))
THINK_S = (0.5, 1.5)
MOVE_TIMEOUT_S = 5.0
FRAME_BYTES = 1650
STATE_BYTES = 510
DB_THREADS = 4  # as gameplay.live.owner.DEFAULT_THREADS_POSTGRESQL
DB_MODES = ("channels_db", "channels_db_loop")
APPEND_SQL = (
    "WITH logged AS (INSERT INTO floor_log (pair, version, state) "
    "VALUES (%s, %s, %s::jsonb)) UPDATE floor_pair SET version = "
    "version + 1 WHERE id = %s AND version = %s RETURNING version"
)


def log(message: str) -> None:
    print(f"[live_floor {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr)


# --- the server side (runs inside uvicorn: ``live_floor:application``) --------


def _frame(version: int, seat: int) -> str:
    """A state frame's text of about ``FRAME_BYTES``, different per seat."""
    head = json.dumps({"type": "state", "version": version, "seat": seat})
    return head[:-1] + ',"pad":"' + "x" * (FRAME_BYTES - len(head) - 10) + '"}'


def _ack(version: int, request_id: Any) -> str:
    return json.dumps({"type": "ack", "version": version, "request_id": request_id})


class _Versions:
    """Each pair's version, in memory (the ``asgi`` and ``channels`` modes) or
    in PostgreSQL by compare-and-set (``channels_db``)."""

    def __init__(self, database_url: str, *, on_loop: bool = False) -> None:
        self.memory: dict[int, int] = {}
        self.database_url = database_url
        self.on_loop = bool(database_url) and on_loop
        self.pool = (
            ThreadPoolExecutor(DB_THREADS)
            if database_url and not self.on_loop
            else None
        )
        self.local = None
        # channels_db_loop: the loop's connections, at most DB_THREADS in use.
        self.idle: list[Any] = []
        self.slots: asyncio.Semaphore | None = None

    def _connection(self):
        import threading

        import psycopg

        if self.local is None:
            self.local = threading.local()
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = self.local.conn = psycopg.connect(self.database_url, autocommit=True)
        return conn

    def _append(self, pair: int, version: int, state: str) -> bool:
        row = (
            self._connection()
            .execute(APPEND_SQL, (pair, version + 1, state, pair, version))
            .fetchone()
        )
        return row is not None

    async def _append_on_loop(self, pair: int, version: int, state: str) -> bool:
        import psycopg

        if self.slots is None:
            self.slots = asyncio.Semaphore(DB_THREADS)
        async with self.slots:
            if self.idle:
                conn = self.idle.pop()
            else:
                conn = await psycopg.AsyncConnection.connect(
                    self.database_url, autocommit=True
                )
            cursor = await conn.execute(
                APPEND_SQL, (pair, version + 1, state, pair, version)
            )
            row = await cursor.fetchone()
            self.idle.append(conn)
        return row is not None

    async def advance(self, pair: int, version: int) -> int | None:
        """The new version, or None when ``version`` is not the current one."""
        if self.on_loop:
            state = json.dumps({"v": version, "pad": "y" * (STATE_BYTES - 20)})
            ok = await self._append_on_loop(pair, version, state)
            return version + 1 if ok else None
        if self.pool is None:
            if self.memory.get(pair, 0) != version:
                return None
            self.memory[pair] = version + 1
            return version + 1
        state = json.dumps({"v": version, "pad": "y" * (STATE_BYTES - 20)})
        loop = asyncio.get_running_loop()
        ok = await loop.run_in_executor(self.pool, self._append, pair, version, state)
        return version + 1 if ok else None


_versions: _Versions | None = None


def _the_versions() -> _Versions:
    global _versions
    if _versions is None:
        url = os.environ.get("LIVE_FLOOR_DB", "")
        mode = os.environ.get("LIVE_FLOOR_MODE", "")
        _versions = _Versions(url, on_loop=mode == "channels_db_loop")
    return _versions


def _pair_and_seat(path: str) -> tuple[int, int]:
    # /ws/floor/<pair>/<seat>/
    parts = path.strip("/").split("/")
    return int(parts[2]), int(parts[3])


# Sockets of the bare ASGI mode, by pair: seat -> send callable.
_sockets: dict[int, dict[int, Any]] = {}


async def asgi_app(scope, receive, send) -> None:
    """The ``asgi`` mode: the pair's frames handed over in memory."""
    if scope["type"] != "websocket":
        return
    pair, seat = _pair_and_seat(scope["path"])
    versions = _the_versions()
    while True:
        event = await receive()
        kind = event["type"]
        if kind == "websocket.connect":
            await send({"type": "websocket.accept"})
            _sockets.setdefault(pair, {})[seat] = send
            version = versions.memory.setdefault(pair, 0)
            await send({"type": "websocket.send", "text": _frame(version, seat)})
        elif kind == "websocket.receive":
            message = json.loads(event["text"])
            new = await versions.advance(pair, message["version"])
            if new is None:
                continue
            for other, other_send in list(_sockets.get(pair, {}).items()):
                text = _frame(new, other)
                await other_send({"type": "websocket.send", "text": text})
            ack = _ack(new, message.get("request_id"))
            await send({"type": "websocket.send", "text": ack})
        elif kind == "websocket.disconnect":
            _sockets.get(pair, {}).pop(seat, None)
            return


def _channels_app():
    """The ``channels`` modes: a consumer and the project's channel layer."""
    import django

    django.setup()
    from channels.consumer import get_handler_name
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import path

    class FloorConsumer(AsyncWebsocketConsumer):
        async def dispatch(self, message):
            # As gameplay.consumers.MatchConsumer: no database hop per message.
            await getattr(self, get_handler_name(message))(message)

        async def connect(self):
            self.pair, self.seat = _pair_and_seat(self.scope["path"])
            self.group = f"floor.{self.pair}"
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.accept()
            version = _the_versions().memory.setdefault(self.pair, 0)
            await self.send(text_data=_frame(version, self.seat))

        async def disconnect(self, code):
            await self.channel_layer.group_discard(self.group, self.channel_name)

        async def receive(self, text_data=None, bytes_data=None):
            message = json.loads(text_data)
            new = await _the_versions().advance(self.pair, message["version"])
            if new is None:
                return
            frames = {str(seat): _frame(new, seat) for seat in (0, 1)}
            event = {"type": "match.frames", "frames": frames, "version": new}
            await self.channel_layer.group_send_many([(self.group, event)])
            await self.send(text_data=_ack(new, message.get("request_id")))

        async def match_frames(self, event):
            await self.send(text_data=event["frames"][str(self.seat)])

    return ProtocolTypeRouter(
        {
            "websocket": URLRouter(
                [path("ws/floor/<int:pair>/<int:seat>/", FloorConsumer.as_asgi())]
            )
        }
    )


_app = None


async def application(scope, receive, send) -> None:
    global _app
    if _app is None:
        mode = os.environ["LIVE_FLOOR_MODE"]
        _app = asgi_app if mode == "asgi" else _channels_app()
    await _app(scope, receive, send)


# --- the clients ----------------------------------------------------------------


class FloorClient:
    """One client process's pairs: connect, move about once a second, time it."""

    def __init__(self, plan: dict[str, Any], reports: Any) -> None:
        self.url = plan["url"]
        self.pairs = plan["pairs"]
        self.t0 = plan["t0"]
        self.stop_at = plan["stop_at"]
        self.reports = reports
        self.moves: list[tuple[float, float | None]] = []
        self.errors: list[tuple[float, str]] = []

    async def run(self) -> None:
        await asyncio.gather(*(self.play(pair) for pair in self.pairs))
        live_client.put_report(
            self.reports, "result", {"moves": self.moves, "errors": self.errors}
        )

    async def play(self, pair: dict[str, Any]) -> None:
        from websockets.asyncio.client import connect

        await asyncio.sleep(max(0.0, self.t0 + pair["offset"] - time.monotonic()))
        try:
            sockets = [
                await connect(
                    f"{self.url}/ws/floor/{pair['index']}/{seat}/",
                    ping_interval=None,
                    open_timeout=10,
                    max_size=2**22,
                    proxy=None,
                )
                for seat in (0, 1)
            ]
        except Exception as exc:
            self.errors.append((time.monotonic(), f"connect:{type(exc).__name__}"))
            return
        latest = [json.loads(await ws.recv())["version"] for ws in sockets]
        seen = [asyncio.Event(), asyncio.Event()]

        async def read(seat: int) -> None:
            with contextlib.suppress(Exception):
                async for raw in sockets[seat]:
                    frame = json.loads(raw)
                    if frame["type"] == "state":
                        latest[seat] = max(latest[seat], frame["version"])
                        seen[seat].set()

        readers = [asyncio.create_task(read(seat)) for seat in (0, 1)]
        request = 0
        while time.monotonic() < self.stop_at:
            await asyncio.sleep(random.uniform(*THINK_S))
            version = latest[0]
            mover = version % 2
            request += 1
            seen[mover].clear()
            sent = time.monotonic()
            await sockets[mover].send(
                json.dumps(
                    {"type": "act", "version": version, "request_id": str(request)}
                )
            )
            rtt = None
            deadline = sent + MOVE_TIMEOUT_S
            while latest[mover] <= version and time.monotonic() < deadline:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        seen[mover].wait(), deadline - time.monotonic()
                    )
                seen[mover].clear()
            if latest[mover] > version:
                rtt = (time.monotonic() - sent) * 1000
            else:
                self.errors.append((time.monotonic(), "timeout"))
            self.moves.append((sent, rtt))
            # The other seat's frame of this move may still be on its way.
            for _ in range(50):
                if latest[1 - mover] > version:
                    break
                await asyncio.sleep(0.01)
        for ws in sockets:
            await ws.close()
        for reader in readers:
            reader.cancel()


def client_main(plan: dict[str, Any], reports: Any) -> None:
    live_client.run_client(FloorClient(plan, reports).run)


# --- the runner -----------------------------------------------------------------


def _database(run_dir: Path) -> live_harness.Database | None:
    if not os.environ.get("DATABASE_URL"):
        return None
    db = live_harness.Database(run_dir)
    db.create()
    import psycopg

    with psycopg.connect(db.url.replace("postgres://", "postgresql://")) as conn:
        conn.execute("CREATE TABLE floor_pair (id int PRIMARY KEY, version int)")
        conn.execute(
            "CREATE TABLE floor_log (id bigserial PRIMARY KEY, pair int, "
            "version int, state jsonb)"
        )
        conn.execute(
            "INSERT INTO floor_pair SELECT g, 0 FROM generate_series(0, %s) g",
            (GAMES,),
        )
    return db


def _reset(db: live_harness.Database) -> None:
    """Every pair back at version 0 with an empty log: each database mode
    starts as the clients do (their first frame says version 0)."""
    import psycopg

    with psycopg.connect(db.url.replace("postgres://", "postgresql://")) as conn:
        conn.execute("UPDATE floor_pair SET version = 0")
        conn.execute("TRUNCATE floor_log")


def run_mode(mode: str, run_dir: Path, redis_url: str, db_url: str) -> dict:
    port = live_harness.free_port()
    env = {
        "LIVE_FLOOR_MODE": mode,
        "LIVE_FLOOR_DB": db_url if mode in DB_MODES else "",
        "DJANGO_SETTINGS_MODULE": live_harness.SETTINGS_MODULE,
        "DEBUG": "0",
        "DATABASE_URL": f"sqlite:///{run_dir / 'unused.sqlite3'}",
        "REDIS_URL": redis_url,
        "CHANNELS_PREFIX": f"kfa-floor-{os.getpid()}-{mode}",
        "CACHE_PREFIX": f"kfa-floor-{os.getpid()}",
        "LOG_LEVEL": "WARNING",
        "SECRET_KEY": f"live-floor-bench-{os.getpid()}-not-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "PYTHONPATH": f"{ROOT}:{ROOT / 'bench'}",
    }
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        server = live_harness.start_logged(
            live_harness.uvicorn_command("live_floor:application", port),
            run_dir / f"server-{mode}.log",
        )
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    clients: list[Any] = []
    try:
        live_harness.wait_ready(server, port)
        t0 = time.monotonic() + 1.0
        window = (t0 + RAMP_S + SETTLE_S, t0 + RAMP_S + SETTLE_S + WINDOW_S)
        pairs = [{"index": i, "offset": RAMP_S * i / GAMES} for i in range(GAMES)]
        ctx = mp.get_context("spawn")
        reports = ctx.Queue()
        for index in range(2):
            plan = {
                "url": f"ws://127.0.0.1:{port}",
                "pairs": pairs[index::2],
                "t0": t0,
                "stop_at": window[1],
            }
            proc = ctx.Process(target=client_main, args=(plan, reports), daemon=True)
            proc.start()
            clients.append(proc)
        time.sleep(max(0.0, window[0] - time.monotonic()))
        cpu0 = live_harness.cpu_seconds(server.pid)
        clients0 = sum(live_harness.cpu_seconds(c.pid) for c in clients)
        wall0 = time.monotonic()
        log(f"{mode}: window open ({GAMES} games)")
        time.sleep(max(0.0, window[1] - time.monotonic()))
        cpu1 = live_harness.cpu_seconds(server.pid)
        clients1 = sum(live_harness.cpu_seconds(c.pid) for c in clients)
        wall = time.monotonic() - wall0
        results: list[dict[str, Any]] = []
        deadline = time.monotonic() + MOVE_TIMEOUT_S + 30
        while len(results) < len(clients) and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                kind, _pid, payload = reports.get(timeout=1.0)
                if kind == "result":
                    results.append(payload)
    finally:
        for proc in clients:
            live_harness.stop_process(proc)
        live_harness.stop_process(server)
    moves = [m for r in results for m in r["moves"] if window[0] <= m[0] < window[1]]
    errors = [e for r in results for e in r["errors"]]
    rtts = [m[1] if m[1] is not None else MOVE_TIMEOUT_S * 1000 for m in moves]
    per_s = len(moves) / wall if wall else 0.0
    server_pct = 100 * (cpu1 - cpu0) / wall
    return {
        "mode": mode,
        "games": GAMES,
        "moves": len(moves),
        "moves_per_s": round(per_s, 1),
        "rtt_p50_ms": live_harness.percentile(rtts, 50),
        "rtt_p99_ms": live_harness.percentile(rtts, 99),
        "errors": len(errors),
        "server_cpu_pct": round(server_pct, 1),
        "server_cpu_ms_per_move": round(10 * server_pct / per_s, 3) if per_s else None,
        "clients_cpu_pct": round(100 * (clients1 - clients0) / wall, 1),
        "load_1m": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    began = time.monotonic()
    live_harness.BENCH_DIR.mkdir(parents=True, exist_ok=True)
    run_dir = live_harness.BENCH_DIR / f"floor-{os.getpid()}"
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    sys.path.insert(0, str(ROOT))
    redis, redis_url = live_harness.bench_redis(run_dir)
    db = None
    modes = []
    try:
        if any(mode in DB_MODES for mode in MODES):
            db = _database(run_dir)
        for mode in MODES:
            if mode in DB_MODES:
                if db is None:
                    log(f"{mode} skipped: DATABASE_URL (PostgreSQL) is not set")
                    continue
                _reset(db)
            log(f"{mode}: starting")
            result = run_mode(mode, run_dir, redis_url, db.url if db else "")
            log(
                f"{mode}: {result['moves_per_s']} moves/s, "
                f"{result['server_cpu_ms_per_move']} ms server CPU per move, "
                f"p50 {result['rtt_p50_ms']} ms p99 {result['rtt_p99_ms']} ms, "
                f"errors {result['errors']}"
            )
            modes.append(result)
    finally:
        if db is not None:
            db.drop()
        if redis is not None:
            redis.stop()
        shutil.rmtree(run_dir, ignore_errors=True)
    print(
        json.dumps(
            {
                "modes": modes,
                "games": GAMES,
                "frame_bytes": FRAME_BYTES,
                "window_s": WINDOW_S,
                "server": "uvicorn " + " ".join(live_harness.UVICORN_ARGS),
                "cpus": os.cpu_count(),
                "python": platform.python_version(),
                "duration_s": round(time.monotonic() - began, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
