"""The exact dice-assignment solver of the Kung Fu dice game (2019).

Given one fighter's rolled dice, the combinations on its three played cards, its
HIT (attacking) or AVO (defending) budget and its role, :func:`solve` finds the
assignment of disjoint sets of dice to combinations, with adjusted faces, that
maximises the role's value. The engine offers it as "auto" (and as the timeout
default); the heuristic bot plays it.

Rules it implements (rulebook, Fighting Phase 4; docs/rules/kungfu2019.md):

* each set activates its combination's effect once; several sets may go to one
  card; a die belongs to at most one set; activating is optional;
* changing a die by one pip costs one budget point, several points may go on one
  die (a 1 into a 6 costs 5);
* the budget is spent in order: a set's dice are adjusted while it is open, paid
  from the track plus the HIT/AVO gained from sets already closed. The answer
  lists the sets in an order in which every set is affordable;
* red crosses need no dice; they are always active (once) and their gain is in
  the budget from the start. They count in the value but are not listed as sets.

Objective: ``value = sum(weight[field] * total effect[field])`` over the role's
fields, with default weights attack ``atk 1, hp 1`` and defence ``def 1, yy 1``.
Why: a point of ATK is at most one point of damage to each defender and a point
of DEF at most one point of damage saved; a HP gained (or lost) and a yin-yang
damage to the attacker move the HP standings by exactly one, and "most HP wins".
Counting them one for one is the simplest weighting that never throws a sure
point away for a speculative one; bots may pass their own weights. HIT/AVO gains
are worth nothing by themselves (they expire with the fight) and are used only
to pay for other sets. Ties: fewer points spent, then fewer dice used (then a
fixed, deterministic choice).

Method. Dice are a multiset (their order does not matter), so the search runs on
sorted tuples of face values. Per combination pattern and multiset of dice, the
cheapest adjustment is computed once and cached for the process lifetime (at most
1,716 multisets of up to 7 dice per pattern). Combinations without a gain are
packed by a dynamic programme over the remaining multiset: the smallest remaining
die is either left unused or starts a set; each state keeps the Pareto front of
(points spent, value). Sets with a gain are enumerated on top (they are few), their
feasible order is the classic one for resource-changing tasks (sets that gain at
least what they cost first, cheapest first; then the others by decreasing gain),
and sets without a gain always come after them. The whole answer is cached by
(roll, options, budget, role, weights).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from gameplay.rules.kungfu2019.combos import (
    ATTACK,
    DEFEND,
    MAX_DICE,
    NO_EFFECT,
    ROLES,
    Combo,
    Effect,
)

DEFAULT_WEIGHTS: dict[str, dict[str, float]] = {
    ATTACK: {"atk": 1, "hp": 1},
    DEFEND: {"def": 1, "yy": 1},
}
_FIELD = {
    "atk": "atk",
    "hit": "hit",
    "hp": "hp",
    "def": "def_",
    "avo": "avo",
    "yy": "yy",
}
_ROLE_KEYS = {ATTACK: ("atk", "hit", "hp"), DEFEND: ("def", "avo", "yy")}

Pattern = tuple[str, int, tuple[int, ...], int]
Option = tuple[int, int, Combo]  # (slot, k, combination)


@dataclass(frozen=True, slots=True)
class Assignment:
    """The solver's answer.

    ``sets``: ``(slot, k, die ids, final faces)`` in an affordable order.
    ``effect``: the role's total effect (crosses included). ``value``: the objective.
    ``spent``: budget points used; ``budget``: track plus every gain collected.
    """

    sets: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]
    effect: Effect
    value: float
    spent: int
    budget: int

    def to_json(self) -> dict[str, Any]:
        return {
            "sets": [[s, k, list(d), list(f)] for s, k, d, f in self.sets],
            "effect": self.effect.to_json(),
            "value": self.value,
            "spent": self.spent,
        }


# --- cheapest adjustment of one multiset for one pattern -------------------------

_COST_CACHE: dict[
    Pattern, dict[tuple[int, ...], tuple[int, tuple[int, ...]] | None]
] = {}


def _compute_cost(
    pattern: Pattern, dice: tuple[int, ...]
) -> tuple[int, tuple[int, ...]] | None:
    """(points, final faces aligned with ``dice``) or None if no adjustment works."""
    kind, n, faces, total = pattern
    m = len(dice)
    if kind == "sum_over":
        if m == 0 or (n and m != n):
            return None
        need = total + 1 - sum(dice)
        if need <= 0:
            return 0, dice
        if 6 * m - sum(dice) < need:
            return None
        out = list(dice)
        for i in range(m - 1, -1, -1):  # raise the highest dice first
            up = min(6 - out[i], need)
            out[i] += up
            need -= up
        return total + 1 - sum(dice), tuple(out)
    if m != n:
        return None
    if kind == "faces":
        cost = 0
        out = []
        for x in dice:
            f = min(faces, key=lambda f: (abs(f - x), f))
            cost += abs(f - x)
            out.append(f)
        return cost, tuple(out)
    if kind == "kind":
        best = None
        for v in faces or (1, 2, 3, 4, 5, 6):
            c = sum(abs(x - v) for x in dice)
            if best is None or c < best[0]:
                best = (c, (v,) * m)
        return best
    if kind == "straight":
        best = None
        for s in range(1, 8 - n):
            c = sum(abs(x - (s + i)) for i, x in enumerate(dice))
            if best is None or c < best[0]:
                best = (c, tuple(range(s, s + n)))
        return best
    if kind == "sum_under":
        excess = sum(dice) - (total - 1)
        if excess <= 0:
            return 0, dice
        if sum(dice) - m < excess:
            return None
        out = list(dice)
        for i in range(m):  # lower the lowest dice first
            down = min(out[i] - 1, excess)
            out[i] -= down
            excess -= down
        return sum(dice) - sum(out), tuple(out)
    return None  # cross: never takes dice


@lru_cache(maxsize=4096)
def _splits(
    rest: tuple[int, ...], sizes: frozenset[int]
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The ways to start a set with ``rest[0]``: (set, what remains), deduplicated.

    ``sizes`` are the set sizes wanted (0 = any size). The set always holds the
    smallest remaining die; equal faces are interchangeable, so each distinct
    multiset appears once.
    """
    first, others = rest[0], rest[1:]
    out = []
    seen = set()
    any_size = 0 in sizes
    for r in range(len(others) + 1):
        if not any_size and r + 1 not in sizes:
            continue
        for idx in combinations(range(len(others)), r):
            chosen = tuple(others[i] for i in idx)
            if chosen in seen:
                continue
            seen.add(chosen)
            pick = set(idx)
            remain = tuple(others[i] for i in range(len(others)) if i not in pick)
            out.append(((first, *chosen), remain))
    return tuple(out)


