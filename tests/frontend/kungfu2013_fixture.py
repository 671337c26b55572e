"""Build tests/frontend/fixtures/kungfu2013.json: real engine frames for the
board's node tests (one seat frame per phase, every event type, and one action
per kind of label: tests/frontend/label_kinds.py).

Run ``python -m tests.frontend.kungfu2013_fixture`` after changing the engine's
observation or events; tests/frontend/test_kungfu2013_fixture.py fails when the
committed file is stale.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from gameplay.rules import get_game
from gameplay.rules.kungfu2013.engine import ACTION_INFO
from tests.frontend import label_kinds

OUT = Path(__file__).parent / "fixtures" / "kungfu2013.json"


def build() -> dict:
    game = get_game("kungfu2013")
    frames: dict[str, dict] = {}
    events: dict[str, dict] = {}
    seats = [{"name": "Ana"}, {"name": "Bo"}]
    for seed in range(60):
        rnd = random.Random(seed)
        state = game.setup({"start": 0}, seed)
        version = 0
        while not game.is_over(state):
            seat = game.actors(state)[0]
            phase = state["phase"]
            if phase not in frames:
                frames[phase] = {
                    "type": "state",
                    "status": "active",
                    "version": version,
                    "seat": seat,
                    "seats": seats,
                    "view": game.observe(state, seat),
                    "legal": game.legal_actions(state, seat),
                    "events": [],
                }
            ids = game.legal_action_ids(state, seat)
            state, evs = game.apply(state, seat, ids[rnd.randrange(len(ids))])
            version += 1
            for ev in evs:
                events.setdefault(ev["type"], ev)
        if len(frames) >= 9 and len(events) >= 24:  # every event type
            break
    # One action per kind of label, from the engine's catalogue of every id.
    labels: dict[str, dict] = {}
    label_kinds.collect(labels, ACTION_INFO.values())
    return {
        "seat_frames": frames,
        "events": events,
        "labels": label_kinds.ordered(labels),
    }


def main() -> None:
    OUT.write_text(json.dumps(build(), indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
