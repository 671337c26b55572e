"""Who plays a seat that no person holds: agent names.

A seat's ``agent`` is empty (a person or an open seat), ``builtin:<bot>`` (a
built-in bot of ``gameplay.rules.bots``) or ``bot:<version id>`` (an uploaded
bot, driven by the bots app).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gameplay.models import Seat

BUILTIN_PREFIX = "builtin:"


# The bot that plays on for a person who left a table of three or more.
TAKEOVER_BOT = "builtin:heuristic"


# Seats of uploaded bots; the bots app drives them (``signals.uploaded_bot_turn``).
UPLOADED_PREFIX = "bot:"


def is_uploaded_bot(seat: Seat) -> bool:
    """An uploaded bot still playing its own seat (not forfeited, not replaced).

    Unlike built-in bots these run elsewhere (a sandboxed worker) and can fail
    to move, so their seats are subject to clocks and claims like people's.
    """
    return (
        seat.agent.startswith(UPLOADED_PREFIX)
        and not seat.replaced_by_bot
        and not seat.forfeited
    )


def played_by_bots_runner(seats: list[Seat]) -> bool:
    """A match of bots only, one of them uploaded: the bots app's runner plays
    it whole, every seat included (real-time games on its virtual clock), so
    nothing here moves it: no built-in bot ticks, no server timers. The same
    rule as ``bots.services.bot_matches_waiting_for_a_runner``.
    """
    return all(seat.agent for seat in seats) and any(
        seat.agent.startswith(UPLOADED_PREFIX) for seat in seats
    )
