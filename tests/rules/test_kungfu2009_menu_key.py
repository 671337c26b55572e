"""``menu_key`` names everything a seat's menu depends on (Kung Fu (2009)).

Live tables rebuild a seat's menu only when its key changed
(``gameplay.frames.seat_menu``), so a key that left out something the menu
reads would send a stale menu. Over seeded random games (every seat, every
step, through offers, trades, claims, punishments and forfeits): states with
one key give one menu, and a seat's key changes whenever its menu does.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gameplay.rules.kungfu2009 import KungFu2009Game
from tests.rules.kungfu2009_helpers import GAME

assert isinstance(GAME, KungFu2009Game)
KEYED: KungFu2009Game = GAME  # the engine's own class: it has ``menu_key``


def _playout(players: int, seed: int, steps: int = 500) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    state = GAME.setup({"players": players}, seed)
    states = [state]
    for _ in range(steps):
        if GAME.is_over(state):
            break
        actors = GAME.actors(state)
        if actors:
            seat: int | None = rng.choice(actors)
            ids = [a for a in GAME.legal_action_ids(state, seat) if a != "pass"]
        else:
            seat = None
            ids = GAME.legal_action_ids(state, None)
        if not ids:
            continue
        state, _ = GAME.apply(state, seat, rng.choice(ids))
        states.append(state)
    return states


@pytest.mark.parametrize("players,seed", [(3, 1), (4, 2), (6, 3), (8, 4), (8, 5)])
def test_one_key_one_menu_and_a_changed_menu_changes_the_key(
    players: int, seed: int
) -> None:
    menus: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    kinds: set[str] = set()
    last: dict[int, tuple[tuple[Any, ...], list[dict[str, Any]]]] = {}
    changed = 0
    for state in _playout(players, seed):
        for seat in range(players):
            key = KEYED.menu_key(state, seat)
            menu = GAME.legal_actions(state, seat)
            kinds.update(a["type"] for a in menu)
            assert menus.setdefault(key, menu) == menu, (seat, key)
            before = last.get(seat)
            if before is not None and before[1] != menu:
                changed += 1
                assert before[0] != key
            last[seat] = (key, menu)
    # The games went through the parts of the menu that read other seats.
    assert changed > 0
    assert {"accept", "withdraw", "give", "want", "claim", "move"} <= kinds


def test_the_key_tells_apart_what_only_the_labels_read() -> None:
    # A face-up combination replaced at one level: the same ids
    # ("claim:<level>"), another label; the key must differ.
    state = GAME.setup({"players": 4}, 9)
    other = state["piles"]["easy"][0]
    assert other != state["up"]["easy"]
    changed = {**state, "up": {**state["up"], "easy": other}}
    ids = GAME.legal_action_ids(state, 0)
    assert GAME.legal_action_ids(changed, 0) == ids and "claim:easy" in ids
    assert GAME.legal_actions(changed, 0) != GAME.legal_actions(state, 0)
    assert KEYED.menu_key(changed, 0) != KEYED.menu_key(state, 0)


@pytest.mark.parametrize("players,seed", [(4, 6), (8, 7), (8, 8)])
def test_the_key_changes_only_when_the_menu_does(players: int, seed: int) -> None:
    # The key is what spares a live table's frames a rebuild: one that also
    # changed with what the menu does not show (another seat's hand being
    # rearranged while it has an offer out, an offer to someone else) made
    # every seat's menu be built again for most steps.
    last: dict[int, tuple[Any, list[dict[str, Any]]]] = {}
    steps_with_a_change = 0
    for state in _playout(players, seed, steps=300):
        for seat in range(players):
            key = KEYED.menu_key(state, seat)
            menu = GAME.legal_actions(state, seat)
            before = last.get(seat)
            if before is not None:
                assert (before[0] != key) == (before[1] != menu), (seat, menu)
                steps_with_a_change += before[1] != menu
            last[seat] = (key, menu)
    assert steps_with_a_change > 0


def test_another_seats_rearranging_keeps_the_key() -> None:
    # Seat 1 has an offer out to everyone; it moving its own cards changes
    # nothing seat 0 may do with that offer, so seat 0's key stays.
    state = GAME.setup({"players": 4}, 12)
    for action in ("to:all", "give:" + state["hands"][1][0], "send"):
        state, _ = GAME.apply(state, 1, action)
    assert any(o["from"] == 1 for o in state["offers"])
    key = KEYED.menu_key(state, 0)
    moved, _ = GAME.apply(state, 1, "move:0:1")
    assert moved["hands"][1] != state["hands"][1]
    assert GAME.legal_actions(moved, 0) == GAME.legal_actions(state, 0)
    assert KEYED.menu_key(moved, 0) == key
