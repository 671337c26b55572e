"""Kung Fu (2019): the dice-assignment menu and steps built in C
(``_fastassign.c``, its dice.h) are exactly the Python reference: at every fight step of
seeded random games at every table size, for every seat, ``assign_ids`` is
``_assign_ids``, and every dice step the C code applies (``auto`` and
``done`` with the fight's end, fight.h, when they finish it) gives the state
and events Python's ``apply`` gives (the same JSON), leaving the state it was
given as it was; a step other than ``auto`` or ``done`` (which it declines
when the game ends) that it declines is illegal (Python raises). Whatever
else (another phase's step, a malformed state) it declines. Skipped only when
the optional extension is not built."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from gameplay.rules.errors import IllegalAction
from gameplay.rules.kungfu2019 import assignment as A
from gameplay.rules.kungfu2019 import engine as E
from gameplay.rules.kungfu2019 import native as N

GAME = E.KungFu2019Game()
native = pytest.mark.skipif(
    N._native_step is None, reason="the C extension is not built"
)
STEPS = ("auto", "done", "best", "reset", "cancel", *E.STEP_ARG)
SIMPLE = {"set", "die", "up", "down", "cancel", "reset", "best", "drop"}


def _fights(players: int, count: int, seed: int) -> Iterator[Any]:
    """Every fight state of ``count`` seeded uniform random games."""
    rnd = random.Random(seed)
    for index in range(count):
        state = GAME.setup({"players": players}, seed * 1000 + index)
        while True:
            if state["phase"] == E.ASSIGN:
                yield state
            who = GAME.actors(state)
            if not who:
                break
            seat = who[int(rnd.random() * len(who))]
            ids = GAME.legal_action_ids(state, seat)
            state, _ = GAME.apply(state, seat, ids[int(rnd.random() * len(ids))])


@pytest.fixture
def c_code(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, Any]:
    """The C functions, the engine's Python ones left in place."""
    from gameplay.rules.kungfu2019 import _fastassign

    monkeypatch.setattr(E, "_native_ids", None)
    monkeypatch.setattr(E, "_native_step", None)
    return _fastassign.assign_ids, _fastassign.assign_step, _fastassign.ids


@native
@pytest.mark.parametrize("players", range(2, 6))
def test_c_menu_and_steps_are_the_python_ones(
    players: int, c_code: tuple[Any, Any, Any]
) -> None:
    c_ids, c_step, c_menu = c_code
    applied = declined = ended = 0
    for state in _fights(players, 2, players):
        for seat in range(players):
            assert c_ids(state, seat) == A._assign_ids(state, seat)
            assert c_menu(state, seat) == A._assign_ids(state, seat)
            for aid in STEPS:
                before = json.dumps(state)
                done = c_step(state, seat, aid)
                assert json.dumps(state) == before
                if done is not None:
                    applied += 1
                    expected = GAME.apply(state, seat, aid)
                    assert json.dumps(done) == json.dumps(expected), aid
                    ended += done[1][-1]["type"] != "assign"
                elif aid.split(":")[0] in SIMPLE:
                    declined += 1
                    with pytest.raises(IllegalAction):
                        GAME.apply(state, seat, aid)
    assert applied > 100 and declined > 100 and ended > 10


@native
def test_the_engine_uses_the_c_code() -> None:
    from gameplay.rules.kungfu2019 import _fastassign

    assert N._native_ids is _fastassign.ids
    assert N._native_step is _fastassign.step


def _fighting() -> Any:
    """A fight state, seat 0 with a set open."""
    for state in _fights(4, 3, 11):
        a = state["fight"]["asg"][0]
        if a is not None and not a["done"] and a["open"] is not None:
            state = GAME.clone(state)
            state["fight"]["asg"] = state["fight"]["asg"][:]
            return state
    raise AssertionError("no open set in the seeded games")


@native
@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s.__setitem__("n", True),
        lambda s: s["fight"].pop("asg"),
        lambda s: s["fight"]["asg"].__setitem__(0, dict(s["fight"]["asg"][0], v=5)),
        lambda s: s["fight"]["asg"].__setitem__(
            0, dict(s["fight"]["asg"][0], open=[0, 9, []])
        ),
        lambda s: s["fight"]["asg"].__setitem__(
            0, dict(s["fight"]["asg"][0], spent=2**70)
        ),
        lambda s: s["played"].__setitem__(0, "~~~"),
    ],
)
def test_a_malformed_state_is_declined(edit: Any) -> None:
    state = _fighting()
    assert N._native_ids is not None and N._native_step is not None
    ids = N._native_ids(state, 0)
    assert ids is not None
    aid = ids[-1]  # cancel
    assert N._native_step(state, 0, aid) is not None
    edit(state)
    assert N._native_ids(state, 0) is None
    assert N._native_step(state, 0, aid) is None


@native
def test_a_state_of_other_rules_is_pythons_to_apply() -> None:
    """(``apply`` checks the rules version first; the menu does not.)"""
    state = _fighting()
    assert N._native_step is not None
    state["rules_version"] = "kungfu2019-0"
    assert N._native_step(state, 0, "cancel") is None


@native
@pytest.mark.parametrize("seat", [-1, 4, True, 0.0, None])
def test_an_invalid_seat_or_step_is_declined(seat: Any) -> None:
    state = _fighting()
    assert N._native_step is not None
    assert N._native_step(state, seat, "cancel") is None
    assert N._native_step(state, 0, "pick:c01") is None  # not a dice step
    assert N._native_step(state, 0, "cancel:0") is None
