"""kill -9 a web process mid-game: its seat stops counting as connected.

Real processes: a private Redis, a SQLite database file, two uvicorn web
processes. Player B's socket is on the first process, which is SIGKILLed (no
``disconnect`` runs, so ``Seat.connected`` stays 1). Player A, on the second
process, is then told within the presence TTL and a sweep that B is away, with
a "Claim win" time 60 s after B's last refresh; the claim itself at that time is
tested in test_presence_expiry.py (waiting out a real minute here would only
slow the suite).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from datetime import datetime, timedelta

import pytest
import websockets
from websockets.typing import Origin

from tests.faults.processes import ROOT, PrivateRedis, base_env, needs_redis_server
from tests.waiting import wait_until

SETUP = """
import json, django
django.setup()
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from gameplay import services
from gameplay.services import SeatSpec
from tests.factories import UserFactory

users = [UserFactory(username=f"web{i}") for i in range(2)]
match = services.match_create(
    game="duelo", seats=[SeatSpec(user=u) for u in users], config={}
)
services.match_start(match_id=match.pk)
cookies = []
for user in users:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    cookies.append(session.session_key)
print(json.dumps({"match": str(match.public_id), "pk": match.pk, "cookies": cookies}))
"""

SEAT = """
import json, sys, django
django.setup()
from gameplay.models import Seat
seat = Seat.objects.get(match_id=int(sys.argv[1]), number=int(sys.argv[2]))
print(json.dumps({"connected": seat.connected,
    "seen_at": seat.seen_at and seat.seen_at.isoformat(),
    "disconnected_at": seat.disconnected_at and seat.disconnected_at.isoformat()}))
"""

SWEEP = """
import django
django.setup()
from gameplay import services
print(services.seats_sweep_absent())
"""


def _python(env, code: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _web(env, port: int, log) -> subprocess.Popen:
    process = subprocess.Popen(
        [
            sys.executable, "-m", "uvicorn", "config.asgi:application",
            "--host", "127.0.0.1", "--port", str(port), "--lifespan", "off",
        ],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip

    def listens() -> bool:
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", port)) == 0

    def alive() -> None:
        assert process.poll() is None, "web process exited"

    wait_until(
        listens,
        timeout=120,
        interval=0.3,
        message="the web process to listen",
        between=alive,
    )
    return process


async def _open(port: int, match: str, cookie: str):
    return await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/match/{match}/",
        additional_headers={"Cookie": f"sessionid={cookie}"},
        origin=Origin(f"http://127.0.0.1:{port}"),
    )


# Each socket's last menu, as the page keeps it: a step's frame leaves an
# unchanged menu out and names it by ``legal_digest`` (docs/protocol/live.md).
_held_menus: dict[int, tuple[str, list]] = {}


async def _frame(ws, predicate, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "expected frame never came"
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=left))
        if frame.get("type") == "state" and "legal_digest" in frame:
            if "legal" in frame:
                _held_menus[id(ws)] = (frame["legal_digest"], frame["legal"])
            else:
                held = _held_menus.get(id(ws))
                assert held is not None and held[0] == frame["legal_digest"]
                frame["legal"] = held[1]
        if predicate(frame):
            return frame


@pytest.fixture
def world(tmp_path):
    needs_redis_server()
    redis = PrivateRedis(tmp_path / "redis")
    redis.directory.mkdir()
    redis.start()
    env = base_env(redis, tmp_path)
    env.update(PRESENCE_TTL="3", ALLOWED_HOSTS="127.0.0.1,localhost")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"],
        cwd=ROOT, env=env, check=True, timeout=300, capture_output=True,
    )  # fmt: skip
    processes: list[subprocess.Popen] = []
    yield env, processes, tmp_path, redis
    for process in processes:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    redis.stop()


# Fault injection (a process killed, Redis stopped and started): a soak-like
# test of 10-30 s, run in CI's PostgreSQL pass (`slow`), not in `make test`.
@pytest.mark.slow
def test_a_killed_web_process_leaves_no_seat_connected_forever(world):
    env, processes, tmp, _ = world
    setup = json.loads(_python(env, SETUP))
    match, pk, cookies = setup["match"], setup["pk"], setup["cookies"]
    log = (tmp / "web.log").open("ab")
    ports = [_port(), _port()]
    doomed = _web(env, ports[0], log)
    processes.append(doomed)
    processes.append(_web(env, ports[1], log))

    async def play() -> dict:
        b = await _open(ports[0], match, cookies[1])
        await _frame(b, lambda f: f["type"] == "state")
        a = await _open(ports[1], match, cookies[0])
        first = await _frame(a, lambda f: f["type"] == "state")
        assert first["seats"][1]["connected"] is True
        # Process 0 dies: no disconnect, the count stays up.
        os.kill(doomed.pid, signal.SIGKILL)
        doomed.wait(timeout=10)
        seat = json.loads(_python(env, SEAT, str(pk), "1"))
        assert seat["connected"] == 1 and seat["disconnected_at"] is None
        # The sweep writes B off once PRESENCE_TTL passes without a refresh.
        wait_until(
            lambda: _python(env, SWEEP) == "1",
            timeout=30,
            interval=0.5,
            message="the presence sweep to write the seat off",
        )
        # The sweep's broadcast: B written off as disconnected at its last refresh.
        told = await _frame(
            a,
            lambda f: f["type"] == "state" and f["seats"][1]["disconnected_at"],
        )
        assert told["seats"][1]["connected"] is False
        # Player A's seat, on the live process, is still vouched for: refreshed
        # within PRESENCE_TTL of the moment we asked (the reading subprocess's
        # own start-up, seconds on a busy machine, is not the seat's age).
        asked = datetime.now().astimezone()
        seat_a = json.loads(_python(env, SEAT, str(pk), "0"))
        assert seat_a["connected"] == 1
        age = asked - datetime.fromisoformat(seat_a["seen_at"])
        assert age < timedelta(seconds=3)
        await a.close()
        await b.close()
        return told

    told = asyncio.run(play())
    seat = json.loads(_python(env, SEAT, str(pk), "1"))
    assert seat["connected"] == 0
    assert seat["disconnected_at"] == seat["seen_at"]
    claimable = datetime.fromisoformat(told["seats"][1]["claimable_at"])
    assert claimable == datetime.fromisoformat(seat["seen_at"]) + timedelta(seconds=60)


LOG = """
import json, sys, django
django.setup()
from gameplay.models import Match
from gameplay.rules import get_game
match = Match.objects.get(pk=int(sys.argv[1]))
engine = get_game(match.game)
state = engine.setup(match.config, match.seed)
versions = []
for action in match.actions.order_by("version"):
    state, _ = engine.apply(state, action.seat, action.action_id)
    versions.append(action.version)
