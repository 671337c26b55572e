"""Kung Fu (Good Game Studio, 2019), the dice game: the complete rules.

Representation, chosen for speed and a lossless JSON round trip:

* A card is one character of ``ALPHABET`` (card ``c01`` is its first character,
  ``c74`` its last, in ASCII order, so sorting characters sorts by code).
  Observations, events and action ids use the readable codes of ``cards.py``.
* Hands, packs, the deck and the committed cards are strings (immutable); the
  deck runs bottom to top (the top card is ``deck[-1]``).
* Simultaneous choices (each draft pick, each of the three cards played in a
  round, each fighter's dice assignment) are hidden per-seat slots: ``actors``
  lists every seat that still has to choose; the last choice in reveals them all
  in one event.
* A fight (one attacker against every other living player) keeps one small
  assignment record per fighter; each step replaces that record (copy-on-write),
  so :meth:`KungFu2019Game.clone` copies only a few lists.

Every reading of an ambiguous rule, quoting the rulebook, is listed in
``docs/rules/kungfu2019.md``; comments here name the reading briefly.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import Action, EngineBase, Event, State
from gameplay.rules.errors import GameError, IllegalAction, InvalidConfig, param_value
from gameplay.rules.kungfu2019 import cards as _cards
from gameplay.rules.kungfu2019 import fasttables as _tables
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND, KINDS, Combo, satisfies
from gameplay.rules.rng import uniform_chooser
from gameplay.rules.views import LastView, Pile, PileViews

RULES_VERSION = "kungfu2019-1"
ROUNDS = 3
HAND = 10  # cards dealt / drafted per player
PLAY = 3  # cards played per round
DICE = 7
STAT = ("hp", "atk", "def", "hit", "avo")
START_HP = _cards.START_HP
STEP = _cards.TRACK_STEP

ALPHABET = "".join(
    sorted(
        "!#$%&()*+-./"
        + "0123456789"
        + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        + "abcdefghijklmnopqrstuvwxyz"
    )
)
assert len(ALPHABET) == len(_cards.CARDS) == 74

CODES = [row[0] for row in _cards.CARDS]
CODE = {ALPHABET[i]: c for i, c in enumerate(CODES)}
BY_CODE = {c: ch for ch, c in CODE.items()}
FULL_DECK = ALPHABET
INIT = {ch: _cards.INITIATIVE[c] for ch, c in CODE.items()}
ICON = {ch: STAT.index(_cards.ICON[c]) for ch, c in CODE.items()}
NAME = {ch: _cards.NAME[c] for ch, c in CODE.items()}
COMBOS: dict[str, tuple[Combo, ...]] = {ch: _cards.COMBOS[c] for ch, c in CODE.items()}

# Per card and role: the combinations that need dice and do something in that
# role, as (k, combo); and the summed effect of its red crosses in that role.
USABLE: dict[str, dict[str, tuple[tuple[int, Combo], ...]]] = {}
CROSS: dict[str, dict[str, tuple[int, int, int]]] = {}  # role -> (main, gain, side)
for _ch, _cs in COMBOS.items():
    USABLE[_ch] = {}
    CROSS[_ch] = {}
    for _side in (ATTACK, DEFEND):
        USABLE[_ch][_side] = tuple(
            (k, c)
            for k, c in enumerate(_cs)
            if c.needs_dice and c.effect.active_in(_side)
        )
        _e = [c.effect for c in _cs if not c.needs_dice]
        if _side == ATTACK:
            CROSS[_ch][_side] = (
                sum(e.atk for e in _e),
                sum(e.hit for e in _e),
                sum(e.hp for e in _e),
            )
        else:
            CROSS[_ch][_side] = (
                sum(e.def_ for e in _e),
                sum(e.avo for e in _e),
                sum(e.yy for e in _e),
            )
    for _k, _c in enumerate(_cs):
        if _c.needs_dice and _c.n <= 0:  # pragma: no cover - a data error
            raise AssertionError(f"{CODE[_ch]}: every combination needs a fixed size")

# Per card and role: (-value, dice, k, combo) of the combinations the greedy
# fallback may use (attack value ATK + HP, defence value DEF + yin-yang).
WORTH: dict[str, dict[str, tuple[tuple[int, int, int, Combo], ...]]] = {
    ch: {
        role: tuple(
            (-v, c.n, k, c)
            for k, c in USABLE[ch][role]
            if (
                v := (
                    c.effect.atk + c.effect.hp
                    if role == ATTACK
                    else c.effect.def_ + c.effect.yy
                )
            )
            > 0
        )
        for role in (ATTACK, DEFEND)
    }
    for ch in COMBOS
}
STAT_INDEX = {k: i for i, k in enumerate(STAT)}
# A fighter's HIT (attacking) or AVO (defending) track: (position, points a step).
BUDGET_TRACK = {
    ATTACK: (STAT_INDEX["hit"], STEP["hit"]),
    DEFEND: (STAT_INDEX["avo"], STEP["avo"]),
}
# Per role and card: combination index -> (combination, HIT/AVO one activation
# gains), the sets ``_check_assignment`` accepts in that role.
SETTABLE: dict[str, dict[str, dict[int, tuple[Combo, int]]]] = {
    role: {
        ch: {k: (c, c.effect.gain(role)) for k, c in USABLE[ch][role]} for ch in COMBOS
    }
    for role in (ATTACK, DEFEND)
}

# Phases: which decision is pending.
DRAFT = "draft"  # every seat keeps one card of its pack (simultaneous)
PLAYING = "play"  # every living seat commits its three cards, one at a time
ASSIGN = "assign"  # every fighter assigns its dice (simultaneous)
OVER = "over"

PROMPTS = {
    DRAFT: "keep one card of your pack (the rest passes to your left)",
    PLAYING: "choose the cards you play this round (three, one at a time)",
    ASSIGN: "assign your dice to the combinations on your three cards",
    OVER: "the game is over",
}

DUMMY = -1  # the 2-player dummy in attack orders


def _label(ch: str) -> str:
    combos = "; ".join(f"{c.label()}: {c.effect.label()}" for c in COMBOS[ch])
    return f"{NAME[ch]} (initiative {INIT[ch]}, {STAT[ICON[ch]].upper()}; {combos})"


def view(ch: str) -> dict[str, Any]:
    """A card as observations and events show it (a fresh dict)."""
    return {
        "code": CODE[ch],
        "name": NAME[ch],
        "initiative": INIT[ch],
        "icon": STAT[ICON[ch]],
        "combos": [c.to_json() for c in COMBOS[ch]],
    }


PICK_ID = {ch: f"pick:{CODE[ch]}" for ch in ALPHABET}
PLAY_ID = {ch: f"play:{CODE[ch]}" for ch in ALPHABET}
PICK_ARG = {v: k for k, v in PICK_ID.items()}
PLAY_ARG = {v: k for k, v in PLAY_ID.items()}
ARG = {**PICK_ARG, **PLAY_ARG}
DIE_ID = [f"die:{i}" for i in range(DICE)]
UP_ID = [f"up:{i}" for i in range(DICE)]
DOWN_ID = [f"down:{i}" for i in range(DICE)]
SET_ID = {(s, k): f"set:{s}:{k}" for s in range(PLAY) for k in range(4)}
assert all(len(cs) <= 4 for cs in COMBOS.values())  # SET_ID covers k < 4
DROP_ID = [f"drop:{j}" for j in range(DICE)]
# Every dice-assignment id with an argument, parsed once: (kind, first, second)
# (``set``: slot and combination; the others: the set or die index, 0). The
# assignment steps are most of a game's steps, and a lookup costs less than
# splitting the id and converting its numbers at each of them.
STEP_ARG: dict[str, tuple[str, int, int]] = {
    **{sid: ("set", slot, k) for (slot, k), sid in SET_ID.items()},
    **{aid: ("drop", j, 0) for j, aid in enumerate(DROP_ID)},
    **{aid: ("die", i, 0) for i, aid in enumerate(DIE_ID)},
    **{aid: ("up", i, 0) for i, aid in enumerate(UP_ID)},
    **{aid: ("down", i, 0) for i, aid in enumerate(DOWN_ID)},
}
# Take-backs of a hidden commit while others still choose (``retract_actions``).
UNPICK = "unpick"
REOPEN = "reopen"
UNPLAY_ID = {ch: f"unplay:{CODE[ch]}" for ch in ALPHABET}
UNPLAY_ARG = {v: k for k, v in UNPLAY_ID.items()}
# Every id a take-back can have: ``apply`` asks for a seat's take-backs only
# when the action is one of them.
RETRACTS = frozenset((UNPICK, REOPEN, *UNPLAY_ID.values()))

_OPTIONS = ("players", "draft", "deck", "dice")


# A seat's key in an event's private part (``str(seat)`` once, not per event).
SEAT_KEY = tuple(str(i) for i in range(5))  # five players at most


def _ev(
    type_: str, public: dict[str, Any], private: dict[str, Any] | None = None
) -> Event:
    return {"type": type_, "public": public, "private": private or {}}


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


def _track_views(
    tracks: list[list[int]],
) -> tuple[tuple[dict[str, int], ...], tuple[dict[str, int], ...]]:
    """Each seat's status tracks as observations show them: the track
    positions and the values they give."""
    return (
        tuple(dict(zip(STAT, t, strict=True)) for t in tracks),
        tuple({k: t[i] * STEP[k] for i, k in enumerate(STAT)} for t in tracks),
    )


# Views built once (gameplay.rules.views): a pile of cards (a string) as its
# card codes, in order and sorted; the status tracks, a list the engine
# replaces rather than edits, while it is the same list (read-only dicts).
_CODES: PileViews[str, Pile] = PileViews(
    lambda cards: tuple(map(CODE.__getitem__, cards))
)
_SORTED_CODES: PileViews[str, Pile] = PileViews(
    lambda cards: tuple(map(CODE.__getitem__, sorted(cards)))
)
_TRACK_VIEWS = LastView(_track_views)
# A fighter's assignment record's "done" flag (a C call for ``map``).
_DONE = itemgetter("done")


def _obs_base(key: tuple[int | None, int, str]) -> dict[str, Any]:
    """An observation's template for (seat, players, phase): every field in
    its order, the fixed ones filled in, the others at their default."""
    seat, n, phase = key
    return {
        "game": "kungfu2019",
        "rules_version": RULES_VERSION,
        "seat": seat,
        "players": n,
        "phase": phase,
        "prompt": PROMPTS[phase],
        "round": 0,
        "rounds": ROUNDS,
        "actors": None,
        "hp": None,
        "eliminated": None,
        "tracks": None,
        "status": None,
        "hand": None,
        "hand_sizes": None,
        "deck_size": 0,
        "discard": None,
        "draft": None,
        "commits": None,
        "played": None,
        "dummy": None,
        "order": None,
        "attack_index": None,
        "fight": None,
        "result": None,
    }


_OBS_BASE: PileViews[tuple[int | None, int, str], dict[str, Any]] = PileViews(_obs_base)


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
        # A loop, not ``all`` over a generator (see ``actors``).
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


# ---------------------------------------------------------------------------
# Flow.


def _alive(s: State) -> list[int]:
    return [i for i in range(s["n"]) if not s["elim"][i]]


def _status(s: State, seat: int, stat: str) -> int:
    points: int = s["tracks"][seat][STAT_INDEX[stat]]
    return points * STEP[stat]


def _start_status(s: State, ev: list[Event]) -> None:
    """Learning phase 2 and 3: tracks from the icons, starting HP."""
    tracks = []
    for seat in range(s["n"]):
        t = [0] * 5
        for ch in s["hands"][seat]:
            t[ICON[ch]] += 1
        tracks.append(t)
    s["tracks"] = tracks
    base = START_HP[s["n"]]
    s["hp"] = [base + t[0] * STEP["hp"] for t in tracks]
    ev.append(
        _ev(
            "status",
            {
                "tracks": [dict(zip(STAT, t, strict=True)) for t in tracks],
                "hp": list(s["hp"]),
            },
        )
    )
    _new_round(s, ev)


def _new_round(s: State, ev: list[Event]) -> None:
    # The cards played last round (and the dummy's) leave the game, face up.
    s["discard"] += "".join(s["played"]) + s["dummy"]
    s["round"] += 1
    s["phase"] = PLAYING
    s["commit"] = [""] * s["n"]
    s["played"] = [""] * s["n"]
    s["dummy"] = ""
    s["order"] = []
    s["oi"] = 0
    s["fight"] = None
    ev.append(_ev("round", {"round": s["round"], "alive": _alive(s)}))


def _reveal(s: State, ev: list[Event]) -> None:
    """Fighting phase 1-2: every play is revealed; the attack order is fixed."""
    n = s["n"]
    alive = _alive(s)
    s["played"] = [s["commit"][i] if i in alive else "" for i in range(n)]
    s["commit"] = [""] * n
    totals = {i: sum(INIT[c] for c in s["played"][i]) for i in alive}
    if n == 2:
        # Rules for 2 players 1: the dummy plays 3 random cards from the deck
        # (the top three of the shuffled deck; they leave the game).
        deck = s["deck"]
        s["dummy"] = deck[-PLAY:][::-1]
        s["deck"] = deck[:-PLAY]
    tied = len(set(totals.values())) < len(totals)
    tiebreak = list(alive)
    if tied:
        # Reading: the rulebook breaks no ties between players; a random order
        # (a chance event, published) does, like a roll-off.
        s["rng"], perm = _rng.shuffled(s["rng"], "".join(map(str, alive)))
        tiebreak = [int(x) for x in perm]
    rank = {seat: i for i, seat in enumerate(tiebreak)}
    order = sorted(alive, key=lambda i: (totals[i], rank[i]))
    dummy_total = None
    if s["dummy"]:
        dummy_total = sum(INIT[c] for c in s["dummy"])
        # Rules for 2 players 3: players attack before the dummy on a tie.
        pos = sum(1 for i in order if totals[i] <= dummy_total)
        order.insert(pos, DUMMY)
    s["order"] = order
    s["oi"] = 0
    ev.append(
        _ev(
            "reveal",
            {
                "round": s["round"],
                "played": [[CODE[c] for c in p] if p else None for p in s["played"]],
                "totals": [totals.get(i) for i in range(n)],
                "dummy": [CODE[c] for c in s["dummy"]] if s["dummy"] else None,
                "dummy_total": dummy_total,
                "order": list(order),
                "tiebreak": tiebreak if tied else None,
            },
        )
    )
    _next_fight(s, ev)


def _roll(s: State) -> list[int]:
    stack = s["cfg"]["dice"]
    if s["di"] < len(stack):
        s["di"] += 1
        return list(stack[s["di"] - 1])
    s["rng"], (x,) = _rng.draw(s["rng"], 1)
    # The 7 dice are the base-6 digits of x mod 6^7, lowest first: the first
    # four are those of x mod 6^4, the last three of the quotient.
    x %= 6**DICE
    return [*_ROLL_LOW[x % 1296], *_ROLL_HIGH[x // 1296]]


def _digits(x: int, n: int) -> tuple[int, ...]:
    """The ``n`` lowest base-6 digits of ``x``, lowest first, each plus 1."""
    out = []
    for _ in range(n):
        x, d = divmod(x, 6)
        out.append(d + 1)
    return tuple(out)


# Rolls read from tables (a roll's seven divisions cost more than two lookups).
_ROLL_LOW = tuple(_digits(x, 4) for x in range(6**4))
_ROLL_HIGH = tuple(_digits(x, DICE - 4) for x in range(6 ** (DICE - 4)))


def _next_fight(s: State, ev: list[Event]) -> None:
    """Start the next attack of the round (skipping eliminated attackers)."""
    order = s["order"]
    while s["oi"] < len(order):
        a = order[s["oi"]]
        if a != DUMMY and s["elim"][a]:
            s["oi"] += 1
            continue
        _start_fight(s, ev, a)
        return
    _end_round(s, ev)


def _start_fight(s: State, ev: list[Event], a: int) -> None:
    n = s["n"]
    # Every living seat fights (the dummy attacks them all), in seat order.
    fighters = _alive(s)
    dice: list[list[int] | None] = [None] * n
    asg: list[dict[str, Any] | None] = [None] * n
    for seat in fighters:
        dice[seat] = _roll(s)
    s["fight"] = {"a": a, "f": fighters, "dice": dice, "asg": asg}
    done_now = []
    tracks = s["tracks"]
    for seat in fighters:
        rolled = dice[seat]
        assert rolled is not None  # every fighter rolled above
        played = s["played"][seat]
        # Loops, not generators (see ``actors``): HIT/AVO from the track and
        # the red crosses, and whether any combination needs dice.
        role = ATTACK if seat == a else DEFEND
        track, step = BUDGET_TRACK[role]
        bud = tracks[seat][track] * step
        usable = False
        for c in played:
            bud += CROSS[c][role][1]
            if USABLE[c][role]:
                usable = True
        asg[seat] = {
            "v": list(rolled),
            "sets": [],
            "open": None,
            "bud": bud,
            "gain": 0,
            "spent": 0,
            "done": not usable,
        }
        if not usable:
            done_now.append(seat)
    s["phase"] = ASSIGN
    ev.append(
        _ev(
            "attack",
            {
                "round": s["round"],
                "attacker": a,
                "fighters": list(fighters),
                "dice": [None if d is None else list(d) for d in dice],
                "auto_done": done_now,
            },
        )
    )
    if len(done_now) == len(fighters):  # nobody has dice to assign
        _resolve(s, ev)


def _effects(s: State, seat: int, role: str) -> tuple[int, int]:
    """(main, extra): attack (ATK, HP change) or defence (DEF, yin-yangs)."""
    f = s["fight"]
    asg = f["asg"][seat]
    played = s["played"][seat]
    if role == ATTACK:
        main = _status(s, seat, "atk")
        extra = 0
        for c in played:
            cr = CROSS[c][role]
            main += cr[0]
            extra += cr[2]
        for slot, k, _d in asg["sets"]:
            e = COMBOS[played[slot]][k].effect
            main += e.atk
            extra += e.hp
        return main, extra
    main = _status(s, seat, "def")
    extra = 0
    for c in played:
        cr = CROSS[c][role]
        main += cr[0]
        extra += cr[2]
    for slot, k, _d in asg["sets"]:
        e = COMBOS[played[slot]][k].effect
        main += e.def_
        extra += e.yy
    return main, extra


def _resolve(s: State, ev: list[Event]) -> None:
    """Fighting phase 5: the attacker's ATK against every defender's DEF."""
    f = s["fight"]
    a = f["a"]
    s["hp"] = hp = s["hp"][:]  # copy-on-write (apply copies only the top dict)
    s["elim"] = s["elim"][:]
    if a == DUMMY:
        # Rules for 2 players 2: the dummy's attack is its cards' initiative sum.
        atk, heal = sum(INIT[c] for c in s["dummy"]), 0
    else:
        atk, heal = _effects(s, a, ATTACK)
    s["nfight"] += 1
    seq = s["nfight"]
    shown = []
    # Loops and ``map``, not comprehensions (see ``actors``): once a fight.
    for seat in f["f"]:
        asg = f["asg"][seat]
        v = asg["v"]
        pick = v.__getitem__
        sets = []
        for slot, k, d in asg["sets"]:
            sets.append([slot, k, [*d], list(map(pick, d))])
        shown.append(
            {
                "seat": seat,
                "values": [*v],
                "sets": sets,
                "spent": asg["spent"],
            }
        )
    defenders = []
    yy_total = 0
    out = []
    for seat in f["f"]:
        if seat == a:
            continue
        dv, yy = _effects(s, seat, DEFEND)
        dmg = max(0, atk - dv)
        hp[seat] -= dmg
        gone = hp[seat] <= 0
        if gone:
            s["elim"][seat] = seq
            out.append(seat)
        else:
            # The yin-yang: no effect if the defender is eliminated.
            yy_total += yy
        defenders.append(
            {
                "seat": seat,
                "defence": dv,
                "yin_yang": yy,
                "damage": dmg,
                "hp": hp[seat],
                "eliminated": gone,
            }
        )
    attacker_hp = None
    if a != DUMMY:
        # HP effects and yin-yang damage never eliminate the attacker.
        hp[a] = max(1, hp[a] + heal - yy_total)
        attacker_hp = hp[a]
    s["fight"] = None
    ev.append(
        _ev(
            "fight",
            {
                "round": s["round"],
                "attacker": a,
                "attack": atk,
                "attacker_hp_change": heal if a != DUMMY else 0,
                "yin_yang_damage": yy_total if a != DUMMY else 0,
                "attacker_hp": attacker_hp,
                "assignments": shown,
                "defenders": defenders,
            },
        )
    )
    for seat in out:
        ev.append(_ev("eliminated", {"seat": seat, "hp": hp[seat]}))
    alive = s["elim"].count(0)
    if alive <= 1:
        _finish(s, ev, "last_standing" if alive else "all_eliminated")
        return
    s["oi"] += 1
    _next_fight(s, ev)


def _end_round(s: State, ev: list[Event]) -> None:
    ev.append(_ev("round_end", {"round": s["round"], "hp": list(s["hp"])}))
    if s["round"] >= ROUNDS:
        _finish(s, ev, "rounds")
        return
    _new_round(s, ev)


def _finish(s: State, ev: list[Event], reason: str) -> None:
    n = s["n"]
    hp = s["hp"]
    elim = s["elim"]
    # Survivors first (most HP), then the eliminated, last eliminated first; within
    # one attack the one less far below 0 ranks higher (2 players, rule 4).
    key = {
        i: (0 if not elim[i] else 1, -elim[i] if elim[i] else 0, -hp[i])
        for i in range(n)
    }
    ranked = sorted(range(n), key=lambda i: key[i])
    placements = [0] * n
    for pos, seat in enumerate(ranked):
        if pos and key[seat] == key[ranked[pos - 1]]:
            placements[seat] = placements[ranked[pos - 1]]
        else:
            placements[seat] = pos + 1
    winners = [i for i in range(n) if placements[i] == 1]
    s["result"] = {
        "winners": winners,
        "placements": placements,
        "scores": {
            "hp": list(hp),
            "eliminated": [bool(e) for e in elim],
        },
        "reason": reason,
    }
    s["phase"] = OVER
    s["fight"] = None
    ev.append(_ev("game_over", {"winners": winners, "hp": list(hp), "reason": reason}))


# ---------------------------------------------------------------------------
# Decision handlers.


def _h_pick(s: State, ev: list[Event], seat: int, aid: str) -> None:
    ch = ARG[aid]
    packs = s["packs"] = s["packs"][:]
    picks = s["picks"] = s["picks"][:]
    packs[seat] = packs[seat].replace(ch, "")
    picks[seat] = ch
    ev.append(
        {
            "type": "pick",
            "public": {"seat": seat},
            "private": {SEAT_KEY[seat]: {"card": CODE[ch]}},
        }
    )
    # A pick that leaves another seat to choose is most draft steps: the test
    # is one search in C (no generator).
    if "" in picks:
        return
    n = s["n"]
    hands = s["hands"][:]
    for i in range(n):
        hands[i] += picks[i]
    s["hands"] = hands
    # Learning phase 1-1: the rest passes to the player on the left (seat + 1).
    packs = s["packs"]
    packs = s["packs"] = packs[-1:] + packs[:-1]
    s["picks"] = [""] * n
    s["turn"] += 1
    private: dict[str, Any] = {}
    for i in range(n):
        private[SEAT_KEY[i]] = {"pack": [*_SORTED_CODES[packs[i]]]}
    ev.append(
        {
            "type": "draft_pass",
            "public": {"turn": s["turn"], "pack_size": len(packs[0])},
            "private": private,
        }
    )
    if s["turn"] >= HAND:
        _start_status(s, ev)


def _h_play(s: State, ev: list[Event], seat: int, aid: str) -> None:
    ch = ARG[aid]
    hands = s["hands"] = s["hands"][:]
    commit = s["commit"] = s["commit"][:]
    hands[seat] = hands[seat].replace(ch, "")
    commit[seat] += ch
    ev.append(
        {
            "type": "commit",
            "public": {"seat": seat, "count": len(commit[seat])},
            "private": {SEAT_KEY[seat]: {"card": CODE[ch]}},
        }
    )
    # Loops, not a generator over ``_alive`` (see ``actors``): at every play.
    for i, out in enumerate(s["elim"]):
        if not out and len(commit[i]) != PLAY:
            return
    _reveal(s, ev)


def _h_assign(s: State, ev: list[Event], seat: int, aid: str) -> None:
    s["fight"] = f = s["fight"].copy()
    f["asg"] = asgs = f["asg"][:]
    asgs[seat] = asg = asgs[seat].copy()
    rolled = f["dice"][seat]
    private: dict[str, Any] = {"step": aid}
    if aid == "auto":
        asg["v"], asg["sets"], asg["gain"], asg["spent"] = _checked_proposal(s, seat)
        asg["open"] = None
        asg["done"] = True
    elif aid == "done":
        asg["done"] = True
    elif aid == "best":
        asg["v"], asg["sets"], asg["gain"], asg["spent"] = _checked_proposal(s, seat)
    elif aid == "reset":
        asg["v"] = list(rolled)
        asg["sets"] = []
        asg["gain"] = asg["spent"] = 0
    elif aid == "cancel":
        op = asg["open"]
        v = asg["v"][:]
        for i in op[2]:
            asg["spent"] -= abs(v[i] - rolled[i])
            v[i] = rolled[i]
        asg["v"] = v
        asg["open"] = None
    else:
        kind, i, k = STEP_ARG[aid]
        if kind == "set":
            asg["open"] = [i, k, []]
        elif kind == "drop":
            asg["v"], asg["sets"], asg["gain"], asg["spent"] = _dropped(s, seat, i)
        elif kind == "die":
            op = asg["open"]
            asg["open"] = [op[0], op[1], op[2] + [i]]
            _maybe_close(s, seat, asg, ATTACK if seat == f["a"] else DEFEND)
        else:  # up / down
            v = asg["v"][:]
            before = abs(v[i] - rolled[i])
            v[i] += 1 if kind == "up" else -1
            asg["spent"] += abs(v[i] - rolled[i]) - before
            asg["v"] = v
            op = asg["open"]
            asg["open"] = [op[0], op[1], [*op[2]]]
            _maybe_close(s, seat, asg, ATTACK if seat == f["a"] else DEFEND)
    done = asg["done"]
    if done:
        # Loops and ``map``, not comprehensions (see ``actors``).
        shown: list[list[Any]] = []
        pick = asg["v"].__getitem__
        for slot, k, d in asg["sets"]:
            shown.append([slot, k, [*d], list(map(pick, d))])
        private["sets"] = shown
    ev.append(
        {
            "type": "assign",
            "public": {"seat": seat, "done": done},
            "private": {SEAT_KEY[seat]: private},
        }
    )
    if done:
        for i in f["f"]:
            if not asgs[i]["done"]:
                return
        _resolve(s, ev)


_HANDLERS = {DRAFT: _h_pick, PLAYING: _h_play, ASSIGN: _h_assign}


def _retract_ids(s: State, seat: int) -> list[str]:
    """A seat's take-backs of its hidden commits in the open simultaneous choice.

    Draft: the card kept this turn (back into the pack), while another seat
    has not picked. Play: each card committed this round (back into the hand),
    while another living seat has not committed all three. Dice: a finished
    assignment (reopened as it was), while another fighter is not done. The
    last commit of all reveals at once, so nothing is left to take back then.
    """
    ph = s["phase"]
    if ph == DRAFT:
        if s["picks"][seat]:
            return [UNPICK]
        return []
    if ph == PLAYING:
        return [UNPLAY_ID[c] for c in sorted(s["commit"][seat])]
    if ph == ASSIGN:
        f = s["fight"]
        asg = f["asg"][seat]
        if seat in f["f"] and asg is not None and asg["done"]:
            return [REOPEN]
    return []


def _h_retract(s: State, ev: list[Event], seat: int, aid: str) -> None:
    ph = s["phase"]
    if ph == DRAFT:
        ch = s["picks"][seat]
        s["packs"] = s["packs"][:]
        s["picks"] = s["picks"][:]
        s["packs"][seat] += ch
        s["picks"][seat] = ""
        ev.append(_ev("unpick", {"seat": seat}, {str(seat): {"card": CODE[ch]}}))
    elif ph == PLAYING:
        ch = UNPLAY_ARG[aid]
        s["hands"] = s["hands"][:]
        s["commit"] = s["commit"][:]
        s["commit"][seat] = s["commit"][seat].replace(ch, "")
        s["hands"][seat] += ch
        ev.append(
            _ev(
                "uncommit",
                {"seat": seat, "count": len(s["commit"][seat])},
                {str(seat): {"card": CODE[ch]}},
            )
        )
    else:
        s["fight"] = f = s["fight"].copy()
        f["asg"] = f["asg"][:]
        f["asg"][seat] = dict(f["asg"][seat], done=False)
        ev.append(_ev("reopen", {"seat": seat}, {str(seat): {"step": aid}}))


def _is_legal(s: State, seat: int, aid: str) -> bool:
    """``aid in _ids(s, seat)``, answered without building the menu."""
    ph = s["phase"]
    if ph == DRAFT:
        ch = PICK_ARG.get(aid)
        return ch is not None and not s["picks"][seat] and ch in s["packs"][seat]
    if ph == PLAYING:
        ch = PLAY_ARG.get(aid)
        return (
            ch is not None
            and not s["elim"][seat]
            and len(s["commit"][seat]) < PLAY
            and ch in s["hands"][seat]
        )
    if ph == ASSIGN:
        return _assign_legal(s, seat, aid)
    return False


# The draft's and the play's menus of a pack or hand (a string), built once.
# (Random hands rarely repeat, so these are built at most play and draft steps:
# ``map`` rather than a generator, which resumes a frame per card.)
_PICK_MENUS: PileViews[str, tuple[str, ...]] = PileViews(
    lambda pile: tuple(map(PICK_ID.__getitem__, sorted(pile)))
)
_PLAY_MENUS: PileViews[str, tuple[str, ...]] = PileViews(
    lambda pile: tuple(map(PLAY_ID.__getitem__, sorted(pile)))
)


def _ids(s: State, seat: int) -> list[str]:
    ph = s["phase"]
    if ph == DRAFT:
        if s["picks"][seat]:
            return []
        return [*_PICK_MENUS[s["packs"][seat]]]
    if ph == PLAYING:
        if s["elim"][seat] or len(s["commit"][seat]) >= PLAY:
            return []
        return [*_PLAY_MENUS[s["hands"][seat]]]
    if ph == ASSIGN:
        return _assign_ids(s, seat)
    return []


# ---------------------------------------------------------------------------
# Uniform random playouts, natively when the optional C kernel is built.
#
# A uniform random game: at each step the first seat of ``actors`` decides,
# taking ``ids[rng.randbelow(choice, len(ids))]`` of its menu, the choice stream
# seeded ``rng.seed_state(seed)`` (``uniform_chooser``). ``_fastplay.c`` (built by
# setup.py as an optional extension) plays these same rules in C, the solver's
# "auto" and "best" answers included, and uses the state's ``rng`` exactly as
# here (tie-break shuffles, rolls), so the kernel and ``playout`` with
# ``uniform_chooser(seed)`` end every game identically
# (tests/rules/test_kungfu2019_native.py). Without a compiler the import fails
# and ``random_playout`` runs ``playout``. The kernel gets its card and
# combination tables from here (so from cards.py) when this module is imported.

PHASES = (DRAFT, PLAYING, ASSIGN, OVER)  # the kernel's phase numbers
# The kernel's numbers for how a game ended (0: it goes on).
_REASONS = {1: "rounds", 2: "last_standing", 3: "all_eliminated"}


try:
    import gameplay.rules.kungfu2019._fastplay as _native
except ImportError:  # not built (no C compiler): the Python playout is used
    # mypy types the name as the module (the stub _fastplay.pyi) and has no way
    # to say "or None"; every use below checks it.
    _native = None  # type: ignore[assignment]

NATIVE = _native is not None


# ``observe`` in C, when the optional extension ``_fastobserve.c`` is built
# (setup.py). It follows ``_observe_py`` field by field and declines (None)
# whatever it does not handle; tests/rules/test_kungfu2019_observe.py compares
# the two for every seat at every step of seeded games.
try:
    import gameplay.rules.kungfu2019._fastobserve as _native_obs
except ImportError:  # not built (no C compiler): observe runs in Python
    # (typed as the module by the stub _fastobserve.pyi; every use checks it)
    _native_obs = None  # type: ignore[assignment]

if _native_obs is not None and PHASES != _native_obs.PHASES:
    # A build of another version of the C code: not used (a test fails).
    _native_obs = None  # type: ignore[assignment]

# The dice-assignment menu and the steps in C, when the optional extension
# ``_fastassign.c`` is built: ``_assign_ids`` and, for a legal draft, play or
# dice step, ``apply``, a fight's end included (its commit.h and fight.h);
# None when it declines (anything else: Python does it). tests/rules/
# test_kungfu2019_assign.py, _fight.py and _commit.py compare the two.
try:
    import gameplay.rules.kungfu2019._fastassign as _native_asg
except ImportError:  # not built (no C compiler): the Python steps
    _native_asg = None  # type: ignore[assignment]

_native_step: (
    Callable[[State, int | None, str], tuple[State, list[Event]] | None] | None
) = None
_native_ids: Callable[[State, int | None], list[str] | None] | None = None
if _native_asg is not None:
    # (the tables: fasttables.py; a fight's end in C also needs the solver)
    _native_asg.init(RULES_VERSION, ASSIGN, _tables.combo_table(COMBOS, SETTABLE))
    _native_asg.init_fight(
        _tables.fight_table(COMBOS, INIT, CROSS, USABLE),
        tuple(STEP[k] for k in STAT),
        ROUNDS,
        PLAYING,
        getattr(_native, "solve_checked", None),
    )
    _native_asg.init_commit(
        tuple(CODE.get(chr(o)) for o in range(128)), PICK_ARG, PLAY_ARG, DRAFT, HAND
    )
    _native_step = _native_asg.step
    _native_ids = _native_asg.ids

_native_observe: Callable[[State, int | None], dict[str, Any] | None] | None = None
# ``actors`` in C (the same module): None when it declines (a malformed state).
_native_actors: Callable[[State], list[int] | None] | None = None
if _native_obs is not None:
    _native_obs.init(
        RULES_VERSION,
        PROMPTS,
        tuple(CODE.get(chr(c)) for c in range(128)),
        STAT,
        tuple(STEP[k] for k in STAT),
        ATTACK,
        DEFEND,
        ROUNDS,
    )
    _native_observe = _native_obs.observe
    _native_actors = _native_obs.actors


def native_policy() -> bool:
    """Whether the kernel plays the playout policy (``native_policy_playout``).

    False without the kernel, and with one built before it had the policy (a
    checkout whose extension was not rebuilt): rollout.py then plays its
    Python twin, the same choices, only slower. Read per call, so switching
    ``NATIVE`` off (tests, ``bench/ismcts.py --no-native``) takes effect.
    """
    return NATIVE and hasattr(_native, "policy_playout")


def native_policy_values(
    worth: tuple[tuple[float, ...], ...], play: tuple[tuple[float, ...], ...]
) -> None:
    """Hand the kernel rollout.py's card values for ``policy_playout``: per
    player count 0-5, 128 floats by card character (``native_policy()`` only;
    the policy itself lives in rollout.py, which calls this on first use)."""
    _native.init_policy(worth, play)


# The kernel's solve-and-check (None without the kernel, or with a kernel
# built before it had one: the engine then checks ``solve``'s sets itself).
_solve_checked = getattr(_native, "solve_checked", None)


def _native_tables() -> tuple[
    list[tuple[int, ...]], list[tuple[str, int, int, list[int]]]
]:
    """The combinations (one row each, effects in the order atk hit hp def avo
    yy, a pattern id shared by equal dice requirements) and the cards."""
    combos: list[tuple[int, ...]] = []
    cards = []
    patterns: dict[tuple[str, int, tuple[int, ...], int], int] = {}
    for ch in ALPHABET:
        ids = []
        for c in COMBOS[ch]:
            e = c.effect
            ids.append(len(combos))
            combos.append(
                (
                    KINDS.index(c.kind),
                    c.n,
                    sum(1 << f for f in c.faces),
                    c.total,
                    e.atk,
                    e.hit,
                    e.hp,
                    e.def_,
                    e.avo,
                    e.yy,
                    patterns.setdefault(c.pattern, len(patterns)),
                )
            )
        cards.append((ch, INIT[ch], ICON[ch], ids))
    return combos, cards


if _native is not None:
    _native.init(
        *_native_tables(),
        tuple(STEP[k] for k in STAT),
        tuple(START_HP.get(n, 0) for n in range(6)),
        [_rng._words_for(n) for n in range(81)],
    )


def _set_bytes(slot: int, k: int, dice: list[int]) -> bytes:
    return bytes((slot, k, len(dice), *dice))


def _native_fields(s: State) -> tuple[Any, ...]:
    """The state as the kernel's flat tuple of fields (see _fastplay.c)."""
    f = s["fight"]
    if f is None:
        fight: tuple[Any, ...] = (None, (), (), ())
    else:
        fight = (
            f["a"],
            tuple(f["f"]),
            tuple(None if d is None else bytes(d) for d in f["dice"]),
            tuple(
                None
                if a is None
                else (
                    bytes(a["v"]),
                    b"".join(_set_bytes(*st) for st in a["sets"]),
                    None if a["open"] is None else _set_bytes(*a["open"]),
                    a["bud"],
                    a["gain"],
                    a["spent"],
                    a["done"],
                )
                for a in f["asg"]
            ),
        )
    return (
        int(s["rng"], 16),
        (s["n"], PHASES.index(s["phase"]), s["round"], s["turn"]),
        s["deck"],
        s["discard"],
        s["dummy"],
        tuple(s["packs"]),
        tuple(s["picks"]),
        tuple(s["hands"]),
        tuple(s["commit"]),
        tuple(s["played"]),
        bytes(x for t in s["tracks"] for x in t),
        tuple(s["hp"]),
        tuple(s["elim"]),
        (s["nfight"], s["oi"], s["di"]),
        tuple(s["order"]),
        b"".join(bytes(r) for r in s["cfg"]["dice"]),
        *fight,
    )