# --- the search -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Opt:
    index: int  # position in the caller's option list
    pattern: Pattern
    size: int  # 0 = any
    value: float
    gain: int


def _value(effect: Effect, role: str, weights: Mapping[str, float]) -> float:
    total: float = sum(
        weights.get(k, 0) * getattr(effect, _FIELD[k]) for k in _ROLE_KEYS[role]
    )
    return total


# A front entry: (cost, -value, dice used, chain); chain = (opt index, dice, next).
Entry = tuple[int, float, int, Any]


def _prune(entries: list[Entry], cap: int) -> list[Entry]:
    """The Pareto front: increasing cost, strictly increasing value."""
    entries.sort(key=lambda e: (e[0], e[1], e[2]))
    out: list[Entry] = []
    best = None
    for e in entries:
        if e[0] > cap:
            break
        if best is None or e[1] < best:
            out.append(e)
            best = e[1]
    return out


_FRONTS: OrderedDict[tuple[Any, ...], Callable[[tuple[int, ...]], list[Entry]]] = (
    OrderedDict()
)
_FRONTS_MAX = 1024


def _front(opts: Sequence[_Opt], cap: int) -> Callable[[tuple[int, ...]], list[Entry]]:
    """Pareto fronts of gain-free packings, by remaining multiset (memoised).

    A front depends only on the multiset, the options' patterns and values and
    the cap, not on the roll it was reached from, so one memo serves every roll
    of the same hand (and every hand with the same combinations in the same
    order): over a whole hand the work is one pass over the 1,716 multisets of
    up to 7 dice at most. Chains name options by pattern (unique among ``opts``).

    The key keeps the options' order: among equally good packings the front
    keeps the first one found, which depends on that order, so a memo shared
    by two orders would make the answer depend on which hand came first (the
    process's history): a replay or the native kernel (_fastplay.c) could then
    choose differently. With the order in the key the answer is a function of
    the call's arguments alone.
    """
    key = (tuple((o.pattern, o.size, o.value) for o in opts), cap)
    got = _FRONTS.get(key)
    if got is not None:
        _FRONTS.move_to_end(key)
        return got
    got = _FRONTS[key] = _make_front(opts, cap)
    if len(_FRONTS) > _FRONTS_MAX:
        _FRONTS.popitem(last=False)
    return got


