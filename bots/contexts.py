"""Match-page descriptions of the bots app's matches (gameplay.contexts)."""

from __future__ import annotations

from django.urls import reverse

from gameplay.contexts import MatchContextInfo, register_context_describer
from gameplay.models import Match


def describe_ladder_game(match: Match) -> MatchContextInfo:
    """``bots:ladder:<round>:...`` (a ladder round) and ``bots:debut:<version>``."""
    from gameplay.catalog import game_catalog

    names = {g.id: g.name for g in game_catalog()}
    debut = match.context.startswith("bots:debut:")
    return MatchContextInfo(
        title=f"{names.get(match.game, match.game)} bot ladder",
        url=reverse("bots:list") + f"?game={match.game}",
        details=["a new bot's first games" if debut else "ladder round"],
    )


def register() -> None:
    register_context_describer("bots:ladder:", describe_ladder_game)
    register_context_describer("bots:debut:", describe_ladder_game)
