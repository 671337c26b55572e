"""System lines in a match's chat, from gameplay's announcements.

``chat_system`` writes the start and the end once (``get_or_create``), so the
outbox's repeated ``match_finished`` never doubles it; a seat's line (a join,
a leave, a forfeit with a bot playing on) comes from ``seat_changed``, which
is sent once per change. One quick insert each, no task.
"""

from __future__ import annotations

from typing import Any

from accounts.models import User
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


# The end, naming the one seat whose forfeit ended the game.
NAMED_ENDINGS = {
    "resigned": "The game is over: {name} resigned.",
    "abandoned": "The game is over: {name} left.",
    "time forfeit": "The game is over: {name}'s clock ran out.",
}


def _ending(match: Match) -> str:
    named = NAMED_ENDINGS.get(match.end_reason)
    if named is not None:
        # Seats that gave up earlier had a bot play on; the one that ended
        # the game was not replaced.
        enders = list(
            Seat.objects.filter(
                match_id=match.pk,
                forfeited=True,
                forfeit_reason=match.end_reason,
                replaced_by_bot=False,
            ).select_related("user")
        )
        if len(enders) == 1:
            return named.format(name=enders[0].display_name)
    return ENDINGS.get(match.end_reason, "The game is over.")


def on_match_finished(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    match = Match.objects.filter(pk=match_id).only("pk", "end_reason").first()
    if match is None or not _has_people(match_id):
        return
    services.chat_system(match_id=match_id, text=_ending(match))


# A seat that gives up while the game goes on with a bot in its place.
FORFEITS = {
    "resigned": "{name} resigned; a bot plays their seat on.",
    "time forfeit": "{name}'s clock ran out; a bot plays their seat on.",
}
FORFEIT_OTHER = "{name} left the game; a bot plays their seat on."


def seat_line(*, change: str, reason: str, name: str, seat_number: int) -> str:
    if change == "joined":
        return f"{name} took seat {seat_number + 1}."
    if change == "left":
        return f"{name} left seat {seat_number + 1}."
    return FORFEITS.get(reason, FORFEIT_OTHER).format(name=name)


def on_seat_changed(
    sender: Any,
    *,
    match_id: int,
    seat_number: int,
    user_id: int | None,
    change: str,
    reason: str = "",
    **kwargs: Any,
) -> None:
    if not _has_people(match_id) and change != "left":
        return
    user = User.objects.filter(pk=user_id).first() if user_id is not None else None
    if user is not None:
        name = user.public_name
    else:
        seat = Seat.objects.filter(match_id=match_id, number=seat_number).first()
        name = seat.display_name if seat is not None else f"Seat {seat_number + 1}"
    services.chat_system(
        match_id=match_id,
        text=seat_line(
            change=change, reason=reason, name=name, seat_number=seat_number
        ),
        once=False,
    )
