"""Real-time intents at live Kung Fu (2009) tables of 8 over real WebSockets.

``python bench/live_realtime.py`` (50 tables, about two minutes), or
``--tables N``, or ``--tables 10,25,50`` (one run per count, in turn, to see
where it breaks; the last line then lists the runs). It talks over loopback
only, stops by itself and leaves no process behind. Progress goes to stderr;
the last stdout line is one JSON object (``tables``, ``intents_per_s``,
``rtt_p50_ms`` ... ``rtt_max_ms``, ``refused``, ``errors``,
``lost_intents``, CPU per part and per intent, ``rtt_by_kind_ms``: each
intent kind's p50, p99 and count, to see whether one kind makes the tail).

How it is built (the services and measurements it shares with
``bench/live_load.py`` are ``bench/live_harness.py``, the players
``bench/live_realtime_players.py`` over the WebSocket seat client
``bench/live_client.py``):

* **The server is the real one**: uvicorn serving ``config.asgi:application``
  with ``make run``'s flags and production settings (DEBUG off), PostgreSQL
  (``DATABASE_URL``: a dedicated database is created and dropped) or a fresh
  SQLite file, and Redis for the channel layer, the cache and the Celery
  broker. Unlike the Duelo benchmark it also runs **a Celery worker** as
  ``make run`` starts it (``--concurrency 2``, queues ``default,ratings``):
  a real-time table needs the server's timers (a claim is checked 2 s after
  it is shown, an unanswered offer declined after 20 s, a stale draft
  dropped after 30 s): the web process holding the table fires them, and
  the worker applies those of a table no process holds any more.
  So that no other worker takes them, the bench uses its own logical Redis
  database (``LIVE_RT_REDIS_DB``, default 14; the Duelo benchmark's 15 has no
  worker by design) and empties the Celery queues there at the start.
* **Tables**: ``N`` matches of ``kungfu2009`` with 8 seated people each
  (``players`` 8, time limit 60 minutes so no table ends on time), made with
  ``gameplay.services`` before the server starts; each table has a spare
  match started for when its first one ends (a pile's last combination
  completed).
* **Players**: every seat is a real WebSocket client with its session
  cookie and the page's Origin, in two client processes apart from the
  server. Each seat chooses its next intent from the ``legal`` menu and the
  ``view`` of the newest state frame it has received, right before sending
  it, and has at most one intent in flight (as the live page's plans do).
  The mix and pace ("a human at the table"):

  - **between decisions** it thinks ``LIVE_RT_THINK_S`` (uniform, default
    1.0-3.0 s), then picks one: rearrange the hand (``move:i:j``, weight 5),
    start an offer (``to:<seat>`` or ``to:all``, weight 2, when legal),
    answer an offer addressed to it (``accept:<id>`` weight 3 when legal,
    ``decline:<id>`` weight 1), withdraw one of its own (weight 1), arrange
    the hand for a face-up combination it can make (``fit:<level>``, weight
    4 when legal) or claim (``claim:<level>``, always when its arranged
    hand spells a face-up combination: a person shouts as soon as it sees
    it; never a blind claim);
  - **within a plan** (building an offer: one or two ``give:``, one or two
    ``want:`` of the styles it lacks, ``send``; or ``fit`` then ``claim``)
    the next click follows ``LIVE_RT_CLICK_S`` (default 0.25-0.6 s) after
    the previous intent's answer.

  ``pass`` is never sent (it changes nothing and is not answered by a
  frame). During a claim's pause nobody may act (``legal`` is empty) and
  the seats wait for the frame that resumes play.

Per intent it records the round trip from sending ``act`` to the frame that
answers it: for an applied intent the seat's ``state`` frame carrying the
version its ``ack`` names (what the player waits for before the board shows
it; the ack itself is ``ack_rtt_*``), for a refused one the ``error`` frame
with its ``request_id``. A refusal by the engine (``illegal_action``: the
intent went stale, e.g. an offer accepted by someone else a moment earlier;
``not_your_turn``: the table paused for a claim meanwhile) is a normal
outcome of real-time play and counted as ``refused``, apart from
``errors`` (other error codes, disconnects, failed connects, intents with no
answer within 5 s). ``lost_intents``: acknowledged intents whose frame never
came within 5 s, plus intents with neither ack nor error within 5 s (the
seat then goes on; an answer that comes later is counted in
``late_answers``, not as an error); after the run the match logs are
checked too: every acknowledged intent must be a logged move
(``acked_not_logged``, which must be 0). ``state_frames_per_intent``: the
state frames the seats received in the window per intent, each one a
socket write of the server's (eight when every step went to every seat;
fewer since a quiet step sends the others nothing).

Knobs (environment variables, for development): ``LIVE_RT_WINDOW_S``
(measured window, default 30), ``LIVE_RT_SETTLE_S`` (from the last table's
connect to the window, default 25: the window opens once the first offers'
20 s timeouts fire), ``LIVE_RT_THINK_S``, ``LIVE_RT_CLICK_S``,
``LIVE_RT_CLIENTS`` (client processes, 2), ``LIVE_RT_PROCESSES`` (web
processes, 1; table i's sockets all go to process i mod N, as a load
balancer routing by match would), ``LIVE_RT_REDIS_DB``,
``LIVE_RT_PYSPY`` (a py-spy profile of the server during the window, to
that path: ``.txt`` raw, ``.json`` speedscope, else a flame graph),
``LIVE_RT_TRACE`` (every intent of the window, a JSON line each, to that
path: when it was sent, its answer and ack times, outcome and kind); the
server's ``LIVE_LOAD_SETTINGS`` and ``LIVE_LOAD_UVICORN_ARGS`` as in
``bench/live_load.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import platform
import queue
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live_harness import (  # noqa: E402
    BENCH_DIR,
    SETTINGS_MODULE,
    UVICORN_ARGS,
    CpuMeter,
    Database,
    bench_redis,
    cpu_seconds,
    free_port,
    percentile,
    prepare_django,
    quiet_match_starts,
    start_logged,
    start_pyspy,
    start_server,
    tear_down,
    users_with_sessions,
    wait_ready,
)
from bench.live_realtime_players import (  # noqa: E402
    ANSWER_TIMEOUT_S,
    CLICK_S,
    THINK_S,
    client_main,
)

GAME = "kungfu2009"
SEATS = 8
TARGET_P99_MS = 50.0
WINDOW_S = float(os.environ.get("LIVE_RT_WINDOW_S", "30"))
# After the last table connected, before the window opens: past the first
# offers' 20 s timeouts, so the window sees the steady state (timer steps
# interleaved with the intents), not the quieter first seconds of trading.
SETTLE_S = float(os.environ.get("LIVE_RT_SETTLE_S", "25"))
CLIENT_PROCESSES = int(os.environ.get("LIVE_RT_CLIENTS", "2"))
# Web processes (uvicorn, one event loop each); a table's eight sockets all
# reach one of them (table i on process i mod N, as a load balancer routing
# by match would), so each match has one owner.
PROCESSES = max(1, int(os.environ.get("LIVE_RT_PROCESSES", "1")))
REDIS_DB = int(os.environ.get("LIVE_RT_REDIS_DB", "14"))
# A py-spy profile of the server during the window, written to this path.
PYSPY = os.environ.get("LIVE_RT_PYSPY", "")
# Every intent of the window (seconds into it, answer ms, ack ms, outcome,
# kind), one JSON line each, to this path: to see whether slow answers come
# in bursts (a stall of the machine) or spread over the window (queueing).
TRACE = os.environ.get("LIVE_RT_TRACE", "")
MATCHES_PER_TABLE = 2
MINUTES = 60
PROGRESS_EVERY_S = 5.0
# As `make run` starts the worker, without the sandboxed bots' queue.
WORKER_ARGS = ["worker", "-Q", "default,ratings", "--concurrency", "2"]


def log(message: str) -> None:
    print(f"[live_realtime {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr)


# --- services ---------------------------------------------------------------------


def empty_celery_queues(redis_url: str) -> None:
    """Tasks a previous run left in the bench's database name its matches."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        client.delete("default", "ratings", "unacked", "unacked_index")
    finally:
        client.close()


