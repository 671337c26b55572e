"""Matchpoints of duplicate events, computed by hand (league/duplicate/scoring.py)."""

from __future__ import annotations

import pytest

from league.duplicate.scoring import (
    PAR,
    SeatResult,
    score_results,
    seat_order,
    standings,
)


def test_three_results_and_par_in_one_seat_scored_by_hand() -> None:
    # One seat of one deal: A 1st, B 2nd, C 2nd, par 3rd (a four-player game).
    group = [
        SeatResult(0, 2, "A", 1),
        SeatResult(0, 2, "B", 2),
        SeatResult(0, 2, "C", 2),
        SeatResult(0, 2, PAR, 3),
    ]
    scored = {s.player: s for s in score_results(group)}
    # A beats B, C and par: 3 of 3.
    assert scored["A"].matchpoints == 3 and scored["A"].top == 3
    # B: below A (0), equal to C (1/2), above par (1) = 1.5; C likewise.
    assert scored["B"].matchpoints == 1.5 and scored["C"].matchpoints == 1.5
    assert [scored[p].versus_par for p in "ABC"] == [1, 1, 1]
    assert PAR not in scored  # par is compared, never ranked


def test_groups_are_per_deal_and_seat_and_ranks_share_ties() -> None:
    results = [
        # deal 0 seat 0: A 1st, D 2nd, par 1st; seat 1: B 2nd, C 1st, par 2nd
        SeatResult(0, 0, "A", 1),
        SeatResult(0, 0, "D", 2),
        SeatResult(0, 0, PAR, 1),
        SeatResult(0, 1, "B", 2),
        SeatResult(0, 1, "C", 1),
        SeatResult(0, 1, PAR, 2),
    ]
    rows = {r.player: r for r in standings(results, players="ABCD")}
    # A: beats D (1), equals par (1/2) = 1.5 of 2; D: 0 of 2.
    # B: below C (0), equals par (1/2) = 0.5; C: beats both = 2.
    assert {p: rows[p].matchpoints for p in "ABCD"} == {
        "A": 1.5,
        "B": 0.5,
        "C": 2.0,
        "D": 0.0,
    }
    assert [rows[p].rank for p in "CABD"] == [1, 2, 3, 4]
    assert rows["A"].percent == pytest.approx(75.0)
    assert (rows["A"].above_par, rows["A"].level_with_par) == (0, 1)
    assert rows["D"].below_par == 1


def test_a_lone_result_without_par_has_no_comparison() -> None:
    rows = standings([SeatResult(0, 0, "A", 1)], players=["A", "B"])
    assert rows[0].top == 0 and rows[0].percent == 0.0
    assert rows[0].results[0].versus_par is None
    # Equal percentages and matchpoints share a rank; join order lists them.
    assert [(r.player, r.rank) for r in rows] == [("A", 1), ("B", 1)]


def test_seats_rotate_by_table_and_deal() -> None:
    assert seat_order(["A", "B"], table=1, deal=0) == ["A", "B"]
    assert seat_order(["A", "B"], table=1, deal=1) == ["B", "A"]
    assert seat_order(["C", "D"], table=2, deal=0) == ["D", "C"]
    assert seat_order(["A", "B", "C"], table=1, deal=2) == ["C", "A", "B"]


def test_tables_fill_empty_seats_with_bots_from_the_last_table_up() -> None:
    from league.duplicate.services import seat_tables

    assert seat_tables([1, 2, 3, 4], size=2) == [[1, 2], [3, 4]]
    assert seat_tables([1, 2, 3], size=2) == [[1, 2], [3, None]]
    # Five players at tables of four: 3 + 2, never a table of one.
    assert seat_tables([1, 2, 3, 4, 5], size=4) == [
        [1, 2, 3, None],
        [4, 5, None, None],
    ]
    assert seat_tables([1, 2, 3, 4, 5, 6, 7], size=4) == [
        [1, 2, 3, 4],
        [5, 6, 7, None],
    ]
    # Nine at tables of four: three tables of 3 + 3 + 3.
    assert seat_tables(list(range(1, 10)), size=4) == [
        [1, 2, 3, None],
        [4, 5, 6, None],
        [7, 8, 9, None],
    ]
