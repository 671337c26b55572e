# The interface of the optional C extension _fastplay.c (its docstrings say more).
# mypy cannot read a compiled module; this file is what it checks native.py
# against.
from collections.abc import Callable
from typing import Any

PHASES: tuple[str, ...]

def init(
    rules_version: str,
    prompts: dict[str, str],
    rounds_view: Callable[[list[dict[str, Any]]], list[dict[str, Any]]],
    start_draw_view: Callable[[list[list[list[int]]]], list[list[list[int]]]],
    /,
) -> None: ...
def observe(state: dict[str, Any], seat: int | None, /) -> dict[str, Any] | None: ...
