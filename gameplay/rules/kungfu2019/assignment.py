"""Kung Fu (2019)'s dice assignment: the records, their menus and checks, and
the best assignment (``auto``, ``best``, ``proposal``), asked of the kernel's
solver when it is built.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules.base import State
from gameplay.rules.kungfu2019 import actions as _actions
from gameplay.rules.kungfu2019 import native as _kernel
from gameplay.rules.kungfu2019.actions import DIE_ID, DOWN_ID, DROP_ID, SET_ID, UP_ID
from gameplay.rules.kungfu2019.alphabet import (
    COMBOS,
    CROSS,
    DICE,
    SETTABLE,
    USABLE,
    WORTH,
)
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND, Combo, satisfies
from gameplay.rules.views import PileViews

# Assigned, not imported: CPython 3.11 compiles ``NAME.method(...)`` on a name
# the module imports as an attribute load and a call (a bound method made per
# call), and on any other name as a method call; ``_assign_legal`` runs
# ``STEP_ARG.get`` at every dice step Python checks, ``_proposal``
# ``_native.solve``. The playout kernel (None when not built) and its
# solve-and-check are globals of this module, so tests switch them off here.
STEP_ARG = _actions.STEP_ARG
_native = _kernel._native
_solve_checked = _kernel._solve_checked

# ---------------------------------------------------------------------------
# Dice assignment helpers. An assignment record (``asg``) per fighter:
#   v      current die values (rolled values plus HIT/AVO adjustments)
#   sets   closed sets [slot, k, [dice]] in the order they were closed
#   open   the set being built [slot, k, [dice]] or None
#   bud    HIT/AVO points from the track and the red crosses of the 3 cards
#   gain   HIT/AVO points gained from closed sets
#   spent  points spent: sum of |v - rolled| over all dice
#   done   finished (the seat no longer acts in this fight)


def _role(fight: dict[str, Any], seat: int) -> str:
    return ATTACK if seat == fight["a"] else DEFEND


def _used_mask(asg: dict[str, Any]) -> int:
    """The dice in a set (closed or open) as a bit mask, bit i for die i: the
    menus ask which dice are free at every assignment step, and a mask built
    with loops costs less than a set built by a comprehension (a call of its
    own on Python 3.11)."""
    used = 0
    for st in asg["sets"]:
        for i in st[2]:
            used |= 1 << i
    op = asg["open"]
    if op is not None:
        for i in op[2]:
            used |= 1 << i
    return used


def _set_menu(key: tuple[str, str]) -> tuple[tuple[int, str], ...]:
    """Every set a fighter with ``(played, role)`` may open: (dice, id)."""
    played, role = key
    return tuple(
        (c.n, SET_ID[slot, k])
        for slot, ch in enumerate(played)
        for k, c in USABLE[ch][role]
    )


# The sets of three played cards in a role, listed once (the menu of every
# assignment step of the fight offers those that fit the free dice).
_SET_MENUS: PileViews[tuple[str, str], tuple[tuple[int, str], ...]] = PileViews(
    _set_menu
)


def _set_options(played: str, role: str, free: int) -> list[str]:
    return [sid for n, sid in _SET_MENUS[played, role] if n <= free]


# The same per number of free dice, listed once: ``_assign_ids`` runs at every
# step of a fight, and a lookup costs less than the comprehension's filter.
_SET_OPTIONS: PileViews[tuple[str, str, int], tuple[str, ...]] = PileViews(
    lambda key: tuple(_set_options(*key))
)


def _assign_ids(s: State, seat: int) -> list[str]:
    f = s["fight"]
    asg = f["asg"][seat]
    if asg is None or asg["done"]:
        return []
    op = asg["open"]
    if op is None:
        sets = asg["sets"]
        if not sets and not asg["spent"]:
            ids = ["auto", "done", "best"]
        elif asg["spent"]:
            ids = ["auto", "done", "best", "reset"]
            for j in range(len(sets)):
                if _droppable(s, seat, j):
                    ids.append(DROP_ID[j])
        else:
            # Nothing was paid for (gains are never negative), so no set
            # depends on another's HIT/AVO: every closed set may be dropped.
            ids = ["auto", "done", "best", "reset", *DROP_ID[: len(sets)]]
        in_sets = 0
        for st in sets:
            in_sets += len(st[2])
        role = ATTACK if seat == f["a"] else DEFEND
        ids += _SET_OPTIONS[s["played"][seat], role, DICE - in_sets]
        return ids
    ids = ["auto"]
    dice = op[2]
    if len(dice) < COMBOS[s["played"][seat][op[0]]][op[1]].n:
        # The dice in sets, closed or open, as a bit mask (``_used_mask``).
        used = 0
        for st in asg["sets"]:
            for i in st[2]:
                used |= 1 << i
        for i in dice:
            used |= 1 << i
        ids += _FREE_DIE_IDS[used]
    avail = asg["bud"] + asg["gain"] - asg["spent"]
    rolled = f["dice"][seat]
    v = asg["v"]
    for i in op[2]:
        x, r = v[i], rolled[i]
        if x < 6 and (x < r or avail > 0):
            ids.append(UP_ID[i])
        if x > 1 and (x > r or avail > 0):
            ids.append(DOWN_ID[i])
    ids.append("cancel")
    return ids


# Per mask of dice in sets: the ``die:i`` ids of the free dice, in order.
_FREE_DIE_IDS = tuple(
    tuple(DIE_ID[i] for i in range(DICE) if not mask >> i & 1)
    for mask in range(1 << DICE)
)


def _without(s: State, seat: int, j: int) -> _Checked | None:
    """The assignment with closed set ``j`` dropped (its dice back to the roll),
    checked in order as (values, sets, gain, spent); None if it no longer adds up
    (a later set was paid with HIT/AVO that set ``j`` gained)."""
    f = s["fight"]
    asg = f["asg"][seat]
    v = asg["v"]
    rest = [
        (slot, k, dice, [v[i] for i in dice])
        for n, (slot, k, dice) in enumerate(asg["sets"])
        if n != j
    ]
    return _check_assignment(
        s["played"][seat], _role(f, seat), f["dice"][seat], asg["bud"], rest
    )


def _droppable(s: State, seat: int, j: int) -> bool:
    """``_without(s, seat, j) is not None``, without building the assignment.

    The other closed sets keep their combinations, dice and values (dropping
    ``j`` only puts its own dice back), so only the budget can fail: each later
    set must still be paid for, in order, without the gain of set ``j``.
    """
    f = s["fight"]
    asg = f["asg"][seat]
    settable = SETTABLE[ATTACK if seat == f["a"] else DEFEND]
    rolled = f["dice"][seat]
    v = asg["v"]
    played = s["played"][seat]
    avail = asg["bud"]
    for n, (slot, k, dice) in enumerate(asg["sets"]):
        if n == j:
            continue
        cost = 0
        for i in dice:
            cost += abs(v[i] - rolled[i])
        if cost > avail:
            return False
        avail += settable[played[slot]][k][1] - cost
    return True


def _dropped(s: State, seat: int, j: int) -> _Checked:
    """The assignment with closed set ``j`` dropped, for a ``drop:j`` that
    ``_droppable`` allowed: what ``_without`` gives then, computed directly.

    With no set open, a die outside the closed sets shows its roll (``cancel``
    and ``reset`` put dice back, ``up``/``down`` move only the open set's), so
    dropping ``j`` puts its dice back to the roll and keeps the others' values;
    the other sets keep their order, gains and costs. Checking the whole
    assignment again (``_without``) cost about a drop step's half.
    """
    f = s["fight"]
    asg = f["asg"][seat]
    settable = SETTABLE[ATTACK if seat == f["a"] else DEFEND]
    rolled = f["dice"][seat]
    played = s["played"][seat]
    v = asg["v"][:]
    sets: list[list[Any]] = []
    gain = spent = 0
    for n, (slot, k, dice) in enumerate(asg["sets"]):
        if n == j:
            for i in dice:
                v[i] = rolled[i]
            continue
        for i in dice:
            spent += abs(v[i] - rolled[i])
        gain += settable[played[slot]][k][1]
        sets.append([slot, k, [*dice]])
    return v, sets, gain, spent


def _maybe_close(s: State, seat: int, asg: dict[str, Any], role: str) -> None:
    """Close the open set once it has its dice and they satisfy its combination."""
    op = asg["open"]
    # Only a set usable in the role is ever opened, so it is in SETTABLE.
    combo, plus = SETTABLE[role][s["played"][seat][op[0]]][op[1]]
    dice = op[2]
    if len(dice) == combo.n and satisfies(combo, list(map(asg["v"].__getitem__, dice))):
        asg["sets"] = asg["sets"] + [op]
        asg["open"] = None
        asg["gain"] += plus


def _options(played: str) -> list[tuple[int, int, Combo]]:
    return [
        (slot, k, c) for slot, ch in enumerate(played) for k, c in enumerate(COMBOS[ch])
    ]


# A checked assignment: die values, closed sets [slot, k, dice], gain, spent.
_Checked = tuple[list[int], list[list[Any]], int, int]


def _check_assignment(
    played: str, role: str, rolled: list[int], bud: int, sets: Any
) -> _Checked | None:
    """Validate a proposed assignment; (values, sets, gain, spent) or None.

    A proposal (the solver's, the kernel's, a test's) is checked before it
    becomes a state, in one pass per set: a combination usable in ``role``,
    distinct free dice on the table, faces 1-6 (ints, not bools or floats), the
    combination satisfied, and every change paid from the budget so far. The
    dice in use are one bit mask (``auto`` and ``best`` run this at every
    fight, so it stays on the hot path).
    """
    v = list(rolled)
    settable = SETTABLE[role]
    used = 0  # bit i: die i is in a set already
    out: list[list[Any]] = []
    gain = spent = 0
    try:
        for slot, k, dice, finals in sets:
            if type(slot) is not int or type(k) is not int or slot < 0:
                return None
            entry = settable[played[slot]].get(k)
            if entry is None:
                return None
            combo, plus = entry
            n = combo.n
            if len(dice) != n or len(finals) != n:
                return None
            cost = 0
            mask = used
            for i, x in zip(dice, finals, strict=True):
                if (
                    type(i) is not int
                    or type(x) is not int
                    or not 0 <= i < DICE
                    or not 1 <= x <= 6
                    or mask >> i & 1
                ):
                    return None
                mask |= 1 << i
                cost += abs(x - rolled[i])
            if cost > bud + gain - spent or not satisfies(combo, finals):
                return None
            spent += cost
            gain += plus
            used = mask
            for i, x in zip(dice, finals, strict=True):
                v[i] = x
            out.append([slot, k, list(dice)])
    except (TypeError, ValueError, IndexError, KeyError):
        return None
    return v, out, gain, spent


def _find(c: Combo, rolled: list[int], free: list[int]) -> list[int] | None:
    """Free dice that satisfy ``c`` as rolled (one simple choice), or None."""
    n = c.n
    kind = c.kind
    if kind == "faces":
        got = [i for i in free if rolled[i] in c.faces]
        return got[:n] if len(got) >= n else None
    if kind == "kind":
        by: dict[int, list[int]] = {}
        for i in free:
            if not c.faces or rolled[i] in c.faces:
                by.setdefault(rolled[i], []).append(i)
        for v in sorted(by):
            if len(by[v]) >= n:
                return by[v][:n]
        return None
    if kind == "straight":
        first: dict[int, int] = {}
        for i in free:
            first.setdefault(rolled[i], i)
        for v in range(1, 8 - n):
            if all(v + j in first for j in range(n)):
                return [first[v + j] for j in range(n)]
        return None
    if kind == "sum_over":
        order = sorted(free, key=lambda i: -rolled[i])
    else:  # sum_under
        order = sorted(free, key=lambda i: rolled[i])
    pick = order[:n]
    if len(pick) == n and satisfies(c, [rolled[i] for i in pick]):
        return pick
    return None


def _greedy(played: str, role: str, rolled: list[int]) -> list[tuple[Any, ...]]:
    """A simple legal assignment: unmodified dice, the biggest effect first."""
    opts = []
    for slot, ch in enumerate(played):
        for value, n, k, c in WORTH[ch][role]:
            opts.append((value, n, slot, k, c))
    opts.sort(key=lambda o: o[:4])
    free = list(range(DICE))
    out = []
    for _v, n, slot, k, c in opts:
        while n <= len(free):
            dice = _find(c, rolled, free)
            if dice is None:
                break
            out.append((slot, k, dice, [rolled[i] for i in dice]))
            free = [i for i in free if i not in dice]
    return out


_SOLVER: list[Any] = []


def _solver() -> Any:
    """The dice helper's exact solver, if its module is present."""
    if not _SOLVER:
        try:
            from gameplay.rules.kungfu2019 import solver

            _SOLVER.append(getattr(solver, "best_assignment", None))
        except ImportError:
            _SOLVER.append(None)
    return _SOLVER[0]


def _proposal(s: State, seat: int) -> tuple[Any, _Checked]:
    """The proposal as the solver gave it (a sequence of ``(slot, k, dice,
    values)``) and its checked form (values, sets, gain, spent).

    Not memoized: whole answers kept per roll (about a quarter of random
    games' calls repeat one, ``best`` then ``auto``) cost more than they
    save, the kernel's own cost cache being warm for a repeat and a large
    memo of lists slowing every garbage collection (docs/performance.md).
    """
    f = s["fight"]
    role = _role(f, seat)
    played = s["played"][seat]
    rolled = f["dice"][seat]
    bud = f["asg"][seat]["bud"]
    if _native is not None:
        # The kernel's copy of the exact solver gives best_assignment's sets
        # (tests/rules/test_kungfu2019_native.py) about 30 times faster; the
        # solver is most of a playout's time, so search bots gain the most.
        # Its sets go to the check as they come (tuples).
        sets = _native.solve(played, 0 if role == ATTACK else 1, bytes(rolled), bud)
        checked = _check_assignment(played, role, rolled, bud, sets)
        if checked is not None:
            return sets, checked
    best = _solver()
    if best is not None:
        # The solver adds the red crosses' HIT/AVO itself: it takes the track.
        track = bud - sum(CROSS[c][role][1] for c in played)
        sets = best(list(rolled), _options(played), track, role)
        checked = _check_assignment(played, role, rolled, bud, sets)
        if checked is not None:
            return sets, checked
    sets = _greedy(played, role, rolled)
    checked = _check_assignment(played, role, rolled, bud, sets)
    assert checked is not None  # unmodified dice that satisfy their combinations
    return sets, checked


def _checked_proposal(s: State, seat: int) -> _Checked:
    """``_proposal(s, seat)[1]``, what ``auto``, ``best`` and ``determinize``
    load: the kernel solves and checks in one call when it is built
    (``solve_checked``, its copy of ``_check_assignment``; the Python check
    of the kernel's sets cost more than the solve), else ``_proposal``."""
    if _native is not None and _solve_checked is not None:
        f = s["fight"]
        role = _role(f, seat)
        checked: _Checked | None = _solve_checked(
            s["played"][seat],
            0 if role == ATTACK else 1,
            bytes(f["dice"][seat]),
            f["asg"][seat]["bud"],
        )
        if checked is not None:
            return checked
    return _proposal(s, seat)[1]


def proposal(s: State, seat: int) -> list[tuple[Any, ...]]:
    """The best assignment for ``seat`` in the current fight (the timeout default).

    The exact solver of ``solver.py`` when present and its answer is legal, else a
    greedy assignment of unmodified dice. A list of ``(slot, k, dice, values)``.
    """
    return [
        (slot, k, list(dice), list(values))
        for slot, k, dice, values in _proposal(s, seat)[0]
    ]


def _assign_legal(s: State, seat: int, aid: str) -> bool:
    """Whether ``aid`` is in ``_assign_ids(s, seat)``, without building the menu."""
    f = s["fight"]
    asg = f["asg"][seat]
    if asg is None or asg["done"]:
        return False
    if aid == "auto":
        return True
    op = asg["open"]
    if aid == "done":
        return op is None
    if aid == "best":
        return op is None
    if aid == "reset":
        return op is None and bool(asg["sets"] or asg["spent"])
    if aid == "cancel":
        return op is not None
    parsed = STEP_ARG.get(aid)
    if parsed is None:
        return False
    kind, i, k = parsed
    played = s["played"][seat]
    if kind == "drop":
        return op is None and i < len(asg["sets"]) and _droppable(s, seat, i)
    if kind == "set":
        if op is not None:
            return False
        entry = SETTABLE[ATTACK if seat == f["a"] else DEFEND][played[i]].get(k)
        if entry is None:
            return False
        # With no set open the dice in use are the closed sets' (disjoint).
        free = DICE
        for st in asg["sets"]:
            free -= len(st[2])
        return entry[0].n <= free
    if op is None:
        return False
    if kind == "die":
        dice = op[2]
        if len(dice) >= COMBOS[played[op[0]]][op[1]].n or i in dice:
            return False
        # A loop, not ``all`` over a generator (see engine.py's ``actors``).
        in_use = False
        for st in asg["sets"]:
            if i in st[2]:
                in_use = True
                break
        return not in_use
    if i not in op[2]:
        return False
    x: int = asg["v"][i]
    r: int = f["dice"][seat][i]
    avail = asg["bud"] + asg["gain"] - asg["spent"]
    if kind == "up":
        return x < 6 and (x < r or avail > 0)
    return x > 1 and (x > r or avail > 0)
