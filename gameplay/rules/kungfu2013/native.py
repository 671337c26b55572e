"""Kung Fu (2013)'s optional C extensions, wired up: the playout kernel and observe.

``_fastplay`` plays whole games (``random_playout``, the rollout policy) on the
state as a flat tuple of fields (:func:`_native_fields`, :func:`_native_store`);
``_fastobserve`` builds observations and menus. Each is None when it is not
built, and the engine then runs the Python code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import State
from gameplay.rules.kungfu2013.alphabet import (
    ALPHABET,
    COINS,
    COST,
    EFFECT,
    FIRST_BLUE,
    ON_HIT,
    RISE,
    VALUE,
)
from gameplay.rules.kungfu2013.menus import (
    _DRAW_BLUE_FIRST,
    _DRAW_RED_FIRST,
    _FIXED,
    _ID_BY_BYTE,
    PAY_ID,
    TARGET_ID,
)
from gameplay.rules.kungfu2013.observation import _HAND_COUNTS, _VIEW_OF_BYTE
from gameplay.rules.kungfu2013.phases import PROMPTS, RULES_VERSION
from gameplay.rules.kungfu2013.rounds import _result

# What the engine imports (as globals of its own: its hot paths read them).
__all__ = [
    "NATIVE",
    "_native",
    "_native_fields",
    "_native_legal",
    "_native_observe",
    "_native_store",
]

# ---------------------------------------------------------------------------
# Uniform random playouts, natively when the optional C kernel is built.
#
# ``_fastplay.c`` (built by setup.py as an optional extension) plays these same
# rules in C for ``random_playout``: each decision takes menu index
# ``rng.randbelow(choice, len(ids))`` of a choice stream seeded
# ``rng.seed_state(seed)``, and the game's own shuffles and random discards use
# the state's ``rng`` exactly as here, so the kernel and ``playout`` with
# ``uniform_chooser(seed)`` end every game identically
# (tests/rules/test_kungfu2013_native.py). Without a compiler the import fails
# and ``random_playout`` runs ``playout`` instead. The kernel gets its card table
# from here (so from cards.py) when this module is imported.


try:
    import gameplay.rules.kungfu2013._fastplay as _native
except ImportError:  # not built (no C compiler): the Python playout is used
    # mypy types the name as the module (the stub _fastplay.pyi) and has no way
    # to say "or None"; every use checks it.
    _native = None  # type: ignore[assignment]

NATIVE = _native is not None


def _native_card(ch: str) -> tuple[str, bool, int, int, int, int, int, bool]:
    """One card as the kernel's ``init`` row (-1 or 0 for "none")."""
    rise, effect, cost = RISE[ch], EFFECT[ch], COST[ch]
    return (
        ch,
        ch < FIRST_BLUE,
        VALUE[ch],
        -1 if rise is None else rise,
        COINS[ch],
        0 if effect is None else _native.EFFECTS.index(effect) + 1,
        -1 if cost is None else cost,
        ON_HIT[ch],
    )


if _native is not None:
    _native.init(
        [_native_card(ch) for ch in ALPHABET],
        [_rng._words_for(n) for n in range(65)],
    )
    _PHASE_NO = {p: i for i, p in enumerate(_native.PHASES)}
    _TASK_NO = {t: i for i, t in enumerate(_native.TASKS)}
    _PHASE_OF = _native.PHASES
    _TASK_OF = _native.TASKS
    # The kernel's numbers for how a game ended (0: it goes on).
    _REASONS = {1: "round_limit", 2: "no_attack_possible", 3: "knockout"}
    # Tasks that carry a seat, and those that also carry a count.
    _SEATED = frozenset(("effect", "resolve", "target"))
    _COUNTED = frozenset(("draw", "pay"))


