"""The dice-assignment solver of Kung Fu (2019) against brute force, and combos.py.

The reference here shares no code with the solver: it assigns dice by their ids
(not multisets), finds each set's cheapest adjustment by trying every target face
tuple through :func:`combos.satisfies`, and checks affordability by trying every
order of the sets.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, product

import pytest

from gameplay.rules.kungfu2019 import combos as C
from gameplay.rules.kungfu2019 import solver as S
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND, Combo, Effect

# --- combos.py -------------------------------------------------------------------


def test_rulebook_examples():
    big = C.parse("sum>11", Effect.of("atk", 6))
    assert C.satisfies(big, (6, 6)) and C.satisfies(big, (3, 4, 5))
    assert not C.satisfies(big, (5, 6)) and not C.satisfies(big, ())
    small = C.parse("face456", Effect.of("atk", 2))
    assert [C.satisfies(small, (x,)) for x in range(1, 7)] == [False] * 3 + [True] * 3
    assert not C.satisfies(small, (4, 5))  # one die per set
    # Red: 10 ATK + one "sum > 11" set + two "4/5/6" sets = 20 (rulebook example).
    a = S.solve([6, 6, 4, 4, 1, 1, 1], [(0, 0, big), (1, 0, small)], 0, ATTACK)
    assert a.effect.atk == 10 and a.value == 10
    assert C.satisfies(C.cross(Effect.of("def", 3)), ())


@pytest.mark.parametrize(
    ("code", "yes", "no"),
    [
        ("pair", [(3, 3)], [(3, 4), (3, 3, 3)]),
        ("pair6", [(6, 6)], [(5, 5)]),
        ("three", [(2, 2, 2)], [(2, 2, 3)]),
        ("straight3", [(3, 1, 2), (4, 5, 6)], [(1, 2, 4), (1, 1, 2)]),
        ("straight5", [(2, 3, 4, 5, 6)], [(1, 2, 3, 4, 6)]),
        ("2face6", [(6, 6)], [(6, 5), (6,)]),
        ("sum3>11", [(4, 4, 4)], [(4, 4, 3), (6, 6)]),
        ("sum2<5", [(1, 3), (2, 2)], [(2, 3), (1,)]),
        ("cross", [()], [(1,)]),
    ],
)
def test_satisfies(code, yes, no):
    combo = C.parse(code)
    assert C.code(combo) == code
    for dice in yes:
        assert C.satisfies(combo, dice), dice
    for dice in no:
        assert not C.satisfies(combo, dice), dice


def test_json_round_trip_and_validation():
    combo = C.parse("sum3>11", Effect(atk=3, hp=-1))
    assert Combo.from_json(combo.to_json()) == combo
    assert combo.to_json() == {
        "kind": "sum_over",
        "n": 3,
        "total": 11,
        "effect": {"atk": 3, "hp": -1},
    }
    assert Effect.from_json({"def": 2}).def_ == 2
    assert C.side("yy") == DEFEND and C.side("hit") == ATTACK
    for bad in ("pair7x", "straight9", "sum>", "nonsense"):
        with pytest.raises(ValueError):
            C.parse(bad)
    with pytest.raises(ValueError):
        Combo("kind", n=1)
    with pytest.raises(ValueError):
        Effect.from_json({"atk": 1.5})


# --- brute force -----------------------------------------------------------------


@cache
def _brute_cost(combo: Combo, dice: tuple[int, ...]) -> int | None:
    best = None
    for target in product(range(1, 7), repeat=len(dice)):
        if C.satisfies(combo, target):
            c = sum(abs(a - b) for a, b in zip(dice, target, strict=True))
            best = c if best is None else min(best, c)
    return best


def brute(values, options, budget, role, weights=None):
    """Best (value, -spent, -dice) over every assignment, by exhaustion."""
    w = S.DEFAULT_WEIGHTS[role] if weights is None else weights

    def val(e: Effect) -> float:
        e = e.for_role(role)
        return (
            w.get("atk", 0) * e.atk
            + w.get("hp", 0) * e.hp
            + w.get("hit", 0) * e.hit
            + w.get("def", 0) * e.def_
            + w.get("yy", 0) * e.yy
            + w.get("avo", 0) * e.avo
        )

    base_v = sum(val(c.effect) for _, _, c in options if c.kind == "cross")
    base_b = budget + sum(
        c.effect.for_role(role).gain(role) for _, _, c in options if c.kind == "cross"
    )
    # Combinations that do nothing in this role cannot change the best value.
    dice_opts = [
        c for _, _, c in options if c.kind != "cross" and c.effect.active_in(role)
    ]
    gains = [c.effect.for_role(role).gain(role) for c in dice_opts]
    top = max(gains, default=0)
    best = [(0.0, 0, 0)]

    def feasible(blocks):
        # Some order pays for every set: search the subsets of sets placed so far
        # (what is left to spend depends only on which sets are placed).
        k = len(blocks)
        if all(b[0] == 0 for b in blocks):
            return True
        reach = {0}
        for _ in range(k):
            nxt = set()
            for t in reach:
                avail = base_b + sum(
                    blocks[i][1] - blocks[i][0] for i in range(k) if t >> i & 1
                )
                for i in range(k):
                    if not t >> i & 1 and blocks[i][0] <= avail:
                        nxt.add(t | 1 << i)
            reach = nxt
        return (1 << k) - 1 in reach

    def rec(free: tuple[int, ...], blocks: list, spent: int, got: int):
        if blocks:
            value = base_v + sum(b[2] for b in blocks)
            key = (value, -spent, -sum(b[3] for b in blocks))
            if key > best[0] and feasible(blocks):
                best[0] = key
        if not free:
            return
        first, others = free[0], free[1:]
        rec(others, blocks, spent, got)  # first die unused
        for combo, gain in zip(dice_opts, gains, strict=True):
            sizes = range(1, len(free) + 1) if combo.n == 0 else [combo.n]
            for n in sizes:
                for rest in combinations(others, n - 1):
                    ids = (first, *rest)
                    cost = _brute_cost(combo, tuple(values[i] for i in ids))
                    if cost is None:
                        continue
                    left = tuple(i for i in others if i not in rest)
                    # Points can only come from the track and sets' gains.
                    if spent + cost > base_b + got + gain + top * len(left):
                        continue
                    blocks.append((cost, gain, val(combo.effect), n))
                    rec(left, blocks, spent + cost, got + gain)
                    blocks.pop()

    best[0] = (base_v, 0, 0)
    rec(tuple(range(len(values))), [], 0, 0)
    return best[0]


def check_answer(values, options, budget, role, a, weights=None):
    """The solver's answer is legal, affordable in its order, and worth its value."""
    used = set()
    avail = budget
    effect = Effect()
    for _, _, c in options:
        if c.kind == "cross":
            effect = effect + c.effect.for_role(role)
            avail += c.effect.for_role(role).gain(role)
    spent = 0
    by_slot = {(s, k): c for s, k, c in options}
    for slot, k, ids, finals in a.sets:
        combo = by_slot[(slot, k)]
        assert not used & set(ids)
        used |= set(ids)
        assert C.satisfies(combo, finals)
        assert sorted(finals) == list(finals)
        # Faces are reported per die id: pair each id with its final face.
        cost = sum(abs(values[i] - f) for i, f in zip(ids, finals, strict=True))
        assert cost <= avail, (a, avail)
        avail += combo.effect.for_role(role).gain(role) - cost
        spent += cost
        effect = effect + combo.effect.for_role(role)
    assert spent == a.spent
    assert effect == a.effect
    assert a.value == pytest.approx(S.evaluate(effect, role, weights))
    return (a.value, -a.spent, -sum(len(s[2]) for s in a.sets))