def _make_front(
    opts: Sequence[_Opt], cap: int
) -> Callable[[tuple[int, ...]], list[Entry]]:
    sizes = frozenset(o.size for o in opts)
    by_size: dict[int, list[_Opt]] = {}
    for o in opts:
        by_size.setdefault(o.size, []).append(o)
    table_of = {o.pattern: _COST_CACHE.setdefault(o.pattern, {}) for o in opts}
    memo: dict[tuple[int, ...], list[Entry]] = {(): [(0, 0.0, 0, None)]}

    def front(rest: tuple[int, ...]) -> list[Entry]:
        got = memo.get(rest)
        if got is not None:
            return got
        cand: list[Entry] = list(front(rest[1:]))  # smallest die left unused
        if opts:
            for chosen, remain in _splits(rest, sizes):
                m = len(chosen)
                group = by_size.get(m, []) + by_size.get(0, [])
                if not group:
                    continue
                sub = None
                for o in group:
                    table = table_of[o.pattern]
                    try:
                        hit = table[chosen]
                    except KeyError:
                        hit = table[chosen] = _compute_cost(o.pattern, chosen)
                    if hit is None or hit[0] > cap:
                        continue
                    c = hit[0]
                    if sub is None:
                        sub = front(remain)
                    for sc, sv, sd, chain in sub:
                        if sc + c > cap:
                            break
                        cand.append(
                            (sc + c, sv - o.value, sd + m, (o.pattern, chosen, chain))
                        )
        res = memo[rest] = _prune(cand, cap)
        return res

    return front


def _order(sets: list[tuple[int, int, Any]]) -> list[tuple[int, int, Any]]:
    """The affordable order of gain sets (cost, gain, payload) if any order is."""
    pos = sorted((s for s in sets if s[1] >= s[0]), key=lambda s: s[0])
    neg = sorted((s for s in sets if s[1] < s[0]), key=lambda s: -s[1])
    return pos + neg


def _remove(rest: tuple[int, ...], dice: tuple[int, ...]) -> tuple[int, ...] | None:
    out = list(rest)
    for d in dice:
        try:
            out.remove(d)
        except ValueError:
            return None
    return tuple(out)


# The weights that count in a role, as a hashable, sorted key.
WeightsKey = tuple[tuple[str, float], ...]
# _solve_sorted's answer: sets as (option index, dice, finals), value, spent and
# the budget total.
_Set = tuple[int, tuple[int, ...], tuple[int, ...]]
_Sorted = tuple[tuple[_Set, ...], float, int, int]


def _weights_key(weights: Mapping[str, float] | None, role: str) -> WeightsKey:
    w = DEFAULT_WEIGHTS[role] if weights is None else weights
    unknown = set(w) - set(_FIELD)
    if unknown:
        raise ValueError(f"unknown weight field(s): {sorted(unknown)}")
    return tuple(sorted((k, w[k]) for k in _ROLE_KEYS[role] if w.get(k)))


def solve(
    values: Sequence[int],
    options: Iterable[Option],
    budget: int,
    role: str,
    weights: Mapping[str, float] | None = None,
) -> Assignment:
    """The best assignment of ``values`` (die id = index) to ``options``.

    ``options``: ``(slot, k, Combo)`` for every combination on the played cards;
    combinations whose effect does nothing in ``role`` are ignored. ``budget``:
    the HIT (attacking) or AVO (defending) track. See the module docstring for
    the rules and the objective.
    """
    if role not in ROLES:
        raise ValueError(f"role must be {ATTACK!r} or {DEFEND!r}, got {role!r}")
    vals = tuple(values)
    if any(type(v) is not int or not 1 <= v <= 6 for v in vals):
        raise ValueError(f"dice must be integers 1-6, got {list(vals)}")
    if type(budget) is not int or budget < 0:
        raise ValueError(f"budget must be a non-negative integer, got {budget!r}")
    return _solve(vals, tuple(options), budget, role, _weights_key(weights, role))


