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

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from gameplay.rules.kungfu2019.combos import (
    ATTACK,
    DEFEND,
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


def set_cost(combo: Combo, dice: Iterable[int]) -> tuple[int, tuple[int, ...]] | None:
    """Cheapest adjustment making ``dice`` activate ``combo`` once.

    Returns ``(points, final faces)`` with the faces in the order of ``dice``
    sorted ascending, or None when no adjustment works (wrong number of dice).
    """
    key = tuple(sorted(dice))
    table = _COST_CACHE.setdefault(combo.pattern, {})
    if key not in table:
        table[key] = _compute_cost(combo.pattern, key)
    return table[key]


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
    return sum(weights.get(k, 0) * getattr(effect, _FIELD[k]) for k in _ROLE_KEYS[role])


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


def _front(opts: Sequence[_Opt], cap: int) -> Callable[[tuple[int, ...]], list[Entry]]:
    """Pareto fronts of gain-free packings, by remaining multiset (memoised)."""
    sizes = frozenset(o.size for o in opts)
    by_size: dict[int, list[_Opt]] = {}
    for o in opts:
        by_size.setdefault(o.size, []).append(o)
    tables = [_COST_CACHE.setdefault(o.pattern, {}) for o in opts]
    table_of = {o.index: t for o, t in zip(opts, tables, strict=True)}
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
                    table = table_of[o.index]
                    hit = table.get(chosen, False)
                    if hit is False:
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
                            (sc + c, sv - o.value, sd + m, (o.index, chosen, chain))
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


def _weights_key(weights: Mapping[str, float] | None, role: str) -> tuple:
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
    opts = tuple(options)
    wkey = _weights_key(weights, role)
    result = _solve_sorted(tuple(sorted(vals)), opts, budget, role, wkey)
    return _to_ids(vals, opts, result, role)


@lru_cache(maxsize=65536)
def _solve_sorted(
    roll: tuple[int, ...],
    options: tuple[Option, ...],
    budget: int,
    role: str,
    wkey: tuple,
) -> tuple[tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...], float, int, int]:
    """Sets as (option index, dice, finals) in order, value, spent, budget total."""
    weights = dict(wkey)
    base_value = 0.0
    base_budget = budget
    gainless: list[_Opt] = []
    gainful: list[_Opt] = []
    seen: dict[tuple[Pattern, float, int], int] = {}
    for i, (_slot, _k, combo) in enumerate(options):
        eff = combo.effect.for_role(role)
        if eff == NO_EFFECT:
            continue
        v = _value(eff, role, weights)
        g = eff.gain(role)
        if combo.kind == "cross":
            base_value += v
            base_budget += g
            continue
        if v <= 0 and g <= 0:
            continue  # never worth a set
        key = (combo.pattern, v, g)
        if key in seen:
            continue  # an identical combination earlier in the list does the same
        seen[key] = i
        o = _Opt(i, combo.pattern, combo.n, v, g)
        (gainful if g > 0 else gainless).append(o)
    # Drop gain-free options dominated by another of the same pattern.
    best_by_pattern: dict[Pattern, float] = {}
    for o in gainless:
        best_by_pattern[o.pattern] = max(
            best_by_pattern.get(o.pattern, o.value), o.value
        )
    kept: list[_Opt] = []
    for o in gainless:
        if o.value == best_by_pattern[o.pattern] and all(
            k.pattern != o.pattern for k in kept
        ):
            kept.append(o)
    gainless = kept
    # Every point that could ever be available: the track plus all gains any sets
    # could produce (at most 7 sets).
    max_gain = max((o.gain for o in gainful), default=0) * len(roll)
    cap = base_budget + max_gain
    front = _front(gainless, cap)

    # The packing without gain sets, then every collection of gain sets on top.
    c, nv, d, chain = max(
        (e for e in front(roll) if e[0] <= base_budget),
        key=lambda e: (-e[1], -e[0], -e[2]),
    )
    best = (-nv, -c, -d, (), chain, base_budget)

    if gainful:
        cands = []  # (opt, dice, cost, finals) over distinct sub-multisets
        for o in gainful:
            subs = set()
            sizes = range(1, len(roll) + 1) if o.size == 0 else (o.size,)
            for r in sizes:
                subs.update(combinations(roll, r))
            for s in sorted(subs):
                hit = set_cost(_combo_of(options, o), s)
                if hit is None or hit[0] > cap:
                    continue
                if o.value <= 0 and o.gain <= hit[0]:
                    continue  # no value and no net gain: dropping it never hurts
                cands.append((o, s, hit[0], hit[1]))

        def rec(start: int, rest: tuple[int, ...], chosen: list) -> None:
            nonlocal best
            if chosen:
                ordered = _order([(c[2], c[0].gain, c) for c in chosen])
                avail = base_budget
                ok = True
                for cost, gain, _ in ordered:
                    if cost > avail:
                        ok = False
                        break
                    avail += gain - cost
                if ok:
                    tail = [e for e in front(rest) if e[0] <= avail]
                    if tail:
                        c, nv, d, chain = max(tail, key=lambda e: (-e[1], -e[0], -e[2]))
                        value = -nv + sum(x[0].value for x in chosen)
                        spent = c + sum(x[2] for x in chosen)
                        dice = d + sum(len(x[1]) for x in chosen)
                        key = (value, -spent, -dice)
                        if key > best[:3]:
                            seq = tuple(
                                (p[2][0].index, p[2][1], p[2][3]) for p in ordered
                            )
                            best = (
                                value,
                                -spent,
                                -dice,
                                seq,
                                chain,
                                base_budget + sum(x[0].gain for x in chosen),
                            )
            for j in range(start, len(cands)):
                remain = _remove(rest, cands[j][1])
                if remain is None:
                    continue
                chosen.append(cands[j])
                rec(j, remain, chosen)
                chosen.pop()

        rec(0, roll, [])

    value, nspent, _nd, gain_sets, chain, total_budget = best
    sets = list(gain_sets)
    while chain is not None:
        idx, dice, chain = chain
        o = options[idx][2]
        finals = set_cost(o, dice)[1]  # type: ignore[index]
        sets.append((idx, dice, finals))
    return tuple(sets), value + base_value, -nspent, total_budget


def _combo_of(options: Sequence[Option], o: _Opt) -> Combo:
    return options[o.index][2]


def _to_ids(
    vals: tuple[int, ...],
    options: tuple[Option, ...],
    result: tuple,
    role: str,
) -> Assignment:
    """Map multiset sets back to die ids (lowest free id of each face first)."""
    sets, value, spent, total_budget = result
    free: dict[int, list[int]] = {}
    for i, v in enumerate(vals):
        free.setdefault(v, []).append(i)
    out = []
    effect = NO_EFFECT
    for _slot, _k, combo in options:
        if combo.kind == "cross":
            effect = effect + combo.effect.for_role(role)
    for idx, dice, finals in sets:
        slot, k, combo = options[idx]
        ids = tuple(free[v].pop(0) for v in dice)
        out.append((slot, k, ids, tuple(finals)))
        effect = effect + combo.effect.for_role(role)
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
    _solve_sorted.cache_clear()
    _splits.cache_clear()
    _COST_CACHE.clear()
