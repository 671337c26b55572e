"""The optional C extension ``_fastplay`` (Duelo's ``observe`` in C), wired up.

:data:`NATIVE` says whether it is there; :data:`_native_observe` is None when
it is not (or is a build of another version), and ``observe`` then runs
:func:`.observation.observe_py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameplay.rules.base import State
from gameplay.rules.duelo.observation import _ROUNDS, _start_draw_view
from gameplay.rules.duelo.phases import OVER, PHASES, PROMPTS, RULES_VERSION

# ``observe`` in C, when the optional extension ``_fastplay.c`` is built
# (setup.py). It follows ``_observe_py`` field by field and declines (None)
# whatever it does not handle; tests/rules/test_duelo_native.py compares the
# two for every seat at every step of seeded games.
try:
    from gameplay.rules.duelo import _fastplay as _native
except ImportError:  # not built (no C compiler): observe runs in Python
    # mypy types the name as the module (the stub _fastplay.pyi) and has no
    # way to say "or None"; every use checks it.
    _native = None  # type: ignore[assignment]

if _native is not None and (*PHASES, OVER) != _native.PHASES:
    # A build of another version of the C code: not used (a test fails).
    _native = None  # type: ignore[assignment]

NATIVE = _native is not None
_native_observe: Callable[[State, int | None], dict[str, Any] | None] | None = None
if _native is not None:
    _native.init(RULES_VERSION, PROMPTS, _ROUNDS, _start_draw_view)
    _native_observe = _native.observe
