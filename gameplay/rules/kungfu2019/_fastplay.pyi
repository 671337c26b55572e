# The interface of the optional C kernel _fastplay.c (its docstrings say more).
# mypy cannot read a compiled module; this file is what it checks native.py,
# assignment.py and the engine against. The flat field tuples are fields.py's
# _native_fields layout.
from collections.abc import Sequence
from typing import Any

FIELDS: int

def init(
    combos: Sequence[tuple[int, ...]],
    cards: Sequence[tuple[str, int, int, list[int]]],
    steps: tuple[int, ...],
    start_hp: tuple[int, ...],
    words: Sequence[int],
    /,
) -> None: ...
def solve(
    played: str, role: int, rolled: bytes, budget: int, /
) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]: ...
def solve_checked(
    played: str, role: int, rolled: bytes, budget: int, /
) -> tuple[list[int], list[list[Any]], int, int] | None: ...
def playout(
    fields: tuple[Any, ...], choice: int, max_steps: int, /
) -> tuple[tuple[Any, ...], int, int, int]: ...
def init_policy(
    worth: tuple[tuple[float, ...], ...], play: tuple[tuple[float, ...], ...], /
) -> None: ...
def policy_playout(
    fields: tuple[Any, ...], choice: int, max_steps: int, /
) -> tuple[tuple[Any, ...], int, int, int]: ...
