"""Kung Fu (2009)'s ``timers``: what the engine asks the live platform to apply
when (docs/rules/kungfu2009.md, "Timeouts and defaults"). The engine reads no
clock: a timer is a key, a seat (None = the table), an action and a delay."""

from __future__ import annotations

import json

from tests.rules.kungfu2009_helpers import GAME, act, make_state, offer

UP = {"easy": "E01", "normal": "N01", "difficult": "D01"}


def by_key(state) -> dict:
    timers = GAME.timers(state)
    assert json.loads(json.dumps(timers)) == timers
    return {t["key"]: t for t in timers}


def test_a_fresh_game_has_only_the_time_limit() -> None:
    s = make_state(["TTTMC", "MMCRR", "CCCCR", "RRRTM"], up=UP, minutes=7)
    assert by_key(s) == {
        "end": {"key": "end", "seat": None, "action": "end", "delay": 420.0}
    }


def test_each_timer_is_a_legal_action_of_its_seat_when_it_is_listed() -> None:
    s = make_state(["TTTMC", "MMCRR", "CCCCR", "RRRTM"], up=UP)
    s, _ = offer(s, 0, "all", "give:T")
    s, _ = act(s, 1, "to:2")
    for t in GAME.timers(s):
        assert t["action"] in GAME.legal_action_ids(s, t["seat"]), t


def test_an_offer_to_all_has_one_timer_per_player_who_has_not_answered() -> None:
    s = make_state(["TTTMC", "MMCRR", "CCCCR", "RRRTM"], up=UP)
    s, _ = offer(s, 0, "all", "give:T")
    s, _ = act(s, 2, "decline:1")
    timers = by_key(s)
    assert {k for k in timers if k.startswith("decline:")} == {
        "decline:1:1",
        "decline:1:3",
    }
    assert timers["decline:1:1"] == {
        "key": "decline:1:1",
        "seat": 1,
        "action": "decline:1",
        "delay": 20.0,
    }


def test_each_step_of_a_draft_gives_it_a_new_key() -> None:
    s = make_state(["TTTMC", "MMCRR", "CCCCR", "RRRTM"], up=UP)
    s, _ = act(s, 0, "to:1")
    first = {k for k in by_key(s) if k.startswith("cancel:0:")}
    s, _ = act(s, 0, "give:T")
    second = {k for k in by_key(s) if k.startswith("cancel:0:")}
    assert len(first) == len(second) == 1 and first != second
    assert by_key(s)[second.pop()]["delay"] == 30.0


def test_a_claim_has_a_check_timer_that_a_queued_claim_does_not_restart() -> None:
    s = make_state(["TTTMC", "MMCRR", "CCCCR", "RRRTM"], up=UP)
    s, _ = act(s, 0, "claim:easy")
    assert by_key(s)["check:0:easy"]["seat"] is None
    s, _ = act(s, 1, "claim:normal")
    keys = set(by_key(s))
    assert "check:0:easy" in keys and "check:1:normal" not in keys
    s, _ = act(s, None, "check")
    assert "check:1:normal" in by_key(s)


def test_over_means_no_timers() -> None:
    s = make_state(["TTTMC", "MMCRR", "CCCCR", "RRRTM"], up=UP)
    s, _ = act(s, None, "end")
    assert GAME.timers(s) == []