def _sets_of(b: bytes) -> list[list[Any]]:
    out = []
    i = 0
    while i < len(b):
        m = b[i + 2]
        out.append([b[i], b[i + 1], list(b[i + 3 : i + 3 + m])])
        i += 3 + m
    return out


def _native_store(s: State, f: tuple[Any, ...], reason: int) -> None:
    """Write the kernel's fields back into ``s`` (in place, like ``playout``)."""
    s["rng"] = format(f[0], "016x")
    n, ph, s["round"], s["turn"] = f[1]
    s["phase"] = PHASES[ph]
    s["deck"], s["discard"], s["dummy"] = f[2], f[3], f[4]
    s["packs"], s["picks"], s["hands"] = list(f[5]), list(f[6]), list(f[7])
    s["commit"], s["played"] = list(f[8]), list(f[9])
    s["tracks"] = [list(f[10][5 * i : 5 * i + 5]) for i in range(n)]
    s["hp"], s["elim"] = list(f[11]), list(f[12])
    s["nfight"], s["oi"], s["di"] = f[13]
    s["order"] = list(f[14])
    if f[16] is None:
        s["fight"] = None
    else:
        s["fight"] = {
            "a": f[16],
            "f": list(f[17]),
            "dice": [None if d is None else list(d) for d in f[18]],
            "asg": [
                None
                if a is None
                else {
                    "v": list(a[0]),
                    "sets": _sets_of(a[1]),
                    "open": None if a[2] is None else _sets_of(a[2])[0],
                    "bud": a[3],
                    "gain": a[4],
                    "spent": a[5],
                    "done": bool(a[6]),
                }
                for a in f[19]
            ],
        }
    if reason:
        _finish(s, [], _REASONS[reason])


