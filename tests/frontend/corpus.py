"""Real Duelo frames, events and replays for the front-end tests.

The node tests in this folder read ``fixtures/duelo.json``, written by this
module from the engine and the gameplay selectors (the exact frames clients
get). ``test_node_board.py`` also builds a fresh corpus with the engine as it is
now and hands it to the node suite, so a new event type, action type or frame
field the board does not handle fails the suite instead of showing up as
"Event: something" in a player's log.

Regenerate the committed fixture (inside a transaction that is rolled back)::

    .venv/bin/python manage.py shell -c "from tests.frontend.corpus import main; main()"
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

FIXTURE = Path(__file__).parent / "fixtures" / "duelo.json"
NAMES = ["Ana", "Bruno", "Chen"]
# Many short playouts reach every event and decision, reshuffle and
# multi-round games included; seeds fixed so the corpus is reproducible.
PLAYOUT_CONFIGS = [
    {"players": 2},
    {"players": 3},
    {"players": 4, "reshuffle_discard": True},
    {"players": 5},
    {"players": 3, "rounds": 2},
]
PLAYOUTS_PER_CONFIG = 40


def engine_samples() -> dict[str, Any]:
    """One raw event per (type, public keys, private or not) and one action per type."""
    from gameplay.rules import get_game

    engine = get_game("duelo")
    events: dict[tuple, dict[str, Any]] = {}
    actions: dict[str, dict[str, Any]] = {}
    phases: dict[str, dict[str, Any]] = {}
    for config in PLAYOUT_CONFIGS:
        for seed in range(PLAYOUTS_PER_CONFIG):
            rnd = random.Random(seed)
            state = engine.setup(config, seed)
            while not engine.is_over(state):
                seat = engine.actors(state)[0]
                legal = engine.legal_actions(state, seat)
                for action in legal:
                    actions.setdefault(action["type"], action)
                observation = engine.observe(state, seat)
                phases.setdefault(
                    observation["phase"], {"view": observation, "legal": legal}
                )
                state, new = engine.apply(state, seat, rnd.choice(legal)["id"])
                for event in new:
                    key = (
                        event["type"],
                        tuple(sorted(event["public"])),
                        bool(event["private"]),
                    )
                    events.setdefault(key, event)
    return {
        "events": [events[k] for k in sorted(events)],
        "actions": [actions[k] for k in sorted(actions)],
        "phases": phases,
    }


def _shorten(replay: dict[str, Any], head: int = 14, tail: int = 3) -> dict[str, Any]:
    steps = replay["steps"]
    if len(steps) > head + tail:
        replay = {**replay, "steps": steps[:head] + steps[-tail:]}
    return replay


def match_samples(seed: int = 5) -> dict[str, Any]:
    """Frames of one real three-player match, from the deal to the result.

    Needs a database (a pytest ``db`` fixture, or ``main`` below which rolls
    everything back).
    """
    from accounts.models import User
    from gameplay import selectors, services
    from gameplay.models import Match, MatchStatus
    from gameplay.rules import get_game

    engine = get_game("duelo")
    users = [
        User.objects.create_user(
            username=f"corpus-{name.lower()}-{seed}", display_name=name
        )
        for name in NAMES
    ]
    match = services.match_create(
        game="duelo",
        seats=[services.SeatSpec(user=user) for user in users],
        config={"start": 0},
        time_control={"per_move": 60},
    )
    match = services.match_start(match_id=match.pk)
    rnd = random.Random(seed)
    seat_frames: dict[str, dict[str, Any]] = {}
    spectator_frames: list[dict[str, Any]] = []
    while True:
        match = Match.objects.prefetch_related("seats__user").get(pk=match.pk)
        if match.status != MatchStatus.ACTIVE:
            break
        actor = engine.actors(match.state)[0]
        frame = selectors.seat_frame(match=match, seat=actor)
        seat_frames.setdefault(frame["view"]["phase"], frame)
        if match.version in (0, 6, 20):
            spectator_frames.append(selectors.spectator_frame(match=match))
        ids = engine.legal_action_ids(match.state, actor)
        outcome = services.match_act(
            match_id=match.pk,
            user=users[actor],
            action_id=rnd.choice(ids),
            expected_version=match.version,
        )
        if match.version == 9:
            # What a seat that is not acting sees right after a move.
            match = Match.objects.prefetch_related("seats__user").get(pk=match.pk)
            watcher = (actor + 1) % len(users)
            seat_frames["waiting"] = selectors.seat_frame(
                match=match, seat=watcher, events=outcome.events
            )
    history = {
        "type": "history",
        "after_version": 0,
        "steps": selectors.events_since(match=match, seat=0, after_version=0)[:12],
    }
    return {
        "names": NAMES,
        "seat_frames": seat_frames,
        "spectator_frames": spectator_frames,
        "finished_seat": selectors.seat_frame(match=match, seat=0),
        "finished_spectator": selectors.spectator_frame(match=match),
        "history": history,
        "replay_full": _shorten(selectors.match_replay(match=match)),
        "replay_seat": _shorten(
            selectors.match_replay(match=match, perspective="seat:1")
        ),
        "replay_spectator": _shorten(
            selectors.match_replay(match=match, perspective="spectator")
        ),
    }


def build() -> dict[str, Any]:
    return {**engine_samples(), **match_samples()}


def write(path: Path, corpus: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(corpus, indent=1, sort_keys=True, default=str) + "\n")


class _Rollback(Exception):
    pass


def main() -> None:
    """Write the committed fixture; the database is left exactly as it was."""
    from django.db import transaction

    corpus: dict[str, Any] = {}
    try:
        with transaction.atomic():
            corpus = build()
            raise _Rollback
    except _Rollback:
        pass
    write(FIXTURE, corpus)
    print(f"wrote {FIXTURE} ({FIXTURE.stat().st_size // 1024} KiB)")
