"""Elo kernel: published examples, hand-computed multiplayer cases, properties."""

from __future__ import annotations

import itertools
import math
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.ratings.elo import (
    DEFAULT_CONFIG,
    EloConfig,
    PlayerState,
    apply_changes,
    display_rating,
    expected_score,
    initial_state,
    is_provisional,
    k_factor,
    period_rating,
    placements_from_order,
    placements_single_winner,
    rate_match,
    replay_pool,
)

# Wikipedia, "Elo rating system", "Mathematical details": a 1613 player loses
# to 1609, draws 1477, beats 1388 and 1586, loses to 1720 (score 2.5) with
# K = 32. The article rounds each expectation to two decimals (2.88 -> 1601);
# at full precision the expectation is 2.8666 and the new rating 1601.27.
WIKI_OPPONENTS = [(1609, 0.0), (1477, 0.5), (1388, 1.0), (1586, 1.0), (1720, 0.0)]


def test_wikipedia_multi_opponent_example_full_precision():
    expected = math.fsum(expected_score(1613, r) for r, _ in WIKI_OPPONENTS)
    assert expected == pytest.approx(2.866566348, abs=1e-9)
    new = period_rating(rating=1613, results=WIKI_OPPONENTS, k=32)
    assert new == pytest.approx(1613 + 32 * (2.5 - 2.866566348), abs=1e-6)
    assert new == pytest.approx(1601.2699, abs=1e-4)
    assert display_rating(new) == 1601


def test_wikipedia_example_as_one_six_player_match():
    """The same numbers fall out of the multiplayer decomposition.

    Ranks encode the five results at once: the 1613 player is beaten by 1609
    and 1720, ties 1477 and beats 1388 and 1586. With K = 160 the per-pair K is
    160 / 5 = 32, exactly the tournament calculation.
    """
    config = EloConfig(new_player_k=160, standard_k=160, elite_k=160)
    ratings = {"A": 1613, "o1609": 1609, "o1477": 1477, "o1388": 1388}
    ratings |= {"o1586": 1586, "o1720": 1720}
    placements = {"A": 2, "o1609": 1, "o1720": 1, "o1477": 2, "o1388": 3, "o1586": 3}
    states = {p: PlayerState(rating=r) for p, r in ratings.items()}
    change = rate_match(placements, states, config=config)["A"]
    assert change.score == 2.5
    assert change.expected == pytest.approx(2.866566348, abs=1e-9)
    assert change.rating_after == pytest.approx(1601.2698768627572, abs=1e-9)


def test_two_player_hand_computed():
    # Equal ratings: E = 0.5, K = 40 for new players -> +-20.
    states = {"a": PlayerState(1500.0), "b": PlayerState(1500.0)}
    ch = rate_match({"a": 1, "b": 2}, states)
    assert ch["a"].delta == 20.0 and ch["b"].delta == -20.0
    assert ch["a"].rating_after == 1520.0
    # 200-point gap, established players (K=20): E = 1/(1+10^-0.5) = 0.759747.
    states = {"a": PlayerState(1700.0, games=50), "b": PlayerState(1500.0, games=50)}
    ch = rate_match({"a": 2, "b": 1}, states)
    assert ch["a"].delta == pytest.approx(20 * (0 - 0.7597469266), abs=1e-8)
    assert ch["b"].delta == pytest.approx(20 * (1 - 0.2402530734), abs=1e-8)
    # A draw between equals changes nothing.
    ch = rate_match({"a": 1, "b": 1}, {"a": PlayerState(1500), "b": PlayerState(1500)})
    assert ch["a"].delta == 0.0 and ch["b"].delta == 0.0


def test_three_player_hand_computed():
    """Ratings 1600/1500/1400, finishing order 1400 > 1600 > 1500, K = 40.

    Per-pair K = 40 / 2 = 20. Expectations: E(100 up) = 0.640065, E(200 up) =
    0.759747 and their complements.
    """
    states = {"x": PlayerState(1600), "y": PlayerState(1500), "z": PlayerState(1400)}
    ch = rate_match({"x": 2, "y": 3, "z": 1}, states)
    e100, e200 = 0.6400649998, 0.7597469266
    assert ch["x"].delta == pytest.approx(20 * ((1 - e100) + (0 - e200)), abs=1e-8)
    assert ch["y"].delta == pytest.approx(
        20 * ((0 - (1 - e100)) + (0 - e100)), abs=1e-8
    )
    assert ch["z"].delta == pytest.approx(
        20 * ((1 - (1 - e200)) + (1 - (1 - e100))), abs=1e-8
    )
    assert ch["x"].score == 1.0 and ch["y"].score == 0.0 and ch["z"].score == 2.0


