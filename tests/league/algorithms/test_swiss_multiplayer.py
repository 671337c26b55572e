"""Multiplayer Swiss: table sizes, seating by standing, repeats, placement points."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.tournaments.formats.swiss_multiplayer import (
    BYE_POINTS,
    TableResult,
    multiplayer_standings,
    placement_points,
    seat_multiplayer_round,
    split_into_tables,
)


def test_placement_points():
    assert placement_points({"a": 1, "b": 2, "c": 3, "d": 4}) == {
        "a": 1.0,
        "b": pytest.approx(2 / 3),
        "c": pytest.approx(1 / 3),
        "d": 0.0,
    }
    # Single-winner game: the losers share places 2-4 -> (2/3 + 1/3 + 0) / 3.
    shared = placement_points({"w": 1, "x": 2, "y": 2, "z": 2})
    assert shared["w"] == 1.0 and shared["x"] == pytest.approx(1 / 3)
    assert placement_points({"a": 1, "b": 1, "c": 3}) == {
        "a": 0.75,
        "b": 0.75,
        "c": 0.0,
    }
    # Every table hands out size/2 points in total, whatever the ties.
    assert sum(shared.values()) == pytest.approx(2.0)


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (3, [3]),
        (4, [4]),
        (5, [5]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [5, 4]),
        (10, [5, 5]),
        (11, [4, 4, 3]),
        (13, [5, 4, 4]),
        (17, [5, 4, 4, 4]),
    ],
)
def test_split_into_tables(n, sizes):
    assert split_into_tables(n) == sizes


def test_split_into_tables_rejects_impossible():
    with pytest.raises(ValueError):
        split_into_tables(2)
    with pytest.raises(ValueError):
        # 7 = neither 4 + 4 nor 5
        split_into_tables(7, min_size=4, max_size=5, preferred=4)
    with pytest.raises(ValueError):
        split_into_tables(8, min_size=5, max_size=4)


def test_first_round_seats_by_seed_in_blocks():
    tables = seat_multiplayer_round(list(range(1, 12)), [])
    assert [sorted(t.seats) for t in tables] == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11],
    ]
    assert tables[0].seats == (1, 2, 3, 4) and tables[0].round == 1


def _play(tables, rnd, *, single_winner=False, forfeits=0.0):
    out = []
    for t in tables:
        if len(t.seats) == 1:
            out.append(
                TableResult(round=t.round, seats=t.seats, placements={t.seats[0]: 1})
            )
            continue
        gone = frozenset(p for p in t.seats if rnd.random() < forfeits)
        if gone and len(gone) < len(t.seats):
            places = {p: len(t.seats) if p in gone else 1 for p in t.seats}
            out.append(
                TableResult(
                    round=t.round, seats=t.seats, placements=places, forfeited=gone
                )
            )
            continue
        if single_winner:
            winner = rnd.choice(t.seats)
            places = {p: 1 if p == winner else 2 for p in t.seats}
        else:
            places = {p: rnd.randint(1, len(t.seats)) for p in t.seats}
        out.append(TableResult(round=t.round, seats=t.seats, placements=places))
    return out


def _total_cost(tables, met, home, weight, last_float, float_weight):
    cost = 0
    for i, t in enumerate(tables):
        for a, b in itertools.combinations(t, 2):
            cost += 2 * weight * met[frozenset((a, b))]
        cost += sum(abs(i - home[p]) for p in t)
        cost += float_weight * sum(
            (i > home[p] and last_float.get(p) == "down")
            or (i < home[p] and last_float.get(p) == "up")
            for p in t
        )
    return cost


def _floats_of_round(results, rnd_no):
    """Independent float rule: not played -> down; else own score before the
    round against the mean of the others present."""
    before = Counter()
    for r in results:
        if r.round < rnd_no:
            pts = placement_points(r.placements) if len(r.seats) > 1 else None
            for p in r.seats:
                before[p] += pts[p] if pts else BYE_POINTS
    out = {}
    for r in results:
        if r.round != rnd_no:
            continue
        present = [p for p in r.seats if p not in r.forfeited]
        for p in r.seats:
            if p in r.forfeited or len(present) < 2:
                out[p] = "down"
                continue
            others = [before[q] for q in present if q != p]
            mean = sum(others) / len(others)
            out[p] = "down" if before[p] > mean else "up" if before[p] < mean else ""
    return out


@given(
    st.integers(min_value=3, max_value=23),
    st.integers(min_value=1, max_value=6),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.booleans(),
)
@settings(max_examples=80, deadline=None)
def test_rounds_are_complete_legal_and_locally_optimal(n, rounds, seed, single):
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    results: list[TableResult] = []
    for _ in range(rounds):
        tables = seat_multiplayer_round(players, results)
        seated = [p for t in tables for p in t.seats]
        assert sorted(seated) == sorted(players)
        assert all(3 <= len(t.seats) <= 5 for t in tables)
        # No swap between two tables lowers repeats (+ displacement penalty).
        standing = [s.participant for s in multiplayer_standings(players, results)]
        home, start = {}, 0
        for i, t in enumerate(tables):
            for p in standing[start : start + len(t.seats)]:
                home[p] = i
            start += len(t.seats)
        met = Counter()
        for res in results:
            present = [q for q in res.seats if q not in res.forfeited]
            for a, b in itertools.combinations(present, 2):
                met[frozenset((a, b))] += 1
        last_float = _floats_of_round(results, tables[0].round - 1)
        float_weight = 2 * len(tables) + 1
        weight = 2 * float_weight + 2 * len(tables) + 1
        seats = [list(t.seats) for t in tables]
        args = (met, home, weight, last_float, float_weight)
        best = _total_cost(seats, *args)
        for ti, tj in itertools.combinations(seats, 2):
            for x, y in itertools.product(range(len(ti)), range(len(tj))):
                ti[x], tj[y] = tj[y], ti[x]
                assert _total_cost(seats, *args) >= best
                ti[x], tj[y] = tj[y], ti[x]
        # The first seat goes to a player with the fewest first seats so far.
        firsts = Counter(r.seats[0] for r in results)
        for t in tables:
            assert firsts[t.seats[0]] == min(firsts[p] for p in t.seats)
        results += _play(tables, rnd, single_winner=single, forfeits=0.05)
    standings = multiplayer_standings(players, results)
    assert sum(s.score for s in standings) == pytest.approx(
        sum(len(r.seats) / 2 for r in results)
    )
    scores = [s.score for s in standings]
    assert scores == sorted(scores, reverse=True)


def test_repeat_opponents_are_avoided_when_possible():
    """Eight players, two tables of four: round 2 can mix the tables fully."""
    players = list(range(8))
    rnd = random.Random(3)
    results = _play(seat_multiplayer_round(players, []), rnd)
    second = seat_multiplayer_round(players, results)
    met = {frozenset(p) for r in results for p in itertools.combinations(r.seats, 2)}
    repeats = [
        pair
        for t in second
        for pair in itertools.combinations(t.seats, 2)
        if frozenset(pair) in met
    ]
    # Two tables of four from two old tables of four: at least 2 players of one
    # old table must share a new table (pigeonhole), so 4 repeated pairs minimum.
    assert len(repeats) == 4


def test_standings_tiebreaks():
    results = [
        TableResult(1, ("a", "b", "c"), {"a": 1, "b": 2, "c": 3}),
        TableResult(1, ("d", "e", "f"), {"d": 2, "e": 1, "f": 3}),
        TableResult(2, ("b", "d", "a"), {"b": 1, "d": 2, "a": 3}),
        TableResult(2, ("e", "c", "f"), {"e": 2, "c": 1, "f": 3}),
    ]
    table = multiplayer_standings(list("abcdef"), results)
    rows = {s.participant: s for s in table}
    assert rows["b"].score == 1.5 and rows["e"].score == 1.5
    assert rows["a"].score == 1.0 and rows["d"].score == 1.0 and rows["c"].score == 1.0
    # b and e: equal score and one win each; b's opponents are stronger.
    assert rows["b"].opponent_score > rows["e"].opponent_score
    assert [s.participant for s in table][:2] == ["b", "e"]
    assert rows["a"].first_seats == 1 and rows["b"].first_seats == 1
    with pytest.raises(ValueError):
        TableResult(1, ("a", "b"), {"a": 1})


def test_forfeited_seat_meets_nobody_floats_and_bars_the_bye():
    results = [
        TableResult(
            1, ("a", "b", "c", "d"), {"a": 1, "b": 1, "c": 1, "d": 4}, forfeited={"d"}
        ),
        TableResult(1, ("e", "f", "g", "h"), {"e": 1, "f": 2, "g": 3, "h": 4}),
    ]
    from league.tournaments.formats.swiss_multiplayer import _records

    records = _records(results)
    assert records["d"].floats[1] == "down" and not records["d"].had_bye
    assert all(records[p].had_bye for p in "abc")  # scored by forfeit
    assert not records["e"].had_bye
    # d met nobody: opponent strength counts d's own score for that table.
    rows = {s.participant: s for s in multiplayer_standings(list("abcdefgh"), results)}
    assert rows["d"].opponent_score == rows["d"].score
    # Tables of exactly three for eight players: two byes. They go to the
    # lowest-standing players who neither had a bye nor scored by forfeit.
    tables = seat_multiplayer_round(
        list("abcdefgh"), results, min_size=3, max_size=3, preferred_size=3
    )
    byes = [t.seats[0] for t in tables if len(t.seats) == 1]
    assert len(byes) == 2
    assert not set(byes) & set("abc")
    assert tables[-1].table == len(tables) and len(tables[-1].seats) == 1


@given(
    st.integers(min_value=5, max_value=19),
    st.integers(min_value=0, max_value=2**32 - 1),
)
@settings(max_examples=40, deadline=None)
def test_byes_with_fixed_table_size(n, seed):
    """Tables of exactly four: n % 4 byes a round, never to a player who had a
    bye or scored by forfeit while someone else could take it."""
    rnd = random.Random(seed)
    players = list(range(n))
    results: list[TableResult] = []
    for _ in range(5):
        tables = seat_multiplayer_round(
            players, results, min_size=4, max_size=4, preferred_size=4
        )
        assert sorted(p for t in tables for p in t.seats) == players
        byes = [t.seats[0] for t in tables if len(t.seats) == 1]
        assert len(byes) == n % 4
        assert all(len(t.seats) == 4 for t in tables if len(t.seats) > 1)
        barred = set()
        for r in results:
            if r.is_bye or (r.forfeited and len(r.forfeited) < len(r.seats)):
                barred |= set(r.seats) - set(r.forfeited)
        eligible = [p for p in players if p not in barred]
        if len(eligible) >= len(byes):
            assert not set(byes) & barred
        results += _play(tables, rnd, forfeits=0.1)
    standings = multiplayer_standings(players, results)
    assert sum(s.score for s in standings) == pytest.approx(
        sum(BYE_POINTS if r.is_bye else len(r.seats) / 2 for r in results)
    )


# Rounds 1-2 of a 15-player event seated by the swap search alone (tables of
# 4, 4, 4, 3): (round, seats, placements). Round 3 has a seating with no
# repeated table-mate; the swap search alone sat two players together again.
FIFTEEN = [
    (1, (1, 2, 3, 4), [2, 2, 3, 4]),
    (1, (5, 6, 7, 8), [1, 1, 4, 3]),
    (1, (9, 10, 11, 12), [2, 2, 4, 4]),
    (1, (13, 14, 15), [2, 3, 1]),
    (2, (15, 2, 5, 9), [2, 2, 4, 1]),
    (2, (6, 10, 1, 13), [1, 2, 1, 3]),
    (2, (8, 12, 3, 14), [1, 3, 4, 4]),
    (2, (4, 11, 7), [3, 2, 2]),
]


def test_fifteen_players_round_three_seats_nobody_together_again():
    """Issue 26: 15 players, round 3 of 3. A seating of the same sizes with no
    repeat exists; the exact search finds the cheapest one and proves it."""
    from league.tournaments.formats.swiss_multiplayer import (
        fewest_repeats,
        seat_multiplayer_round_report,
    )

    results = [
        TableResult(
            round=r, seats=seats, placements=dict(zip(seats, places, strict=True))
        )
        for r, seats, places in FIFTEEN
    ]
    players = list(range(1, 16))
    met = {
        frozenset(pair) for r in results for pair in itertools.combinations(r.seats, 2)
    }

    def repeats(tables) -> int:
        return sum(
            frozenset(pair) in met
            for t in tables
            for pair in itertools.combinations(t.seats, 2)
        )

    swaps_only, before = seat_multiplayer_round_report(players, results, node_limit=0)
    assert repeats(swaps_only) == 1  # what the swap search alone did
    tables, report = seat_multiplayer_round_report(players, results)
    assert sorted(len(t.seats) for t in tables) == [3, 4, 4, 4]
    assert sorted(p for t in tables for p in t.seats) == players
    assert repeats(tables) == report.repeats == 0
    assert report.proven and report.cost < before.cost
    # The lower bound agrees: no seating of these sizes has fewer repeats.
    assert fewest_repeats(players, results, [4, 4, 4, 3], at_most=1) == (0, True)
    # And the public entry point seats the same tables.
    assert seat_multiplayer_round(players, results) == tables


def test_groups_are_placed_at_the_tables_where_their_players_cost_least():
    """A grouping from the fewest-repeats search goes to tables of its size by
    a minimum-cost assignment: here each group's home table."""
    from league.tournaments.formats.swiss_multiplayer import _Costs, _place_groups

    home = {
        p: t
        for t, group in enumerate([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11]])
        for p in group
    }
    costs = _Costs(
        met=Counter(), home=home, last_float=dict.fromkeys(home, ""), again=7, pair=50
    )
    groups = [[6, 5, 8, 7], [11, 9, 10], [2, 1, 4, 3]]
    tables = _place_groups(groups, [4, 4, 3], costs)
    assert tables == [[2, 1, 4, 3], [6, 5, 8, 7], [11, 9, 10]]
    assert costs.total(tables) == 0