POOL = [
    ("pair", {"atk": 3}),
    ("pair", {"def": 3}),
    ("three", {"atk": 6}),
    ("three", {"def": 5}),
    ("straight3", {"atk": 4}),
    ("straight4", {"def": 6}),
    ("face456", {"atk": 2}),
    ("face6", {"def": 2}),
    ("face12", {"yy": 1}),
    ("sum2>9", {"atk": 6}),
    ("sum3>13", {"def": 4}),
    ("sum2<5", {"hp": 2}),
    ("pair1", {"hp": 3}),
    ("face5", {"hit": 2}),
    ("face1", {"avo": 1}),
    ("pair", {"hit": 1}),
    ("straight3", {"atk": 7, "hp": -2}),
    ("face3", {"hp": -1}),
    ("cross", {"atk": 2}),
    ("cross", {"avo": 1}),
    ("cross", {"hit": 1}),
    ("cross", {"hp": -1}),
]


# Sets of any size are the brute force's slowest case; they get their own test.
ANY_SIZE = [("sum>11", {"atk": 6}), ("sum>13", {"def": 5}), ("sum>8", {"hit": 2})]


def random_case(rng: random.Random, max_opts: int = 5, pool=POOL):
    values = [rng.randint(1, 6) for _ in range(7)]
    options = []
    for slot in range(3):
        for k in range(rng.randint(1, 2)):
            code, eff = rng.choice(pool)
            options.append((slot, k, C.parse(code, Effect.from_json(eff))))
    options = options[:max_opts]
    return values, options, rng.randint(0, 6), rng.choice([ATTACK, DEFEND])


