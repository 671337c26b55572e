# The interface of the optional C kernel _fastplay.c (its docstrings say more).
# mypy cannot read a compiled module; this file is what it checks engine.py and
# native.py against. The flat field tuples are native.py's _native_fields layout.
from collections.abc import Sequence
from typing import Any

EFFECTS: tuple[str, ...]
PHASES: tuple[str, ...]
TASKS: tuple[str, ...]
FIELDS: int

def init(
    cards: Sequence[tuple[str, bool, int, int, int, int, int, bool]],
    words: Sequence[int],
    /,
) -> None: ...
def playout(
    fields: tuple[Any, ...], choice: int, max_steps: int, /
) -> tuple[tuple[Any, ...], int, int]: ...
def policy_playout(
    fields: tuple[Any, ...], choice: int, max_steps: int, /
) -> tuple[tuple[Any, ...], int, int]: ...
