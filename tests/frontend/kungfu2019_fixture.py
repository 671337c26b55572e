"""Kung Fu (2019)'s node test fixture, built from the engine.

``fixtures/kungfu2019.json``: real engine frames for the board's node tests
  (tests/frontend/kungfu2019.test.js): one seat frame per decision (draft pick,
  card commit, the dice tray with and without a set being built, a die that can
  be turned), a seat waiting on the others, a spectator mid-fight, a 2-player
  fight against the dummy, one event of every type, and one action per kind of
  label the games met (tests/frontend/label_kinds.py). The card data the board
  draws from is the site's own (``manage.py build_board_data``).

Run ``python -m tests.frontend.kungfu2019_fixture`` after changing the cards,
the engine's observation or its events; tests/frontend/test_kungfu2019_fixture.py
fails when the committed fixture is stale.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from gameplay.rules.kungfu2019 import KungFu2019Game
from tests.frontend import label_kinds

OUT = Path(__file__).parent / "fixtures" / "kungfu2019.json"
NAMES = ["Ana", "Bo", "Chen", "Dara", "Eli"]
# Seat frames the node tests look at; games are played until all have been seen.
REQUIRED = {
    "draft",
    "play",
    "assign",
    "assign_open",
    "assign_adjust",
    "waiting",
    "play_more",
    "draft_waiting",
    "assign_done",
    "spectator",
    "dummy",
}


def _frame(game, state, seat, version: int, events=None) -> dict[str, Any]:
    n = state["n"]
    actors = game.actors(state)
    return {
        "type": "state",
        "status": "active",
        "version": version,
        "seat": seat,
        "seats": [{"name": NAMES[i]} for i in range(n)],
        "view": game.observe(state, seat),
        "actors": actors,
        "legal": game.legal_actions(state, seat) if seat in actors else [],
        # As gameplay.selectors sends them: a seat's take-backs of its hidden
        # commits while the others still choose.
        "retract": [] if seat is None else game.retract_actions(state, seat),
        "events": events or [],
    }


def _choose(rnd: random.Random, phase: str, ids: list[str]) -> str:
    if phase != "assign":
        return rnd.choice(ids)
    # A random walk through the dice steps would rarely finish: mostly build
    # sets and turn dice, sometimes finish.
    r = rnd.random()
    if r < 0.12:
        return "auto"
    if r < 0.2 and "done" in ids:
        return "done"
    steps = [i for i in ids if i.split(":")[0] in ("set", "die", "up", "down")]
    return rnd.choice(steps or ids)


def build() -> dict[str, Any]:
    game = KungFu2019Game()  # the registered engine's class, with its take-backs
    frames: dict[str, dict[str, Any]] = {}
    events: dict[str, dict[str, Any]] = {}
    labels: dict[str, dict[str, Any]] = {}
    configs = [{"players": 3}, {"players": 2}, {"players": 4}, {"players": 5}]
    for seed in range(40):
        config = configs[seed % len(configs)]
        rnd = random.Random(seed)
        state = game.setup(config, seed)
        version = 0
        while not game.is_over(state):
            actors = game.actors(state)
            phase = state["phase"]
            seat = actors[rnd.randrange(len(actors))]
            n = state["n"]
            if n == 3:
                key = phase
                if phase == "assign":
                    mine = game.observe(state, seat)["fight"]["mine"]
                    if mine["open"] is not None:
                        ids = game.legal_action_ids(state, seat)
                        key = (
                            "assign_adjust"
                            if any(i[:3] in ("up:", "dow") for i in ids)
                            else "assign_open"
                        )
                if phase == "play" and state["commit"][seat]:
                    key = "play_more"  # a card committed, take-backs offered
                frames.setdefault(key, _frame(game, state, seat, version))
                waiting = [i for i in range(n) if i not in actors]
                if phase == "play" and waiting and len(actors) < n:
                    frames.setdefault(
                        "waiting", _frame(game, state, waiting[0], version)
                    )
                if phase == "draft" and waiting:
                    frames.setdefault(
                        "draft_waiting", _frame(game, state, waiting[0], version)
                    )
                if phase == "assign":
                    frames.setdefault("spectator", _frame(game, state, None, version))
                    if waiting and len(actors) > 0:
                        done = [i for i in waiting if i in state["fight"]["f"]]
                        if done:
                            frames.setdefault(
                                "assign_done", _frame(game, state, done[0], version)
                            )
            if n == 2 and phase == "assign" and state["dummy"]:
                frames.setdefault("dummy", _frame(game, state, seat, version))
            label_kinds.collect(labels, game.legal_actions(state, seat))
            for other in range(n):
                label_kinds.collect(labels, game.retract_actions(state, other))
            aid = _choose(rnd, phase, game.legal_action_ids(state, seat))
            # Now and then a person changes their mind (a take-back).
            sorry = [i for i in range(n) if game.retract_actions(state, i)]
            if sorry and rnd.random() < 0.04:
                seat = rnd.choice(sorry)
                aid = rnd.choice(game.retract_actions(state, seat))["id"]
            state, evs = game.apply(state, seat, aid)
            version += 1
            for ev in evs:
                events.setdefault(ev["type"], ev)
            if n == 3 and game.is_over(state) and "over" not in frames:
                frames["over"] = _frame(game, state, 0, version, evs)
        if set(frames) >= REQUIRED | {"over"} and len(events) >= 15:  # every event type
            break
    return {
        "seat_frames": frames,
        "events": events,
        "names": NAMES,
        "labels": label_kinds.ordered(labels),
    }


def main() -> None:
    OUT.write_text(json.dumps(build(), indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
