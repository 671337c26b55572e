"""Live-play load benchmark: concurrent two-player Duelo games over real WebSockets.

Run with no arguments (``python bench/live_load.py``). It takes about four
minutes, talks over loopback only, stops by itself and leaves no process behind.
The last stdout line is one JSON object (``games``, ``moves_per_s``,
``rtt_p50_ms``, ``rtt_p99_ms``, ``errors``, ``lost_moves``, CPU shares, the
per-level table and ``max_games_meeting_targets``); progress goes to stderr.

Why it is built this way:

* The server is the real one: uvicorn serving ``config.asgi:application`` in a
  subprocess with ``make run``'s flags, on a free 127.0.0.1 port, against the
  configured Redis (``REDIS_URL``, else a private embedded Redis under
  ``var/bench/``) and database (``DATABASE_URL`` names a server on which a
  dedicated bench database is created and dropped; else a fresh SQLite file
  under ``var/bench/``). Measuring anything less (in-process communicators, an
  in-memory channel layer) would hide the costs players actually pay.
* Players are real: every seat authenticates with a Django session cookie and
  the Origin header that ``AllowedHostsOriginValidator`` accepts, receives its
  own state frames, waits about a second (jittered) when it is its turn, picks a
  random legal action from the frame it got and sends the version it chose at
  (the socket client itself is ``bench/live_client.py``, shared with
  ``bench/live_realtime.py``; the services, CPU sampling and tear-down are
  ``bench/live_harness.py``).
  Matches are made through ``gameplay.services`` (``match_create`` and
  ``match_start``) before the server starts, so set-up never loads the server.
* The clients run in separate processes from the server so they do not steal
  its event loop; all of it still shares two cores with Redis and the database,
  so the CPU of every part is sampled from ``/proc`` and reported beside the
  latencies, together with what the rest of the machine used meanwhile.
* Concurrency ramps up level by level (25 ... 400 games, each level adding
  games to the ones already playing), and every level is measured in its own
  window, so when the top level misses a target the report also says which
  largest level still met all of them.

Per move it records the round trip from sending ``act`` to the state frame
carrying a newer version (``rtt_*``, what a player waits for before the board
changes; a move with no such frame within 5 s counts as 5000 ms) and to the
``ack`` (``ack_rtt_*``). Errors are error frames, unexpected
disconnects, failed connects, moves with no reply within 5 s and stalls (a
waiting seat that hears nothing for 8 s, then resyncs). A lost move is one whose
new version never arrived as a state frame within 5 s, acknowledged or not.

``python bench/live_load.py --scaling`` is the second mode: the same saturated
load (players answer at once) on one and on two web processes, and how moves/s
scales with the processes (``LIVE_LOAD_SPREAD`` chooses whether a match's two
seats share a process, ``match``, or not, ``seat``).

Knobs for development only (environment variables; the benchmark needs none):
``LIVE_LOAD_LEVELS`` ("25,50"), ``LIVE_LOAD_WINDOW_S``, ``LIVE_LOAD_CLIENTS``,
``LIVE_LOAD_UVICORN_ARGS`` (extra server flags), ``LIVE_LOAD_SETTINGS`` (another
settings module) and ``LIVE_LOAD_PYSPY`` (write a py-spy profile of the server
during the top level's window to that path), ``LIVE_LOAD_PROCESSES`` (web
processes), ``LIVE_LOAD_SPREAD`` and ``LIVE_LOAD_THINK_S`` ("0.5,1.5").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import multiprocessing as mp
import os
import platform
import queue
import random
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import live_client  # noqa: E402
from bench.live_harness import (  # noqa: E402
    BENCH_DIR,
    SETTINGS_MODULE,
    UVICORN_ARGS,
    CpuMeter,
    Database,
    bench_redis,
    cpu_seconds,
    free_port,
    log,
    percentile,
    prepare_django,
    quiet_match_starts,
    start_pyspy,
    start_server,
    tear_down,
    users_with_sessions,
    wait_ready,
)

LEVELS = tuple(
    int(n)
    for n in os.environ.get("LIVE_LOAD_LEVELS", "25,50,100,200,300,400").split(",")
)
RAMP_S = 4.0  # a level's new players connect spread over this long...
SETTLE_S = 4.0  # ...then the level plays this long before it is measured...
WINDOW_S = float(os.environ.get("LIVE_LOAD_WINDOW_S", "20"))  # ...for this long.
# A player's pause before moving: about once a second ("lo,hi" seconds).
THINK_S = tuple(
    float(x) for x in os.environ.get("LIVE_LOAD_THINK_S", "0.5,1.5").split(",")
)
# Web processes (uvicorn, one event loop each) and how sockets reach them:
# "match" puts both seats of a match on one process (what a load balancer
# routing by match id does), "seat" puts the two seats on different processes
# (every move then crosses from one process to the other).
PROCESSES = int(os.environ.get("LIVE_LOAD_PROCESSES", "1"))
SPREAD = os.environ.get("LIVE_LOAD_SPREAD", "match")
MOVE_TIMEOUT_S = 5.0
STALL_S = 8.0  # far beyond a move's think time plus its round trip
DRAIN_S = MOVE_TIMEOUT_S + 1.0
CLIENT_PROCESSES = int(os.environ.get("LIVE_LOAD_CLIENTS", "2"))
# A Duelo game between random players averages ~36 moves (2 to ~60), about 36 s
# here; each pair gets enough started matches to keep playing until the end.
MATCH_SECONDS_BUDGET = 15.0
TARGETS = {"games": 400, "rtt_p50_ms": 5.0, "rtt_p99_ms": 50.0}
PROGRESS_EVERY_S = 5.0


# --- timeline -----------------------------------------------------------------


def level_span() -> float:
    return RAMP_S + SETTLE_S + WINDOW_S


def level_windows(t0: float) -> list[tuple[float, float, float, float]]:
    """(level start, window start, window end, level end) per level, monotonic."""
    spans = []
    for i in range(len(LEVELS)):
        start = t0 + i * level_span()
        window = start + RAMP_S + SETTLE_S
        spans.append((start, window, window + WINDOW_S, start + level_span()))
    return spans


def plan_pairs() -> list[dict[str, Any]]:
    """Which pair joins at which level and how many matches it needs."""
    total = len(LEVELS) * level_span()
    pairs: list[dict[str, Any]] = []
    previous = 0
    for index, games in enumerate(LEVELS):
        remaining = total - index * level_span()
        needed = math.ceil(remaining / MATCH_SECONDS_BUDGET) + 2
        new = games - previous
        for k in range(new):
            pairs.append(
                {
                    "index": len(pairs),
                    "level": index,
                    "offset": index * level_span() + RAMP_S * k / max(1, new),
                    "matches": needed,
                }
            )
        previous = games
    return pairs


# --- players: users, sessions and started matches --------------------------------


def create_players(pairs: list[dict[str, Any]]) -> None:
    """Users, session cookies and started matches for every pair (adds to pairs)."""
    from django.db import transaction

    from gameplay import services
    from gameplay.services import SeatSpec

    users, sessions = users_with_sessions("bench", 2 * len(pairs))
    started = time.monotonic()
    made = 0
    with quiet_match_starts():
        for index, pair in enumerate(pairs):
            seats = [
                SeatSpec(user=users[2 * index]),
                SeatSpec(user=users[2 * index + 1]),
            ]
            pair["cookies"] = [sessions[2 * index], sessions[2 * index + 1]]
            pair["match_ids"] = []
            # One commit per pair, not two per match: set-up on a loaded
            # machine's PostgreSQL waited minutes on commits.
            with transaction.atomic():
                for _ in range(pair["matches"]):
                    match = services.match_create(game="duelo", seats=seats, config={})
                    services.match_start(match_id=match.pk)
                    pair["match_ids"].append(str(match.public_id))
                    made += 1
            if index % 50 == 49:
                log(f"  {made} matches started ({time.monotonic() - started:.0f} s)")


# --- clients ----------------------------------------------------------------------


class Pending:
    """One sent move, waiting for its state frame."""

    __slots__ = ("ack_version", "acked", "error", "rid", "sent", "shown", "version")

    def __init__(self, rid: str, version: int, sent: float) -> None:
        self.rid = rid
        self.version = version
        self.sent = sent
        self.acked: float | None = None
        self.ack_version: int | None = None
        self.shown: float | None = None
        self.error: str | None = None


class SeatConn:
    """What one player's connection has seen so far."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.latest: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.done = asyncio.Event()
        self.pending: Pending | None = None
        self.closed = False
        self.closing = False
        self.menu: dict[str, Any] = {}  # the last menu (live_client.fill_menu)


