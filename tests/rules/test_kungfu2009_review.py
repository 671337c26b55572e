"""Kung Fu (2009)'s claim and trade review (the real-time game's analysis)."""

from __future__ import annotations

from gameplay.rules.analysis import Step
from gameplay.rules.kungfu2009.review import review
from tests.rules.kungfu2009_helpers import GAME, make_state
from tests.rules.test_kungfu2009_rules import UP


def _review(start, steps):
    return review(
        game=GAME,
        config={"players": 4},
        seed=1,
        steps=[
            Step(v + 1, seat, aid, at_ms) for v, (seat, aid, at_ms) in enumerate(steps)
        ],
        start=start,
    )


def test_a_late_claim_is_missed_and_a_wrong_claim_is_listed() -> None:
    # Both seats 0 and 1 hold the face-up easy combination's cards from the
    # start; seat 0 claims at once but unarranged (wrong), seat 1 after 8 s.
    start = make_state(["TTMTC", "TTTMR", "CCCCC", "RRRRR"], up=UP, deck="M" * 12)
    out = _review(
        start,
        [(0, "claim:easy", 1000), (None, "check", 3000),
         (1, "claim:easy", 8000), (None, "check", 10000)],
    )  # fmt: skip
    assert [
        (m["seat"], m["held_ms"], m["claimed_late"]) for m in out["missed_claims"]
    ] == [(1, 8000, True)]
    assert [(w["seat"], w["version"]) for w in out["wrong_claims"]] == [(0, 2)]
    assert out["summary"]["0"] == {
        "missed_claims": 0,
        "wrong_claims": 1,
        "trades_away": 0,
    }
    assert out["summary"]["1"]["missed_claims"] == 1


def test_a_claim_within_the_window_is_not_missed() -> None:
    start = make_state(
        ["TTTMC", "MMC", "CC", "RRRRRR"], up=UP, deck="MMMMCCCCRRRR" + "T" * 9
    )
    quick = _review(start, [(0, "claim:easy", 500), (None, "check", 2500)])
    assert quick["missed_claims"] == [] and quick["wrong_claims"] == []
