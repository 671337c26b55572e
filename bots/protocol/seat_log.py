"""What one seat's bot did in a match, as its owner's log keeps it.

Kept apart from the match driver (``bots.protocol.match``): the log records
(:class:`SeatLog`) and the refused intents as a bot is told them are read by
the platform's storage (``bots.seats``) and the real-time tables too, and
know nothing of how a match is driven.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: Refused intents kept per seat (with the engine's reason); all are counted.
REFUSED_KEPT = 50


def refused_told(
    *,
    tick: int,
    action_id: str,
    code: str,
    params: Mapping[str, Any],
    reason: str,
) -> dict[str, Any]:
    """A refused intent as the bot's next ``act`` lists it (``act.refused``):
    ``code`` for programs to branch on (the engine's refusal code,
    docs/protocol/bots.md), ``params`` what it names, ``reason`` the engine's
    English detail for people reading logs."""
    return {
        "tick": tick,
        "action": action_id,
        "code": code,
        "params": dict(params),
        "reason": reason,
    }


@dataclass
class SeatLog:
    """What one seat's agent did: the basis of the owner's log and the summary."""

    seat: int
    agent: str
    decisions: int = 0
    think_s: float = 0.0
    fault: str = ""
    fault_detail: str = ""
    stderr: str = ""
    #: Real time: intents the engine refused (gone stale at their turn in the
    #: tick, or never legal): the first REFUSED_KEPT as (tick, id, reason,
    #: code, params); the owner's page words code and params in the owner's
    #: language (``bots.selectors.refused_lines``), the English reason is
    #: for programs and older rows.
    refused: list[tuple[int, str, str, str, dict[str, Any]]] = field(
        default_factory=list
    )
    refused_count: int = 0

    def note_refused(
        self,
        tick: int,
        action_id: str,
        reason: str,
        code: str,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        self.refused_count += 1
        if len(self.refused) < REFUSED_KEPT:
            self.refused.append(
                (tick, action_id[:80], reason[:200], code, dict(params or {}))
            )

    @property
    def think_ms(self) -> int:
        return round(self.think_s * 1000)