class Client:
    """One client process: its pairs, their records, and progress reports."""

    def __init__(self, plan: dict[str, Any], reports: mp.Queue) -> None:
        self.urls = plan["urls"]
        self.pairs = plan["pairs"]
        self.t0 = plan["t0"]
        self.stop_at = plan["stop_at"]
        self.reports = reports
        self.moves: list[tuple[float, float | None, float | None, str]] = []
        self.errors: list[tuple[float, str]] = []
        self.games_active = 0
        self.games_done = 0
        self.exhausted = 0
        self.request = 0

    def error(self, kind: str) -> None:
        self.errors.append((time.monotonic(), kind))

    async def run(self) -> None:
        reporter = asyncio.create_task(
            live_client.report_every_second(self.reports, self.moves, self.progress)
        )
        await asyncio.gather(*(self.play_pair(pair) for pair in self.pairs))
        reporter.cancel()
        live_client.put_report(
            self.reports,
            "result",
            {
                "moves": self.moves,
                "errors": self.errors,
                "games_done": self.games_done,
                "exhausted": self.exhausted,
            },
        )

    def progress(self, fresh: list[tuple]) -> dict[str, Any]:
        return {
            "at": time.monotonic(),
            "moves": [(m[0], m[1]) for m in fresh],
            "errors": len(self.errors),
            "lost": sum(1 for m in fresh if m[3] == "lost"),
            "games_active": self.games_active,
        }

    async def play_pair(self, pair: dict[str, Any]) -> None:
        await asyncio.sleep(max(0.0, self.t0 + pair["offset"] - time.monotonic()))
        for public_id in pair["match_ids"]:
            if time.monotonic() >= self.stop_at:
                return
            try:
                await self.play_match(public_id, pair)
            except Exception as exc:  # counted; the pair plays on
                self.error(f"client:{type(exc).__name__}")
        if time.monotonic() < self.stop_at:
            self.exhausted += 1

    def server_for(self, pair: dict[str, Any], seat: int) -> tuple[str, str]:
        """(socket base URL, origin) of the web process this seat talks to."""
        index = pair["index"] + (seat if SPREAD == "seat" else 0)
        return self.urls[index % len(self.urls)]

    async def connect(self, public_id: str, cookie: str, server: tuple[str, str]):
        url, origin = server
        return await live_client.open_match_socket(
            url=url, origin=origin, match_id=public_id, cookie=cookie, error=self.error
        )

    async def play_match(self, public_id: str, pair: dict[str, Any]) -> None:
        sockets = await asyncio.gather(
            *(
                self.connect(public_id, cookie, self.server_for(pair, seat))
                for seat, cookie in enumerate(pair["cookies"])
            )
        )
        conns = [SeatConn(ws) for ws in sockets if ws is not None]
        if len(conns) != 2:
            for conn in conns:
                await conn.ws.close()
            return
        self.games_active += 1
        try:
            await asyncio.gather(*(self.play_seat(conn) for conn in conns))
        finally:
            self.games_active -= 1
        if all(c.latest and c.latest["status"] != "active" for c in conns):
            self.games_done += 1

    async def read_frames(self, conn: SeatConn) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in conn.ws:
                now = time.monotonic()
                frame = json.loads(raw)
                kind = frame.get("type")
                pending = conn.pending
                if kind == "state":
                    if not live_client.fill_menu(frame, conn.menu):
                        self.error("menu_missing")
                        await conn.ws.send('{"type":"sync"}')
                    latest = conn.latest
                    if latest is None or frame["version"] >= latest["version"]:
                        conn.latest = frame
                    if (
                        frame.get("ack") is True
                        and pending is not None
                        and frame.get("request_id") == pending.rid
                    ):
                        pending.acked = now
                        pending.ack_version = frame["version"]
                    if (
                        pending is not None
                        and pending.shown is None
                        and frame["version"] > pending.version
                    ):
                        pending.shown = now
                        conn.done.set()
                elif kind == "ack":
                    if pending is not None and frame.get("request_id") == pending.rid:
                        pending.acked = now
                        pending.ack_version = frame.get("version")
                elif kind == "error":
                    self.error(f"error:{frame.get('code')}")
                    if pending is not None and frame.get("request_id") == pending.rid:
                        pending.error = frame.get("code")
                        conn.done.set()
                conn.changed.set()
        except ConnectionClosed:
            if not conn.closing:
                self.error("disconnect")
        else:
            if not conn.closing:
                self.error("disconnect")
        conn.closed = True
        conn.changed.set()
        conn.done.set()

    async def play_seat(self, conn: SeatConn) -> None:
        await live_client.run_seat(
            conn, read=lambda: self.read_frames(conn), act=lambda: self.act_loop(conn)
        )

    async def act_loop(self, conn: SeatConn) -> None:
        acted_at = -1
        while True:
            try:
                await asyncio.wait_for(conn.changed.wait(), STALL_S)
            except TimeoutError:
                if conn.closed or time.monotonic() >= self.stop_at:
                    return
                if conn.latest is not None and conn.latest["status"] == "active":
                    self.error("stall")
                    await conn.ws.send('{"type":"sync"}')
                continue
            conn.changed.clear()
            frame = conn.latest
            if conn.closed or time.monotonic() >= self.stop_at:
                return
            if frame is None:
                continue
            if frame["status"] != "active":
                return
            if frame["seat"] not in frame["actors"] or frame["version"] <= acted_at:
                continue
            await asyncio.sleep(random.uniform(*THINK_S))
            if conn.latest is not frame:  # something arrived meanwhile: look again
                conn.changed.set()
                continue
            if conn.closed or time.monotonic() >= self.stop_at:
                return
            await self.move(conn, frame)
            acted_at = frame["version"]
            conn.changed.set()

    async def move(self, conn: SeatConn, frame: dict[str, Any]) -> None:
        self.request += 1
        rid = f"{os.getpid()}-{self.request}"
        action = random.choice(frame["legal"])["id"]
        message = {
            "type": "act",
            "action": action,
            "version": frame["version"],
            "request_id": rid,
            # The ack folded into the state frame when the server can (as the
            # browser's client asks: docs/protocol/live.md).
            "ack": "state",
        }
        conn.done.clear()
        pending = conn.pending = Pending(rid, frame["version"], time.monotonic())
        await conn.ws.send(json.dumps(message, separators=(",", ":")))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(conn.done.wait(), MOVE_TIMEOUT_S)
        conn.pending = None
        rtt = (pending.shown - pending.sent) * 1000 if pending.shown else None
        ack = (pending.acked - pending.sent) * 1000 if pending.acked else None
        if pending.error is not None:
            outcome = "error"
        elif pending.shown is None:
            outcome = "lost"
            if pending.acked is None and not conn.closed:
                self.error("timeout")
            if not conn.closed:
                await conn.ws.send('{"type":"sync"}')
        else:
            outcome = "ok"
        self.moves.append((pending.sent, rtt, ack, outcome))


