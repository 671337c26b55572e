"""Kung Fu (2019): a fight's end built in C (``_fastassign.c``'s fight.h,
``resolve``) is exactly rounds.py's ``_resolve``: every time Python settles a
fight in seeded random games at every table size (with and without the
draft, with dice stacked by the config), the C code, given a copy of the
same state (and a JSON copy of it), either gives the same state and events
(the same JSON) or declines having changed neither; it declines exactly
when the game ends, dice are stacked, or the next fight has nobody to
assign. Skipped only when the optional extension is not built."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from gameplay.rules.kungfu2019 import engine as E
from gameplay.rules.kungfu2019 import handlers as H
from gameplay.rules.kungfu2019 import native as N
from gameplay.rules.kungfu2019 import rounds as R

GAME = E.KungFu2019Game()
native = pytest.mark.skipif(
    N._native_step is None, reason="the C extension is not built"
)


def c_resolve(s: Any, ev: list[Any]) -> bool:
    """The C ``resolve`` (imported here: the module may not be built)."""
    from gameplay.rules.kungfu2019 import _fastassign

    return _fastassign.resolve(s, ev)


def _play(config: dict[str, Any], games: int, seed: int) -> None:
    """Seeded uniform random games (the seat and step drawn at random)."""
    rnd = random.Random(seed)
    for index in range(games):
        state = GAME.setup(config, seed * 1000 + index)
        while True:
            who = GAME.actors(state)
            if not who:
                break
            seat = who[int(rnd.random() * len(who))]
            ids = GAME.legal_action_ids(state, seat)
            state, _ = GAME.apply(state, seat, ids[int(rnd.random() * len(ids))])


def _must_decline(new_events: list[Any], stacked: bool) -> bool:
    """Whether the C code is to decline a fight whose end Python gave
    ``new_events``: the game ended, the next fight was settled at once
    (nobody had dice to assign), or it rolled from the config's stack."""
    types = [e["type"] for e in new_events]
    return (
        "game_over" in types
        or types.count("fight") > 1
        or ("attack" in types and stacked)
    )


def _checking(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Every ``_resolve`` checked against the C one; every step in Python
    (the C steps would settle most fights themselves)."""
    python = R._resolve
    counts = {"done": 0, "declined": 0}

    def checked(s: dict[str, Any], ev: list[Any]) -> None:
        before, ev_before = json.dumps(s), json.dumps(ev)
        tries = []
        for given in (copy.deepcopy(s), json.loads(before)):
            ev_c = json.loads(ev_before)
            tries.append((given, ev_c, c_resolve(given, ev_c)))
        stacked = s["di"] < len(s["cfg"]["dice"])
        had = len(ev)
        python(s, ev)
        decline = _must_decline(ev[had:], stacked)
        for given, ev_c, ok in tries:
            assert ok is not decline
            if ok:
                counts["done"] += 1
                assert json.dumps(given) == json.dumps(s)
                assert json.dumps(ev_c) == json.dumps(ev)
            else:
                counts["declined"] += 1
                assert json.dumps(given) == before
                assert json.dumps(ev_c) == ev_before

    # (called where a fight starts, in rounds.py, and where its last fighter
    # finishes, in handlers.py: each module's own global)
    monkeypatch.setattr(R, "_resolve", checked)
    monkeypatch.setattr(H, "_resolve", checked)
    monkeypatch.setattr(E, "_native_step", None)
    return counts


@native
@pytest.mark.parametrize("players", range(2, 6))
@pytest.mark.parametrize("draft", [True, False])
def test_c_fight_end_is_pythons(
    players: int, draft: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = _checking(monkeypatch)
    _play({"players": players, "draft": draft}, 3, players * 10 + draft)
    assert counts["done"] > 20 and counts["declined"] >= 6  # a game over each


@native
def test_stacked_dice_are_pythons(monkeypatch: pytest.MonkeyPatch) -> None:
    counts = _checking(monkeypatch)
    rolls = [[(i * 7 + j) % 6 + 1 for j in range(7)] for i in range(12)]
    _play({"players": 3, "draft": False, "dice": rolls}, 3, 5)
    assert counts["done"] > 10 and counts["declined"] > 6


@native
def test_the_engine_settles_fights_in_c() -> None:
    """A uniform random game's dice steps finish fights in C (``apply``
    gives them without ``_resolve``), the game's end excepted."""
    from gameplay.rules.kungfu2019 import _fastassign

    c_step = N._native_step
    assert c_step is _fastassign.step
    state = GAME.setup({"players": 4}, 3)
    fights = 0
    while GAME.actors(state):
        seat = GAME.actors(state)[0]
        aid = GAME.legal_action_ids(state, seat)[0]  # auto in a fight
        done = c_step(state, seat, aid)
        if done is not None:
            fights += any(e["type"] == "fight" for e in done[1])
        state, _ = GAME.apply(state, seat, aid)
    assert fights >= 6


@native
@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s.__setitem__("hp", s["hp"][:-1]),
        lambda s: s.__setitem__("rng", "not hex digits!!"),
        lambda s: s["fight"].__setitem__("a", 9),
        lambda s: s.__setitem__("played", ["~~~"] * s["n"]),
        lambda s: s["fight"]["asg"].__setitem__(
            s["fight"]["f"][0], dict(s["fight"]["asg"][s["fight"]["f"][0]], v=5)
        ),
        lambda s: s.__setitem__("n", 9),
    ],
)
def test_a_malformed_state_is_declined(edit: Any) -> None:
    state = GAME.setup({"players": 4, "draft": False}, 8)
    while state["phase"] != E.ASSIGN:
        seat = GAME.actors(state)[0]
        state, _ = GAME.apply(state, seat, GAME.legal_action_ids(state, seat)[0])
    s = copy.deepcopy(state)
    assert c_resolve(copy.deepcopy(s), []) is True
    edit(s)
    before = json.dumps(s)
    ev: list[Any] = []
    assert c_resolve(s, ev) is False
    assert json.dumps(s) == before and ev == []