# ---------------------------------------------------------------------------
# Configuration.


def _validate(config: Any) -> dict[str, Any]:
    if not isinstance(config, dict):
        raise InvalidConfig(
            "config_not_object", f"config must be a dict, not {type(config).__name__}"
        )
    unknown = sorted(str(k) for k in config if k not in _OPTIONS)
    if unknown:
        raise InvalidConfig(
            "unknown_options",
            f"unknown option(s) {', '.join(unknown)}; allowed: {', '.join(_OPTIONS)}",
            options=", ".join(unknown),
            allowed=", ".join(_OPTIONS),
        )
    players = config.get("players", 4)
    if type(players) is not int or not 2 <= players <= 5:
        raise InvalidConfig(
            "players_range",
            f"Kung Fu (2019) is for 2 to 5 players, got {players!r}",
            min=2,
            max=5,
            players=param_value(players),
        )
    draft = config.get("draft", True)
    if type(draft) is not bool:
        raise InvalidConfig(
            "option_bool",
            f"draft must be true or false, got {draft!r}",
            option="draft",
            value=param_value(draft),
        )
    deck = config.get("deck")
    if deck is not None:
        if not isinstance(deck, list) or any(
            type(c) is not str or c not in BY_CODE for c in deck
        ):
            raise InvalidConfig(
                "bad_deck",
                "deck must be a list of card codes, top first (e.g. 'c01')",
                option="deck",
            )
        if len(set(deck)) != len(deck):
            raise InvalidConfig("bad_deck", "deck lists a card twice", option="deck")
        deck = list(deck)
    dice = config.get("dice")
    if dice is not None:
        if not isinstance(dice, list) or any(
            not isinstance(r, list)
            or len(r) != DICE
            or any(type(x) is not int or not 1 <= x <= 6 for x in r)
            for r in dice
        ):
            raise InvalidConfig(
                "bad_deck",
                "dice must be a list of rolls, each a list of 7 values 1-6",
                option="dice",
            )
        dice = [list(r) for r in dice]
    else:
        dice = []
    return {"players": players, "draft": draft, "deck": deck, "dice": dice}


