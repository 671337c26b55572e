"""Arena pairing and scoring rules (pure functions, no database)."""

from __future__ import annotations

import itertools
import random

import pytest

from league.tournaments.arena.pairing import (
    BLOCK,
    FreePlayer,
    game_points,
    on_fire,
    outcome_for,
    pair_players,
    seat_tables,
    table_sizes,
)


def test_two_free_players_who_just_met_are_not_paired_again() -> None:
    a = FreePlayer("a", 2, 1, last_table=frozenset({"a", "b"}))
    b = FreePlayer("b", 0, 2, last_table=frozenset({"a", "b"}))
    assert pair_players([a, b]) == []
    c = FreePlayer("c", 0, 3, last_table=frozenset({"c", "d"}))
    assert pair_players([a, b, c]) in ([("a", "c")], [("b", "c")])


def test_no_immediate_rematch_even_when_it_is_the_closest_score() -> None:
    # a and b are level and just played; c and d are far below.
    last = frozenset({"a", "b"})
    players = [
        FreePlayer("a", 10, 1, last_table=last),
        FreePlayer("b", 10, 2, last_table=last),
        FreePlayer("c", 0, 3),
        FreePlayer("d", 0, 4),
    ]
    pairs = pair_players(players)
    assert len(pairs) == 2
    assert ("a", "b") not in pairs
    # A game played between others since is not "in a row": allowed again.
    again = [FreePlayer("a", 10, 1, frozenset({"a", "c"})), FreePlayer("b", 10, 2)]
    assert pair_players(again) == [("a", "b")]


def test_close_scores_are_paired_together() -> None:
    scores = [12, 11, 7, 6, 2, 1]
    players = [FreePlayer(f"p{s}", s, i + 1) for i, s in enumerate(scores)]
    assert pair_players(players) == [("p12", "p11"), ("p7", "p6"), ("p2", "p1")]
    # Order of the input does not matter.
    assert pair_players(list(reversed(players))) == pair_players(players)


def test_the_player_freed_last_waits_when_the_count_is_odd() -> None:
    players = [
        FreePlayer("a", 4, 1, waiting=2),  # freed last
        FreePlayer("b", 4, 2, waiting=0),
        FreePlayer("c", 0, 3, waiting=1),
    ]
    assert pair_players(players) == [("b", "c")]


@pytest.mark.parametrize("seed", range(25))
def test_pairing_invariants_on_random_fields(seed: int) -> None:
    rnd = random.Random(seed)
    n = rnd.randrange(2, 16)
    ids = [f"p{i}" for i in range(n)]
    lasts: dict[str, frozenset | None] = {i: None for i in ids}
    order = ids[:]
    rnd.shuffle(order)
    for a, b in zip(order[::2], order[1::2], strict=False):
        if rnd.random() < 0.7:
            lasts[a] = lasts[b] = frozenset({a, b})
    scores = {i: rnd.randrange(0, 20) for i in ids}
    ranked = sorted(ids, key=lambda i: -scores[i])
    players = [
        FreePlayer(i, scores[i], ranked.index(i) + 1, lasts[i], waiting=k)
        for k, i in enumerate(ids)
    ]
    pairs = pair_players(players)
    seen = [p for pair in pairs for p in pair]
    assert len(seen) == len(set(seen))
    for one, two in pairs:
        met = frozenset({one, two})
        assert lasts[str(one)] != met and lasts[str(two)] != met
    # Maximum: no two unpaired players could have been paired together.
    left = [p for p in players if p.id not in seen]
    for x, y in itertools.combinations(left, 2):
        assert x.last_table == frozenset({x.id, y.id}) or y.last_table == frozenset(
            {x.id, y.id}
        )


def test_table_sizes_prefer_the_games_size_and_seat_everyone_they_can() -> None:
    duelo = {"smallest": 3, "largest": 5, "preferred": 4}
    assert table_sizes(2, **duelo) == []
    assert table_sizes(3, **duelo) == [3]
    assert table_sizes(4, **duelo) == [4]
    assert table_sizes(5, **duelo) == [5]
    assert table_sizes(6, **duelo) == [3, 3]
    assert table_sizes(8, **duelo) == [4, 4]
    assert table_sizes(9, **duelo) == [5, 4]
    assert table_sizes(11, **duelo) == [4, 4, 3]
    big = {"smallest": 4, "largest": 8, "preferred": 6}
    assert table_sizes(7, **big) == [7]
    assert table_sizes(12, **big) == [6, 6]
    assert table_sizes(13, **big) == [7, 6]
    for n in range(0, 40):
        sizes = table_sizes(n, **duelo)
        assert sum(sizes) <= n and all(3 <= s <= 5 for s in sizes)
        assert n - sum(sizes) < 3  # only a remainder too small for a table waits


