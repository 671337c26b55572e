"""Arena reactions to gameplay: a finished match, and the match page's line
saying which arena a game belongs to."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import timezone

from gameplay.contexts import MatchContextInfo
from gameplay.models import Match

PREFIX = "arena:"


def on_match_finished(
    sender: Any,
    match_id: int,
    rated: bool | None = None,
    context: str | None = None,
    **kwargs: Any,
) -> None:
    """Enqueue the arena's scoring at once (gameplay's outbox retries a
    receiver that raises); only for arena games when the context is known."""
    from league.tournaments.arena import tasks

    if context is not None and not context.startswith(PREFIX):
        return
    tasks.arena_match_finished.delay(match_id)


def describe_arena_game(match: Match) -> MatchContextInfo | None:
    """``arena:<arena id>:<game id>``: the arena's name, link and end."""
    from league.tournaments.arena.models import Arena

    parts = match.context.split(":")
    if len(parts) != 3 or not all(p.isdigit() and len(p) < 19 for p in parts[1:]):
        return None
    arena = Arena.objects.filter(pk=int(parts[1]), games__pk=int(parts[2])).first()
    if arena is None:
        return None
    left = arena.ends_at - timezone.now()
    details = ["arena game"]
    if left.total_seconds() > 0:
        details.append(f"the arena ends in {int(left.total_seconds() // 60)} min")
    return MatchContextInfo(
        title=arena.name,
        url=reverse("arena:detail", args=[arena.slug]),
        details=details,
    )