def client_main(plan: dict[str, Any], reports: mp.Queue) -> None:
    """Entry point of a client process."""
    live_client.run_client(Client(plan, reports).run)


# --- results ----------------------------------------------------------------------


def summarise_level(
    games: int,
    span: tuple[float, float, float, float],
    moves: list[tuple[float, float | None, float | None, str]],
    errors: list[tuple[float, str]],
    cpu: dict[str, float],
    active: list[int],
) -> dict[str, Any]:
    start, w0, w1, end = span
    inside = [m for m in moves if w0 <= m[0] < w1]
    during = [m for m in moves if start <= m[0] < end]
    # A move whose frame never came counts as the timeout, so an overloaded
    # level still has percentiles (then at least that bad) instead of none.
    censored = MOVE_TIMEOUT_S * 1000
    rtts = [m[1] if m[1] is not None else censored for m in inside if m[3] != "error"]
    acks = [m[2] for m in inside if m[2] is not None]
    errs = [e for e in errors if start <= e[0] < end]
    level: dict[str, Any] = {
        "games": games,
        "games_active_min": min(active) if active else None,
        "moves": len(inside),
        "moves_per_s": round(len(inside) / (w1 - w0), 1),
        "rtt_p50_ms": percentile(rtts, 50),
        "rtt_p90_ms": percentile(rtts, 90),
        "rtt_p99_ms": percentile(rtts, 99),
        "rtt_max_ms": round(max(rtts), 1) if rtts else None,
        "moves_without_frame": sum(1 for m in inside if m[1] is None),
        "ack_rtt_p50_ms": percentile(acks, 50),
        "ack_rtt_p99_ms": percentile(acks, 99),
        "errors": len(errs),
        "error_kinds": dict(Counter(kind for _, kind in errs)),
        "lost_moves": sum(1 for m in during if m[3] == "lost"),
        **cpu,
    }
    if inside and "server_cpu_pct" in cpu:
        # CPU per move is what load from the rest of the machine changes least.
        per_move = 10 * cpu["server_cpu_pct"] / level["moves_per_s"]
        level["server_cpu_ms_per_move"] = round(per_move, 2)
    level["meets_targets"] = bool(
        rtts
        and level["rtt_p50_ms"] <= TARGETS["rtt_p50_ms"]
        and level["rtt_p99_ms"] <= TARGETS["rtt_p99_ms"]
        and level["errors"] == 0
        and level["lost_moves"] == 0
        and (level["games_active_min"] or 0) >= games * 0.95
    )
    return level