print(json.dumps({"version": match.version, "versions": versions,
    "replays": state == match.state}))
"""


# Fault injection (a process killed, Redis stopped and started): a soak-like
# test of 10-30 s, run in CI's PostgreSQL pass (`slow`), not in `make test`.
@pytest.mark.slow
def test_a_killed_owner_loses_no_acknowledged_move(world):
    """Both players on process 0, which holds the match in memory and makes
    every move from it. It is SIGKILLed right after an ack and with a move in
    flight; on process 1 the players find every acknowledged move in the
    log (which replays to the stored state) and play on."""
    env, processes, tmp, _ = world
    setup = json.loads(_python(env, SETUP))
    match, pk, cookies = setup["match"], setup["pk"], setup["cookies"]
    log = (tmp / "web.log").open("ab")
    ports = [_port(), _port()]
    doomed = _web(env, ports[0], log)
    processes.append(doomed)
    processes.append(_web(env, ports[1], log))

    def state(f):
        return f["type"] == "state"

    async def play() -> tuple[int, dict]:
        socks = [await _open(ports[0], match, c) for c in cookies]
        frames = [await _frame(s, state) for s in socks]
        acked = 0
        for _ in range(8):
            actor = frames[0]["actors"][0]
            frame = frames[actor]
            await socks[actor].send(
                json.dumps(
                    {"type": "act", "action": frame["legal"][0]["id"],
                     "version": frame["version"], "request_id": "m"}
                )
            )  # fmt: skip
            ack = await _frame(socks[actor], lambda f: f["type"] in ("ack", "error"))
            assert ack["type"] == "ack", ack
            acked = ack["version"]
            frames = [
                await _frame(s, lambda f, v=acked: state(f) and f["version"] >= v)
                for s in socks
            ]
        # One more move sent, and the owner killed without waiting for it.
        actor = frames[0]["actors"][0]
        await socks[actor].send(
            json.dumps(
                {"type": "act", "action": frames[actor]["legal"][0]["id"],
                 "version": frames[actor]["version"]}
            )
        )  # fmt: skip
        os.kill(doomed.pid, signal.SIGKILL)
        doomed.wait(timeout=10)
        # The browsers reconnect to the other process.
        again = [await _open(ports[1], match, c) for c in cookies]
        fresh = [await _frame(s, state) for s in again]
        assert fresh[0]["version"] >= acked
        assert fresh[0]["version"] == fresh[1]["version"]
        # And play on there (its own copy, read at the connect).
        actor = fresh[0]["actors"][0]
        await again[actor].send(
            json.dumps(
                {"type": "act", "action": fresh[actor]["legal"][0]["id"],
                 "version": fresh[actor]["version"], "request_id": "n"}
            )
        )  # fmt: skip
        ack = await _frame(again[actor], lambda f: f["type"] in ("ack", "error"))
        assert ack["type"] == "ack" and ack["version"] == fresh[0]["version"] + 1
        for sock in again:
            await sock.close()
        return acked, ack

    acked, last = asyncio.run(play())
    stored = json.loads(_python(env, LOG, str(pk)))
    assert acked == 8
    assert stored["version"] == last["version"]
    assert stored["versions"] == list(range(1, stored["version"] + 1))
    assert stored["replays"] is True