# ``observe`` in C, when the optional extension ``_fastobserve.c`` is built
# (setup.py). It follows ``_observe_py`` field by field and declines (None)
# whatever it does not handle; tests/rules/test_kungfu2013_observe.py compares
# the two for every seat at every step of seeded games.
try:
    import gameplay.rules.kungfu2013._fastobserve as _native_obs
except ImportError:  # not built (no C compiler): observe runs in Python
    # (typed as the module by the stub _fastobserve.pyi; every use checks it)
    _native_obs = None  # type: ignore[assignment]

_native_observe: Callable[[State, int | None], dict[str, Any] | None] | None = None
# ``legal_action_ids`` likewise (the menus of ``_menu_*``).
_native_legal: Callable[[State, int | None], list[str] | None] | None = None
if _native_obs is not None:
    _native_obs.init(RULES_VERSION, PROMPTS, _VIEW_OF_BYTE, _HAND_COUNTS)
    _native_obs.init_menus(
        _FIXED, _DRAW_RED_FIRST, _DRAW_BLUE_FIRST, _ID_BY_BYTE, PAY_ID, TARGET_ID
    )
    _native_observe = _native_obs.observe
    _native_legal = _native_obs.legal_action_ids


def _native_fields(s: State) -> tuple[Any, ...]:
    """The state as the kernel's flat tuple of fields (see _fastplay.c)."""
    b = s["b"]
    todo = bytearray()
    for t in s["todo"]:
        n = len(t)
        todo += bytes(
            (_TASK_NO[t[0]], t[1] if n > 1 else 0, (t[2] & 0xFF) if n > 2 else 0)
        )
    life, hands, front, noblk, act = (
        s["life"],
        s["hands"],
        s["front"],
        s["noblk"],
        b["act"],
    )
    return (
        int(s["rng"], 16),
        life[0],
        life[1],
        hands[0],
        hands[1],
        s["rdeck"],
        s["bdeck"],
        s["rdisc"],
        s["bdisc"],
        front[0],
        front[1],
        s["init"],
        s["round"],
        noblk[0],
        noblk[1],
        s["cfg"]["max_rounds"],
        b["a"],
        b["ac"],
        b["face"],
        b["bc"],
        b["blocked"],
        b["null"],
        act[0],
        act[1],
        b["av"],
        b["bv"],
        b["hit"],
        b["dmg"],
        b["flip"],
        bytes(todo),
        _PHASE_NO[s["phase"]],
        s["actor"],
    )


def _native_store(s: State, f: tuple[Any, ...]) -> None:
    """Write the kernel's fields back into ``s`` (in place, like ``playout``)."""
    s["rng"] = format(f[0], "016x")
    # New lists: the state's may be shared with the state before (copy-on-write).
    s["life"] = list(f[1:3])
    s["hands"] = list(f[3:5])
    s["rdeck"], s["bdeck"], s["rdisc"], s["bdisc"] = f[5:9]
    s["front"] = list(f[9:11])
    s["init"], s["round"] = f[11], f[12]
    s["noblk"] = list(f[13:15])
    s["b"] = {
        "a": f[16],
        "ac": f[17],
        "face": f[18],
        "bc": f[19],
        "blocked": bool(f[20]),
        "null": f[21],
        "act": [bool(f[22]), bool(f[23])],
        "av": f[24],
        "bv": f[25],
        "hit": bool(f[26]),
        "dmg": f[27],
        "flip": list(f[28]),
    }
    raw = f[29]
    todo = []
    for i in range(0, len(raw), 3):
        kind = _TASK_OF[raw[i]]
        if kind in _COUNTED:
            n = raw[i + 2]
            todo.append([kind, raw[i + 1], n - 256 if n > 127 else n])
        elif kind in _SEATED:
            todo.append([kind, raw[i + 1]])
        else:
            todo.append([kind])
    s["todo"] = todo
    s["phase"] = _PHASE_OF[f[30]]
    s["actor"] = f[31]
    if f[32]:
        s["result"] = _result(s["life"], _REASONS[f[32]])
