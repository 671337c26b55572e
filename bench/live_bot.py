"""Benchmark of uploaded bots in live matches with people: one decision's latency.

In a match with a person, each decision of an uploaded bot starts the bot in
the sandbox, says hello, sends one ``act`` with every event since the deal,
submits the answer through the match services and closes the sandbox
(``bots.live_turns``). This measures that whole step as a bots worker does it, for
the example heuristic bot, over complete Duelo matches against a "person"
who plays first legal moves through ``match_act``.

Run with no arguments (``python bench/live_bot.py``, about a minute); the last
stdout line is one JSON object with ``answer_median_ms`` and
``answer_p95_ms``, from starting the bot to its move being in (targets <= 250
and <= 500 ms: a person waits this long for the bot's move, and the table
paces bot moves for people to follow anyway), ``decision_*_ms`` (the whole
step, sandbox clean-up included: what a worker slot spends), ``decisions``
and ``matches``. Same throw-away database and in-memory layers as
``bench/bot_matches.py``.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MATCHES = 12
TARGETS = {"answer_median_ms": 250, "answer_p95_ms": 500}


@functools.cache
def _bot_matches_bench():
    spec = importlib.util.spec_from_file_location(
        "bench_bot_matches", ROOT / "bench" / "bot_matches.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(count: int) -> dict[str, float]:
    from bots import live_turns
    from gameplay import services as match_services
    from gameplay.models import Match
    from gameplay.rules import get_game
    from gameplay.services import SeatSpec
    from tests.factories import UserFactory

    author = UserFactory(username="bench-author")
    person = UserFactory(username="bench-person")
    source = (ROOT / "bots" / "examples" / "duelo_heuristic.py").read_bytes()
    version = _bot_matches_bench().active_bot(
        owner=author, game="duelo", name="live", filename="main.py", source=source
    )
    engine = get_game("duelo")
    timings: list[float] = []
    answers: list[float] = []
    faults = 0
    for index in range(count):
        seats = [SeatSpec(user=person), SeatSpec(agent=version.agent)]
        if index % 2:
            seats.reverse()
        match = match_services.match_create(game="duelo", seats=seats)
        match_services.match_start(match_id=match.pk)
        mine = 0 if index % 2 == 0 else 1
        while True:
            match = Match.objects.get(pk=match.pk)
            if match.is_over:
                faults += match.end_reason != "completed"
                break
            actors = engine.actors(match.state)
            if mine in actors:
                match_services.match_act(
                    match_id=match.pk,
                    user=person,
                    action_id=engine.legal_action_ids(match.state, mine)[0],
                    expected_version=match.version,
                )
                continue
            seat = match.seats.get(number=actors[0])
            started = time.perf_counter()
            turn = live_turns.bot_live_decide(match=match, seat=seat)
            timings.append(time.perf_counter() - started)
            if turn is not None and turn.answer_s is not None:
                answers.append(turn.answer_s)
    timings.sort()
    answers.sort()
    return {
        "answer_median_ms": statistics.median(answers) * 1000,
        "answer_p95_ms": answers[int(len(answers) * 0.95) - 1] * 1000,
        "decision_median_ms": statistics.median(timings) * 1000,
        "decision_p95_ms": timings[int(len(timings) * 0.95) - 1] * 1000,
        "decisions": len(timings),
        "faulted_matches": faults,
    }


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-live-bot-"))
    tmp.chmod(0o755)
    try:
        _, status = _bot_matches_bench().sandboxed_django(tmp)
        result = run(MATCHES)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(
        f"live bot move in  {result['answer_median_ms']:7.1f} ms median, "
        f"{result['answer_p95_ms']:.1f} ms p95 (what the person waits)"
    )
    print(
        f"live bot decision {result['decision_median_ms']:7.1f} ms median, "
        f"{result['decision_p95_ms']:.1f} ms p95 over {result['decisions']} decisions"
    )
    print(
        json.dumps(
            {
                "answer_median_ms": round(result["answer_median_ms"], 1),
                "answer_p95_ms": round(result["answer_p95_ms"], 1),
                "decision_median_ms": round(result["decision_median_ms"], 1),
                "decision_p95_ms": round(result["decision_p95_ms"], 1),
                "decisions": result["decisions"],
                "faulted_matches": result["faulted_matches"],
                "matches": MATCHES,
                "sandbox": status.reason,
                "targets": TARGETS,
            }
        )
    )


if __name__ == "__main__":
    main()
