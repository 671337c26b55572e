# The interface of the optional C extension _fastobserve.c (its docstrings say
# more). mypy cannot read a compiled module; this file is what it checks
# engine.py against.
from typing import Any

def init(
    rules_version: str,
    prompts: dict[str, str],
    views: list[Any],
    hand_counts: list[list[dict[str, int]]],
    /,
) -> None: ...
def observe(state: dict[str, Any], seat: int | None, /) -> dict[str, Any] | None: ...
