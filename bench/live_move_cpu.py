"""Server CPU of one live move, the old path against the owner path, in-process.

``python bench/live_move_cpu.py`` (about a minute). What a web process spends
to take one move and hand its frames to the channel layer, without sockets:

* ``locked``: ``services.match_act`` (row lock, re-read of the match and its
  seats, log insert, match update) with its after-commit broadcast
  (``broadcast.match_changed``: two more reads, the frames, the publishes):
  what every move cost before ``gameplay.live``.
* ``owner``: ``gameplay.live.owner.act_sync`` on the copy the process holds
  (one round trip) and the same frames sent with ``broadcast.send_messages``
  (from a fresh event loop per call: ``async_to_sync`` starts a thread each
  time, which the server does not).
* ``sockets``: what the server does for a move end to end, in one event loop:
  both players' sockets are the real ``MatchConsumer`` behind the server's
  WebSocket stack (Channels' ``WebsocketCommunicator`` with the page's
  Origin and the player's session cookie), the actor sends ``act``,
  and the move counts once its ``ack`` and both seats' state frames have
  reached the sockets' output queues: the owner's move, the publishes, the
  channel layer's receive and fan-out, each consumer's send. The clients'
  share (encoding ``act``, decoding the frames) is in the figure too, a few
  tens of microseconds. Each socket's connect is measured apart
  (``cpu_ms_connect_median``: from the handshake through its first state
  frame: the origin check, the session cookie's user (since 2026-12-05;
  before, the user was put in the scope), the match and seat lookup, the
  seat counted, the read, the frame, the table's presence broadcast), and so
  is its close at the end of a game (``cpu_ms_close_median``, closes of
  finished games: through the end of its consumer: the seat counted out,
  the table's broadcast built and sent).

Both run the same seeded games on the same database and Redis, interleaved in
blocks so that the machine's load falls on both alike; CPU is the process's
own (``time.process_time``), wall time beside it. Database: a dedicated one
created and dropped on ``DATABASE_URL``'s PostgreSQL (else a temporary SQLite
file); channel layer: ``REDIS_URL`` database 15 (else the embedded Redis).
The last stdout line is one JSON object.

``LIVE_MOVE_COUNT_CALLS=1`` counts Python function calls instead of CPU time
(the figures are then thousands of calls): a measure a loaded machine does
not move, for A/B runs of a change on a shared machine.

A profile of where a path's CPU goes (every thread: the event loop, the
database threads): ``LIVE_MOVE_PATHS=sockets py-spy record -r 250 -f raw -o
out.txt -- python bench/live_move_cpu.py`` (py-spy counts only threads on a
CPU, not ones waiting for PostgreSQL or Redis).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live_harness import log, run_in_process, users_with_sessions  # noqa: E402

BLOCKS = int(os.environ.get("LIVE_MOVE_BLOCKS", "12"))
MOVES_PER_BLOCK = 40
# The paths to measure, in order ("owner" alone for a quick check).
PATHS = tuple(os.environ.get("LIVE_MOVE_PATHS", "locked,owner,sockets").split(","))
# "1": count Python function calls (Python and C functions, every thread)
# instead of measuring CPU time. The count does not depend on the machine's
# load, so an A/B on a busy shared machine still shows what a change removed;
# the "cpu_ms" figures are then thousands of calls (``unit`` in the output).
COUNT_CALLS = os.environ.get("LIVE_MOVE_COUNT_CALLS", "") == "1"
# With COUNT_CALLS: a file to write the calls per function of the sockets
# path's single moves to (summed; the top 300, "calls module:function" per
# line, "(moves)" their number), to see which code a change removed; the last
# moves of games (the finish) go to the same name with ".last" appended, the
# sockets' connects (through the first state frame) to ".connect", their
# closes to ".close".
CALLS_BY = os.environ.get("LIVE_MOVE_CALLS_BY", "")
_next_call = itertools.count().__next__
# The current move's calls per function (None: not in a move, not counted).
_calls_by: list[Counter | None] = [None]
_single_calls_by: Counter = Counter()  # summed over the single moves
_last_calls_by: Counter = Counter()  # summed over the last moves of games
_connect_calls_by: Counter = Counter()  # summed over the sockets' connects
_close_calls_by: Counter = Counter()  # summed over the sockets' closes


def _count_call(frame, event, arg) -> None:
    if event == "call" or event == "c_call":
        _next_call()  # atomic under the GIL, unlike ``n += 1``


def _count_call_by(frame, event, arg) -> None:
    if event == "call":
        _next_call()
        by = _calls_by[0]
        if by is not None:
            code = frame.f_code
            by[f"{code.co_filename}:{code.co_name}"] += 1
    elif event == "c_call":
        _next_call()
        by = _calls_by[0]
        if by is not None:
            by[f"C:{getattr(arg, '__qualname__', arg)}"] += 1


def cpu_clock() -> float:
    """Seconds of process CPU, or (``COUNT_CALLS``) millions of calls so far."""
    if COUNT_CALLS:
        return _next_call() / 1e6
    return time.process_time()


def main() -> None:
    run_in_process("move-cpu", measure)


def measure() -> dict:
    from datetime import timedelta

    from asgiref.sync import async_to_sync
    from django.utils import timezone

    from gameplay import broadcast, services
    from gameplay.live import owner
    from gameplay.models import Match, MatchStatus, Seat
    from gameplay.rules import get_game
    from gameplay.services import SeatSpec

    engine = get_game("duelo")
    # Each with a session: the sockets path connects through the server's
    # own WebSocket stack (origin check, the session cookie's user).
    users, session_keys = users_with_sessions("cpu", 2)
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

    # Each move's own CPU, by (path, whether it ended the game): the median
    # of single moves shrugs off the machine's load far better than a block's
    # mean, and the last move of a game (the locked service, the finish) costs
    # many times an ordinary one, so it is reported apart as well.
    single: dict[tuple[str, bool], list[float]] = defaultdict(list)
    # The sockets path's connects (CPU of one socket's connect and first frame)
    # and closes (through the end of its consumer).
    connects: list[float] = []
    closes: list[float] = []

    def play(path: str, moves: int) -> tuple[float, float, int]:
        if path == "sockets":
            return async_to_sync(play_sockets)(moves)
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
            c0, w0 = cpu_clock(), time.perf_counter()
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
            spent = cpu_clock() - c0
            cpu += spent
            wall += time.perf_counter() - w0
            version += 1
            state, _ = engine.apply(state, seat, action)
            single[path, not engine.actors(state)].append(spent)
            done += 1
        Match.objects.filter(status=MatchStatus.ACTIVE).update(
            status=MatchStatus.ABORTED
        )
        return cpu, wall, done

    async def play_sockets(moves: int) -> tuple[float, float, int]:
        from unittest import mock

        from channels.db import database_sync_to_async
        from channels.testing import WebsocketCommunicator

        from config.asgi import application
        from gameplay import consumers

        # The server's WebSocket stack: origin check, the session cookie's
        # user, the router (its HTTP side is not used).
        app = application.application_mapping["websocket"]

        async def state_at(comm, version: int) -> None:
            while True:
                message = await asyncio.wait_for(comm.output_queue.get(), 30)
                frame = json.loads(message["text"])
                if frame["type"] == "error":
                    raise RuntimeError(f"move refused: {frame}")
                if frame["type"] == "state" and frame["version"] >= version:
                    return

        async def ack(comm) -> bool:
            """Whether the ack came folded into the mover's state frame."""
            while True:
                message = await asyncio.wait_for(comm.output_queue.get(), 30)
                frame = json.loads(message["text"])
                if frame["type"] == "error":
                    raise RuntimeError(f"move refused: {frame}")
                if frame["type"] == "ack":
                    return False
                if frame["type"] == "state" and frame.get("ack") is True:
                    return True

        done = 0
        cpu = wall = 0.0
        # Machine speed is far above the socket rate limit meant for people.
        with mock.patch.multiple(consumers, RATE_PER_SECOND=1e9, RATE_BURST=1e9):
            while done < moves:
                match = await database_sync_to_async(new_match)()
                socks = []
                for key in session_keys:
                    # A socket's connect, through its first state frame (the
                    # other socket's presence frame is not waited for).
                    _calls_by[0] = Counter() if CALLS_BY else None
                    c0 = cpu_clock()
                    comm = WebsocketCommunicator(
                        app,
                        f"/ws/match/{match.public_id}/",
                        headers=[
                            (b"host", b"127.0.0.1"),
                            (b"origin", b"http://127.0.0.1"),
                            (b"cookie", f"sessionid={key}".encode()),
                        ],
                    )
                    connected, _ = await comm.connect()
                    assert connected
                    await state_at(comm, 0)
                    connects.append(cpu_clock() - c0)
                    connect_calls, _calls_by[0] = _calls_by[0], None
                    if connect_calls is not None:
                        _connect_calls_by.update(connect_calls)
                        _connect_calls_by["(connects)"] += 1
                    socks.append(comm)
                state, version = match.state, 0
                while done < moves and engine.actors(state):
                    seat = engine.actors(state)[0]
                    action = rnd.choice(engine.legal_action_ids(state, seat))
                    _calls_by[0] = Counter() if CALLS_BY else None
                    c0, w0 = cpu_clock(), time.perf_counter()
                    await socks[seat].send_to(
                        text_data=json.dumps(
                            {
                                "type": "act",
                                "action": action,
                                "version": version,
                                "ack": "state",
                            }
                        )
                    )
                    folded = await ack(socks[seat])
                    version += 1
                    for number, comm in enumerate(socks):
                        if not (folded and number == seat):
                            await state_at(comm, version)
                    spent = cpu_clock() - c0
                    cpu += spent
                    wall += time.perf_counter() - w0
                    state, _ = engine.apply(state, seat, action)
                    single["sockets", not engine.actors(state)].append(spent)
                    move_calls, _calls_by[0] = _calls_by[0], None
                    if move_calls is not None:
                        into = _single_calls_by if engine.actors(state) else None
                        into = _last_calls_by if into is None else into
                        into.update(move_calls)
                        into["(moves)"] += 1
                    done += 1
                over = not engine.actors(state)
                for comm in socks:
                    # A socket's close, through the end of its consumer: the
                    # seat counted out and the table's broadcast built and sent.
                    # Counted for finished games only (as players leave them;
                    # a block that ends mid-game closes on the locked path).
                    _calls_by[0] = Counter() if CALLS_BY and over else None
                    c0 = cpu_clock()
                    await comm.disconnect()
                    if over:
                        closes.append(cpu_clock() - c0)
                    close_calls, _calls_by[0] = _calls_by[0], None
                    if close_calls is not None:
                        _close_calls_by.update(close_calls)
                        _close_calls_by["(closes)"] += 1
        await database_sync_to_async(
            Match.objects.filter(status=MatchStatus.ACTIVE).update
        )(status=MatchStatus.ABORTED)
        return cpu, wall, done

    if COUNT_CALLS:
        import threading

        counter = _count_call_by if CALLS_BY else _count_call
        threading.setprofile(counter)  # the threads started from now on
        sys.setprofile(counter)
    for path in PATHS:
        play(path, 10)  # warm the paths (imports, connections)
    per: dict[str, list[tuple[float, float]]] = {path: [] for path in PATHS}
    for block in range(BLOCKS):
        for path in PATHS if block % 2 else PATHS[::-1]:
            cpu, wall, n = play(path, MOVES_PER_BLOCK)
            per[path].append((1000 * cpu / n, 1000 * wall / n))
        log(
            f"block {block + 1}/{BLOCKS}: "
            + ", ".join(f"{p} {per[p][-1][0]:.2f}" for p in PATHS)
            + " ms CPU per move"
        )
    if COUNT_CALLS:
        sys.setprofile(None)
        threading.setprofile(None)
        if CALLS_BY:
            prefix = str(ROOT) + "/"
            for path, by in (
                (CALLS_BY, _single_calls_by),
                (CALLS_BY + ".last", _last_calls_by),
                (CALLS_BY + ".connect", _connect_calls_by),
                (CALLS_BY + ".close", _close_calls_by),
            ):
                with open(path, "w") as out_file:
                    top = None if by in (_connect_calls_by, _close_calls_by) else 300
                    for name, calls in by.most_common(top):
                        out_file.write(f"{calls} {name.replace(prefix, '')}\n")
    out: dict[str, Any] = {"moves_per_block": MOVES_PER_BLOCK, "blocks": BLOCKS}
    if COUNT_CALLS:
        out["unit"] = "thousands of Python calls, not ms (LIVE_MOVE_COUNT_CALLS)"
    for key in single:
        single[key] = single[key][len(single[key]) // 10 :]  # the warm-up's
    for path, values in per.items():
        out[path] = {
            "cpu_ms_per_move_median": round(statistics.median(v[0] for v in values), 3),
            "cpu_ms_per_move_min": round(min(v[0] for v in values), 3),
            "wall_ms_per_move_median": round(
                statistics.median(v[1] for v in values), 3
            ),
            "cpu_ms_single_move_median": _median_ms(single[path, False]),
            "cpu_ms_last_move_median": _median_ms(single[path, True]),
            "last_moves": len(single[path, True]),
        }
    if "sockets" in out:
        out["sockets"]["cpu_ms_connect_median"] = _median_ms(
            connects[len(connects) // 10 :]
        )
        out["sockets"]["connects"] = len(connects)
        out["sockets"]["cpu_ms_close_median"] = _median_ms(closes[len(closes) // 10 :])
        out["sockets"]["closes"] = len(closes)
    if "owner" in per and "locked" in per:
        out["cpu_ratio_owner_over_locked"] = round(
            out["owner"]["cpu_ms_per_move_median"]
            / out["locked"]["cpu_ms_per_move_median"],
            3,
        )
    return out


def _median_ms(values: list[float]) -> float | None:
    return round(1000 * statistics.median(values), 3) if values else None


if __name__ == "__main__":
    main()
