"""Kung Fu (2019)'s optional C extensions, wired up: the playout kernel
(``_fastplay``), ``observe`` and ``actors`` (``_fastobserve``), the menus and
steps (``_fastassign``). Each is None when it is not built, and the engine then
runs the Python code; each gets its tables from here when this module is
imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import Event, State
from gameplay.rules.kungfu2019 import fasttables as _tables
from gameplay.rules.kungfu2019.actions import PICK_ARG, PLAY_ARG
from gameplay.rules.kungfu2019.alphabet import (
    ALPHABET,
    CODE,
    COMBOS,
    CROSS,
    HAND,
    ICON,
    INIT,
    ROUNDS,
    RULES_VERSION,
    SETTABLE,
    START_HP,
    STAT,
    STEP,
    USABLE,
)
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND
from gameplay.rules.kungfu2019.phases import ASSIGN, DRAFT, PHASES, PLAYING, PROMPTS

# What the engine and assignment.py import (the engine's as globals of its
# own: its hot paths read them).
__all__ = [
    "NATIVE",
    "_native",
    "_native_actors",
    "_native_ids",
    "_native_observe",
    "_native_step",
    "_solve_checked",
]

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
# dice step, ``apply``, a fight's end included (its dice.h, commit.h and
# fight.h);
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
                    *_tables.combo_shape(c),
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
