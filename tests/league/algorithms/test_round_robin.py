"""Berger round robin: published tables, completeness, seat balance."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from caissify_pairings.engines.round_robin import berger_schedule
from hypothesis import given
from hypothesis import strategies as st

from league.tournaments.formats.round_robin import (
    Pairing,
    berger_table,
    round_robin_rounds,
)

# FIDE Handbook C.05 Annex 1, Berger table for 5 or 6 players.
FIDE_SIX = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
FIDE_FOUR = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def test_published_tables():
    assert berger_table(6) == FIDE_SIX
    assert berger_table(4) == FIDE_FOUR


@pytest.mark.parametrize("n", range(2, 41, 2))
def test_matches_reference_berger_implementation(n):
    assert berger_table(n) == [list(r) for r in berger_schedule(n)]


def test_odd_field_gets_dummy_bye_listed_last():
    rounds = round_robin_rounds(["a", "b", "c", "d", "e"])
    assert len(rounds) == 5
    # Pairing number 6 is the dummy: round 1 is 1-6 (bye for a), 2-5, 3-4.
    assert rounds[0] == [
        Pairing(1, 1, "b", "e"),
        Pairing(1, 2, "c", "d"),
        Pairing(1, 3, "a", None),
    ]
    assert Counter(p.first for r in rounds for p in r if p.is_bye) == Counter("abcde")


def _seat_runs(rounds):
    seats: dict = {}
    for r in rounds:
        for p in r:
            if not p.is_bye:
                seats.setdefault(p.first, []).append("1")
                seats.setdefault(p.second, []).append("2")
    return seats


@given(st.integers(min_value=2, max_value=24), st.integers(min_value=1, max_value=3))
def test_completeness_and_balance(n, cycles):
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin_rounds(players, cycles=cycles)
    per_cycle = n - 1 if n % 2 == 0 else n
    assert len(rounds) == per_cycle * cycles
    for c in range(cycles):
        meetings = Counter()
        for r in rounds[c * per_cycle : (c + 1) * per_cycle]:
            seen = [x for p in r for x in (p.first, p.second) if x is not None]
            assert sorted(seen) == sorted(players)  # everyone exactly once a round
            assert sum(p.is_bye for p in r) == n % 2
            meetings.update(frozenset((p.first, p.second)) for p in r if not p.is_bye)
        # Every pair meets exactly once per cycle.
        assert set(meetings) == {
            frozenset(x) for x in itertools.combinations(players, 2)
        }
        assert set(meetings.values()) == {1}
    for seq in _seat_runs(rounds).values():
        text = "".join(seq)
        if cycles <= 2 or n != 4:  # four players, 3 cycles: see below
            assert "111" not in text and "222" not in text
        if cycles == 1:
            assert abs(text.count("1") - text.count("2")) <= 1
    if cycles == 2 and n > 2:
        # The second cycle swaps seats for every pair.
        games = [[p for p in r if not p.is_bye] for r in rounds]
        first_cycle = {(p.first, p.second) for r in games[:per_cycle] for p in r}
        second_cycle = {(p.second, p.first) for r in games[per_cycle:] for p in r}
        assert first_cycle == second_cycle


def test_double_cycle_without_reversal_repeats_seats_at_the_boundary():
    """Why the FIDE reversal exists: without it someone gets three in a row."""
    rounds = round_robin_rounds(list(range(6)), cycles=2, reverse_last_two_rounds=False)
    runs = ["".join(seq) for seq in _seat_runs(rounds).values()]
    assert any("111" in r or "222" in r for r in runs)


def test_four_player_double_cycle_swaps_the_last_two_rounds_of_cycle_one_only():
    """FIDE C.05 Annex 1: only the first cycle's rounds 2 and 3 change places.

    Berger, four players: R1 1-4 2-3, R2 4-3 1-2, R3 2-4 3-1. Cycle one is
    played R1 R3 R2, cycle two R1 R2 R3 with seats swapped, so nobody has the
    same seat three times in a row (reversing in both cycles gave two players
    such a run).
    """
    rounds = round_robin_rounds([1, 2, 3, 4], cycles=2)
    pairs = [[(p.first, p.second) for p in r] for r in rounds]
    assert pairs == [
        [(1, 4), (2, 3)],
        [(2, 4), (3, 1)],
        [(4, 3), (1, 2)],
        [(4, 1), (3, 2)],
        [(3, 4), (2, 1)],
        [(4, 2), (1, 3)],
    ]
    runs = {p: "".join(seq) for p, seq in _seat_runs(rounds).items()}
    assert runs == {1: "121221", 2: "112212", 3: "212112", 4: "221121"}
    assert not any("111" in r or "222" in r for r in runs.values())


def test_four_players_three_cycles_keep_two_runs():
    """Documented limit of the every-cycle-but-the-last rule (FIDE stops at two)."""
    rounds = round_robin_rounds(list(range(4)), cycles=3)
    runs = ["".join(seq) for seq in _seat_runs(rounds).values()]
    assert sum("111" in r or "222" in r for r in runs) == 2


def test_rejects_bad_input():
    with pytest.raises(ValueError):
        round_robin_rounds(["a"])
    with pytest.raises(ValueError):
        round_robin_rounds(["a", "a"])
    with pytest.raises(ValueError):
        round_robin_rounds(["a", "b"], cycles=0)
    with pytest.raises(ValueError):
        berger_table(5)