@lru_cache(maxsize=65536)
def _solve(
    vals: tuple[int, ...],
    opts: tuple[Option, ...],
    budget: int,
    role: str,
    wkey: WeightsKey,
) -> Assignment:
    result = _solve_sorted(tuple(sorted(vals)), opts, budget, role, wkey)
    return _to_ids(vals, opts, result, _prepare(opts, budget, role, wkey))


@dataclass(frozen=True, slots=True)
class _Prepared:
    """What a hand, budget, role and weights fix before any roll is seen."""

    base_value: float  # the red crosses' value (always active)
    base_budget: int  # the track plus the crosses' gains
    gainless: tuple[_Opt, ...]
    gainful: tuple[_Opt, ...]
    cap: int  # the most points that could ever be available
    index_of: dict[Pattern, int]  # gain-free pattern -> option index
    cross_effect: Effect
    role_effects: tuple[Effect, ...]  # each option's effect in this role


@lru_cache(maxsize=4096)
def _prepare(
    options: tuple[Option, ...], budget: int, role: str, wkey: WeightsKey
) -> _Prepared:
    weights = dict(wkey)
    base_value = 0.0
    base_budget = budget
    cross_effect = NO_EFFECT
    gainless: list[_Opt] = []
    gainful: list[_Opt] = []
    seen: set[tuple[Pattern, float, int]] = set()
    role_effects = []
    for i, (_slot, _k, combo) in enumerate(options):
        eff = combo.effect.for_role(role)
        role_effects.append(eff)
        if eff == NO_EFFECT:
            continue
        v = _value(eff, role, weights)
        g = eff.gain(role)
        if combo.kind == "cross":
            base_value += v
            base_budget += g
            cross_effect = cross_effect + eff
            continue
        if v <= 0 and g <= 0:
            continue  # never worth a set
        key = (combo.pattern, v, g)
        if key in seen:
            continue  # an identical combination earlier in the list does the same
        seen.add(key)
        (gainful if g > 0 else gainless).append(_Opt(i, combo.pattern, combo.n, v, g))
    # Of gain-free options with one pattern only the most valuable can matter.
    kept: dict[Pattern, _Opt] = {}
    for o in gainless:
        if o.pattern not in kept or o.value > kept[o.pattern].value:
            kept[o.pattern] = o
    # Every point that could ever be available: the track plus all gains any sets
    # could produce (at most one set per die).
    max_gain = max((o.gain for o in gainful), default=0) * MAX_DICE
    return _Prepared(
        base_value=base_value,
        base_budget=base_budget,
        gainless=tuple(kept.values()),
        gainful=tuple(gainful),
        cap=base_budget + max_gain,
        index_of={o.pattern: o.index for o in kept.values()},
        cross_effect=cross_effect,
        role_effects=tuple(role_effects),
    )


@lru_cache(maxsize=16384)
def _sub_multisets(roll: tuple[int, ...], n: int) -> tuple[tuple[int, ...], ...]:
    """The distinct sub-multisets of ``roll`` with ``n`` dice (0 = any size >= 1)."""
    sizes = range(1, len(roll) + 1) if n == 0 else (n,)
    subs: set[tuple[int, ...]] = set()
    for r in sizes:
        subs.update(combinations(roll, r))
    return tuple(sorted(subs))


def _best_within(front: list[Entry], avail: int) -> Entry | None:
    """The front's best entry costing at most ``avail`` (value rises with cost)."""
    for e in reversed(front):
        if e[0] <= avail:
            return e
    return None