def test_single_winner_losers_tie_each_other():
    """Four equal players, one winner: the losers draw among themselves.

    Winner: 3 wins of 0.5 surplus * 40/3 = +20. Each loser: -0.5 vs winner and
    0 vs the two other losers -> 40/3 * -0.5 = -6.667.
    """
    placements = placements_single_winner(["w", "l1", "l2", "l3"], winner="w")
    assert placements == {"w": 1, "l1": 2, "l2": 2, "l3": 2}
    states = {p: PlayerState(1500) for p in placements}
    ch = rate_match(placements, states)
    assert ch["w"].delta == pytest.approx(20.0)
    for p in ("l1", "l2", "l3"):
        assert ch[p].delta == pytest.approx(-20.0 / 3)
        assert ch[p].score == 1.0  # two half points against fellow losers


def test_placements_from_order_competition_ranking():
    assert placements_from_order(["a", ("b", "c"), "d"]) == {
        "a": 1,
        "b": 2,
        "c": 2,
        "d": 4,
    }
    with pytest.raises(ValueError):
        placements_from_order(["a", "a"])
    with pytest.raises(ValueError):
        placements_single_winner(["a", "b"], winner="c")


def test_four_hundred_point_rule():
    assert expected_score(2400, 1800) == expected_score(2400, 2000)
    assert expected_score(2400, 1800) == pytest.approx(1 / (1 + 10**-1))
    assert expected_score(2400, 1800, max_difference=None) == pytest.approx(
        1 / (1 + 10**-1.5)
    )
    # The cap holds inside rate_match too: a win against a 600-point weaker
    # player still earns K * (1 - 0.909).
    states = {"s": PlayerState(2000, games=40), "w": PlayerState(1400, games=40)}
    ch = rate_match({"s": 1, "w": 2}, states)
    assert ch["s"].delta == pytest.approx(20 * (1 - 1 / 1.1))


def test_four_hundred_point_rule_threshold():
    """FIDE Rating Regulations since 1 October 2025: the rule applies only to
    players rated below 2650. A 2700 player's expectation against 2200 uses
    the full 500 points; the 2200 player's still uses 400."""
    assert DEFAULT_CONFIG.max_difference_below == 2650.0
    full = 1 / (1 + 10**-1.25)
    assert expected_score(2700, 2200) == pytest.approx(full)
    assert expected_score(2649, 2149) == pytest.approx(1 / 1.1)
    assert expected_score(2200, 2700) == pytest.approx(1 - 1 / 1.1)
    assert expected_score(2700, 2200, cap_below=None) == pytest.approx(1 / 1.1)
    states = {"gm": PlayerState(2700, games=100), "x": PlayerState(2200, games=100)}
    ch = rate_match({"gm": 1, "x": 2}, states)
    assert ch["gm"].expected == pytest.approx(full)
    assert ch["gm"].delta == pytest.approx(20 * (1 - full))
    assert ch["x"].delta == pytest.approx(20 * (0 - (1 - 1 / 1.1)))
    old_rule = EloConfig(max_difference_below=None)
    old = rate_match({"gm": 1, "x": 2}, states, config=old_rule)
    assert old["gm"].delta == pytest.approx(20 * (1 - 1 / 1.1))
    # A pool can set its own threshold; replays use it bit for bit.
    pool = EloConfig(max_difference_below=2400.0)
    matches = [{"gm": 1, "x": 2}, {"x": 1, "gm": 2}]
    replay = replay_pool(
        matches, config=pool, initial={p: s for p, s in states.items()}
    ).states
    step = dict(states)
    for m in matches:
        step = apply_changes(step, rate_match(m, step, config=pool))
    assert replay == step
    with pytest.raises(ValueError):
        EloConfig(max_difference_below=0)


