# The interface of the optional C extension _fastobserve.c (its docstrings say
# more). mypy cannot read a compiled module; this file is what it checks
# native.py and the engine against.
from typing import Any

PHASES: tuple[str, ...]

def init(
    rules_version: str,
    prompts: dict[str, str],
    codes: tuple[str | None, ...],
    stats: tuple[str, ...],
    steps: tuple[int, ...],
    attack: str,
    defend: str,
    rounds: int,
    /,
) -> None: ...
def observe(state: dict[str, Any], seat: int | None, /) -> dict[str, Any] | None: ...
def actors(state: dict[str, Any], /) -> list[int] | None: ...
