"""Stop Redis mid-game and mid-finish, with real processes.

A uvicorn web process and a ``default,ratings`` worker on a private Redis and a
SQLite database file. While Redis is down a player moves (acked; the opponent
learns the version from the beat, which does not travel through Redis, and
resyncs) and then resigns, which finishes the rated match with its
announcement refused. Redis comes back; the outbox sweep (beat's task, run here
directly) queues the rating, the worker (which lived through the restart)
rates the match, and a second sweep changes nothing: rated exactly once.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from tests.faults.processes import Worker
from tests.faults.test_web_process_killed import (
    _frame,
    _open,
    _port,
    _python,
    _web,
    world,  # noqa: F401
)
from tests.waiting import wait_until, wait_until_async

SETUP_RATED = """
import json, django
django.setup()
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from gameplay import services
from gameplay.services import SeatSpec
from tests.factories import UserFactory

users = [UserFactory(username=f"out{i}") for i in range(2)]
match = services.match_create(
    game="duelo", seats=[SeatSpec(user=u) for u in users], config={}, rated=True
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

LEGAL = """
import json, sys, django
django.setup()
from gameplay.models import Match
from gameplay.rules import get_game
match = Match.objects.get(pk=int(sys.argv[1]))
engine = get_game(match.game)
seat = engine.actors(match.state)[0]
print(json.dumps({"seat": seat, "action": engine.legal_action_ids(match.state, seat)[0],
                  "version": match.version}))
"""

STATUS = """
import json, sys, django
django.setup()
from gameplay.models import Match
from league.models import RatingEvent
match = Match.objects.get(pk=int(sys.argv[1]))
print(json.dumps({"status": match.status, "version": match.version,
    "announced": match.finish_announced_at is not None,
    "events": RatingEvent.objects.filter(match=match).count()}))
"""

SWEEP = """
import logging, sys, django
django.setup()
logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
from gameplay import services
print(services.announce_finished_matches(older_than=0))
"""


# Fault injection (a process killed, Redis stopped and started): a soak-like
# test of 10-30 s, run in CI's PostgreSQL pass (`slow`), not in `make test`.
@pytest.mark.slow
def test_moves_and_a_finish_during_a_redis_outage(world):  # noqa: F811
    env, processes, tmp, redis = world
    setup = json.loads(_python(env, SETUP_RATED))
    match, pk, cookies = setup["match"], setup["pk"], setup["cookies"]
    port = _port()
    processes.append(_web(env, port, (tmp / "web.log").open("ab")))
    worker = Worker(env=env, log=tmp / "worker.log")
    worker.start()
    try:

        async def play() -> None:
            sockets = [await _open(port, match, cookie) for cookie in cookies]
            for ws in sockets:
                await _frame(ws, lambda f: f["type"] == "state")
            legal = json.loads(_python(env, LEGAL, str(pk)))
            mover, other = sockets[legal["seat"]], sockets[1 - legal["seat"]]
            # Redis goes away mid-game.
            redis.stop()
            await mover.send(
                json.dumps(
                    {
                        "type": "act",
                        "action": legal["action"],
                        "version": legal["version"],
                        "request_id": "r1",
                    }
                )
            )
            ack = await _frame(mover, lambda f: f["type"] in ("ack", "error"))
            assert ack["type"] == "ack", ack
            version = ack["version"]
            beat = await _frame(
                other, lambda f: f["type"] == "beat" and f["version"] >= version
            )
            assert beat["version"] == version
            await other.send(json.dumps({"type": "sync", "version": 0}))
            history = await _frame(other, lambda f: f["type"] == "history")
            assert history["steps"][-1]["version"] == version
            # ... and the match finishes while Redis is still down.
            await other.send(json.dumps({"type": "resign", "request_id": "r2"}))
            await wait_until_async(
                lambda: (
                    json.loads(_python(env, STATUS, str(pk)))["status"] == "finished"
                ),
                timeout=30,
                interval=0.5,
                message="the resignation to land",
            )
            for ws in sockets:
                await ws.close()

        asyncio.run(play())
        status = json.loads(_python(env, STATUS, str(pk)))
        assert status == {
            "status": "finished",
            "version": status["version"],
            "announced": False,
            "events": 0,
        }
        redis.start()  # Redis is back
        # Beat's outbox sweep (every 15 s in production), until it hands it on.
        wait_until(
            lambda: json.loads(_python(env, STATUS, str(pk)))["announced"],
            timeout=60,
            interval=0,
            message="the outbox to empty",
            between=lambda: _python(env, SWEEP),
        )
        wait_until(
            lambda: json.loads(_python(env, STATUS, str(pk)))["events"] >= 2,
            timeout=90,
            interval=1,
            message=lambda: "both rating events; worker:\n" + worker.text()[-3000:],
        )
        assert _python(env, SWEEP) == "0"
        time.sleep(3)
        status = json.loads(_python(env, STATUS, str(pk)))
        assert status["announced"] and status["events"] == 2
        assert worker.alive(), worker.text()[-3000:]
        assert "Unrecoverable error" not in worker.text()
    finally:
        worker.stop()
