# The interface of the optional C extension _fastassign.c (its docstrings say
# more). mypy cannot read a compiled module; this file is what it checks
# native.py and the engine against.
from collections.abc import Callable, Sequence
from typing import Any

def init(
    rules_version: str,
    assign: str,
    combos: tuple[Sequence[tuple[int, ...]] | None, ...],
    /,
) -> None: ...
def assign_ids(state: dict[str, Any], seat: int, /) -> list[str] | None: ...
def assign_step(
    state: dict[str, Any], seat: int | None, action_id: str, /
) -> tuple[dict[str, Any], list[dict[str, Any]]] | None: ...
def init_fight(
    table: tuple[tuple[Any, ...] | None, ...],
    steps: tuple[int, ...],
    rounds: int,
    playing: str,
    solve: Callable[..., Any] | None,
    /,
) -> None: ...
def resolve(state: dict[str, Any], events: list[dict[str, Any]], /) -> bool: ...
def init_commit(
    codes: tuple[str | None, ...],
    pick_arg: dict[str, str],
    play_arg: dict[str, str],
    draft: str,
    hand: int,
    /,
) -> None: ...
def step(
    state: dict[str, Any], seat: int | None, action_id: str, /
) -> tuple[dict[str, Any], list[dict[str, Any]]] | None: ...
def ids(state: dict[str, Any], seat: int | None, /) -> list[str] | None: ...