def test_k_schedule_and_sticky_elite():
    assert k_factor(games=0, reached_elite=False) == 40
    assert k_factor(games=29, reached_elite=True) == 40
    assert k_factor(games=30, reached_elite=False) == 20
    assert k_factor(games=30, reached_elite=True) == 10
    # Reaching 2400 sets the flag; dropping below keeps it.
    states = {"a": PlayerState(2395.0, games=100), "b": PlayerState(2395.0, games=100)}
    ch = rate_match({"a": 1, "b": 2}, states)
    assert ch["a"].rating_after == 2405.0 and ch["a"].reached_elite_after
    assert not ch["b"].reached_elite_after
    states = apply_changes(states, ch)
    assert states["a"] == PlayerState(2405.0, games=101, reached_elite=True)
    ch = rate_match({"a": 2, "b": 1}, states)
    assert ch["a"].k == 10 and ch["b"].k == 20
    assert ch["a"].rating_after < 2400 and ch["a"].reached_elite_after


def test_provisional_and_initial_state():
    assert is_provisional(games=29) and not is_provisional(games=30)
    assert is_provisional(games=4, config=EloConfig(provisional_games=5))
    assert initial_state() == PlayerState(1500.0, 0, False)
    assert initial_state(config=EloConfig(initial_rating=2500)).reached_elite
    assert display_rating(1600.5) == 1601 and display_rating(1600.49) == 1600


def test_bad_input_is_rejected():
    with pytest.raises(ValueError):
        rate_match({"a": 1}, {"a": PlayerState(1500)})
    with pytest.raises(ValueError):
        rate_match({"a": 1, "b": 0}, {"a": PlayerState(1500), "b": PlayerState(1500)})
    with pytest.raises(KeyError):
        rate_match({"a": 1, "b": 2}, {"a": PlayerState(1500)})
    with pytest.raises(ValueError):
        EloConfig(standard_k=0)


ratings_st = st.floats(min_value=100, max_value=3000, allow_nan=False)
match_st = st.integers(min_value=2, max_value=8).flatmap(
    lambda n: st.tuples(
        st.lists(ratings_st, min_size=n, max_size=n),
        st.lists(st.integers(min_value=1, max_value=n), min_size=n, max_size=n),
        st.integers(min_value=0, max_value=60),
    )
)


@given(match_st)
@settings(max_examples=300, deadline=None)
def test_zero_sum_with_equal_k(case):
    """Zero-sum holds whenever the 400-point rule binds both sides of every
    pair alike: with the cap for everyone (``max_difference_below=None``),
    and under FIDE's 2650 threshold when nobody is rated 2650 or more."""
    ratings, ranks, games = case
    states = {i: PlayerState(r, games=games) for i, r in enumerate(ratings)}
    everyone = EloConfig(max_difference_below=None)
    ch = rate_match(dict(enumerate(ranks)), states, config=everyone)
    assert math.fsum(c.delta for c in ch.values()) == pytest.approx(0.0, abs=1e-9)
    if max(ratings) < 2650:
        default = rate_match(dict(enumerate(ranks)), states)
        assert default == ch
    # Each participant's pairwise score plus its opponents' equals n - 1 games.
    n = len(ratings)
    assert math.fsum(c.score for c in ch.values()) == pytest.approx(n * (n - 1) / 2)
    # A better rank never yields a smaller delta for equal ratings.
    if len(set(ratings)) == 1:
        by_rank = sorted(ch.items(), key=lambda kv: ranks[kv[0]])
        deltas = [c.delta for _, c in by_rank]
        assert all(a >= b - 1e-12 for a, b in itertools.pairwise(deltas))


@given(match_st, st.randoms(use_true_random=False))
@settings(max_examples=200, deadline=None)
def test_result_does_not_depend_on_participant_order(case, rnd):
    ratings, ranks, games = case
    states = {i: PlayerState(r, games=games) for i, r in enumerate(ratings)}
    placements = dict(enumerate(ranks))
    shuffled_keys = list(placements)
    rnd.shuffle(shuffled_keys)
    a = rate_match(placements, states)
    b = rate_match({k: placements[k] for k in shuffled_keys}, states)
    assert all(a[k] == b[k] for k in placements)  # bit-for-bit equal


