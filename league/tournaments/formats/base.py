"""Types shared by the tournament formats."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Pairing(Generic[P]):
    """One game of a round: ``first`` takes the first seat (white in chess).

    ``second is None`` marks a bye. ``table`` numbers boards from 1, byes last.
    """

    round: int
    table: int
    first: P
    second: P | None

    @property
    def is_bye(self) -> bool:
        return self.second is None
