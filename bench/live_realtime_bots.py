"""Benchmark of uploaded bots at live real-time tables (``bots.realtime_tables``).

A bots worker holds one sandboxed process per uploaded seat of a live Kung Fu
(2009) table for the match and asks them at every wall-clock tick. This
plays tables of a "person" (random intents every third tick through
``match_act``), ``k`` copies of the example bot and one built-in heuristic,
tick after tick without waiting for the wall clock, and measures what a
worker spends: opening the table (``k`` sandboxes started and greeted), one
tick (every uploaded seat asked in parallel and the tick's intents in through
``match_system_intents``), one bot's answer (act to answer line), and
closing (game_over, sandboxes torn down, logs written).

Run with no arguments (``python bench/live_realtime_bots.py``, about two
minutes on the shared machine); the last stdout line is one JSON object per
``k`` with ``tick_median_ms``/``tick_p95_ms`` (target: well inside the 1 s
tick, <= 100 ms p95 at k = 1), ``answer_median_ms``, ``open_ms``,
``close_ms``, ``ticks`` and ``applied``. Same throw-away database and
in-memory layers as ``bench/bot_matches.py``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TICKS = 300
UPLOADED = (1, 3, 6)
TARGETS = {"tick_p95_ms_at_1": 100}


def _bot_matches_bench():
    spec = importlib.util.spec_from_file_location(
        "bench_bot_matches", ROOT / "bench" / "bot_matches.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * q) - 1)]


def run(uploaded: int, version, person) -> dict[str, float]:
    from bots import realtime_tables
    from gameplay import services as gs
    from gameplay.errors import MatchError
    from gameplay.models import MatchStatus
    from gameplay.rules import get_game
    from gameplay.rules.ticks import PASS
    from gameplay.services import SeatSpec

    engine = get_game("kungfu2009")
    match = gs.match_create(
        game="kungfu2009",
        seats=[
            SeatSpec(user=person),
            *[SeatSpec(agent=version.agent) for _ in range(uploaded)],
            SeatSpec(agent="builtin:heuristic"),
        ],
        config={},
    )
    match = gs.match_start(match_id=match.pk)
    rng = random.Random(uploaded)
    table = realtime_tables.LiveRealtimeTable(match_id=match.pk)
    started = time.perf_counter()
    assert table.open()
    open_s = time.perf_counter() - started
    agents = [held.agent for held in table.seats.values()]
    ticks: list[float] = []
    applied = 0
    try:
        for tick in range(1, TICKS + 1):
            started = time.perf_counter()
            report = table.tick(tick)
            if report is None:
                break
            if report.asked:
                ticks.append(time.perf_counter() - started)
            applied += report.applied
            gs.match_realtime_bots_tick(match_id=match.pk, tick=tick)
            match.refresh_from_db()
            if match.status != MatchStatus.ACTIVE:
                break
            if tick % 3 == 0:
                options = [
                    a for a in engine.legal_action_ids(match.state, 0) if a != PASS
                ]
                if options:
                    with contextlib.suppress(MatchError):
                        gs.match_act(
                            match_id=match.pk,
                            user=person,
                            action_id=rng.choice(options),
                        )
            assert match.started_at is not None  # an active match has started
            gs.match_apply_timers(
                match_id=match.pk, now=match.started_at + timedelta(seconds=tick)
            )
    finally:
        started = time.perf_counter()
        table.close()
        close_s = time.perf_counter() - started
    decisions = sum(a.log.decisions for a in agents)
    think = sum(a.log.think_s for a in agents)
    return {
        "uploaded": uploaded,
        "tick_median_ms": round(statistics.median(ticks) * 1000, 1),
        "tick_p95_ms": round(_pct(ticks, 0.95) * 1000, 1),
        "answer_mean_ms": round(think / max(1, decisions) * 1000, 2),
        "open_ms": round(open_s * 1000, 1),
        "close_ms": round(close_s * 1000, 1),
        "ticks": len(ticks),
        "decisions": decisions,
        "applied": applied,
        "faults": sum(bool(a.log.fault) for a in agents),
    }


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-live-rt-"))
    tmp.chmod(0o755)
    try:
        bot_matches = _bot_matches_bench()
        _, status = bot_matches.sandboxed_django(tmp)
        from tests.factories import UserFactory

        source = (ROOT / "bots/examples/kungfu2009_collector.py").read_bytes()
        version = bot_matches.active_bot(
            owner=UserFactory(username="bench-author"),
            game="kungfu2009",
            name="collector",
            filename="main.py",
            source=source,
        )
        person = UserFactory(username="bench-person")
        results = []
        for uploaded in UPLOADED:
            result = run(uploaded, version, person)
            results.append(result)
            print(
                f"{uploaded} uploaded: tick {result['tick_median_ms']} ms median, "
                f"{result['tick_p95_ms']} ms p95; answer {result['answer_mean_ms']} "
                f"ms mean; open {result['open_ms']} ms, close {result['close_ms']} ms"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(
        json.dumps({"results": results, "targets": TARGETS, "sandbox": status.reason})
    )


if __name__ == "__main__":
    main()
