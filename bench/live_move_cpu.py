"""Server CPU of one live move, the old path against the owner path, in-process.

``python bench/live_move_cpu.py`` (about a minute). What a web process spends
to take one move and hand its frames to the channel layer, without sockets:

* ``locked``: ``services.match_act`` (row lock, re-read of the match and its
  seats, log insert, match update) with its after-commit broadcast
  (``broadcast.match_changed``: two more reads, the frames, the publishes):
  what every move cost before ``gameplay.live``.
* ``owner``: ``gameplay.live.owner.act_sync`` on the copy the process holds
  (one round trip) and the same frames sent with ``broadcast.send_messages``.

Both run the same seeded games on the same database and Redis, interleaved in
blocks so that the machine's load falls on both alike; CPU is the process's
own (``time.process_time``), wall time beside it. Database: a dedicated one
created and dropped on ``DATABASE_URL``'s PostgreSQL (else a temporary SQLite
file); channel layer: ``REDIS_URL`` database 15 (else the embedded Redis).
The last stdout line is one JSON object.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from live_load import Database, log, private_redis_db  # noqa: E402

BLOCKS = int(os.environ.get("LIVE_MOVE_BLOCKS", "12"))
MOVES_PER_BLOCK = 40


def main() -> None:
    run_dir = Path(tempfile.mkdtemp(prefix="kfa-move-cpu-"))
    redis = None
    redis_url = private_redis_db(os.environ.get("REDIS_URL", ""))
    if not redis_url:
        from config.embedded_redis import EmbeddedRedis

        redis = EmbeddedRedis(run_dir / "redis")
        redis.start()
        redis_url = redis.url
    db = Database(run_dir)
    try:
        db.create()
        os.environ.update(
            {
                "DJANGO_SETTINGS_MODULE": "config.settings.production",
                "DEBUG": "0",
                "DATABASE_URL": db.url,
                "REDIS_URL": redis_url,
                "CHANNELS_PREFIX": f"kfa-move-cpu-{os.getpid()}",
                "CACHE_PREFIX": f"kfa-move-cpu-{os.getpid()}",
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


def measure() -> dict:
    from datetime import timedelta

    from asgiref.sync import async_to_sync
    from django.utils import timezone

    from accounts.models import User
    from gameplay import broadcast, services
    from gameplay.live import owner
    from gameplay.models import Match, MatchStatus, Seat
    from gameplay.rules import get_game
    from gameplay.services import SeatSpec

    engine = get_game("duelo")
    users = [User.objects.create(username=f"cpu{i}") for i in range(2)]
    rnd = random.Random(1)
    send = async_to_sync(broadcast.send_messages)

    def new_match() -> Match:
        match = services.match_create(
            game="duelo", seats=[SeatSpec(user=u) for u in users], config={}
        )
        match = services.match_start(match_id=match.pk, seed=rnd.randrange(2**40))
        # Both players at the table (as in a live game): a seat vouched for
        # until long after the run, so no "your move" notification is written.
        Seat.objects.filter(match=match).update(
            connected=1, seen_at=timezone.now() + timedelta(days=1)
        )
        return match

    def play(path: str, moves: int) -> tuple[float, float, int]:
        done = 0
        cpu = wall = 0.0
        match = new_match()
        live = owner.LiveMatch(pk=match.pk)
        state, version = match.state, 0
        while done < moves:
            actors = engine.actors(state)
            if not actors:
                match = new_match()
                live = owner.LiveMatch(pk=match.pk)
                state, version = match.state, 0
                continue
            seat = actors[0]
            action = rnd.choice(engine.legal_action_ids(state, seat))
            c0, w0 = time.process_time(), time.perf_counter()
            if path == "locked":
                services.match_act(
                    match_id=match.pk,
                    user=users[seat],
                    action_id=action,
                    expected_version=version,
                )
            else:
                applied = owner.act_sync(live, users[seat], action, version)
                send(applied.messages)
            cpu += time.process_time() - c0
            wall += time.perf_counter() - w0
            version += 1
            state, _ = engine.apply(state, seat, action)
            done += 1
        Match.objects.filter(status=MatchStatus.ACTIVE).update(
            status=MatchStatus.ABORTED
        )
        return cpu, wall, done

    play("owner", 10)  # warm both paths (imports, connections)
    play("locked", 10)
    per: dict[str, list[tuple[float, float]]] = {"locked": [], "owner": []}
    for block in range(BLOCKS):
        for path in ("locked", "owner") if block % 2 else ("owner", "locked"):
            cpu, wall, n = play(path, MOVES_PER_BLOCK)
            per[path].append((1000 * cpu / n, 1000 * wall / n))
        log(
            f"block {block + 1}/{BLOCKS}: locked {per['locked'][-1][0]:.2f} ms CPU, "
            f"owner {per['owner'][-1][0]:.2f} ms CPU per move"
        )
    out = {"moves_per_block": MOVES_PER_BLOCK, "blocks": BLOCKS}
    for path, values in per.items():
        out[path] = {
            "cpu_ms_per_move_median": round(statistics.median(v[0] for v in values), 3),
            "cpu_ms_per_move_min": round(min(v[0] for v in values), 3),
            "wall_ms_per_move_median": round(
                statistics.median(v[1] for v in values), 3
            ),
        }
    out["cpu_ratio_owner_over_locked"] = round(
        out["owner"]["cpu_ms_per_move_median"]
        / out["locked"]["cpu_ms_per_move_median"],
        3,
    )
    return out


if __name__ == "__main__":
    main()
