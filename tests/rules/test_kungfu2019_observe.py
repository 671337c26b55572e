"""Kung Fu (2019): ``observe`` built in C (``_fastobserve.c``) is exactly the
Python reference (``_observe_py``): for every seat and the spectator at every
step of seeded random games at every table size, with and without the draft,
retractions included, the same JSON, keys in the same order; for a JSON copy of
each state too. Whatever the C code does not handle (a finished game, an
invalid seat, a malformed state) it declines, and ``observe`` then gives the
Python result or error. Skipped only when the optional extension is not
built."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from gameplay.rules.errors import GameError
from gameplay.rules.kungfu2019 import engine as E
from gameplay.rules.kungfu2019 import native as N
from tests.rules.properties import observe_as_python

GAME = E.KungFu2019Game()
native = pytest.mark.skipif(
    N._native_observe is None, reason="the C extension is not built"
)


def _games(
    config: dict[str, Any], players: int, count: int, seed: int
) -> Iterator[Any]:
    """Every state of ``count`` seeded uniform random games, in play order; a
    random actor moves, and now and then takes a move back (a retraction)."""
    rnd = random.Random(seed)
    for index in range(count):
        state = GAME.setup({**config, "players": players}, seed * 1000 + index)
        while True:
            yield state
            who = GAME.actors(state)
            if not who:
                break
            seat = who[int(rnd.random() * len(who))]
            back = [a["id"] for a in GAME.retract_actions(state, seat)]
            if back and rnd.random() < 0.1:
                aid = back[int(rnd.random() * len(back))]
            else:
                ids = GAME.legal_action_ids(state, seat)
                aid = ids[int(rnd.random() * len(ids))]
            state, _ = GAME.apply(state, seat, aid)


def _c(state: Any, seat: Any) -> Any:
    assert N._native_observe is not None
    return N._native_observe(state, seat)


@native
def test_the_c_code_knows_the_engines_phases() -> None:
    from gameplay.rules.kungfu2019 import _fastobserve

    assert E.PHASES == _fastobserve.PHASES
    assert N._native_observe is _fastobserve.observe
    assert N._native_actors is _fastobserve.actors


@native
@pytest.mark.parametrize("draft", [True, False], ids=["draft", "first_game"])
@pytest.mark.parametrize("players", range(2, 6))
def test_c_observation_is_the_python_one(draft: bool, players: int) -> None:
    steps = retracted = 0
    for state in _games({"draft": draft}, players, 4, players):
        over = state["result"] is not None
        copy = json.loads(json.dumps(state))
        for seat in [None, *range(players)]:
            expected = json.dumps(GAME._observe_py(state, seat))
            built = _c(state, seat)
            if over:  # a finished game's result is Python's to copy
                assert built is None
                assert json.dumps(GAME.observe(state, seat)) == expected
                continue
            assert built is not None
            assert json.dumps(built) == expected, (draft, players, seat)
            assert json.dumps(_c(copy, seat)) == expected
            mine = built["fight"] and built["fight"]["mine"]
            retracted += bool(mine and (mine["sets"] or mine["open"]))
        steps += 1
    assert steps > 4 * 50
    assert retracted  # some seats were in the middle of assigning dice


@native
@pytest.mark.parametrize("players", range(2, 6))
def test_c_actors_are_the_python_ones(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    c_actors = N._native_actors
    assert c_actors is not None
    monkeypatch.setattr(E, "_native_actors", None)  # GAME.actors: Python's
    phases = set()
    for state in _games({}, players, 2, players + 10):
        assert c_actors(state) == GAME.actors(state)
        phases.add(state["phase"])
    assert phases == set(E.PHASES)
    state["fight"] = {"f": [0], "asg": [None]}  # malformed: declined
    state["phase"] = E.ASSIGN
    assert c_actors(state) is None


@native
def test_the_track_views_follow_the_state_not_the_last_call() -> None:
    """The C code keeps each seat's track views between calls (as the Python
    views do); it must show the state it is given (equal positions, not the
    same list, decide a reuse)."""
    state = next(s for s in _games({}, 4, 1, 3) if s["phase"] == E.PLAYING)
    before = _c(state, 0)
    edited = GAME.clone(state)
    edited["tracks"] = [t[:] for t in state["tracks"]]
    edited["tracks"][2][1] += 1
    after = _c(edited, 0)
    assert after["tracks"][2]["atk"] == before["tracks"][2]["atk"] + 1
    assert after["status"][2]["atk"] == before["status"][2]["atk"] + E.STEP["atk"]
    assert json.dumps(after) == json.dumps(GAME._observe_py(edited, 0))
    assert json.dumps(_c(state, 0)) == json.dumps(before)


@native
@pytest.mark.parametrize("seat", [4, -1, True, 1.0, "0", 9])
def test_an_invalid_seat_is_declined_and_python_raises(seat: Any) -> None:
    state = GAME.setup({"players": 4}, 3)
    assert _c(state, seat) is None
    # (1.0 passes the Python check, ``in range``, then fails as an index)
    with pytest.raises(TypeError if type(seat) is float else GameError):
        GAME.observe(state, seat)


def _fighting() -> Any:
    """A state in a fight, seat 0 part way through its dice."""
    for state in _games({}, 4, 3, 11):
        if state["phase"] == E.ASSIGN and state["fight"]["asg"][0] is not None:
            return GAME.clone(state)
    raise AssertionError("no fight in the seeded games")


@native
@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s.pop("hands"),
        lambda s: s["hands"].__setitem__(0, "~"),
        lambda s: s["played"].append(""),
        lambda s: s["tracks"].__setitem__(1, [0, 0, 0, 0, "1"]),
        lambda s: s.__setitem__("phase", "nowhere"),
        lambda s: s.__setitem__("n", 9),
        lambda s: s.__setitem__("discard", 3),
        lambda s: s["fight"].pop("asg"),
        lambda s: s["fight"]["asg"].__setitem__(0, dict(s["fight"]["asg"][0], v=5)),
        lambda s: s["fight"]["asg"].__setitem__(0, [1]),
        lambda s: s["fight"].__setitem__("dice", s["fight"]["dice"][:2]),
    ],
)
def test_a_malformed_state_is_declined(edit: Any) -> None:
    """Declined, so ``observe`` does what the Python reference does with it
    (an error, or an observation of what is there)."""
    state = _fighting()
    state["fight"] = state["fight"].copy()
    state["fight"]["asg"] = state["fight"]["asg"][:]
    assert _c(state, 0) is not None
    edit(state)
    assert _c(state, 0) is None
    observe_as_python(GAME, state, 0)


def test_observe_without_the_c_code_is_the_python_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fallback when the extension is not built (or declines)."""
    monkeypatch.setattr(E, "_native_observe", None)
    for state in _games({}, 3, 1, 1):
        for seat in (None, 0, 1, 2):
            assert GAME.observe(state, seat) == GAME._observe_py(state, seat)
