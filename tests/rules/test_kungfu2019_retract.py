"""Kung Fu (2019): taking back a hidden commit while the others still choose.

``retract_actions`` offers the take-backs (draft pick, played cards, a finished
dice assignment) beside the menu; ``apply`` accepts them; the last commit of
all reveals at once, after which nothing can be taken back.
"""

from __future__ import annotations

import json

import pytest

from gameplay.rules import IllegalAction, view_events
from tests.rules.kungfu2019_helpers import GAME, deal


def test_a_draft_pick_is_taken_back_into_the_pack_and_chosen_again() -> None:
    state = GAME.setup({"players": 3}, seed=11)
    pack = GAME.observe(state, 0)["draft"]["pack"]
    assert GAME.retract_actions(state, 0) == []
    state, _ = GAME.apply(state, 0, f"pick:{pack[0]}")
    assert GAME.actors(state) == [1, 2]
    assert [a["id"] for a in GAME.retract_actions(state, 0)] == ["unpick"]
    # The take-back is not part of the menu bots and timeouts choose from.
    assert GAME.legal_action_ids(state, 0) == []
    state, events = GAME.apply(state, 0, "unpick")
    assert GAME.actors(state) == [0, 1, 2]
    assert GAME.observe(state, 0)["draft"]["pack"] == pack
    # Others learn that seat 0 took its pick back, never which card.
    assert view_events(events, 1) == [
        {"type": "unpick", "public": {"seat": 0}, "private": {}}
    ]
    assert pack[0] not in json.dumps(GAME.observe(state, 1))
    state, _ = GAME.apply(state, 0, f"pick:{pack[1]}")
    assert GAME.observe(state, 0)["draft"]["pick"] == pack[1]


def test_the_last_pick_passes_the_packs_so_nothing_is_left_to_take_back() -> None:
    state = GAME.setup({"players": 2}, seed=3)
    for seat in (0, 1):
        state, _ = GAME.apply(state, seat, GAME.legal_action_ids(state, seat)[0])
    assert GAME.retract_actions(state, 0) == []
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, "unpick")


def test_played_cards_are_taken_back_one_by_one_until_everyone_has_played() -> None:
    state = deal([["c01", "c02", "c03"], ["c04", "c05", "c06"]], dummy=[])
    for code in ("c01", "c02", "c03"):
        state, _ = GAME.apply(state, 0, f"play:{code}")
    assert 0 not in GAME.actors(state)
    ids = [a["id"] for a in GAME.retract_actions(state, 0)]
    assert ids == ["unplay:c01", "unplay:c02", "unplay:c03"]
    state, events = GAME.apply(state, 0, "unplay:c02")
    assert GAME.actors(state) == [0, 1]
    assert GAME.observe(state, 0)["commits"]["mine"] == ["c01", "c03"]
    assert "c02" in GAME.observe(state, 0)["hand"]
    assert GAME.observe(state, None)["commits"]["counts"] == [2, 0]
    assert "c02" not in json.dumps(view_events(events, 1))
    state, _ = GAME.apply(state, 0, "play:c02")
    for code in ("c04", "c05", "c06"):
        state, _ = GAME.apply(state, 1, f"play:{code}")
    # Revealed: the round's plays are public and no longer retractable.
    assert GAME.observe(state, None)["played"][0] == ["c01", "c03", "c02"]
    assert GAME.retract_actions(state, 0) == []
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, "unplay:c01")


def test_a_finished_dice_assignment_reopens_while_another_fighter_assigns() -> None:
    state = GAME.setup({"players": 3, "draft": False}, seed=5)
    while GAME.observe(state, None)["phase"] != "assign":
        seat = GAME.actors(state)[0]
        state, _ = GAME.apply(state, seat, GAME.legal_action_ids(state, seat)[0])
    fighters = GAME.actors(state)
    assert len(fighters) >= 2
    first = fighters[0]
    state, _ = GAME.apply(state, first, "auto")
    assert first not in GAME.actors(state)
    assert [a["id"] for a in GAME.retract_actions(state, first)] == ["reopen"]
    mine = GAME.observe(state, first)["fight"]["mine"]
    state, events = GAME.apply(state, first, "reopen")
    assert first in GAME.actors(state)
    reopened = GAME.observe(state, first)["fight"]["mine"]
    assert reopened == {**mine, "done": False}
    assert view_events(events, fighters[1])[0]["private"] == {}
    assert GAME.legal_action_ids(state, first)[0] == "auto"