# ---------------------------------------------------------------------------
# The engine object.


class KungFu2019Game(EngineBase):
    """Kung Fu (2019), the dice game, behind the engine contract.

    Timeout default (each menu's first entry): draft: keep the lowest-numbered
    card of the pack; play: the hand's lowest-numbered card; dice: the best
    assignment (``auto``).
    """

    id = "kungfu2019"
    name = "Kung Fu (2019)"
    min_players = 2
    max_players = 5
    rules_version = RULES_VERSION
    # ``random_playout`` runs in the C kernel (_fastplay.c) when it is built.
    native_playout = NATIVE
    # bench/engine.py's target for it: random 4-player games/s (issue 12).
    native_games_target = 1000

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Normalized config (every option present) or InvalidConfig."""
        return _validate(config)

    def setup(self, config: dict[str, Any], seed: int) -> State:
        """Shuffle the 74 cards and deal 10 to each player (the packs to draft)."""
        cfg = self._setup_config(config, seed)
        n = cfg["players"]
        r = _rng.seed_state(seed)
        top = "".join(BY_CODE[c] for c in cfg["deck"] or [])
        # (a stacked deck only in tests and tools: the usual setup skips the scan)
        rest = "".join(c for c in FULL_DECK if c not in top) if top else FULL_DECK
        r, rest = _rng.shuffled(r, rest)
        deck = rest + top[::-1]  # bottom -> top; the first listed is on top
        dealt = []
        for _ in range(n):  # ten cards each, seat 0 first, from the top
            dealt.append(deck[-HAND:][::-1])
            deck = deck[:-HAND]
        s: State = {
            "game": self.id,
            "rules_version": RULES_VERSION,
            "cfg": cfg,
            "rng": r,
            "n": n,
            "phase": DRAFT,
            "round": 0,
            "turn": 0,
            "deck": deck,
            "packs": dealt if cfg["draft"] else [""] * n,
            "picks": [""] * n,
            "hands": [""] * n if cfg["draft"] else dealt,
            "tracks": [[0] * 5 for _ in range(n)],
            "hp": [0] * n,
            "elim": [0] * n,
            "nfight": 0,
            "commit": [""] * n,
            "played": [""] * n,
            "dummy": "",
            "discard": "",
            "order": [],
            "oi": 0,
            "fight": None,
            "di": 0,
            "result": None,
        }
        if not cfg["draft"]:
            # The first-game option: the ten cards dealt are the hand.
            _start_status(s, [])
        return s

    # -- queries -----------------------------------------------------------

    def actors(self, state: State) -> list[int]:
        """Every seat that still has to choose now (several at once); [] = over."""
        # Loops, not comprehensions: on Python 3.11 a comprehension is a
        # function call of its own, which costs more than a few seats take
        # (``actors`` runs at every step, and again in ``observe``).
        # The dice assignment first: most steps are in it.
        if _native_actors is not None:  # the same list, built in C
            c_who = _native_actors(state)
            if c_who is not None:
                return c_who
        ph = state["phase"]
        who: list[int] = []
        if ph == ASSIGN:
            f = state["fight"]
            asg = f["asg"]
            for i in f["f"]:
                if not asg[i]["done"]:
                    who.append(i)
        elif ph == DRAFT:
            for i, pick in enumerate(state["picks"]):
                if not pick:
                    who.append(i)
        elif ph == PLAYING:
            commit = state["commit"]
            for i, out in enumerate(state["elim"]):
                if not out and len(commit[i]) < PLAY:
                    who.append(i)
        return who

    def legal_action_ids(self, state: State, seat: int | None) -> list[str]:
        """Fast path: just the ids, the first one being the timeout default."""
        if _native_ids is not None:  # every phase's menu, in C
            ids = _native_ids(state, seat)
            if ids is not None:
                return ids
        if type(seat) is not int or not 0 <= seat < state["n"]:
            return []
        if state["phase"] == ASSIGN:
            return _assign_ids(state, seat)
        return _ids(state, seat)

    def legal_actions(self, state: State, seat: int | None) -> list[Action]:
        """The menu for ``seat`` ([] when it has no decision now)."""
        if seat is None:
            return []  # the table has no steps of its own in this game
        return [
            self._describe(state, seat, i) for i in self.legal_action_ids(state, seat)
        ]

    def _describe(self, state: State, seat: int, aid: str) -> Action:
        kind, _, rest = aid.partition(":")
        if kind in ("pick", "play"):
            ch = BY_CODE[rest]
            verb = "Keep" if kind == "pick" else "Play"
            return {
                "id": aid,
                "type": kind,
                "card": rest,
                "label": f"{verb} {_label(ch)}",
            }
        if kind == "set":
            slot, k = (int(x) for x in rest.split(":"))
            ch = state["played"][seat][slot]
            c = COMBOS[ch][k]
            return {
                "id": aid,
                "type": "set",
                "card": CODE[ch],
                "slot": slot,
                "combo": k,
                "label": f"Assign dice to {NAME[ch]}: {c.label()} ({c.effect.label()})",
            }
        if kind == "drop":
            j = int(rest)
            slot, k, dice = state["fight"]["asg"][seat]["sets"][j]
            ch = state["played"][seat][slot]
            return {
                "id": aid,
                "type": "drop",
                "set": j,
                "card": CODE[ch],
                "combo": k,
                "dice": list(dice),
                "label": f"Take back the set on {NAME[ch]} "
                f"({COMBOS[ch][k].label()}, dice "
                f"{', '.join(str(i + 1) for i in dice)})",
            }
        if kind in ("die", "up", "down"):
            i = int(rest)
            value = state["fight"]["asg"][seat]["v"][i]
            label = {
                "die": f"Put die {i + 1} (showing {value}) into the set",
                "up": f"Spend a point: die {i + 1} from {value} to {value + 1}",
                "down": f"Spend a point: die {i + 1} from {value} to {value - 1}",
            }[kind]
            return {"id": aid, "type": kind, "die": i, "value": value, "label": label}
        labels = {
            "auto": "Use the best assignment and finish",
            "done": "Finish with the dice as assigned",
            "reset": "Start the assignment again from the roll",
            "best": "Load the best assignment (and keep adjusting it)",
            "cancel": "Drop the set being built",
        }
        return {"id": aid, "type": aid, "label": labels[aid]}

    # -- transitions ---------------------------------------------------------

    def apply(
        self, state: State, seat: int | None, action_id: str
    ) -> tuple[State, list[Event]]:
        """Apply one seat's decision; never mutates ``state``."""
        if _native_step is not None:  # most steps, in C
            done = _native_step(state, seat, action_id)
            if done is not None:
                return done
        if type(state) is not dict or state.get("rules_version") != RULES_VERSION:
            self._check(state)
        if type(action_id) is not str:
            raise IllegalAction(
                "malformed_action",
                f"malformed action {action_id!r}: an action is its string id, "
                "e.g. 'pick:c01'",
                action=str(action_id)[:80],
            )
        ph = state["phase"]
        if ph == OVER:
            raise IllegalAction(
                "game_over", "the game is over; no more actions are accepted"
            )
        if type(seat) is not int or not 0 <= seat < state["n"]:
            raise IllegalAction("no_such_seat", f"no seat {seat!r} in this game")
        if action_id in RETRACTS and action_id in _retract_ids(state, seat):
            s = state.copy()
            ev: list[Event] = []
            _h_retract(s, ev, seat, action_id)
            return s, ev
        # The dice steps (most steps) ask their check directly: one call less.
        if not (
            _assign_legal(state, seat, action_id)
            if ph == ASSIGN
            else _is_legal(state, seat, action_id)
        ):
            ids = _ids(state, seat)
            if not ids:
                raise IllegalAction(
                    "no_decision",
                    f"seat {seat} has no decision now (waiting for seats "
                    f"{self.actors(state)}: {PROMPTS[ph]})",
                )
            raise IllegalAction(
                "not_legal",
                f"action {action_id!r} is not legal for seat {seat} in phase "
                f"{ph!r} ({PROMPTS[ph]}); legal: " + ", ".join(ids),
                action=action_id,
            )
        # Copy-on-write: the handlers copy each list or record before they edit
        # it, so the top dict is all that is copied here.
        s = state.copy()
        ev = []
        _HANDLERS[ph](s, ev, seat, action_id)
        return s, ev

    def playout(
        self,
        state: State,
        choose: Callable[[State, int, list[str]], str],
        max_steps: int | None = None,
    ) -> int:
        """Play ``state`` on in place until the game ends (or ``max_steps``
        decisions): each time the first seat of ``actors`` decides,
        ``choose(state, seat, ids)`` picking among its legal ids (menu order, as
        ``legal_action_ids`` lists them).

        The same menus and handlers as ``apply`` (their events are dropped); an
        illegal choice raises IllegalAction, the state left after the last legal
        decision. Returns the number of decisions made. For simulations on a
        state the caller owns (``setup``, ``clone``, ``apply``...).
        """
        if type(state) is not dict or state.get("rules_version") != RULES_VERSION:
            self._check(state)
        actors = self.actors
        handlers = _HANDLERS
        steps = 0
        limit = -1 if max_steps is None else max_steps
        ev: list[Event] = []
        while steps != limit:
            who = actors(state)
            if not who:
                break
            seat = who[0]
            ids = _ids(state, seat)
            aid = choose(state, seat, ids)
            if type(aid) is not str or aid not in ids:
                raise IllegalAction(
                    "not_legal",
                    f"action {aid!r} is not legal for seat {seat} in phase "
                    f"{state['phase']!r}; legal: " + ", ".join(ids),
                    action=str(aid)[:80],
                )
            handlers[state["phase"]](state, ev, seat, aid)
            ev.clear()
            steps += 1
        return steps

    def random_playout(
        self, state: State, seed: int, max_steps: int | None = None
    ) -> int:
        """``playout`` with uniform random choices, natively when it can.

        Each decision takes ``ids[rng.randbelow(stream, len(ids))]``, the stream
        seeded ``rng.seed_state(seed)`` (``uniform_chooser(seed)``). With the C
        kernel built (``NATIVE``) the whole game runs in C and ends exactly as
        ``playout(state, uniform_chooser(seed), max_steps)`` ends it; otherwise
        that is what runs. In place, on a state the caller owns; returns the
        number of decisions made.
        """
        if _native is None:
            return self.playout(state, uniform_chooser(seed), max_steps)
        return self._native_playout(_native.playout, state, seed, max_steps)

    def native_policy_playout(
        self, state: State, seed: int, max_steps: int | None = None
    ) -> int:
        """The playout policy of rollout.py played in C (``native_policy()``).

        Exactly ``playout(state, rollout.policy_chooser(seed), max_steps)``
        (rollout.py's ``playout`` picks between the two, and hands the kernel
        the policy's card values when it is imported); the policy's rules live
        in rollout.py, the kernel only repeats them.
        """
        if not native_policy():
            raise RuntimeError("the kungfu2019 kernel has no policy_playout")
        return self._native_playout(_native.policy_playout, state, seed, max_steps)

    def _native_playout(
        self,
        kernel: Callable[
            [tuple[Any, ...], int, int], tuple[tuple[Any, ...], int, int, int]
        ],
        state: State,
        seed: int,
        max_steps: int | None,
    ) -> int:
        if type(state) is not dict or state.get("rules_version") != RULES_VERSION:
            self._check(state)
        if state["phase"] == OVER or max_steps == 0:
            return 0
        fields, _, steps, reason = kernel(
            _native_fields(state),
            int(_rng.seed_state(seed), 16),
            -1 if max_steps is None else max_steps,
        )
        _native_store(state, fields, reason)
        return steps

    def retract_actions(self, state: State, seat: int) -> list[Action]:
        """Take-backs of ``seat``'s hidden commits while the others still choose.

        Not part of ``legal_actions`` (bots, simulations and timeouts never see
        them, and no clock runs for them): the platform offers them to people
        beside the menu. ``apply`` accepts them; taking a commit back makes the
        seat an actor again, with that decision open.
        """
        if state["phase"] == OVER or type(seat) is not int:
            return []
        if not 0 <= seat < state["n"]:
            return []
        out: list[Action] = []
        for aid in _retract_ids(state, seat):
            if aid == UNPICK:
                ch = state["picks"][seat]
                out.append(
                    {
                        "id": aid,
                        "type": "unpick",
                        "card": CODE[ch],
                        "label": f"Take back {NAME[ch]} (choose again)",
                    }
                )
            elif aid == REOPEN:
                out.append(
                    {
                        "id": aid,
                        "type": "reopen",
                        "label": "Change your dice assignment",
                    }
                )
            else:
                ch = UNPLAY_ARG[aid]
                out.append(
                    {
                        "id": aid,
                        "type": "unplay",
                        "card": CODE[ch],
                        "label": f"Take back {NAME[ch]}",
                    }
                )
        return out

    def clone(self, state: State) -> State:
        """A copy the engine may mutate: the dict and the lists it edits in place.

        The fight's per-seat records are replaced, never edited, and the fight
        dict itself is copied, so this is all it takes.
        """
        s = state.copy()
        s["packs"] = state["packs"][:]
        s["picks"] = state["picks"][:]
        s["hands"] = state["hands"][:]
        s["hp"] = state["hp"][:]
        s["elim"] = state["elim"][:]
        s["commit"] = state["commit"][:]
        f = state["fight"]
        if f is not None:
            s["fight"] = f.copy()
        return s

    # -- information ---------------------------------------------------------

    def observe(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now, built field by field from an allow-list.

        Hidden from others: hands, packs, draft picks, the cards committed before
        the reveal, an unfinished dice assignment, the deck order and the RNG.
        Public: the status tracks and HP (the boards are on the table), hand and
        pack sizes, who has chosen, the revealed plays, the dice rolled and every
        finished fight.

        Built in C when the optional ``_fastobserve`` extension is there (it was
        about 43% of a step of the public API in Python, issue 33 §2): the same
        fields from the same allow-list as :meth:`_observe_py`, the reference,
        which builds it otherwise and whenever the C code declines (a finished
        or malformed state, an invalid seat: the errors are raised there).
        tests/rules/test_kungfu2019_observe.py holds the two equal.
        """
        if _native_observe is not None:
            obs = _native_observe(state, seat)
            if obs is not None:
                return obs
        return self._observe_py(state, seat)

    def _observe_py(self, state: State, seat: int | None) -> dict[str, Any]:
        """:meth:`observe` in Python: the reference the C code follows."""
        n = state["n"]
        if (
            seat is not None
            and not (type(seat) is int and 0 <= seat < n)
            and (type(seat) is bool or seat not in range(n))
        ):
            raise GameError(f"seat must be None or 0-{n - 1}, got {seat!r}")
        ph = state["phase"]
        me = seat is not None
        # The fields fixed for a seat at a table in a phase come from a template
        # copied per call (cheaper than a literal of 25 keys, same key order).
        # ``[*x]`` rather than ``list(x)`` for the fresh lists: no call.
        obs = _OBS_BASE[seat, n, ph].copy()
        obs["round"] = state["round"]
        obs["actors"] = self.actors(state)
        obs["hp"] = [*state["hp"]]
        obs["eliminated"] = [*map(bool, state["elim"])]
        track_views = _TRACK_VIEWS(state["tracks"])
        obs["tracks"] = [*track_views[0]]
        obs["status"] = [*track_views[1]]
        hands = state["hands"]
        if me:
            obs["hand"] = [*_SORTED_CODES[hands[seat]]]
        obs["hand_sizes"] = [*map(len, hands)]
        obs["deck_size"] = len(state["deck"])
        obs["discard"] = [*_CODES[state["discard"]]]
        if ph == DRAFT:
            picks = state["picks"]
            obs["draft"] = {
                "turn": state["turn"],
                "pack_sizes": list(map(len, state["packs"])),
                "picked": list(map(bool, picks)),
                "pack": [*_SORTED_CODES[state["packs"][seat]]] if me else None,
                "pick": CODE[picks[seat]] if me and picks[seat] else None,
            }
        elif ph == PLAYING:
            commit = state["commit"]
            obs["commits"] = {
                "counts": list(map(len, commit)),
                "mine": [*_CODES[commit[seat]]] if me else None,
            }
        # The per-seat lists: ``map`` to ``list`` (C calls, a fresh list per
        # seat) where every seat has one, which is most steps; else loops
        # rather than comprehensions (see ``actors``).
        plays = state["played"]
        played: list[list[str] | None]
        if "" not in plays:  # everyone's cards face up: the fights
            played = [*map(list, map(_CODES.__getitem__, plays))]
        elif plays.count("") == n:  # nothing revealed yet this round
            played = [None] * n
        else:
            played = []
            for p in plays:
                played.append([*_CODES[p]] if p else None)
        obs["played"] = played
        if state["dummy"]:
            obs["dummy"] = [CODE[c] for c in state["dummy"]]
        order = state["order"]
        obs["order"] = [*order]
        if order:
            obs["attack_index"] = state["oi"]
        f = state["fight"]
        if f is not None:
            dice: list[list[int] | None]
            done: list[bool | None]
            asgs = f["asg"]
            rolls = f["dice"]
            if None not in rolls and None not in asgs:  # every seat fights
                dice = [*map(list, rolls)]
                done = [*map(_DONE, asgs)]
            else:
                dice = []
                done = []
                # (``zip(..., strict=True)`` is a keyword call; both lists have
                # a slot per seat.)
                for i, d in enumerate(rolls):
                    a = asgs[i]
                    dice.append(None if d is None else [*d])
                    done.append(None if a is None else a["done"])
            fight: dict[str, Any] = {
                "attacker": f["a"],
                "fighters": [*f["f"]],
                "dice": dice,
                "done": done,
                "mine": None,
            }
            asg = None if seat is None else f["asg"][seat]
            if asg is not None:
                # A loop and the role inline: no calls of their own (see
                # ``actors``), this part being built at every dice step.
                sets: list[list[Any]] = []
                for slot, k, d in asg["sets"]:
                    sets.append([slot, k, [*d]])
                op = asg["open"]
                fight["mine"] = {
                    "role": ATTACK if seat == f["a"] else DEFEND,
                    "values": [*asg["v"]],
                    "sets": sets,
                    "open": None if op is None else [op[0], op[1], [*op[2]]],
                    "budget": asg["bud"] + asg["gain"],
                    "spent": asg["spent"],
                    "done": asg["done"],
                }
            obs["fight"] = fight
        if state["result"] is not None:
            obs["result"] = self.result(state)
        return obs

    def determinize(self, state: State, seat: int, rng_seed: int) -> State:
        """A full state ``seat`` cannot tell apart from ``state`` right now.

        Kept: everything in ``seat``'s observation. Re-dealt at random: the other
        seats' hands, packs, draft picks and unrevealed committed cards, and the
        deck. After the draft the other seats keep as many cards of each icon as
        they had (their tracks are public). Other fighters' unfinished dice
        assignments are reset to their rolls, finished ones replaced by the best
        assignment of their roll, ``auto``'s (the real sets are not shown to
        the seat). The RNG is reseeded, so future rolls, ties and the dummy's
        cards are unknown.
        """
        s = self.clone(state)
        n = s["n"]
        others = [i for i in range(n) if i != seat]
        r = _rng.seed_state(rng_seed)
        if s["phase"] == DRAFT:
            sizes = [
                (len(s["hands"][i]), len(s["packs"][i]), len(s["picks"][i]))
                for i in others
            ]
            pool = (
                "".join(s["hands"][i] + s["packs"][i] + s["picks"][i] for i in others)
                + s["deck"]
            )
            r, pool = _rng.shuffled(r, "".join(sorted(pool)))
            for i, (h, p, k) in zip(others, sizes, strict=True):
                s["hands"][i], pool = pool[:h], pool[h:]
                s["packs"][i], pool = pool[:p], pool[p:]
                s["picks"][i], pool = pool[:k], pool[k:]
            s["deck"] = pool
        else:
            by_icon: list[list[str]] = [[] for _ in STAT]
            need = []
            for i in others:
                hidden = s["hands"][i] + s["commit"][i]
                counts = [0] * 5
                for c in hidden:
                    counts[ICON[c]] += 1
                    by_icon[ICON[c]].append(c)
                need.append(counts)
            for c in s["deck"]:
                by_icon[ICON[c]].append(c)
            pools = []
            for icon in range(5):
                r, pile = _rng.shuffled(r, "".join(sorted(by_icon[icon])))
                pools.append(pile)
            for i, counts in zip(others, need, strict=True):
                got = ""
                for icon in range(5):
                    got += pools[icon][: counts[icon]]
                    pools[icon] = pools[icon][counts[icon] :]
                r, got = _rng.shuffled(r, got)
                k = len(s["commit"][i])
                s["commit"][i], s["hands"][i] = got[:k], got[k:]
            r, s["deck"] = _rng.shuffled(r, "".join(pools))
            f = s["fight"]
            if f is not None:
                f["asg"] = f["asg"][:]
                for i in f["f"]:
                    a = f["asg"][i]
                    if i == seat:
                        continue
                    b = dict(a, v=list(f["dice"][i]), sets=[], open=None, gain=0)
                    b["spent"] = 0
                    if a["done"]:
                        # Not the real (unseen) sets: the best assignment of
                        # the roll (``auto``, what the heuristic and the
                        # timeout play), the one a good player finishes with.
                        b["v"], b["sets"], b["gain"], b["spent"] = _checked_proposal(
                            s, i
                        )
                    f["asg"][i] = b
        s["rng"] = r
        return s
