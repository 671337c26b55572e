"""One engine action per kind of label, for the boards' node tests.

The engines word ``action.label`` in English; each board words the labels it
shows itself (``actionText`` in ``static/js/boards/<game>.js``). The fixtures
keep one action per kind of label (its id with every number as ``#``: all
"attack:r#" cards are worded by one message, "face:up" and "face:down" by two),
so ``tests/frontend/log-languages.test.js`` can hold every kind to a board
message, and a fixture made stale by a new kind fails its "is current" test.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

_NUMBER = re.compile(r"\d+")


def kind(action_id: str) -> str:
    """The kind of label an action id has: its numbers as ``#``."""
    return _NUMBER.sub("#", action_id)


def collect(
    labels: dict[str, dict[str, Any]], actions: Iterable[dict[str, Any]]
) -> None:
    """Keep the first action seen of each kind (``labels`` by kind)."""
    for action in actions:
        labels.setdefault(kind(action["id"]), action)


def ordered(labels: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {k: labels[k] for k in sorted(labels)}
