"""Built-in bots as fixed anchors of every pool that admits bots.

Uploaded bots come and go and improve; the built-in bots are the same programs
for ever. Holding their ratings fixed ties each pool's scale to them: a new
bot that only ever meets the random bot still lands at a meaningful number,
and ratings from different months stay comparable. How strong each built-in
bot is depends on the game, so each game states its anchors in its package
(``GameMeta.anchors``; docs/ratings.md says which figures are measured and
which are provisional).

``settings.RATING_ANCHORS`` ({game id: {bot name: rating}}) replaces them; an
empty mapping turns anchoring off. Pools for people only have no anchors.

Only a game's global ladder is anchored: it is where bots come and go (the
bots' ladder and debut games feed it), so its scale is what must not drift. A
league or season pool is a competition among its entrants: a built-in bot
entered there is rated like anyone else, so one that wins every game rises
(issue 26: a heuristic bot won 9 of 9 in a league and stayed at 1500).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings

from gameplay.agents import builtin_name
from gameplay.rules import game_meta
from league.models import (
    Participant,
    ParticipantKind,
    ParticipantType,
    PoolScope,
    RatingPool,
)


def anchor_ratings(game: str) -> dict[str, float]:
    """Built-in bot name -> its fixed rating in ``game``'s pools."""
    configured = getattr(settings, "RATING_ANCHORS", None)
    table = game_meta(game).anchors if configured is None else configured.get(game, {})
    return {str(name): float(rating) for name, rating in table.items()}


def is_anchored(pool: RatingPool) -> bool:
    """Whether ``pool`` holds the built-in bots fixed: a game's global ladder
    (it admits bots); never a league's or season's pool."""
    return (
        pool.scope == PoolScope.GLOBAL and pool.participants != ParticipantKind.HUMANS
    )


def anchors_among(
    pool: RatingPool, participants: Iterable[Participant]
) -> dict[int, float]:
    """Participant id -> fixed rating for the anchors among ``participants``."""
    if not is_anchored(pool):
        return {}
    table = anchor_ratings(pool.game)
    out = {}
    for p in participants:
        if p.type == ParticipantType.BUILTIN:
            name = builtin_name(p.key)  # a built-in's key is its agent name
            if name in table:
                out[p.pk] = table[name]
    return out


def pool_anchors(pool: RatingPool) -> dict[int, float]:
    """Every anchor participant the pool could hold (for a full recompute)."""
    if not is_anchored(pool) or not anchor_ratings(pool.game):
        return {}
    return anchors_among(pool, Participant.objects.filter(type=ParticipantType.BUILTIN))
