"""Kung Fu (2013): ``observe`` and ``legal_action_ids`` built in C
(``_fastobserve.c``) are exactly the Python references (``_observe_py``,
``_legal_action_ids_py``): for both seats and the spectator at every step of
seeded random games, with every config the kernel tests use, the same JSON,
keys in the same order, the same menus; for a JSON copy of each state too, and
for states the kernel wrote back (``random_playout`` cut short). Whatever the C
code does not handle (a finished game's observation, an invalid seat, a
malformed state) it declines, and the engine then gives the Python result or
error. Skipped only when the optional extension is not built."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from gameplay.rules.errors import GameError
from gameplay.rules.kungfu2013 import engine as E
from gameplay.rules.kungfu2013 import native as C
from tests.rules.kungfu2013_helpers import GAME, corner_states
from tests.rules.properties import observe_as_python, states_in_play
from tests.rules.test_kungfu2013_native import CONFIGS

native = pytest.mark.skipif(
    C._native_observe is None, reason="the C extension _fastobserve is not built"
)


def _games(count: int, seed: int) -> Iterator[dict[str, Any]]:
    """Every state of ``count`` seeded uniform random games, in play order."""
    return states_in_play(GAME, CONFIGS, count, seed)


def _c(state: Any, seat: Any) -> Any:
    assert C._native_observe is not None
    return C._native_observe(state, seat)


def _legal(state: Any, seat: Any) -> Any:
    assert C._native_legal is not None
    return C._native_legal(state, seat)


def _same(state: dict[str, Any]) -> None:
    """C and Python agree for every seat, on the state and on a JSON copy."""
    copy = json.loads(json.dumps(state))
    for seat in (None, 0, 1):
        menu = GAME._legal_action_ids_py(state, seat)
        assert _legal(state, seat) == menu == _legal(copy, seat), seat
        assert GAME.legal_action_ids(state, seat) == menu
        expected = json.dumps(GAME._observe_py(state, seat))
        if state["result"] is not None:  # a finished game's result: Python's
            assert _c(state, seat) is None
            assert json.dumps(GAME.observe(state, seat)) == expected
            continue
        built = _c(state, seat)
        assert built is not None
        assert json.dumps(built) == expected, (state["phase"], seat)
        assert json.dumps(_c(copy, seat)) == expected
        assert json.dumps(GAME.observe(state, seat)) == expected


@native
def test_the_c_code_is_the_engines_observe() -> None:
    from gameplay.rules.kungfu2013 import _fastobserve

    assert C._native_observe is _fastobserve.observe
    assert C._native_legal is _fastobserve.legal_action_ids


@native
@pytest.mark.parametrize("block", range(4))
def test_c_observation_is_the_python_one(block: int) -> None:
    phases: Counter[str] = Counter()
    for state in _games(15, block):
        phases[state["phase"]] += 1
        _same(state)
    assert set(phases) == set(E.PROMPTS)


@native
def test_states_the_kernel_wrote_back_and_hand_made_corners() -> None:
    rnd = random.Random(7)
    for seed in range(200):
        state = GAME.setup(CONFIGS[seed % len(CONFIGS)], seed)
        GAME.random_playout(state, seed, rnd.choice([1, 3, 10, 40, None]))
        _same(state)
    for state in corner_states():
        _same(state)


@native
def test_the_battles_shared_view_follows_the_state_not_the_last_call() -> None:
    """The C code keeps the battle's view between calls (as the Python views
    do); it must show the state it is given, also when a caller changed the
    battle in place after observing it (equal facts, not the same objects,
    decide a reuse)."""
    for state in _games(3, 11):
        if state["b"]["ac"] and state["result"] is None:
            break
    before = _c(state, 0)
    edited = GAME.clone(state)
    edited["b"]["act"] = [not edited["b"]["act"][0], edited["b"]["act"][1]]
    edited["b"]["flip"] = [*edited["b"]["flip"], 0]
    after = _c(edited, 0)
    assert after["battle"] != before["battle"]
    assert json.dumps(after) == json.dumps(GAME._observe_py(edited, 0))
    state["b"]["flip"].append(1)  # edited in place: the same list, another value
    assert _c(state, 0)["battle"]["initiative_changes"] == len(state["b"]["flip"])
    assert json.dumps(_c(state, 1)) == json.dumps(GAME._observe_py(state, 1))


@native
@pytest.mark.parametrize("seat", [2, -1, True, 1.0, "0"])
def test_an_invalid_seat_is_declined_and_python_decides(seat: Any) -> None:
    state = GAME.setup({}, 3)
    assert _c(state, seat) is None
    # (a menu for any seat: [] but the actor's; only a non-int is declined)
    assert _legal(state, seat) == ([] if type(seat) is int else None)
    assert GAME.legal_action_ids(state, seat) == GAME._legal_action_ids_py(state, seat)
    if seat != 1.0:  # 1.0 == 1: Python's seat check lets it by
        with pytest.raises(GameError):
            GAME.observe(state, seat)
    observe_as_python(GAME, state, seat)


@native
@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s.pop("hands"),
        lambda s: s["hands"].append(""),
        lambda s: s["hands"].__setitem__(0, "!"),
        lambda s: s["front"].__setitem__(1, 5),
        lambda s: s.__setitem__("rdisc", "zz"),
        lambda s: s["noblk"].__setitem__(0, None),
        lambda s: s.__setitem__("phase", "nowhere"),
        lambda s: s.__setitem__("actor", True),
        lambda s: s["b"].__setitem__("blocked", 1),
        lambda s: s["b"].__setitem__("face", "x"),
        lambda s: s["b"].__setitem__("ac", "r01"),
        lambda s: s["b"].__setitem__("flip", ()),
        lambda s: s["todo"].__setitem__(-1, ("draw", 0, 1)),
        lambda s: s.__setitem__("result", {}),
    ],
)
def test_a_malformed_state_is_declined(edit: Any) -> None:
    """``observe`` then runs the reference: its error or its observation. The
    state before the edit is a draw with its count pending, which C builds."""
    state = GAME.clone(GAME.setup({}, 3))
    state["phase"], state["todo"] = E.DRAW, [*state["todo"], ["draw", 0, 1]]
    assert _c(state, 0) is not None
    edit(state)
    assert _c(state, 0) is None
    observe_as_python(GAME, state, 0)


@native
@pytest.mark.parametrize(
    "phase, edit",
    [
        (E.DRAW, lambda s: s.pop("hands")),
        (E.DRAW, lambda s: s.__setitem__("hands", ("", ""))),
        (E.ATTACK, lambda s: s["hands"].__setitem__(0, "0!")),
        (E.BLOCK, lambda s: s["b"].__setitem__("face", None)),
        (E.BLOCK, lambda s: s["b"].update(face="u", ac="")),
        (E.PAY, lambda s: s["front"].__setitem__(0, 3)),
        (E.TARGET, lambda s: s["front"].pop()),
        (E.INITIATIVE, lambda s: s.__setitem__("phase", "nowhere")),
        (E.INITIATIVE, lambda s: s.__setitem__("actor", None)),
        (E.INITIATIVE, lambda s: s.__setitem__("actor", "0")),
    ],
)
def test_a_malformed_state_has_its_menu_from_python(phase: str, edit: Any) -> None:
    """Every menu built in C for the state before the edit; declined after it,
    and ``legal_action_ids`` then runs the reference: its error or its menu."""
    state = GAME.clone(GAME.setup({}, 3))
    state["phase"], state["actor"] = phase, 0
    state["front"] = ["9A", "BC"]  # coin cards of both seats, for pay and target
    assert _legal(state, 0) == GAME._legal_action_ids_py(state, 0)
    edit(state)
    seat = 0
    assert _legal(state, seat) is None
    try:
        expected = GAME._legal_action_ids_py(state, seat)
    except Exception as exc:  # the reference's error, whatever it is
        with pytest.raises(type(exc)):
            GAME.legal_action_ids(state, seat)
    else:
        assert GAME.legal_action_ids(state, seat) == expected


def test_without_the_extension_observe_is_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not built (or built before it had ``observe``): the reference runs."""
    # ``observe`` and ``legal_action_ids`` read the engine module's own names.
    monkeypatch.setattr(E, "_native_observe", None)
    monkeypatch.setattr(E, "_native_legal", None)
    states = list(_games(2, 1))
    assert all(
        GAME.observe(state, seat) == GAME._observe_py(state, seat)
        and GAME.legal_action_ids(state, seat) == GAME._legal_action_ids_py(state, seat)
        for state in states
        for seat in (None, 0, 1)
    )
