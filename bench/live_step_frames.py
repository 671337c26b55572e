"""Python calls to build one Kung Fu (2009) step's frames, in-process.

``python bench/live_step_frames.py`` (well under a minute). What the live
owner does after each committed intent of an 8-seat real-time table, apart
from the database and the sockets: ``broadcast.match_messages`` for the step
(eight seat frames, the spectators' frame, the listeners' messages, each
encoded). The same seeded random intents (any seat, never ``pass``, never a
claim: its pause would stop the table) are applied in memory to a match
created and started through ``gameplay.services``, both players' presence
set, and the frames built for each step.

Reported: Python calls per step (Python and C functions, ``sys.setprofile``),
a count the machine's load does not move, so an A/B on a busy shared machine
still shows what a change removed, and the CPU milliseconds per step beside
it (with the counting hook on; ``LIVE_STEP_CPU=1``: CPU alone, no counting;
on a loaded machine indicative only). ``LIVE_STEP_STEPS`` (default 300),
``LIVE_STEP_SEEDS`` (default 3 tables). ``--no-menu-key``: the engine's
``menu_key`` hidden, so every seat's menu is built for every step (the
behaviour before ``frames.seat_menu``), for the A/B in one checkout.
``LIVE_STEP_CALLS_BY=<file>``: calls per function, top 150. The steps are
built as the live owner builds its own intents' (``quiet``: a seat the step
changed nothing for is sent no frame); ``--no-quiet`` builds every seat's
frame (the behaviour before, and still that of the services' broadcasts).
``seat_frames_per_step_mean``: the seat frames a step sends, each one a
socket write at a table whose eight seats are all connected. The last stdout
line is one JSON object.
"""

from __future__ import annotations

import itertools
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live_harness import run_in_process  # noqa: E402

STEPS = int(os.environ.get("LIVE_STEP_STEPS", "300"))
SEEDS = int(os.environ.get("LIVE_STEP_SEEDS", "3"))
CALLS_BY = os.environ.get("LIVE_STEP_CALLS_BY", "")
NO_MENU_KEY = "--no-menu-key" in sys.argv[1:]
QUIET = "--no-quiet" not in sys.argv[1:]
# "1": CPU time only, no call counting (the profile hook's own cost would
# swamp the difference).
CPU_ONLY = os.environ.get("LIVE_STEP_CPU", "") == "1"

_next_call = itertools.count().__next__
_by: Counter = Counter()


def _count(frame, event, arg) -> None:
    if event == "call" or event == "c_call":
        _next_call()


def _count_by(frame, event, arg) -> None:
    if event == "call":
        _next_call()
        code = frame.f_code
        _by[f"{code.co_filename}:{code.co_name}"] += 1
    elif event == "c_call":
        _next_call()
        _by[f"C:{getattr(arg, '__qualname__', arg)}"] += 1


def main() -> None:
    run_in_process("step-frames", measure)


def measure() -> dict[str, Any]:
    from datetime import timedelta

    from django.db.models import Prefetch
    from django.utils import timezone

    from accounts.models import User
    from gameplay import broadcast, services
    from gameplay.models import Match, Seat
    from gameplay.rules import get_game
    from gameplay.services import SeatSpec

    engine = get_game("kungfu2009")
    if NO_MENU_KEY:
        # An instance attribute shadows the method: ``getattr`` finds None.
        engine.menu_key = None  # type: ignore[attr-defined]
    users = [User.objects.create(username=f"step{i}") for i in range(8)]
    calls: list[float] = []
    cpu: list[float] = []
    sent: list[int] = []
    profile = _count_by if CALLS_BY else _count
    for seed in range(SEEDS):
        rnd = random.Random(seed)
        created = services.match_create(
            game="kungfu2009", seats=[SeatSpec(user=u) for u in users], config={}
        )
        started = services.match_start(match_id=created.pk, seed=1000 + seed)
        Seat.objects.filter(match=started).update(
            connected=1, seen_at=timezone.now() + timedelta(days=1)
        )
        seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
        match = Match.objects.prefetch_related(seats).get(pk=started.pk)
        broadcast.match_messages(match=match)  # the connect's frames
        for _ in range(STEPS):
            seat = rnd.choice(engine.actors(match.state) or [0])
            ids = [
                i
                for i in engine.legal_action_ids(match.state, seat)
                if i != "pass" and not i.startswith("claim:")
            ]
            if not ids:
                continue
            state, events = engine.apply(match.state, seat, rnd.choice(ids))
            if state is match.state:
                continue
            match.state, match.version = state, match.version + 1
            step = {"kind": "move", "seat": seat}
            c0, n0 = time.process_time(), _next_call()
            if not CPU_ONLY:
                sys.setprofile(profile)
            (_, message), *_ = broadcast.match_messages(
                match=match, events=events, step=step, quiet=QUIET
            )
            sys.setprofile(None)
            sent.append(sum(1 for text in message["frames"].values() if text))
            calls.append(_next_call() - n0 - 1)
            cpu.append(time.process_time() - c0)
    if CALLS_BY:
        prefix = str(ROOT) + "/"
        with open(CALLS_BY, "w") as out_file:
            out_file.write(f"{len(calls)} (steps)\n")
            for name, n in _by.most_common(150):
                out_file.write(f"{n} {name.replace(prefix, '')}\n")
    return {
        "game": "kungfu2009",
        "seats": 8,
        "menu_key": not NO_MENU_KEY,
        "quiet": QUIET,
        "steps": len(calls),
        "calls_per_step_median": None if CPU_ONLY else statistics.median(calls),
        "calls_per_step_mean": None if CPU_ONLY else round(statistics.fmean(calls), 1),
        "cpu_ms_per_step_median": round(1000 * statistics.median(cpu), 3),
        "seat_frames_per_step_mean": round(statistics.fmean(sent), 2),
    }


if __name__ == "__main__":
    main()