def test_tables_are_filled_by_close_scores() -> None:
    scores = [9, 8, 8, 7, 3, 2, 1, 0]
    players = [FreePlayer(f"p{i}", s, i + 1) for i, s in enumerate(scores)]
    tables = seat_tables(players, smallest=3, largest=5, preferred=4)
    assert tables == [["p0", "p1", "p2", "p3"], ["p4", "p5", "p6", "p7"]]


def test_the_same_table_is_never_seated_twice_in_a_row() -> None:
    last = frozenset({"a", "b", "c", "d"})
    players = [FreePlayer(x, 0, i + 1, last) for i, x in enumerate("abcd")]
    tables = seat_tables(players, smallest=3, largest=5, preferred=4)
    # The four cannot sit together again; three of them may (not the same table).
    assert tables == [["a", "b", "c"]]
    # With another table to swap with, everyone is seated.
    others = [FreePlayer(x, 0, i + 5) for i, x in enumerate("efgh")]
    tables = seat_tables(players + others, smallest=3, largest=5, preferred=4)
    assert sorted(len(t) for t in tables) == [4, 4]
    assert all(frozenset(t) != last for t in tables)
    # A three-seat table that repeats itself waits entirely.
    trio = frozenset("abc")
    assert (
        seat_tables(
            [FreePlayer(x, 0, i + 1, trio) for i, x in enumerate("abc")],
            smallest=3,
            largest=5,
            preferred=4,
        )
        == []
    )


def test_outcomes_from_placements() -> None:
    assert outcome_for([1, 2], 0) == "win"
    assert outcome_for([1, 2], 1) == "loss"
    assert outcome_for([1, 1], 0) == outcome_for([1, 1], 1) == "draw"
    assert outcome_for([2, 1, 3, 4], 1) == "win"
    assert outcome_for([2, 1, 3, 4], 0) == "loss"
    assert outcome_for([1, 1, 3], 2) == "loss"
    assert outcome_for([1, 1, 3], 1) == "draw"


def test_points_and_streaks() -> None:
    # Win 2, draw 1, loss 0.
    assert game_points(outcome="win", streak=0, berserk=False).points == 2
    assert game_points(outcome="draw", streak=0, berserk=False).points == 1
    assert game_points(outcome="loss", streak=0, berserk=False).points == 0
    # A run: W W W W D W -> 2 2 4 4 1 2; fire after two wins until not won.
    streak, total, fire = 0, [], []
    for outcome in ["win", "win", "win", "win", "draw", "win", "win", "win", "loss"]:
        result = game_points(outcome=outcome, streak=streak, berserk=False)  # type: ignore[arg-type]
        streak = result.streak
        total.append(result.points)
        fire.append(on_fire(streak))
    assert total == [2, 2, 4, 4, 1, 2, 2, 4, 0]
    assert fire == [False, True, True, True, False, False, True, True, False]


def test_berserk_adds_one_point_to_a_win_only() -> None:
    assert game_points(outcome="win", streak=0, berserk=True).points == 3
    assert game_points(outcome="win", streak=2, berserk=True).points == 5
    assert game_points(outcome="draw", streak=2, berserk=True).points == 1
    assert game_points(outcome="loss", streak=3, berserk=True) == game_points(
        outcome="loss", streak=0, berserk=False
    )


@pytest.mark.parametrize("n", [33, 60, 121])
def test_large_fields_are_paired_in_blocks_of_neighbours(n: int) -> None:
    rnd = random.Random(n)
    ids = [f"p{i}" for i in range(n)]
    scores = sorted((rnd.randrange(0, 60) for _ in ids), reverse=True)
    # Neighbours in the standings who just met each other.
    lasts: dict[str, frozenset | None] = dict.fromkeys(ids)
    for i in range(0, n - 1, 4):
        lasts[ids[i]] = lasts[ids[i + 1]] = frozenset({ids[i], ids[i + 1]})
    freed_last = ids[n // 2]
    players = [
        FreePlayer(i, scores[k], k + 1, lasts[i], waiting=n if i == freed_last else k)
        for k, i in enumerate(ids)
    ]
    pairs = pair_players(players)
    seen = [p for pair in pairs for p in pair]
    assert len(seen) == len(set(seen))
    assert len(seen) >= n - 3  # everyone but the odd one out (and a rare rest)
    if n % 2:
        assert freed_last not in seen
    place = {i: k for k, i in enumerate(ids)}
    for one, two in pairs:
        assert frozenset({one, two}) not in (lasts[str(one)], lasts[str(two)])
        assert place[str(one)] < place[str(two)]  # the better-ranked first
        assert place[str(two)] - place[str(one)] < 2 * BLOCK
