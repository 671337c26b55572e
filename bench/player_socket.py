"""Benchmark of what bringing players to their games adds to live play.

Run with no arguments (``python bench/player_socket.py``); about a minute, on
a temporary SQLite file and a private embedded Redis (the real channel layer),
leaving nothing behind. Progress goes to stderr; the last stdout line is one
JSON object with:

``broadcast_*_ms``   median and p99 of ``broadcast.match_changed`` for one move
                     of a two-player game (what every move costs the mover's
                     database thread), ``bare`` without any listener,
                     ``at_table`` with the listeners and both players connected
                     to the table (the usual live game: two ``turn`` frames, no
                     query), ``away`` with the listeners and both players away
                     (the "your move" check: one query per broadcast once the
                     notification exists), ``away_bare`` the same seats without
                     listeners (what the match's own frames cost then);
``hello_*_ms``       the player socket's ``hello`` (and the badge's query) for a
                     player with 10 games in play;
``listener_overhead_*_ms``  with minus without the listeners, medians.

Runs are interleaved in blocks so that the shared machine's noise spreads over
all variants alike.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from config.embedded_redis import EmbeddedRedis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BLOCKS = 20
PER_BLOCK = 25
GAMES = 10


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def setup() -> tuple[tempfile.TemporaryDirectory, EmbeddedRedis | None]:
    tmp = tempfile.TemporaryDirectory(prefix="kfa-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp.name}/bench.sqlite3"
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    started = settings.USING_EMBEDDED_REDIS and settings.EMBEDDED_REDIS.start()
    connection.settings_dict["CONN_MAX_AGE"] = None
    call_command("migrate", verbosity=0)
    return tmp, (settings.EMBEDDED_REDIS if started else None)


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def p99(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.99) - 1]


def main() -> None:
    tmp, redis = setup()
    try:
        from accounts.models import User
        from gameplay import broadcast, services
        from gameplay.models import Match, MatchAction, Seat
        from notifications.consumers import hello_frame

        users = [
            User.objects.create_user(username=f"b{i}", password="x") for i in range(12)
        ]
        match = services.match_create(
            game="duelo", seats=[services.SeatSpec(user=u) for u in users[:2]]
        )
        services.match_start(match_id=match.pk)
        match = Match.objects.get(pk=match.pk)
        seat, action = 0, None
        from gameplay.rules import get_game

        engine = get_game("duelo")
        seat = engine.actors(match.state)[0]
        action = engine.legal_action_ids(match.state, seat)[0]
        services.match_act(match_id=match.pk, user=users[seat], action_id=action)
        match = Match.objects.get(pk=match.pk)
        events = MatchAction.objects.get(match=match, version=match.version).events
        for i in range(GAMES):  # the hello player's games in play
            other = services.match_create(
                game="duelo",
                seats=[
                    services.SeatSpec(user=users[2]),
                    services.SeatSpec(user=users[3 + i % 9]),
                ],
            )
            services.match_start(match_id=other.pk)

        def move() -> None:
            broadcast.match_changed(
                match_id=match.pk,
                state=match.state,
                events=events,
                version=match.version,
            )

        listeners = list(broadcast._listeners)
        samples: dict[str, list[float]] = {
            "bare": [],
            "at_table": [],
            "away_bare": [],
            "away": [],
        }
        move()  # warm up: the "your move" notification now exists
        log(f"{BLOCKS} blocks of {PER_BLOCK} broadcasts per variant")
        for _ in range(BLOCKS):
            broadcast._listeners[:] = []
            samples["bare"] += timed(move, PER_BLOCK)
            broadcast._listeners[:] = listeners
            Seat.objects.filter(match=match).update(connected=1)
            samples["at_table"] += timed(move, PER_BLOCK)
            Seat.objects.filter(match=match).update(connected=0)
            samples["away"] += timed(move, PER_BLOCK)
            broadcast._listeners[:] = []
            samples["away_bare"] += timed(move, PER_BLOCK)
            broadcast._listeners[:] = listeners
            Seat.objects.filter(match=match).update(connected=1)
        hello = timed(lambda: hello_frame(user=users[2]), BLOCKS * PER_BLOCK)
        out: dict[str, Any] = {}
        for name, values in samples.items():
            out[f"broadcast_{name}_median_ms"] = round(statistics.median(values), 3)
            out[f"broadcast_{name}_p99_ms"] = round(p99(values), 3)
        out["listener_overhead_at_table_ms"] = round(
            out["broadcast_at_table_median_ms"] - out["broadcast_bare_median_ms"], 3
        )
        out["listener_overhead_away_ms"] = round(
            out["broadcast_away_median_ms"] - out["broadcast_away_bare_median_ms"], 3
        )
        out["hello_median_ms"] = round(statistics.median(hello), 3)
        out["hello_p99_ms"] = round(p99(hello), 3)
        out["hello_games"] = GAMES
        out["samples_per_variant"] = BLOCKS * PER_BLOCK
        out["load_avg_1m"] = round(os.getloadavg()[0], 1)
        out["database"] = "sqlite"
    finally:
        from django.db import connections

        connections.close_all()
        if redis is not None:
            redis.stop()
            shutil.rmtree(redis.directory, ignore_errors=True)
        tmp.cleanup()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
