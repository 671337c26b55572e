"""Kung Fu (2009): ``observe`` built in C (``_fastplay.c``) is exactly the
Python reference (``_observe_py``): for every seat and the spectator at every
step of seeded random games at every table size, with the options that change
what is shown (severe punishment, removals), the same JSON, keys in the same
order; for a JSON copy of each state too. Whatever the C code does not handle
(a finished game, an invalid seat, a malformed state) it declines, and
``observe`` then gives the Python result or error. Skipped only when the
optional extension is not built."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from gameplay.rules.errors import GameError, IllegalAction
from gameplay.rules.kungfu2009 import engine as E
from gameplay.rules.kungfu2009 import native as C
from gameplay.rules.kungfu2009.cards import LEVEL_ORDER
from tests.rules.kungfu2009_helpers import make_state
from tests.rules.properties import observe_as_python

GAME = E.KungFu2009Game()
native = pytest.mark.skipif(not E.NATIVE, reason="the C extension is not built")


def _games(
    config: dict[str, Any], players: int, count: int, seed: int
) -> Iterator[Any]:
    """Every state of ``count`` seeded random games, in play order: a random
    seat of the actors acts (the table checks claims), mostly uniformly, but
    it arranges a hand when it can and then claims that combination, so that
    combinations are won, false claims punished and, a claim being shouted
    during a pause now and then, cards drawn unseen."""
    rnd = random.Random(seed)
    for index in range(count):
        state = GAME.setup({**config, "players": players}, seed * 1000 + index)
        fitted: dict[int, str] = {}
        while True:
            yield state
            if GAME.is_over(state):
                break
            who = GAME.actors(state)
            if not who and rnd.random() < 0.3:  # a claim during the pause
                t = int(rnd.random() * players)
                if not state["out"][t]:
                    level = LEVEL_ORDER[int(rnd.random() * 3)]
                    try:
                        state, _ = GAME.apply(state, t, f"claim:{level}")
                    except IllegalAction:  # that combination is claimed
                        pass
                    else:
                        yield state
            seat = who[int(rnd.random() * len(who))] if who else None
            ids = GAME.legal_action_ids(state, seat)
            pick = ids[int(rnd.random() * len(ids))]
            fits = [a for a in ids if a.startswith("fit:")]
            if seat is not None and fits and rnd.random() < 0.8:
                pick = fits[0]
                fitted[seat] = pick[4:]
            elif seat in fitted and f"claim:{fitted[seat]}" in ids:
                pick = f"claim:{fitted.pop(seat)}"
            state, _ = GAME.apply(state, seat, pick)


def _c(state: Any, seat: Any) -> Any:
    assert C._native_observe is not None
    return C._native_observe(state, seat)


@native
def test_the_engine_uses_the_c_code() -> None:
    from gameplay.rules.kungfu2009 import _fastplay

    assert C._native_observe is _fastplay.observe


@native
@pytest.mark.parametrize(
    "config", [{}, {"severe": True}, {"remove": 1}], ids=["plain", "severe", "remove"]
)
@pytest.mark.parametrize("players", range(3, 9))
def test_c_observation_is_the_python_one(config: dict[str, Any], players: int) -> None:
    steps = 0
    seen = dict.fromkeys(("paused", "unseen", "out", "owe", "offers", "won"), 0)
    for state in _games(config, players, 2, players):
        over = state["result"] is not None
        copy = json.loads(json.dumps(state))
        for seat in [None, *range(players)]:
            expected = json.dumps(GAME._observe_py(state, seat))
            built = _c(state, seat)
            if over:  # a finished game's result is Python's to build
                assert built is None
                assert json.dumps(GAME.observe(state, seat)) == expected
                continue
            assert built is not None
            assert json.dumps(built) == expected, (config, players, seat, steps)
            assert json.dumps(_c(copy, seat)) == expected
        steps += 1
        seen["paused"] += state["phase"] == E.PAUSED
        seen["unseen"] += any(state["fresh"])
        seen["out"] += any(state["out"])
        seen["owe"] += any(state["owe"])
        seen["offers"] += bool(state["offers"])
        seen["won"] += any(state["won"])
    assert steps > 200
    # The games reach what the observation shows in its several ways.
    assert all(seen[k] for k in ("paused", "unseen", "out", "offers", "won")), seen
    if config.get("severe") and players >= 4:
        assert seen["owe"], seen


@native
def test_an_observation_owns_its_lists_and_dicts() -> None:
    """Editing one observation changes neither the state nor the next one."""
    for state in _games({}, 4, 1, 7):
        if state["offers"] and state["claims"] == [] and any(state["drafts"]):
            break
    seat = next(t for t, d in enumerate(state["drafts"]) if d is not None)
    frozen = json.dumps(state)
    obs = _c(state, seat)
    for key in ("actors", "hand_sizes", "in_play", "owes_forfeit", "won", "points"):
        obs[key].append(9)
    obs["won"][0].append("E01")
    obs["votes"].append(True)
    obs["offers"][0]["declined"].append(3)
    obs["offers"].append(None)
    obs["draft"]["give"] = "X"
    assert json.dumps(state) == frozen
    assert json.dumps(_c(state, seat)) == json.dumps(GAME._observe_py(state, seat))


@native
def test_the_views_kept_follow_the_state_not_the_last_call() -> None:
    """The C code keeps the last shared view (face-up, pile sizes, discard)
    with the facts it shows; it must show the state it is given, also when
    a caller changed that state in place after observing it."""
    state = make_state(["TTTMC", "MMCRR", "CCRRT", "RRTTM"], disc="TT")
    before = _c(state, 0)
    assert before["discard"]["T"] == 2
    state["disc"] = "TTM"
    state["up"]["easy"] = "E02"
    state["piles"]["normal"].pop()
    state["won"][1] = ["E03"]
    state["fresh"][0] = 2
    after = _c(state, 0)
    assert after["discard"]["T"] == 2 and after["discard"]["M"] == 1
    assert after["face_up"]["easy"]["code"] == "E02"
    assert after["piles"]["normal"] == before["piles"]["normal"] - 1
    assert after["hand"] == "TTT" and after["unseen"] == 2
    assert json.dumps(after) == json.dumps(GAME._observe_py(state, 0))


@native
def test_a_state_with_its_fields_in_another_order_reads_the_same() -> None:
    """The C code reads a state's fields in one pass when they are in
    ``setup``'s order, else one by one: both give the same observation."""
    for state in _games({"severe": True}, 5, 1, 3):
        if state["offers"] and any(state["won"]):
            break
    shuffled = dict(sorted(state.items()))
    extra = {**state, "note": 1}
    del extra["closed"]
    for seat in [None, *range(5)]:
        expected = json.dumps(GAME._observe_py(state, seat))
        assert json.dumps(_c(state, seat)) == expected
        assert json.dumps(_c(shuffled, seat)) == expected
        assert json.dumps(_c(extra, seat)) == expected


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
        lambda s: s["out"].__setitem__(0, 0),
        lambda s: s["owe"].__setitem__(1, None),
        lambda s: s["fresh"].__setitem__(0, 9),
        lambda s: s["won"].__setitem__(0, ["nowhere"]),
        lambda s: s["cfg"].__setitem__("severe", 1),
        lambda s: s["cfg"].__setitem__("impasse_limit", True),
        lambda s: s["up"].pop("easy"),
        lambda s: s.__setitem__("phase", 1),
        lambda s: s.__setitem__("offers", [{"id": 1}]),
        lambda s: s.__setitem__("claims", [("claim",)]),
        lambda s: s.__setitem__("deck", list(s["deck"])),
    ],
)
def test_a_malformed_state_is_declined(edit: Any) -> None:
    """Declined, so ``observe`` does what the Python reference does with it
    (an error, or an observation of what is there)."""
    state = GAME.clone(GAME.setup({"players": 4}, 3))
    assert _c(state, 0) is not None
    edit(state)
    assert _c(state, 0) is None
    observe_as_python(GAME, state, 0)


def test_observe_without_the_c_code_is_the_python_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fallback when the extension is not built (or declines)."""
    # ``observe`` reads the engine module's own name (a global, for speed).
    monkeypatch.setattr(E, "_native_observe", None)
    for state in _games({}, 4, 1, 1):
        for seat in (None, 0, 1, 2, 3):
            assert GAME.observe(state, seat) == GAME._observe_py(state, seat)