pool_st = st.lists(
    st.integers(min_value=2, max_value=6).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 9), min_size=n, max_size=n, unique=True),
            st.lists(st.integers(1, n), min_size=n, max_size=n),
        )
    ),
    min_size=1,
    max_size=60,
)


@given(pool_st)
@settings(max_examples=150, deadline=None)
def test_recompute_equals_incremental(raw_matches):
    config = EloConfig(initial_rating=2350, new_player_games=3)  # exercise all K levels
    matches = [dict(zip(ids, ranks, strict=True)) for ids, ranks in raw_matches]
    states: dict[int, PlayerState] = {}
    history = []
    for placements in matches:
        for p in placements:
            states.setdefault(p, initial_state(config=config))
        ch = rate_match(placements, states, config=config)
        history.append({p: (c.rating_before, c.rating_after) for p, c in ch.items()})
        states = apply_changes(states, ch)
    replay = replay_pool(matches, config=config, keep_history=True)
    assert replay.states == states  # exact float equality, not approx
    assert replay.history == history


def test_replay_pool_initial_states_carry_over():
    carried = {"a": PlayerState(1800, games=40, reached_elite=False)}
    replay = replay_pool([{"a": 1, "b": 2}], initial=carried)
    expected = rate_match({"a": 1, "b": 2}, {"a": carried["a"], "b": initial_state()})
    assert replay.states["a"].rating == expected["a"].rating_after
    assert replay.states["b"].games == 1
    assert replay.history is None


@pytest.mark.slow  # a speed check over 100,000 matches
def test_replay_100k_eight_player_matches_is_fast():
    rnd = random.Random(7)
    players = list(range(5000))
    matches = [
        dict(zip(rnd.sample(players, 8), rnd.sample(range(1, 9), 8), strict=True))
        for _ in range(100_000)
    ]
    start = time.perf_counter()
    replay = replay_pool(matches, config=DEFAULT_CONFIG)
    elapsed = time.perf_counter() - start
    assert elapsed < 30, f"replay took {elapsed:.1f}s"
    assert sum(s.games for s in replay.states.values()) == 800_000
    mean = math.fsum(s.rating for s in replay.states.values()) / len(replay.states)
    # Not exactly zero-sum (K differs per player) but close to the start value.
    assert abs(mean - 1500) < 5


@pytest.mark.parametrize(
    "config",
    [
        DEFAULT_CONFIG,
        EloConfig(max_difference_below=None),
        EloConfig(max_rating_difference=None),
    ],
)
def test_flat_replay_kernel_equals_rating_match_by_match(config):
    """replay_events (the recompute's kernel: the self-pairing term, the
    no-clamp shortcut for narrow matches) equals rate_match applied match by
    match, bit for bit, in a pool spread far enough to clamp, with elite
    players above the cap's threshold, newcomers, anchors and 2-8 seats."""
    from league.ratings.elo import replay_events

    rng = random.Random(33)
    people = list(range(60))
    anchors = {0: 1250.0, 1: 2800.0}
    states = {
        p: PlayerState(rng.gauss(1900, 700), rng.randint(0, 40), rng.random() < 0.2)
        for p in people[2:40]
    }
    initial = dict(states)
    for p, rating in anchors.items():
        states[p] = PlayerState(rating, 0, rating >= config.elite_threshold)
    participants, ranks, bounds = [], [], []
    befores, afters = [], []
    for _ in range(400):
        seated = rng.sample(people, rng.randint(2, 8))
        placements = {p: rng.randint(1, len(seated)) for p in seated}
        for p in seated:
            states.setdefault(p, initial_state(config=config))
        changes = rate_match(placements, states, config=config, fixed=set(anchors))
        states = apply_changes(states, changes)
        bounds.append((len(participants), len(participants) + len(seated)))
        participants += seated
        ranks += placements.values()
        befores += [changes[p].rating_before for p in seated]
        afters += [changes[p].rating_after for p in seated]
    replay = replay_events(
        participants, ranks, bounds, config=config, initial=initial, fixed=anchors
    )
    assert replay.befores == befores and replay.afters == afters
    assert replay.states == states
    clamped = [(a, b) for a, b in bounds if max(befores[a:b]) - min(befores[a:b]) > 400]
    assert clamped  # the clamping branch ran