def main() -> None:
    began = time.monotonic()
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    run_dir = BENCH_DIR / f"live-{os.getpid()}"
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    sys.path.insert(0, str(ROOT))
    redis, redis_url = bench_redis(run_dir)
    db = Database(run_dir)
    servers: list[subprocess.Popen] = []
    clients: list[BaseProcess] = []
    try:
        db.create()
        prefix = f"kfa-bench-{os.getpid()}"
        prepare_django(db, redis_url, prefix)
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connections

        log(f"migrating {db.kind} ...")
        call_command("migrate", interactive=False, verbosity=0)
        pairs = plan_pairs()
        log(
            f"creating {2 * len(pairs)} users and "
            f"{sum(p['matches'] for p in pairs)} started matches ..."
        )
        create_players(pairs)
        db_description = db.describe()
        connections.close_all()
        extra = shlex.split(os.environ.get("LIVE_LOAD_UVICORN_ARGS", ""))
        ports = []
        for index in range(PROCESSES):
            port = free_port()
            servers.append(start_server(run_dir, port, extra, index))
            ports.append(port)
        for server, port in zip(servers, ports, strict=True):
            wait_ready(server, port)
        log(
            f"server pid(s) {' '.join(str(s.pid) for s in servers)} on 127.0.0.1 "
            f"port(s) {' '.join(map(str, ports))} ({SPREAD} spread); set-up took "
            f"{time.monotonic() - began:.0f} s"
        )

        t0 = time.monotonic() + 2.0
        spans = level_windows(t0)
        stop_at = spans[-1][2]
        reports: mp.Queue = mp.get_context("spawn").Queue()
        ctx = mp.get_context("spawn")
        for index in range(CLIENT_PROCESSES):
            plan = {
                "urls": [
                    (f"ws://127.0.0.1:{port}", f"http://127.0.0.1:{port}")
                    for port in ports
                ],
                "pairs": pairs[index::CLIENT_PROCESSES],
                "t0": t0,
                "stop_at": stop_at,
            }
            proc = ctx.Process(target=client_main, args=(plan, reports), daemon=True)
            proc.start()
            clients.append(proc)
        parts: dict[str, list[int]] = {
            "server": [s.pid for s in servers],
            "clients": [c.pid or 0 for c in clients],
        }
        if PROCESSES > 1:
            for index, server in enumerate(servers):
                parts[f"server{index}"] = [server.pid]
        if redis is not None:
            parts["redis"] = [redis.pid() or 0]
        meter = CpuMeter(parts, db.kind)
        results, level_cpu, active = collect(
            reports, clients, spans, meter, servers, profiler_path()
        )
    finally:
        tear_down(
            clients=clients,
            processes=[
                (
                    server,
                    run_dir / f"server{index}.log",
                    BENCH_DIR / f"live_load_server{index or ''}.log",
                )
                for index, server in enumerate(servers)
            ],
            db=db,
            redis=redis,
            run_dir=run_dir,
        )

    moves = [m for r in results for m in r["moves"]]
    errors = [e for r in results for e in r["errors"]]
    levels = [
        summarise_level(games, span, moves, errors, level_cpu[i], active[i])
        for i, (games, span) in enumerate(zip(LEVELS, spans, strict=True))
    ]
    for level in levels:
        log(
            f"level {level['games']:>3} games: {level['moves_per_s']:>6} moves/s "
            f"p50 {level['rtt_p50_ms']} ms p99 {level['rtt_p99_ms']} ms "
            f"errors {level['errors']} lost {level['lost_moves']} "
            f"server {level.get('server_cpu_pct')}% "
            f"{'meets targets' if level['meets_targets'] else 'MISSES targets'}"
        )
    top = levels[-1]
    passing = [lv["games"] for lv in levels if lv["meets_targets"]]
    summary = {
        "games": top["games"],
        "moves_per_s": top["moves_per_s"],
        "rtt_p50_ms": top["rtt_p50_ms"],
        "rtt_p99_ms": top["rtt_p99_ms"],
        "errors": sum(lv["errors"] for lv in levels),
        "lost_moves": sum(lv["lost_moves"] for lv in levels),
        "rtt_p90_ms": top["rtt_p90_ms"],
        "rtt_max_ms": top["rtt_max_ms"],
        "ack_rtt_p50_ms": top["ack_rtt_p50_ms"],
        "ack_rtt_p99_ms": top["ack_rtt_p99_ms"],
        "error_kinds": dict(Counter(kind for _, kind in errors)),
        "server_cpu_pct": top.get("server_cpu_pct"),
        "server_cpu_ms_per_move": top.get("server_cpu_ms_per_move"),
        "redis_cpu_pct": top.get("redis_cpu_pct"),
        "db_cpu_pct": top.get("db_cpu_pct"),
        "clients_cpu_pct": top.get("clients_cpu_pct"),
        "machine_cpu_pct": top.get("machine_cpu_pct"),
        "other_cpu_pct": top.get("other_cpu_pct"),
        "targets": TARGETS,
        "targets_met": bool(top["meets_targets"] and top["games"] >= TARGETS["games"]),
        "max_games_meeting_targets": max(passing) if passing else 0,
        "games_completed": sum(r["games_done"] for r in results),
        "pairs_out_of_matches": sum(r["exhausted"] for r in results),
        "db": db_description,
        "channel_layer": settings.CHANNEL_LAYERS["default"]["BACKEND"]
        + (
            f" (REDIS_URL, db {os.environ.get('LIVE_BENCH_REDIS_DB', '15')})"
            if redis is None
            else " (embedded redis, unix socket)"
        ),
        "server": "uvicorn "
        + " ".join(UVICORN_ARGS + extra)
        + f" ({PROCESSES} process{'es' if PROCESSES > 1 else ''}, {SPREAD} spread)",
        "processes": PROCESSES,
        "spread": SPREAD,
        "load_average": os.getloadavg(),
        "settings": SETTINGS_MODULE + " with DEBUG=0",
        "client_processes": CLIENT_PROCESSES,
        "think_s": list(THINK_S),
        "window_s": WINDOW_S,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "duration_s": round(time.monotonic() - began, 1),
        "levels": levels,
    }
    print(json.dumps(summary))


