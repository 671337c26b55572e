"""Duelo: ``observe`` built in C (``_fastplay.c``) is exactly the Python
reference (``_observe_py``): for every seat and the spectator at every step of
seeded random games at every table size, with and without the options that
add fields (round wins, the reshuffle, the start draw), the same JSON, keys in
the same order; for a JSON copy of each state too. Whatever the C code does
not handle (a finished game, an invalid seat, a malformed state) it declines,
and ``observe`` then gives the Python result or error. Skipped only when the
optional extension is not built."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gameplay.rules.duelo import engine as E
from gameplay.rules.duelo import native as C
from gameplay.rules.errors import GameError
from tests.rules.properties import observe_as_python, states_in_play

GAME = E.DueloGame()
native = pytest.mark.skipif(not E.NATIVE, reason="the C extension is not built")
CONFIGS: list[dict[str, Any]] = [
    {},
    {"rounds": 2, "reshuffle_discard": True},
    {"rounds": 2, "start": "highest_focus"},
]


def _games(config: dict[str, Any], players: int, count: int, seed: int) -> Any:
    """Every state of ``count`` seeded uniform random games, in play order."""
    return states_in_play(GAME, [{**config, "players": players}], count, seed)


def _c(state: Any, seat: Any) -> Any:
    assert C._native_observe is not None
    return C._native_observe(state, seat)


@native
def test_the_c_code_knows_the_engines_phases() -> None:
    from gameplay.rules.duelo import _fastplay

    assert (*E.PHASES, E.OVER) == _fastplay.PHASES
    assert C._native_observe is _fastplay.observe


@native
@pytest.mark.parametrize("config", CONFIGS, ids=["plain", "rounds2", "draw"])
@pytest.mark.parametrize("players", range(2, 9))
def test_c_observation_is_the_python_one(config: dict[str, Any], players: int) -> None:
    steps = 0
    for state in _games(config, players, 3, players):
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
            assert json.dumps(built) == expected, (config, players, seat)
            assert json.dumps(_c(copy, seat)) == expected
        steps += 1
    assert steps > 3 * 10


@native
def test_a_seats_shared_part_follows_the_state_not_the_last_call() -> None:
    """The C code keeps each seat's public part between calls (as the Python
    views do); it must show the state it is given, also when a caller changed
    a list of that state in place after observing it (equal facts, not the
    same objects, decide a reuse)."""
    state = GAME.setup({"players": 4}, 5)
    before = _c(state, 0)
    assert before["seats"][1]["prizes"] == []
    edited = GAME.clone(state)
    edited["prizes"][1] = "57"
    edited["hidden"][2] = "3"
    edited["tiger"][3] = 0
    after = _c(edited, 0)
    assert after["seats"][1]["prizes"] == [5, 7]
    assert after["seats"][2]["face_down_prizes"] == [3]
    assert after["seats"][3]["tiger_target"] == 0
    assert json.dumps(after) == json.dumps(GAME._observe_py(edited, 0))
    state["prizes"][1] = "8"  # edited in place: the same list, another value
    assert _c(state, 0)["seats"][1]["prizes"] == [8]
    assert _c(state, None)["seats"][1]["prizes"] == [8]


@native
@pytest.mark.parametrize("seat", [4, -1, True, 1.0, "0", 9])
def test_an_invalid_seat_is_declined_and_python_raises(seat: Any) -> None:
    state = GAME.setup({"players": 4}, 3)
    assert _c(state, seat) is None
    with pytest.raises(GameError):
        GAME.observe(state, seat)


@native
@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s.pop("hands"),
        lambda s: s["hands"].append(""),
        lambda s: s["alive"].__setitem__(0, 1),
        lambda s: s["tiger"].__setitem__(0, None),
        lambda s: s["prizes"].__setitem__(0, "x"),
        lambda s: s.__setitem__("phase", "nowhere"),
        lambda s: s["ctx"].__setitem__("card", "9"),
        lambda s: s["cfg"].__setitem__("rounds", True),
    ],
)
def test_a_malformed_state_is_declined(edit: Any) -> None:
    """Declined, so ``observe`` does what the Python reference does with it
    (an error, or an observation of what is there)."""
    state = GAME.setup({"players": 4}, 3)
    actor = state["actor"]
    state, _ = GAME.apply(state, actor, GAME.legal_action_ids(state, actor)[0])
    state = GAME.clone(state)
    edit(state)
    assert _c(state, 0) is None
    observe_as_python(GAME, state, 0)


def test_observe_without_the_c_code_is_the_python_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fallback when the extension is not built (or declines)."""
    # ``observe`` reads the engine module's own name (a global, for speed).
    monkeypatch.setattr(E, "_native_observe", None)
    for state in _games({}, 3, 2, 1):
        for seat in (None, 0, 1, 2):
            assert GAME.observe(state, seat) == GAME._observe_py(state, seat)