def start_worker(run_dir: Path) -> subprocess.Popen:
    args = [sys.executable, "-m", "celery", "-A", "config", *WORKER_ARGS]
    args += ["-l", "WARNING", "-n", f"bench{os.getpid()}@%h"]
    args += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    return start_logged(args, run_dir / "worker.log")


def children_of(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
    return out


def wait_worker(worker: subprocess.Popen, timeout: float = 60.0) -> list[int]:
    """Until the prefork pool is up; the worker's processes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            raise SystemExit(f"live_realtime: the worker exited ({worker.returncode})")
        kids = children_of(worker.pid)
        if len(kids) >= 2:
            return [worker.pid, *kids]
        time.sleep(0.2)
    raise SystemExit("live_realtime: the Celery worker did not come up")


def create_tables(tables: int) -> list[dict[str, Any]]:
    """Users, session cookies and started 8-player matches for every table."""
    from django.db import transaction

    from gameplay import services
    from gameplay.services import SeatSpec

    users, cookies = users_with_sessions("rt", SEATS * tables)
    out = []
    with quiet_match_starts():
        for index in range(tables):
            seated = users[SEATS * index : SEATS * (index + 1)]
            seats = [SeatSpec(user=user) for user in seated]
            ids = []
            with transaction.atomic():
                for _ in range(MATCHES_PER_TABLE):
                    match = services.match_create(
                        game=GAME,
                        seats=seats,
                        config={"players": SEATS, "minutes": MINUTES},
                    )
                    services.match_start(match_id=match.pk)
                    ids.append(str(match.public_id))
            out.append(
                {
                    "index": index,
                    "cookies": cookies[SEATS * index : SEATS * (index + 1)],
                    "match_ids": ids,
                }
            )
    return out


def logged_moves() -> dict[str, int]:
    """People's logged intents per match (public id)."""
    from django.db.models import Count

    from gameplay.models import ActionKind, MatchAction

    rows = (
        MatchAction.objects.filter(kind=ActionKind.MOVE, seat__isnull=False)
        .values("match__public_id")
        .annotate(n=Count("pk"))
    )
    return {str(r["match__public_id"]): r["n"] for r in rows}


def logged_timer_steps() -> dict[str, int]:
    """Timer steps logged over the whole run, by kind (``timeout``: an offer
    declined or a draft dropped for its seat; ``table``: a claim checked),
    whoever fired them: the evidence that the tables' timers kept firing."""
    from django.db.models import Count

    from gameplay.models import ActionKind, MatchAction

    rows = (
        MatchAction.objects.filter(kind__in=[ActionKind.TIMEOUT, ActionKind.TABLE])
        .values("kind")
        .annotate(n=Count("pk"))
    )
    return {str(r["kind"]): r["n"] for r in rows}


# --- the run ----------------------------------------------------------------------


def summarise(
    intents: list[tuple],
    errors: list[tuple[float, str]],
    window: tuple[float, float],
    cpu: dict[str, float],
    frame_times: list[float] | None = None,
) -> dict[str, Any]:
    w0, w1 = window
    inside = [i for i in intents if w0 <= i[0] < w1]
    censored = ANSWER_TIMEOUT_S * 1000
    answers = [i[1] if i[1] is not None else censored for i in inside]
    applied = [i[1] for i in inside if i[3] == "applied"]
    refused = [i[1] for i in inside if i[3] == "refused"]
    acks = [i[2] for i in inside if i[2] is not None]
    rate = len(inside) / (w1 - w0)
    out = {
        "intents": len(inside),
        "intents_per_s": round(rate, 1),
        "rtt_p50_ms": percentile(answers, 50),
        "rtt_p95_ms": percentile(answers, 95),
        "rtt_p99_ms": percentile(answers, 99),
        "rtt_max_ms": round(max(answers), 1) if answers else None,
        "applied_rtt_p50_ms": percentile(applied, 50),
        "applied_rtt_p99_ms": percentile(applied, 99),
        "refused_rtt_p50_ms": percentile(refused, 50),
        "refused_rtt_p99_ms": percentile(refused, 99),
        "ack_rtt_p50_ms": percentile(acks, 50),
        "ack_rtt_p99_ms": percentile(acks, 99),
        "outcomes": dict(Counter(i[3] for i in inside)),
        "refused_by_code": dict(Counter(i[5] for i in inside if i[3] == "refused")),
        "intent_mix": dict(Counter(i[4] for i in inside).most_common()),
        # Where the tail comes from: each intent kind's own p50 and p99.
        "rtt_by_kind_ms": {
            kind: [percentile(rtts, 50), percentile(rtts, 99), len(rtts)]
            for kind, rtts in sorted(_answers_by_kind(inside, censored).items())
        },
        "errors_in_window": sum(1 for t, _ in errors if w0 <= t < w1),
        # The seats' state frames received per intent (each one a socket
        # write of the server's; eight per intent when every step went to
        # every seat).
        "state_frames_per_intent": (
            round(sum(1 for t in frame_times if w0 <= t < w1) / len(inside), 2)
            if inside and frame_times is not None
            else None
        ),
        **cpu,
    }
    if inside and "server_cpu_pct" in cpu:
        out["server_cpu_ms_per_intent"] = round(10 * cpu["server_cpu_pct"] / rate, 2)
        out["worker_cpu_ms_per_intent"] = round(10 * cpu["worker_cpu_pct"] / rate, 2)
        if "db_cpu_pct" in cpu:
            out["db_cpu_ms_per_intent"] = round(10 * cpu["db_cpu_pct"] / rate, 2)
    return out


def write_trace(intents: list[tuple], window: tuple[float, float]) -> None:
    w0, w1 = window
    with open(TRACE, "w") as out:
        # The window's opening on the wall clock, to line the trace up with logs.
        opened = time.time() - time.monotonic() + w0
        out.write(json.dumps({"window_opened_epoch_s": round(opened, 3)}) + "\n")
        for sent, answer, ack, outcome, kind, _code in sorted(intents):
            if w0 <= sent < w1:
                row = [round(sent - w0, 4), answer, ack, outcome, kind]
                out.write(json.dumps(row) + "\n")
    log(f"trace of the window's intents -> {TRACE}")


def _answers_by_kind(intents: list[tuple], censored: float) -> dict[str, list[float]]:
    by_kind: dict[str, list[float]] = {}
    for intent in intents:
        answer = intent[1] if intent[1] is not None else censored
        by_kind.setdefault(intent[4], []).append(answer)
    return by_kind


def collect(
    reports: mp.Queue,
    clients: list[BaseProcess],
    window: tuple[float, float],
    meter: CpuMeter,
    procs: list[subprocess.Popen],
    t0: float,
) -> tuple[list[dict[str, Any]], dict[str, float]]:
    results: dict[int, dict[str, Any]] = {}
    progress: dict[int, dict[str, Any]] = {}
    recent: list[tuple[float | None, str]] = []
    start = cpu = profiler = None
    next_print = last_print = time.monotonic()
    deadline = window[1] + ANSWER_TIMEOUT_S + 60
    while len(results) < len(clients):
        now = time.monotonic()
        if start is None and now >= window[0]:
            start = meter.sample()
            log("measuring window opens")
            if PYSPY:
                profiler = start_pyspy(procs[0].pid, PYSPY, window[1] - window[0])
        if start is not None and cpu is None and now >= window[1]:
            cpu = CpuMeter.share(start, meter.sample())
            log("measuring window closed; draining")
        try:
            kind, pid, payload = reports.get(timeout=0.2)
        except queue.Empty:
            kind = ""
        if kind == "result":
            results[pid] = payload
        elif kind == "progress":
            progress[pid] = payload
            recent.extend(payload["intents"])
        if now >= next_print + PROGRESS_EVERY_S:
            rtts = [r for r, _ in recent if r is not None]
            outcomes = Counter(o for _, o in recent)
            sockets = sum(p["connected"] for p in progress.values())
            log(
                f"t={now - t0:5.0f}s sockets {sockets}"
                f" {len(recent) / (now - last_print):5.0f} intents/s "
                f"p50 {percentile(rtts, 50)} ms p99 {percentile(rtts, 99)} ms "
                f"refused {outcomes['refused']} lost {outcomes['lost']} "
                f"errors {sum(p['errors'] for p in progress.values())} "
                f"server cpu {cpu_seconds(procs[0].pid):.0f} s"
            )
            recent = []
            last_print = next_print = now
        for proc in procs:
            if proc.poll() is not None:
                raise SystemExit(f"live_realtime: {cast(list[str], proc.args)[2]} died")
        if now > deadline:
            raise SystemExit("live_realtime: clients did not report back in time")
        if (
            not any(c.is_alive() for c in clients)
            and reports.empty()
            and len(results) < len(clients)
        ):
            raise SystemExit("live_realtime: a client process died")
    if profiler is not None:
        profiler.wait(timeout=60)
    return [results[p] for p in sorted(results)], cpu or {}


def levels(counts: list[int]) -> None:
    """``--tables 10,25,50``: one full run per count, each in its own child
    process (database, server, worker and clients of its own), one after the
    other; the last stdout line lists every run's summary."""
    runs = []
    for count in counts:
        log(f"levels: {count} tables ...")
        done = subprocess.run(
            [sys.executable, __file__, "--tables", str(count)],
            stdout=subprocess.PIPE,
            text=True,
            check=False,
        )
        if done.returncode != 0 or not done.stdout.strip():
            log(f"levels: the {count}-table run failed ({done.returncode})")
            runs.append({"tables": count, "failed": done.returncode})
            continue
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    met = [r["tables"] for r in runs if r.get("target_met")]
    print(
        json.dumps(
            {
                "mode": "levels",
                "target_rtt_p99_ms": TARGET_P99_MS,
                "max_tables_meeting_target": max(met) if met else 0,
                "runs": runs,
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--tables",
        default="50",
        help="tables of 8 (default 50); a list (10,25,50) runs each in turn",
    )
    counts = [int(n) for n in parser.parse_args().tables.split(",")]
    if len(counts) > 1:
        levels(counts)
        return
    tables_n = counts[0]
    began = time.monotonic()
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    run_dir = BENCH_DIR / f"realtime-{os.getpid()}"
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    redis, redis_url = bench_redis(run_dir, REDIS_DB)
    empty_celery_queues(redis_url)
    db = Database(run_dir)
    procs: list[subprocess.Popen] = []
    clients: list[BaseProcess] = []
    try:
        db.create()
        prepare_django(db, redis_url, f"kfa-bench-rt-{os.getpid()}")
        from django.core.management import call_command
        from django.db import connections

        log(f"migrating {db.kind} ...")
        call_command("migrate", interactive=False, verbosity=0)
        log(f"creating {SEATS * tables_n} users and {MATCHES_PER_TABLE} matches each")
        tables = create_tables(tables_n)
        db_description = db.describe()
        connections.close_all()
        extra = shlex.split(os.environ.get("LIVE_LOAD_UVICORN_ARGS", ""))
        ports = [free_port() for _ in range(PROCESSES)]
        servers = [
            start_server(run_dir, port, extra, index)
            for index, port in enumerate(ports)
        ]
        procs.extend(servers)
        procs.append(start_worker(run_dir))
        for server, port in zip(servers, ports, strict=True):
            wait_ready(server, port)
        worker_pids = wait_worker(procs[-1])
        log(
            f"server pids {[p.pid for p in servers]} on 127.0.0.1:{ports}, worker "
            f"pids {worker_pids}; set-up took {time.monotonic() - began:.0f} s"
        )
        # Tables connect spread over the ramp (8 sockets at once per table).
        ramp = min(10.0, 0.2 * tables_n)
        t0 = time.monotonic() + 2.0
        for table in tables:
            table["start"] = t0 + ramp * table["index"] / max(1, tables_n)
            table["server"] = table["index"] % PROCESSES
        window = (t0 + ramp + SETTLE_S, t0 + ramp + SETTLE_S + WINDOW_S)
        ctx = mp.get_context("spawn")
        reports: mp.Queue = ctx.Queue()
        for index in range(CLIENT_PROCESSES):
            plan = {
                "urls": [
                    (f"ws://127.0.0.1:{port}", f"http://127.0.0.1:{port}")
                    for port in ports
                ],
                "tables": tables[index::CLIENT_PROCESSES],
                "t0": t0,
                "stop_at": window[1],
            }
            proc = ctx.Process(target=client_main, args=(plan, reports), daemon=True)
            proc.start()
            clients.append(proc)
        meter = CpuMeter(
            {
                "server": [p.pid for p in servers],
                "worker": worker_pids,
                "clients": [c.pid or 0 for c in clients],
                **({"redis": [redis.pid() or 0]} if redis is not None else {}),
            },
            db.kind,
        )
        results, cpu = collect(reports, clients, window, meter, procs, t0)
        logged = logged_moves()
        timer_steps = logged_timer_steps()
    finally:
        names = [f"server{i}" for i in range(len(procs) - 1)] + ["worker"]
        tear_down(
            clients=clients,
            processes=[
                (
                    proc,
                    run_dir / f"{name}.log",
                    BENCH_DIR
                    / f"live_realtime_{'server' if name == 'server0' else name}.log",
                )
                for name, proc in zip(names, procs, strict=False)
            ],
            db=db,
            redis=redis,
            run_dir=run_dir,
        )

    intents = [i for r in results for i in r["intents"]]
    errors = [e for r in results for e in r["errors"]]
    acked: Counter[str] = Counter()
    late: Counter[str] = Counter()
    for r in results:
        acked.update(r["acked"])
        late.update(r["late"])
    frame_times = [t for r in results for t in r["frames"]]
    summary = summarise(intents, errors, window, cpu, frame_times)
    if TRACE:
        write_trace(intents, window)
    acked_not_logged = sum(max(0, n - logged.get(m, 0)) for m, n in acked.items())
    summary = {
        "tables": tables_n,
        "seats": SEATS * tables_n,
        **summary,
        "refused": summary["outcomes"].get("refused", 0),
        "errors": len(errors),
        "error_kinds": dict(Counter(kind for _, kind in errors)),
        "lost_intents": sum(1 for i in intents if i[3] in ("lost", "unanswered")),
        # Answers that came after the 5 s timeout ("ack", "error").
        "late_answers": dict(late),
        "acked_total": sum(acked.values()),
        "logged_total": sum(logged.values()),
        "timer_steps_logged": timer_steps,
        "acked_not_logged": acked_not_logged,
        "tables_finished": sum(r["tables_done"] for r in results),
        "intents_per_seat_per_s": round(
            summary["intents_per_s"] / (SEATS * tables_n), 3
        ),
        "target_rtt_p99_ms": TARGET_P99_MS,
    }
    summary["target_met"] = bool(
        summary["rtt_p99_ms"] is not None
        and summary["rtt_p99_ms"] <= TARGET_P99_MS
        and summary["lost_intents"] == 0
    )
    summary.update(
        {
            "think_s": list(THINK_S),
            "click_s": list(CLICK_S),
            "window_s": WINDOW_S,
            "db": db_description,
            "redis": "embedded (unix socket)" if redis else f"REDIS_URL db {REDIS_DB}",
            "server": "uvicorn "
            + " ".join(UVICORN_ARGS + extra)
            + f" ({PROCESSES} process{'es' if PROCESSES > 1 else ''})",
            "processes": PROCESSES,
            "worker": "celery " + " ".join(WORKER_ARGS),
            "settings": SETTINGS_MODULE + " with DEBUG=0",
            "client_processes": CLIENT_PROCESSES,
            "load_average": os.getloadavg(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "duration_s": round(time.monotonic() - began, 1),
        }
    )
    log(
        f"{tables_n} tables: {summary['intents_per_s']} intents/s, p50 "
        f"{summary['rtt_p50_ms']} ms p99 {summary['rtt_p99_ms']} ms, refused "
        f"{summary['refused']}, errors {summary['errors']}, lost "
        f"{summary['lost_intents']}, server {summary.get('server_cpu_ms_per_intent')}"
        f" ms CPU/intent: target {'met' if summary['target_met'] else 'MISSED'}"
    )
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
