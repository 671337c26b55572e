# The interface of the optional C extension _fastobserve.c (its docstrings say
# more). mypy cannot read a compiled module; this file is what it checks
# native.py against.
from collections.abc import Mapping
from typing import Any

def init(
    rules_version: str,
    prompts: dict[str, str],
    views: list[Any],
    hand_counts: list[list[dict[str, int]]],
    /,
) -> None: ...
def observe(state: dict[str, Any], seat: int | None, /) -> dict[str, Any] | None: ...
def init_menus(
    fixed: Mapping[str, tuple[str, ...]],
    draw_red_first: tuple[str, ...],
    draw_blue_first: tuple[str, ...],
    hand_ids: list[str],
    pay_ids: dict[str, str],
    target_ids: dict[str, str],
    /,
) -> None: ...
def legal_action_ids(
    state: dict[str, Any], seat: int | None, /
) -> list[str] | None: ...
