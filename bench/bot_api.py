"""Benchmark of the bot account API's server side: a move, a stream's poll.

A connected bot costs the server three things (docs/protocol/bot-api.md):

* ``act_*_ms``: ``POST /api/bot/game/<match>/act`` through the whole stack
  in process (bot-token authentication, the per-token throttle, the move
  rule and the write), over complete Duelo matches against a "person" who
  plays first legal moves through ``match_act``; ``service_act_median_ms``
  is that person's ``match_act`` alone, so the difference is the API's own
  cost;
* ``state_line_*_ms``: building the ``gameState`` line a game stream sends
  after a change (the seat's view, legal actions, events since the last
  line): ``bots.connected.game_poll``;
* ``version_poll_*_us`` and ``event_poll_*_us``: what an open stream does
  every ``BOT_API_POLL_SECONDS`` while nothing changes (one cheap read of the
  match's version; the event stream's two reads of challenges and seats).

The network is left out (it is the client's): this is what one web
process spends per move and per poll, and so how many bots one process can
hold open. Run with no arguments (``python bench/bot_api.py``, about 20 s);
the last stdout line is one JSON object. Same throw-away database and
in-memory layers as ``bench/bot_matches.py``; no sandbox needed.
"""

from __future__ import annotations

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

MATCHES = 20
POLLS = 2000


def _setup(tmp: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "bench_bot_matches", ROOT / "bench" / "bot_matches.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.setup_django(tmp)
    from django.conf import settings

    settings.BOT_API_THROTTLE = "1000000/min"  # measure the work, not the limit
    settings.ALLOWED_HOSTS = ["*"]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run() -> dict[str, float]:
    from rest_framework.test import APIClient

    from bots import connected
    from gameplay.models import Match
    from gameplay.rules import get_game
    from gameplay.services import SeatSpec, match_act, match_create, match_start
    from tests.factories import UserFactory

    owner = UserFactory(username="bench-owner")
    person = UserFactory(username="bench-person")
    issued = connected.bot_account_create(owner=owner, name="benchbot", game="duelo")
    account = issued.token.account
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {issued.key}")
    engine = get_game("duelo")
    acts: list[float] = []
    person_acts: list[float] = []
    lines: list[float] = []
    for index in range(MATCHES):
        seats = [SeatSpec(user=account.user), SeatSpec(user=person)]
        if index % 2:
            seats.reverse()
        match = match_create(game="duelo", seats=seats)
        match_start(match_id=match.pk)
        mine = 0 if index % 2 == 0 else 1
        url = f"/api/bot/game/{match.public_id}/act"
        seen = 0
        while True:
            match = Match.objects.get(pk=match.pk)
            if match.is_over:
                break
            start = time.perf_counter()
            connected.game_poll(
                match_id=match.pk, user_id=account.user.pk, after_version=seen
            )
            lines.append(time.perf_counter() - start)
            seen = match.version
            actors = engine.actors(match.state)
            if mine in actors:
                action = engine.legal_actions(match.state, mine)[-1]["id"]
                start = time.perf_counter()
                answer = client.post(
                    url, {"action": action, "version": match.version}, format="json"
                )
                acts.append(time.perf_counter() - start)
                assert answer.status_code == 200, answer.content
            else:
                action = engine.legal_actions(match.state, actors[0])[0]["id"]
                start = time.perf_counter()
                match_act(match_id=match.pk, user=person, action_id=action)
                person_acts.append(time.perf_counter() - start)
    # An open stream's idle polls.
    live = match_create(
        game="duelo", seats=[SeatSpec(user=account.user), SeatSpec(user=person)]
    )
    match_start(match_id=live.pk)
    versions, events = [], []
    cursor = connected.EventCursor()
    connected.event_poll(account=account, cursor=cursor)
    for _ in range(POLLS):
        start = time.perf_counter()
        connected.match_version(match_id=live.pk)
        versions.append(time.perf_counter() - start)
        start = time.perf_counter()
        connected.event_poll(account=account, cursor=cursor)
        events.append(time.perf_counter() - start)
    return {
        "act_median_ms": statistics.median(acts) * 1000,
        "act_p95_ms": _percentile(acts, 0.95) * 1000,
        "service_act_median_ms": statistics.median(person_acts) * 1000,
        "state_line_median_ms": statistics.median(lines) * 1000,
        "state_line_p95_ms": _percentile(lines, 0.95) * 1000,
        "version_poll_median_us": statistics.median(versions) * 1e6,
        "event_poll_median_us": statistics.median(events) * 1e6,
        "moves": len(acts),
        "lines": len(lines),
    }


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-bot-api-"))
    try:
        _setup(tmp)
        result = run()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(
        f"bot API move      {result['act_median_ms']:7.2f} ms median, "
        f"{result['act_p95_ms']:.2f} ms p95 over {result['moves']} moves "
        f"(the move service alone: {result['service_act_median_ms']:.2f} ms)"
    )
    print(
        f"game stream line  {result['state_line_median_ms']:7.2f} ms median, "
        f"{result['state_line_p95_ms']:.2f} ms p95"
    )
    print(
        f"idle polls        {result['version_poll_median_us']:7.0f} us (game), "
        f"{result['event_poll_median_us']:.0f} us (events)"
    )
    print(
        json.dumps(
            {key: round(value, 2) for key, value in result.items()}
            | {
                "matches": MATCHES,
                "polls": POLLS,
            }
        )
    )


if __name__ == "__main__":
    main()
