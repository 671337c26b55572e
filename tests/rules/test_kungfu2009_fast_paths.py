"""Kung Fu (2009): the shortcuts of the engine's hot path (issue 33 §2) show
exactly what a fresh build shows.

``apply`` copies only the lists an intent changes (arranging a hand, building
an offer, a claim) and shares the others with the state before; ``observe``
and the menus keep views per value (the seats' out and owe flags, the hand,
the face-up codes, the pile sizes). A list shared and then edited, or a view
kept for facts that have changed since, would show here.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gameplay.rules.kungfu2009.menus import _FITS, _FITTABLE
from gameplay.rules.kungfu2009.observation import _FACE_UP, _PILE_SIZES, _SEAT_FACTS
from tests.rules.kungfu2009_helpers import GAME, make_state


def _random_game(seed: int, players: int, **config: Any) -> list[dict[str, Any]]:
    """Every state of a seeded uniform random game (the table checks claims)."""
    rnd = random.Random(seed)
    state = GAME.setup({"players": players, **config}, seed)
    states = [state]
    while not GAME.is_over(state):
        who = GAME.actors(state)
        seat = who[int(rnd.random() * len(who))] if who else None
        ids = GAME.legal_action_ids(state, seat)
        state, _ = GAME.apply(state, seat, ids[int(rnd.random() * len(ids))])
        states.append(state)
    return states


@pytest.mark.parametrize("seed", range(6))
def test_no_later_intent_edits_a_list_an_earlier_state_shares(seed: int) -> None:
    """Moves, offers being built and claims share the lists they do not
    change with the state before; every later intent must copy a list before
    editing it, so each state of a game still reads as it did when made."""
    players = 3 + seed
    rnd = random.Random(seed)
    state = GAME.setup({"players": players, "severe": seed % 2 == 1}, seed)
    made = [(state, json.dumps(state, sort_keys=True))]
    while not GAME.is_over(state):
        who = GAME.actors(state)
        seat = who[int(rnd.random() * len(who))] if who else None
        ids = GAME.legal_action_ids(state, seat)
        state, _ = GAME.apply(state, seat, ids[int(rnd.random() * len(ids))])
        made.append((state, json.dumps(state, sort_keys=True)))
    assert len(made) > 100
    for k, (state, frozen) in enumerate(made):
        assert json.dumps(state, sort_keys=True) == frozen, k


@pytest.mark.parametrize("seed", range(4))
def test_observations_and_menus_in_play_order_match_a_fresh_build(seed: int) -> None:
    """Every seat's observation and menu at every step (the views kept per
    value hit most of the time) against a JSON copy of the state, built with
    the views emptied first."""
    states = _random_game(100 + seed, 4 + seed)
    shown = [
        (state, seat, GAME.observe(state, seat), GAME.legal_action_ids(state, seat))
        for state in states
        for seat in [None, *range(state["n"])]
    ]
    for memo in (_FITS, _FITTABLE, _SEAT_FACTS, _FACE_UP, _PILE_SIZES):
        memo.clear()
    for state, seat, obs, ids in shown:
        copy = json.loads(json.dumps(state))
        assert GAME.observe(copy, seat) == obs
        assert GAME.legal_action_ids(copy, seat) == ids


def test_a_state_edited_after_it_was_observed_shows_the_edit() -> None:
    """The views are kept per value, never per object: a test position edited
    in place after it was observed (as position builders do) shows the edit
    in its next observation and menu."""
    s = make_state(["TTTMC", "MMCRR", "CCRRT", "RRTTM"], up={"easy": "E01"})
    first = GAME.observe(s, 0)
    assert first["actors"] == [0, 1, 2, 3] and first["in_play"] == [True] * 4
    assert "fit:easy" not in GAME.legal_action_ids(s, 0)  # TTTM arranged
    s["hands"][0] = "MTTTC"
    assert "fit:easy" in GAME.legal_action_ids(s, 0)  # the same cards, moved
    s["up"]["easy"] = "E07"  # MMMC: one M is not enough
    assert "fit:easy" not in GAME.legal_action_ids(s, 0)
    s["out"][2] = True
    again = GAME.observe(s, 0)
    assert again["actors"] == [0, 1, 3]
    assert again["in_play"] == [True, True, False, True]
    assert again["hand"] == "MTTTC"
    assert again["face_up"]["easy"]["code"] == "E07"
    menu = GAME.legal_action_ids(s, 0)
    assert "to:2" not in menu and "to:1" in menu
    copy = json.loads(json.dumps(s))
    assert again == GAME.observe(copy, 0)
    assert menu == GAME.legal_action_ids(copy, 0)


def test_a_menu_is_a_fresh_list_each_time() -> None:
    """The menu's parts come from kept tuples and lists; a caller appending to
    one menu changes neither the next menu nor another seat's."""
    s = make_state(["TTTMC", "MMCRR", "CCRRT", "RRTTM"])
    menu = GAME.legal_action_ids(s, 0)
    expected = list(menu)
    menu.append("scribbled")
    menu[0] = "scribbled"
    assert GAME.legal_action_ids(s, 0) == expected
    other = GAME.legal_action_ids(s, 1)
    assert "scribbled" not in other