# The first cases of each sweep run by default, the whole sweep in the slow set.
QUICK_AND_SLOW = [200, pytest.param(2000, marks=pytest.mark.slow)]


@pytest.mark.parametrize("cases", QUICK_AND_SLOW)
def test_solver_matches_brute_force_on_random_rolls(cases: int):
    rng = random.Random(2019)
    for _ in range(cases):
        values, options, budget, role = random_case(rng)
        a = S.solve(values, options, budget, role)
        got = check_answer(values, options, budget, role, a)
        want = brute(values, options, budget, role)
        assert got[0] == pytest.approx(want[0]), (values, options, budget, role, a)
        assert got[1:] == want[1:], (values, options, budget, role, a, want)


def test_solver_matches_brute_force_with_sets_of_any_size():
    rng = random.Random(11)
    for _ in range(200):
        values, options, budget, role = random_case(rng, 4, POOL + ANY_SIZE * 3)
        values = values[:5]  # the brute force's partitions grow fast with the dice
        a = S.solve(values, options, budget, role)
        got = check_answer(values, options, budget, role, a)
        want = brute(values, options, budget, role)
        assert got[0] == pytest.approx(want[0]), (values, options, budget, role, a)
        assert got[1:] == want[1:], (values, options, budget, role, a, want)


def test_solver_matches_brute_force_with_other_weights():
    rng = random.Random(7)
    for _ in range(300):
        values, options, budget, role = random_case(rng, max_opts=4)
        weights = {"atk": rng.choice([0.5, 1, 2]), "hp": rng.choice([0, 1, 3])}
        weights |= {"def": rng.choice([1, 2]), "yy": rng.choice([0, 0.5, 4])}
        a = S.solve(values, options, budget, role, weights)
        got = check_answer(values, options, budget, role, a, weights)
        want = brute(values, options, budget, role, weights)
        assert got[0] == pytest.approx(want[0])
        assert got[1:] == want[1:]