def profiler_path() -> str:
    return os.environ.get("LIVE_LOAD_PYSPY", "")


def collect(
    reports: mp.Queue,
    clients: list[BaseProcess],
    spans: list[tuple[float, float, float, float]],
    meter: CpuMeter,
    servers: list[subprocess.Popen],
    pyspy: str,
) -> tuple[list[dict[str, Any]], list[dict[str, float]], list[list[int]]]:
    """Show progress, sample CPU at window edges, gather every client's records."""
    results: dict[int, dict[str, Any]] = {}
    progress: dict[int, dict[str, Any]] = {}
    level_cpu: list[dict[str, float]] = [{} for _ in spans]
    active: list[list[int]] = [[] for _ in spans]
    starts: dict[int, dict[str, float]] = {}
    recent: list[tuple[float, float | None]] = []
    lost = 0
    next_print = time.monotonic() + PROGRESS_EVERY_S
    last_print_at = time.monotonic()
    profiler = None
    deadline = spans[-1][2] + DRAIN_S + 30
    while len(results) < len(clients):
        now = time.monotonic()
        for i, (_, w0, w1, _) in enumerate(spans):
            if i not in starts and now >= w0:
                starts[i] = meter.sample()
                if pyspy and i == len(spans) - 1:
                    profiler = start_pyspy(servers[0].pid, pyspy, w1 - w0)
            if i in starts and not level_cpu[i] and now >= w1:
                level_cpu[i] = CpuMeter.share(starts[i], meter.sample())
        try:
            kind, pid, payload = reports.get(timeout=0.2)
        except queue.Empty:
            kind = ""
        if kind == "result":
            results[pid] = payload
        elif kind == "progress":
            progress[pid] = payload
            recent.extend(payload["moves"])
            lost += payload["lost"]
            for i, (_, w0, w1, _) in enumerate(spans):
                if w0 <= payload["at"] < w1:
                    active[i].append(sum(p["games_active"] for p in progress.values()))
        if now >= next_print:
            rtts = [r for _, r in recent if r is not None]
            level = sum(1 for s in spans if now >= s[0])
            log(
                f"t={now - spans[0][0]:5.0f}s level {LEVELS[max(0, level - 1)]} "
                f"games in play {sum(p['games_active'] for p in progress.values())} "
                f"{len(recent) / (now - last_print_at):5.0f} moves/s "
                f"p50 {percentile(rtts, 50)} ms p99 {percentile(rtts, 99)} ms "
                f"errors {sum(p['errors'] for p in progress.values())} lost {lost} "
                f"server cpu {sum(cpu_seconds(s.pid) for s in servers):.0f} s"
            )
            recent = []
            last_print_at = now
            next_print = now + PROGRESS_EVERY_S
        for server in servers:
            if server.poll() is not None:
                raise SystemExit(f"live_load: a server died ({server.returncode})")
        if now > deadline:
            raise SystemExit("live_load: clients did not report back in time")
        alive = any(c.is_alive() for c in clients)
        if not alive and reports.empty() and len(results) < len(clients):
            raise SystemExit("live_load: a client process died")
    if profiler is not None:
        profiler.wait(timeout=60)
    return [results[p] for p in sorted(results)], level_cpu, active


