"""The optional C extension ``_fastplay`` (Kung Fu (2009)'s ``observe`` in C), wired up.

:data:`NATIVE` says whether it is there; :data:`_native_observe` is None when
it is not, and ``observe`` then runs :func:`.observation.observe_py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameplay.rules.base import State
from gameplay.rules.kungfu2009.constants import POINTS, RULES_VERSION
from gameplay.rules.kungfu2009.observation import _DISCARD_VIEW, _FACE_UP, _PILE_SIZES

# ``observe`` in C, when the optional extension ``_fastplay.c`` is built
# (setup.py). It follows ``_observe_py`` field by field, reads the same shared
# views, and declines (None) whatever it does not handle;
# tests/rules/test_kungfu2009_native.py compares the two.
try:
    from gameplay.rules.kungfu2009 import _fastplay as _native
except ImportError:  # not built: the Python reference
    # mypy types the name as the module (the stub _fastplay.pyi) and has no
    # other way to say "or None".
    _native = None  # type: ignore[assignment]

NATIVE = _native is not None
_native_observe: Callable[[State, int | None], dict[str, Any] | None] | None = None
if _native is not None:
    _native.init(RULES_VERSION, POINTS, _FACE_UP, _PILE_SIZES, _DISCARD_VIEW)
    _native_observe = _native.observe