def test_gains_pay_for_later_sets_only():
    hit = C.parse("face5", Effect.of("hit", 2))
    pair = C.parse("pair", Effect.of("atk", 5))
    opts = [(0, 0, hit), (1, 0, pair)]
    # The 5 gives 2 HIT first, which turn 2-4 into a pair.
    a = S.solve([5, 2, 4], opts, 0, ATTACK)
    assert a.value == 5 and a.spent == 2 and a.budget == 2
    assert a.sets[0] == (0, 0, (0,), (5,)) and a.sets[1][:3] == (1, 0, (1, 2))
    # A set cannot pay for itself: the 4 cannot become a 5 on its own gain.
    assert S.solve([4, 2, 3], opts, 0, ATTACK).value == 0
    # With one point from the track: either route; the cheaper one wins the tie.
    a = S.solve([4, 2, 3], opts, 1, ATTACK)
    assert a.value == 5 and a.spent == 1 and len(a.sets) == 1
    # A red cross's gain is there from the start.
    cross = C.parse("cross", Effect.of("hit", 1))
    a = S.solve([4, 2, 3], [*opts, (2, 0, cross)], 0, ATTACK)
    assert a.value == 5 and a.budget == 1


def test_inactive_side_and_optional_sets():
    d = C.parse("pair", Effect.of("def", 4))
    cost = C.parse("face3", Effect.of("hp", -1))
    a = S.solve([3, 3, 3, 3, 1, 1, 1], [(0, 0, d), (1, 0, cost)], 6, ATTACK)
    assert a.sets == () and a.value == 0
    a = S.solve([3, 3, 3, 3, 1, 1, 1], [(0, 0, d)], 0, DEFEND)
    assert a.effect.def_ == 12  # three pairs
    assert S.best_assignment([3, 3, 3, 3, 1, 1, 1], [(0, 0, d)], 0, DEFEND) == [
        (0, 0, [4, 5], [1, 1]),
        (0, 0, [0, 1], [3, 3]),
        (0, 0, [2, 3], [3, 3]),
    ]


def test_all_792_rolls_are_solved_and_legal():
    options = [
        (0, 0, C.parse("sum>11", Effect.of("atk", 6))),
        (0, 1, C.parse("pair", Effect.of("def", 3))),
        (1, 0, C.parse("face456", Effect.of("atk", 2))),
        (2, 0, C.parse("straight3", Effect.of("hit", 2))),
        (2, 1, C.parse("face12", Effect.of("yy", 1))),
    ]
    rolls = set()
    for roll in product(range(1, 7), repeat=7):
        rolls.add(tuple(sorted(roll)))
    assert len(rolls) == 792
    for roll in sorted(rolls):
        for role in (ATTACK, DEFEND):
            a = S.solve(list(roll), options, 3, role)
            check_answer(list(roll), options, 3, role, a)


def test_bad_input():
    with pytest.raises(ValueError):
        S.solve([0, 1, 2], [], 0, ATTACK)
    with pytest.raises(ValueError):
        S.solve([1, 2], [], -1, ATTACK)
    with pytest.raises(ValueError):
        S.solve([1, 2], [], 0, "attack")
    with pytest.raises(ValueError):
        S.solve([1, 2], [], 0, ATTACK, {"speed": 1})


@pytest.mark.parametrize("cases", [60, pytest.param(600, marks=pytest.mark.slow)])
def test_solver_matches_brute_force_with_the_real_cards(cases: int):
    from gameplay.rules.kungfu2019.cards import COMBOS

    codes = sorted(COMBOS)
    rng = random.Random(74)
    for _ in range(cases):
        hand = rng.sample(codes, 3)
        options = [
            (s, k, c) for s, h in enumerate(hand) for k, c in enumerate(COMBOS[h])
        ]
        values = [rng.randint(1, 6) for _ in range(7)]
        budget, role = rng.randint(0, 6), rng.choice([ATTACK, DEFEND])
        a = S.solve(values, options, budget, role)
        got = check_answer(values, options, budget, role, a)
        want = brute(values, options, budget, role)
        assert got[0] == pytest.approx(want[0]), (values, hand, budget, role, a)
        assert got[1:] == want[1:], (values, hand, budget, role, a, want)