SCALING_PROCESSES = (1, 2)
# Saturation: players answer at once (think 0-20 ms), so moves/s is what the
# web processes (and the rest of the machine) can carry, not what players ask.
SCALING_ENV = {
    "LIVE_LOAD_LEVELS": os.environ.get("LIVE_LOAD_SCALING_GAMES", "200"),
    "LIVE_LOAD_THINK_S": "0,0.02",
    "LIVE_LOAD_WINDOW_S": os.environ.get("LIVE_LOAD_WINDOW_S", "20"),
}


def scaling() -> None:
    """``--scaling``: the same saturated load on 1 and on 2 web processes.

    Each run is a full benchmark in a child process (its own database, server
    processes and clients); the last stdout line compares them: moves/s,
    latency, server CPU per move, and moves/s on 2 processes over 1.
    """
    runs = []
    for processes in SCALING_PROCESSES:
        env = {**os.environ, **SCALING_ENV, "LIVE_LOAD_PROCESSES": str(processes)}
        log(f"scaling: {processes} web process(es), saturated ...")
        out = subprocess.run(
            [sys.executable, __file__],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
            check=True,
        ).stdout
        summary = json.loads(out.strip().splitlines()[-1])
        level = summary["levels"][-1]
        runs.append(
            {
                "processes": processes,
                "spread": summary["spread"],
                "games": level["games"],
                "moves_per_s": level["moves_per_s"],
                "rtt_p50_ms": level["rtt_p50_ms"],
                "rtt_p99_ms": level["rtt_p99_ms"],
                "errors": level["errors"],
                "lost_moves": level["lost_moves"],
                "server_cpu_pct": level.get("server_cpu_pct"),
                "server_cpu_ms_per_move": level.get("server_cpu_ms_per_move"),
                "clients_cpu_pct": level.get("clients_cpu_pct"),
                "db_cpu_pct": level.get("db_cpu_pct"),
                "machine_cpu_pct": level.get("machine_cpu_pct"),
                "other_cpu_pct": level.get("other_cpu_pct"),
                "load_1m": level.get("load_1m"),
                **{
                    k: v
                    for k, v in level.items()
                    if k.startswith("server") and k[6:7].isdigit()
                },
            }
        )
        log(
            f"scaling: {processes} process(es): {level['moves_per_s']} moves/s, "
            f"p50 {level['rtt_p50_ms']} ms, {level.get('server_cpu_ms_per_move')} ms "
            "server CPU per move"
        )
    base = runs[0]["moves_per_s"] or 1
    print(
        json.dumps(
            {
                "mode": "scaling",
                "think_s": SCALING_ENV["LIVE_LOAD_THINK_S"],
                "runs": runs,
                "speedup": {
                    str(r["processes"]): round(r["moves_per_s"] / base, 2) for r in runs
                },
            }
        )
    )


if __name__ == "__main__":
    if "--scaling" in sys.argv[1:]:
        scaling()
    else:
        main()
