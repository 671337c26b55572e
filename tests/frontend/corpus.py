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
    """One raw event per (type, public keys, private or not), one action per type
    and one per kind of label (tests/frontend/label_kinds.py)."""
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
    # One action per kind of label, from the engine's catalogue of every id.
    from gameplay.rules.duelo.engine import ACTION_INFO
    from tests.frontend import label_kinds

    labels: dict[str, dict[str, Any]] = {}
    label_kinds.collect(labels, ACTION_INFO.values())
    return {
        "events": [events[k] for k in sorted(events)],
        "actions": [actions[k] for k in sorted(actions)],
        "phases": phases,
        "labels": label_kinds.ordered(labels),
    }


def _shorten(replay: dict[str, Any], head: int = 14, tail: int = 3) -> dict[str, Any]:
    steps = replay["steps"]
    if len(steps) > head + tail:
        replay = {**replay, "steps": steps[:head] + steps[-tail:]}
    return replay


# Decisions the frame tests look at; games are played until all have been seen.
REQUIRED_FRAMES = {"card", "face", "target", "answer", "waiting"}
FACE_UP_FRAMES = {"u_disciple", "drunk_put", "snake_target", "tiger_target"}


def _play(users, seed: int, seat_frames: dict, spectator_frames: list | None):
    """Play one match with random legal moves; the deal is fixed by ``seed``."""
    from unittest import mock

    from gameplay import frames, services
    from gameplay.models import Match, MatchStatus
    from gameplay.rules import get_game
    from gameplay.services import matches

    engine = get_game("duelo")
    match = services.match_create(
        game="duelo",
        seats=[services.SeatSpec(user=user) for user in users],
        config={"start": 0},
        private_options=True,  # a fixed first seat: a test corpus, never rated
        time_control={"per_move": 60},
    )
    # A fixed deal (the seed is otherwise secret and random) keeps the corpus
    # reproducible; the published hash is still computed from it as usual.
    with mock.patch.object(matches.secrets, "randbits", return_value=seed):
        match = services.match_start(match_id=match.pk)
    rnd = random.Random(seed)
    while True:
        match = Match.objects.prefetch_related("seats__user").get(pk=match.pk)
        if match.status != MatchStatus.ACTIVE:
            return match
        actor = engine.actors(match.state)[0]
        frame = frames.seat_frame(match=match, seat=actor)
        seat_frames.setdefault(frame["view"]["phase"], frame)
        if spectator_frames is not None and match.version in (0, 6, 20):
            spectator_frames.append(frames.spectator_frame(match=match))
        ids = engine.legal_action_ids(match.state, actor)
        outcome = services.match_act(
            match_id=match.pk,
            user=users[actor],
            action_id=rnd.choice(ids),
            expected_version=match.version,
        )
        if "waiting" not in seat_frames and outcome.version >= 10:
            # What a seat that is not acting sees right after a move.
            match = Match.objects.prefetch_related("seats__user").get(pk=match.pk)
            busy = engine.actors(match.state)
            watcher = next(i for i in range(len(users)) if i not in busy)
            seat_frames["waiting"] = frames.seat_frame(
                match=match, seat=watcher, events=outcome.events
            )


def match_samples(seed: int = 5, max_matches: int = 40) -> dict[str, Any]:
    """Frames of real three-player matches, from the deal to the result.

    The first match that lasts 20 moves gives the spectator frames, the history,
    the results and the replays; further matches (fixed seeds) are played only
    until every decision in ``REQUIRED_FRAMES`` has been seen. Needs a database
    (a pytest ``db`` fixture, or ``main`` below which rolls everything back).
    """
    from accounts.models import User
    from gameplay import frames, selectors

    users = [
        User.objects.create_user(username=f"corpus-{name.lower()}", display_name=name)
        for name in NAMES
    ]
    seat_frames: dict[str, dict[str, Any]] = {}
    main = None
    spectator_frames: list[dict[str, Any]] = []
    for n in range(max_matches):
        public: list[dict[str, Any]] = []
        match = _play(users, seed + n, seat_frames, public if main is None else None)
        if main is None and match.version >= 20:
            main, spectator_frames = match, public
        seen = set(seat_frames)
        if main is not None and seen >= REQUIRED_FRAMES and FACE_UP_FRAMES & seen:
            break
    else:
        raise AssertionError(
            f"{max_matches} matches did not reach every decision the tests need: "
            f"seen {sorted(seat_frames)}"
        )
    history = {
        "type": "history",
        "after_version": 0,
        "steps": selectors.events_since(match=main, seat=0, after_version=0)[:12],
    }
    return {
        "names": NAMES,
        "seat_frames": seat_frames,
        "spectator_frames": spectator_frames,
        "finished_seat": frames.seat_frame(match=main, seat=0),
        "finished_spectator": frames.spectator_frame(match=main),
        "history": history,
        "replay_full": _shorten(selectors.match_replay(match=main)),
        "replay_seat": _shorten(
            selectors.match_replay(match=main, perspective="seat:1")
        ),
        "replay_spectator": _shorten(
            selectors.match_replay(match=main, perspective="spectator")
        ),
    }


def build() -> dict[str, Any]:
    return {**engine_samples(), **match_samples()}


def write(path: Path, corpus: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(corpus, indent=1, sort_keys=True, default=str) + "\n")


class _Rollback(Exception):
    """Raised to undo the corpus matches' database writes after reading them."""


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
