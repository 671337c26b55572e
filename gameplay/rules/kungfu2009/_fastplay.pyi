# The interface of the optional C extension _fastplay.c (its docstrings say more).
# mypy cannot read a compiled module; this file is what it checks native.py
# against.
from typing import Any

def init(
    rules_version: str,
    points: dict[str, int],
    face_up: dict[Any, Any],
    pile_sizes: dict[Any, Any],
    discard_view: dict[Any, Any],
    /,
) -> None: ...
def observe(state: dict[str, Any], seat: int | None, /) -> dict[str, Any] | None: ...
