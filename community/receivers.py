"""System lines in a match's chat, from gameplay's announcements.

``chat_system`` writes each line once (``get_or_create``), so the outbox's
repeated ``match_finished`` never doubles it; one quick insert, no task.
"""

from __future__ import annotations

from typing import Any

from community import services
from gameplay.models import Match, Seat

ENDINGS = {
    "completed": "The game is over.",
    "resigned": "The game is over: a player resigned.",
    "abandoned": "The game is over: a player left.",
    "time forfeit": "The game is over: a clock ran out.",
}


def _has_people(match_id: int) -> bool:
    """Bots-only matches (ladders, simulations) have nobody to read a line."""
    return Seat.objects.filter(match_id=match_id, user__isnull=False).exists()


def on_match_started(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    if _has_people(match_id):
        services.chat_system(match_id=match_id, text="The game has begun.")


def on_match_finished(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    match = Match.objects.filter(pk=match_id).only("end_reason").first()
    if match is None or not _has_people(match_id):
        return
    text = ENDINGS.get(match.end_reason, "The game is over.")
    services.chat_system(match_id=match_id, text=text)