@lru_cache(maxsize=65536)
def _solve_sorted(
    roll: tuple[int, ...],
    options: tuple[Option, ...],
    budget: int,
    role: str,
    wkey: WeightsKey,
) -> _Sorted:
    """Sets as (option index, dice, finals) in order, value, spent, budget total."""
    prep = _prepare(options, budget, role, wkey)
    base_budget = prep.base_budget
    cap = prep.cap
    front = _front(prep.gainless, cap)

    # The packing without gain sets, then every collection of gain sets on top.
    c, nv, d, chain = _best_within(front(roll), base_budget)  # type: ignore[misc]
    # (value, -spent, -dice used, gain sets, chain, budget total)
    best: tuple[float, int, int, tuple[_Set, ...], Any, int] = (
        -nv,
        -c,
        -d,
        (),
        chain,
        base_budget,
    )

    if prep.gainful:
        # (opt, dice, cost, finals) over distinct sub-multisets
        cands: list[tuple[_Opt, tuple[int, ...], int, tuple[int, ...]]] = []
        for o in prep.gainful:
            table = _COST_CACHE.setdefault(o.pattern, {})
            for sub in _sub_multisets(roll, o.size):
                try:
                    hit = table[sub]
                except KeyError:
                    hit = table[sub] = _compute_cost(o.pattern, sub)
                if hit is None or hit[0] > cap:
                    continue
                if o.value <= 0 and o.gain <= hit[0]:
                    continue  # no value and no net gain: dropping it never hurts
                cands.append((o, sub, hit[0], hit[1]))

        def rec(
            start: int,
            rest: tuple[int, ...],
            chosen: list[tuple[_Opt, tuple[int, ...], int, tuple[int, ...]]],
            value: float,
        ) -> None:
            nonlocal best
            saturated = False
            if chosen:
                ordered = _order([(x[2], x[0].gain, x) for x in chosen])
                avail = base_budget
                for cost, gain, _ in ordered:
                    if cost > avail:
                        break
                    avail += gain - cost
                else:
                    rest_front = front(rest)
                    # Enough points for the costliest gain-free packing of what is
                    # left: a further set without value cannot help any more.
                    saturated = avail >= rest_front[-1][0]
                    tail = _best_within(rest_front, avail)
                    if tail is not None:
                        c, nv, d, chain = tail
                        spent = c + sum(x[2] for x in chosen)
                        dice = d + len(roll) - len(rest)
                        key = (value - nv, -spent, -dice)
                        if key > best[:3]:
                            seq = tuple(
                                (p[2][0].index, p[2][1], p[2][3]) for p in ordered
                            )
                            gained = sum(x[0].gain for x in chosen)
                            best = (*key, seq, chain, base_budget + gained)
            for j in range(start, len(cands)):
                cand = cands[j]
                if saturated and cand[0].value <= 0:
                    continue
                remain = _remove(rest, cand[1])
                if remain is None:
                    continue
                chosen.append(cand)
                rec(j, remain, chosen, value + cand[0].value)
                chosen.pop()

        rec(0, roll, [], 0.0)

    value, nspent, _nd, gain_sets, chain, total_budget = best
    sets = list(gain_sets)
    while chain is not None:
        pattern, dice, chain = chain
        finals = _COST_CACHE[pattern][dice][1]  # type: ignore[index]
        sets.append((prep.index_of[pattern], dice, finals))
    return tuple(sets), value + prep.base_value, -nspent, total_budget


def _to_ids(
    vals: tuple[int, ...],
    options: tuple[Option, ...],
    result: _Sorted,
    prep: _Prepared,
) -> Assignment:
    """Map multiset sets back to die ids (lowest free id of each face first)."""
    sets, value, spent, total_budget = result
    free: dict[int, list[int]] = {}
    for i, v in enumerate(vals):
        free.setdefault(v, []).append(i)
    out = []
    effect = prep.cross_effect
    for idx, dice, finals in sets:
        slot, k, _combo = options[idx]
        ids = tuple(free[v].pop(0) for v in dice)
        out.append((slot, k, ids, finals))
        effect = effect + prep.role_effects[idx]
    return Assignment(
        sets=tuple(out), effect=effect, value=value, spent=spent, budget=total_budget
    )


def best_assignment(
    values: Sequence[int],
    options: Iterable[Option],
    budget: int,
    role: str,
    weights: Mapping[str, float] | None = None,
) -> list[tuple[int, int, list[int], list[int]]]:
    """The engine's entry point: :func:`solve`'s sets as plain lists."""
    a = solve(values, options, budget, role, weights)
    return [(s, k, list(d), list(f)) for s, k, d, f in a.sets]


def evaluate(
    effect: Effect, role: str, weights: Mapping[str, float] | None = None
) -> float:
    """The objective of a total effect (for tests and bots)."""
    return _value(effect, role, DEFAULT_WEIGHTS[role] if weights is None else weights)


def clear_caches() -> None:
    """Forget every cached answer and adjustment (benchmarks measure cold calls)."""
    _solve.cache_clear()
    _solve_sorted.cache_clear()
    _prepare.cache_clear()
    _sub_multisets.cache_clear()
    _splits.cache_clear()
    _COST_CACHE.clear()
    _FRONTS.clear()
