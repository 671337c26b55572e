"""Kung Fu (2019): the draft's and the play's steps and menus built in C
(``_fastassign.c``'s commit.h, ``step`` and ``ids``) are exactly Python's
``apply`` and ``_ids``: the menus for every seat, and at
every draft and play state of seeded random games at every table size (with
and without the draft; 2 players with the dummy), for every seat and every
card's pick and play id, the C step either gives the state and events
Python gives (the same JSON, also from a JSON copy of the state), leaving
the state it was given as it was, or declines: then the step is illegal
(Python raises), or it is the draft's last pass, a reveal with tied
initiative totals, or a first fight rolled from stacked dice or with nobody
to assign. Skipped only when the optional extension is not built."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from gameplay.rules.errors import IllegalAction
from gameplay.rules.kungfu2019 import engine as E
from gameplay.rules.kungfu2019 import handlers as H
from gameplay.rules.kungfu2019 import native as N

GAME = E.KungFu2019Game()
native = pytest.mark.skipif(
    N._native_step is None, reason="the C extension is not built"
)
IDS = sorted({*E.PICK_ID.values(), *E.PLAY_ID.values()})


def _states(config: dict[str, Any], count: int, seed: int) -> Iterator[Any]:
    """Every draft and play state of ``count`` seeded uniform random games."""
    rnd = random.Random(seed)
    for index in range(count):
        state = GAME.setup(config, seed * 1000 + index)
        while True:
            if state["phase"] in (E.DRAFT, E.PLAYING):
                yield state
            who = GAME.actors(state)
            if not who:
                break
            seat = who[int(rnd.random() * len(who))]
            ids = GAME.legal_action_ids(state, seat)
            state, _ = GAME.apply(state, seat, ids[int(rnd.random() * len(ids))])


def _may_decline(state: Any, events: list[Any]) -> bool:
    """Whether a legal step is one the C code leaves to Python."""
    types = [e["type"] for e in events]
    if "status" in types:  # the draft's last pass
        return True
    reveal = next((e for e in events if e["type"] == "reveal"), None)
    if reveal is None:
        return False
    stacked = state["di"] < len(state["cfg"]["dice"])
    return reveal["public"]["tiebreak"] is not None or stacked or "fight" in types


def _check(
    config: dict[str, Any], seed: int, monkeypatch: pytest.MonkeyPatch
) -> dict[str, int]:
    from gameplay.rules.kungfu2019 import _fastassign

    c_step, c_ids = _fastassign.step, _fastassign.ids
    monkeypatch.setattr(E, "_native_step", None)  # apply: the Python steps
    counts = {"applied": 0, "reveals": 0, "passes": 0, "declined": 0, "illegal": 0}
    players = config["players"]
    for state in _states(config, 2, seed):
        before = json.dumps(state)
        for seat in range(players):
            assert c_ids(state, seat) == H._ids(state, seat)
            legal = set(H._ids(state, seat))
            for aid in IDS:
                done = c_step(state, seat, aid)
                assert json.dumps(state) == before
                if aid not in legal:
                    assert done is None, aid
                    counts["illegal"] += 1
                    with pytest.raises(IllegalAction):
                        GAME.apply(state, seat, aid)
                    continue
                expected = GAME.apply(state, seat, aid)
                if done is None:
                    assert _may_decline(state, expected[1]), aid
                    counts["declined"] += 1
                    continue
                assert json.dumps(done) == json.dumps(expected), aid
                again = c_step(json.loads(before), seat, aid)
                assert json.dumps(again) == json.dumps(expected), aid
                counts["applied"] += 1
                types = [e["type"] for e in done[1]]
                counts["reveals"] += "reveal" in types
                counts["passes"] += "draft_pass" in types
    return counts


@native
@pytest.mark.parametrize("players", range(2, 6))
@pytest.mark.parametrize("draft", [True, False])
def test_c_draft_and_play_steps_are_pythons(
    players: int, draft: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = _check({"players": players, "draft": draft}, players, monkeypatch)
    assert counts["applied"] > 100 and counts["illegal"] > 1000
    assert counts["reveals"] > 3
    # (the draft's last pass is always declined: Python's)
    assert (counts["passes"] > 10 and counts["declined"] > 0) or not draft


@native
def test_stacked_dice_are_declined_at_the_reveal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rolls = [[(i * 5 + j) % 6 + 1 for j in range(7)] for i in range(40)]
    config = {"players": 3, "draft": False, "dice": rolls}
    counts = _check(config, 7, monkeypatch)
    assert counts["applied"] > 50 and counts["declined"] > 3


@native
@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s.__setitem__("n", True),
        lambda s: s.__setitem__("hands", s["hands"][:-1]),
        lambda s: s.__setitem__("commit", [7] * s["n"]),
        lambda s: s.__setitem__("elim", None),
        lambda s: s.__setitem__("rules_version", "kungfu2019-0"),
        lambda s: s.__setitem__("phase", "over"),
    ],
)
def test_a_malformed_state_is_declined(edit: Any) -> None:
    state = GAME.setup({"players": 4, "draft": False}, 8)
    assert N._native_step is not None
    aid = GAME.legal_action_ids(state, 0)[0]
    assert N._native_step(state, 0, aid) is not None
    edit(state)
    assert N._native_step(state, 0, aid) is None


@native
@pytest.mark.parametrize("seat", [-1, 4, True, 0.0, None])
def test_an_invalid_seat_is_declined(seat: Any) -> None:
    state = GAME.setup({"players": 4}, 8)
    assert N._native_step is not None and N._native_ids is not None
    assert N._native_step(state, seat, GAME.legal_action_ids(state, 0)[0]) is None
    assert N._native_ids(state, seat) is None
    assert GAME.legal_action_ids(state, seat) == []


class _Refuses:
    """A value whose truth raises: a malformed record's ``done``."""

    def __bool__(self) -> bool:
        raise ZeroDivisionError("no truth")


@native
def test_an_error_raised_reading_the_state_is_raised_not_declined() -> None:
    # (a None returned with the error still set would be a SystemError)
    state = GAME.setup({"players": 3, "draft": False}, 8)
    while state["phase"] != E.ASSIGN:
        seat = GAME.actors(state)[0]
        state, _ = GAME.apply(state, seat, GAME.legal_action_ids(state, seat)[0])
    seat = GAME.actors(state)[0]
    fight = dict(state["fight"], asg=state["fight"]["asg"][:])
    fight["asg"][seat] = dict(fight["asg"][seat], done=_Refuses())
    state = dict(state, fight=fight)
    assert N._native_step is not None and N._native_ids is not None
    with pytest.raises(ZeroDivisionError):
        N._native_ids(state, seat)
    with pytest.raises(ZeroDivisionError):
        N._native_step(state, seat, "done")
