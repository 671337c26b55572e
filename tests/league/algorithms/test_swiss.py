"""Two-player Swiss: pairing rules, invariants, standings, FIDE Dutch comparison."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.tournaments.formats.swiss import (
    SwissGame,
    SwissPairingError,
    colour_preference,
    pair_swiss_round,
    player_records,
    swiss_standings,
)
from tests.league.algorithms.dutch_reference import (
    compare,
    no_complete_pairing,
    pairable,
)


def _pairs(pairings):
    return [(p.first, p.second) for p in pairings]


def test_round_one_top_half_meets_bottom_half_with_alternating_seats():
    pairings = pair_swiss_round(list(range(1, 9)), [])
    assert _pairs(pairings) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert [p.table for p in pairings] == [1, 2, 3, 4]
    assert {p.round for p in pairings} == {1}


def test_round_one_odd_field_bye_to_last_seed():
    pairings = pair_swiss_round(list(range(1, 8)), [])
    assert _pairs(pairings) == [(1, 4), (5, 2), (3, 6), (7, None)]
    assert pairings[-1].is_bye and pairings[-1].table == 4


def test_round_two_by_hand():
    """Round 1: 1-5 1-0, 6-2 0-1, 3-7 draw, 8-4 0-1.

    Groups {1, 2, 4} (1 point), {3, 7} (half), {5, 6, 8}. Top group: S1 = {1},
    S2 = {2, 4}: 1 meets 2 and 4 floats down to meet 3, the top of the next
    group; 7 floats to the last group and meets 6 rather than 5 because 7 and
    5 both want the first seat. Seats alternate from round 1 (the player who
    had the second seat gets the first), boards by score.
    """
    history = [
        SwissGame(1, 1, 5, 1.0),
        SwissGame(1, 6, 2, 0.0),
        SwissGame(1, 3, 7, 0.5),
        SwissGame(1, 8, 4, 0.0),
    ]
    pairings = pair_swiss_round(list(range(1, 9)), history)
    assert _pairs(pairings) == [(2, 1), (4, 3), (7, 6), (5, 8)]
    assert [p.round for p in pairings] == [2, 2, 2, 2]


def test_colour_preference_strengths():
    assert colour_preference([]) == (None, 0)
    assert colour_preference(["1"]) == ("2", 2)
    assert colour_preference(["1", "2"]) == ("1", 1)
    assert colour_preference(["2", "1"]) == ("2", 1)
    assert colour_preference(["2", "1", "1"]) == ("2", 3)
    assert colour_preference(["1", "2", "1"]) == ("2", 2)
    assert colour_preference(["2", "2", "1", "2"]) == ("1", 3)


def test_seat_allocation_rules():
    history = [
        SwissGame(1, "a", "x", 1.0),
        SwissGame(1, "y", "b", 0.0),
        SwissGame(2, "a", "y", 1.0),  # a: 1,1 -> absolute "2"
        SwissGame(2, "b", "x", 1.0),  # b: 2,1 -> mild "2"
    ]
    pairings = pair_swiss_round(["a", "b", "x", "y"], history)
    by_pair = {frozenset((p.first, p.second)): p for p in pairings}
    # a (absolute) beats b (mild): a gets the second seat.
    ab = by_pair[frozenset(("a", "b"))]
    assert (ab.first, ab.second) == ("b", "a")


def test_no_rematch_possible_raises():
    history = [SwissGame(1, "a", "b", 1.0)]
    with pytest.raises(SwissPairingError):
        pair_swiss_round(["a", "b"], history)
    with pytest.raises(ValueError):
        pair_swiss_round(["a"], [])
    with pytest.raises(ValueError):
        pair_swiss_round(["a", "a"], [])


def test_forfeit_is_no_meeting_and_gives_no_seat():
    history = [SwissGame(1, "a", "b", 1.0, forfeit=True)]
    records = player_records(history)
    assert records["a"].score == 1.0 and records["b"].score == 0.0
    assert records["a"].seats == [] and "b" not in records["a"].opponents
    # The two may meet again: with only two players they must.
    assert _pairs(pair_swiss_round(["a", "b"], history)) in ([("a", "b")], [("b", "a")])


def test_history_rejects_a_player_twice_in_a_round():
    with pytest.raises(ValueError):
        player_records([SwissGame(1, "a", "b", 1.0), SwissGame(1, "a", "c", 1.0)])


# ---------------------------------------------------------------------------
# Invariants over generated tournaments


def _check_round(players, history, pairings):
    records = player_records(history)
    for p in players:
        records.setdefault(p, type(next(iter(records.values())))() if records else None)
    seen = [x for p in pairings for x in (p.first, p.second) if x is not None]
    assert sorted(seen) == sorted(players)  # everyone exactly once
    byes = [p.first for p in pairings if p.is_bye]
    assert len(byes) == len(players) % 2
    assert [p.table for p in pairings] == list(range(1, len(pairings) + 1))
    assert all(not p.is_bye for p in pairings[: len(pairings) - len(byes)])

    def rec(p):
        return records.get(p)

    def met(a, b):
        return rec(a) is not None and b in rec(a).opponents

    for p in pairings:
        if not p.is_bye:
            assert not met(p.first, p.second), "rematch"

    def score(p):
        return rec(p).score if rec(p) else 0.0

    levels = sorted({score(p) for p in players}, reverse=True)
    group = {p: levels.index(score(p)) for p in players}

    def no_rematch(a, b):
        return not met(a, b)

    def had_bye(p):
        return rec(p) is not None and rec(p).byes > 0

    if byes:
        bye = byes[0]

        def can_sit_out(p):
            return pairable([q for q in players if q != p], no_rematch)

        # At most one bye per player unless no fresh player can sit out.
        if had_bye(bye):
            assert not any(can_sit_out(p) for p in players if not had_bye(p))
        # The bye goes to the lowest score group that can take it.
        lower = [
            p
            for p in players
            if group[p] > group[bye] and had_bye(p) <= had_bye(bye) and can_sit_out(p)
        ]
        assert not lower, f"bye to group {group[bye]}, {lower} could sit out"
    # Pairs come from the same or adjacent score groups unless no pairing of
    # the same bye level allows it without an absolute seat clash.
    far = [
        p
        for p in pairings
        if not p.is_bye and abs(group[p.first] - group[p.second]) > 1
    ]
    if far:
        prefs = {p: colour_preference(rec(p).seats if rec(p) else []) for p in players}

        def clash(a, b):
            (wa, ka), (wb, kb) = prefs[a], prefs[b]
            return wa is not None and wa == wb and ka == 3 and kb == 3

        def near(a, b):
            return (
                no_rematch(a, b) and abs(group[a] - group[b]) <= 1 and not clash(a, b)
            )

        candidates = [None]
        if byes:
            level = (had_bye(byes[0]), group[byes[0]])
            candidates = [q for q in players if (had_bye(q), group[q]) == level]
        for sit_out in candidates:
            rest = [q for q in players if q != sit_out]
            assert not pairable(rest, near), "far pair although adjacent pairing exists"


tournament_st = st.tuples(
    st.integers(min_value=2, max_value=16),
    st.integers(min_value=1, max_value=9),
    st.integers(min_value=0, max_value=2**32 - 1),
)


@given(tournament_st)
@settings(max_examples=int(os.environ.get("SWISS_EXAMPLES", "120")), deadline=None)
def test_swiss_invariants(case):
    n, rounds, seed = case
    rnd = random.Random(seed)
    players = [f"p{i:02d}" for i in range(n)]
    history: list[SwissGame] = []
    for r in range(1, rounds + 1):
        try:
            pairings = pair_swiss_round(players, history)
        except SwissPairingError:
            assert no_complete_pairing_str(players, history)
            return
        _check_round(players, history, pairings)
        for p in pairings:
            if p.is_bye:
                history.append(SwissGame(r, p.first, None, 1.0))
            else:
                history.append(
                    SwissGame(r, p.first, p.second, rnd.choice((1.0, 0.5, 0.0)))
                )
    standings = swiss_standings(players, history)
    assert [s.rank for s in standings] == list(range(1, n + 1))
    scores = [s.score for s in standings]
    assert scores == sorted(scores, reverse=True)
    assert sum(s.score for s in standings) == pytest.approx(
        sum(g.first_points + (g.second_points or 0) for g in history)
    )


def no_complete_pairing_str(players, history):
    index = {p: i for i, p in enumerate(players)}
    mapped = [
        SwissGame(
            g.round,
            index[g.first],
            None if g.second is None else index[g.second],
            g.first_points,
            g.second_points,
            g.forfeit,
        )
        for g in history
    ]
    return no_complete_pairing(list(range(len(players))), mapped)


# ---------------------------------------------------------------------------
# Standings and tiebreaks


def test_standings_hand_computed():
    """Four players, three rounds, one draw.

    R1: A-B 1-0, C-D 1/2; R2: A-C 1/2, B-D 1-0; R3: D-A 0-1, B-C 0-1.
    Scores: A 2.5, C 2.0, B 1.0, D 0.5.
    Buchholz: A = B+C+D = 1+2+0.5 = 3.5; C = D+A+B = 0.5+2.5+1 = 4.0;
    B = A+D+C = 5.0; D = C+B+A = 5.5. Cut-1 drops the lowest opponent.
    Sonneborn-Berger: A = 1*1 + 0.5*2 + 1*0.5 = 2.5; C = 0.5*0.5 + 0.5*2.5 +
    1*1 = 2.5; B = 1*0.5 = 0.5; D = 0.5*2 = 1.0.
    """
    history = [
        SwissGame(1, "A", "B", 1.0),
        SwissGame(1, "C", "D", 0.5),
        SwissGame(2, "A", "C", 0.5),
        SwissGame(2, "B", "D", 1.0),
        SwissGame(3, "D", "A", 0.0),
        SwissGame(3, "B", "C", 0.0),
    ]
    table = swiss_standings(["A", "B", "C", "D"], history)
    assert [s.participant for s in table] == ["A", "C", "B", "D"]
    rows = {s.participant: s for s in table}
    assert rows["A"].tiebreaks["buchholz"] == 3.5
    assert rows["C"].tiebreaks["buchholz"] == 4.0
    assert rows["B"].tiebreaks["buchholz"] == 5.0
    assert rows["D"].tiebreaks["buchholz"] == 5.5
    assert rows["A"].tiebreaks["buchholz_cut1"] == 3.0
    assert rows["D"].tiebreaks["buchholz_cut1"] == 4.5
    assert rows["A"].tiebreaks["sonneborn_berger"] == 2.5
    assert rows["C"].tiebreaks["sonneborn_berger"] == 2.5
    assert rows["B"].tiebreaks["sonneborn_berger"] == 0.5
    assert rows["D"].tiebreaks["sonneborn_berger"] == 1.0
    assert rows["A"].played == 3 and rows["A"].first_seats == 2


def test_tiebreak_order_and_direct_encounter():
    """Players level on score and Buchholz: the game between them decides.

    A round robin: X beat Y and Z, Y beat W and Z, W beat X, Z beat W. X and Y
    have 2 points and Buchholz 4 each; DE puts X first although Y has the
    better pairing number. W and Z (1 point, Buchholz 5) are split by Z's win.
    """
    history = [
        SwissGame(1, "Y", "X", 0.0),
        SwissGame(1, "W", "Z", 0.0),
        SwissGame(2, "X", "Z", 1.0),
        SwissGame(2, "W", "Y", 0.0),
        SwissGame(3, "W", "X", 1.0),
        SwissGame(3, "Z", "Y", 0.0),
    ]
    players = ["W", "Y", "X", "Z"]
    table = swiss_standings(
        players, history, tiebreaks=("buchholz", "direct_encounter")
    )
    rows = {s.participant: s for s in table}
    assert rows["X"].score == rows["Y"].score == 2.0
    assert rows["X"].tiebreaks["buchholz"] == rows["Y"].tiebreaks["buchholz"]
    assert rows["X"].tiebreaks["direct_encounter"] == 1.0
    assert rows["Y"].tiebreaks["direct_encounter"] == 0.0
    assert [s.participant for s in table] == ["X", "Y", "Z", "W"]
    # Without direct encounter the pairing number decides.
    plain = swiss_standings(players, history, tiebreaks=("buchholz",))
    assert [s.participant for s in plain] == ["Y", "X", "W", "Z"]
    with pytest.raises(ValueError):
        swiss_standings(players, history, tiebreaks=("median",))


def test_bye_counts_as_virtual_opponent_with_own_score():
    history = [
        SwissGame(1, "a", "b", 1.0),
        SwissGame(1, "c", None, 1.0),
        SwissGame(2, "c", "a", 0.5),
        SwissGame(2, "b", None, 1.0),
    ]
    rows = {s.participant: s for s in swiss_standings(["a", "b", "c"], history)}
    # c: opponent a (1.5) + virtual opponent with c's own 1.5.
    assert rows["c"].tiebreaks["buchholz"] == 3.0
    assert rows["c"].tiebreaks["buchholz_cut1"] == 1.5
    # SB: 1.5 * 0.5 (draw with a) + 1.5 * 1 (bye worth a win).
    assert rows["c"].tiebreaks["sonneborn_berger"] == 2.25
    assert rows["c"].byes == 1 and rows["c"].played == 1


# ---------------------------------------------------------------------------
# Comparison with the FIDE Dutch reference (caissify-pairings, A.7-conformant)

# Every kind of difference we know of and explain in docs/tournaments.md. A
# new kind fails this test until it is understood and documented.
DOCUMENTED_KINDS = (
    "identical",
    "same pairs, other seats: ",
    "other bye recipient in the same group",
    "equal quality, other choice",
    "ours better on ",
    "reference better on seat preferences met",
    "no complete pairing exists",
    "ours complete, reference leaves several players unpaired",
)


def test_agreement_with_fide_dutch_reference():
    kinds, problems = compare(range(40))
    assert problems == []
    total = sum(kinds.values())
    unknown = [k for k in kinds if not k.startswith(DOCUMENTED_KINDS)]
    assert unknown == [], unknown
    same_pairs = sum(
        v for k, v in kinds.items() if k.startswith(("identical", "same pairs"))
    )
    assert same_pairs / total >= 0.5, kinds
    # Round 1 is always identical (checked inside compare via ``problems``);
    # the reference must never beat us on a criterion we rank above seats.
    assert not [
        k for k in kinds if k.startswith("reference better on") and "seat" not in k
    ]
