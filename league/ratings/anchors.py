"""Built-in bots as fixed anchors of every pool that admits bots.

Uploaded bots come and go and improve; the built-in bots are the same programs
for ever. Holding their ratings fixed ties each pool's scale to them: a new
bot that only ever meets the random bot still lands at a meaningful number,
and ratings from different months stay comparable. The defaults follow the
measured Duelo win rates (docs/bots-builtin.md): the heuristic bot beats the
random bot 81% of the time, about 250 Elo, and ISMCTS beats the heuristic
61.5%, about 80 Elo; the heuristic bot sits at the initial rating.

``settings.RATING_ANCHORS`` ({bot name: rating}) overrides them; an empty
mapping turns anchoring off. Pools for people only have no anchors.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings

from league.models import Participant, ParticipantKind, ParticipantType, RatingPool
from league.participants import BUILTIN_PREFIX

DEFAULT_ANCHORS: dict[str, float] = {
    "random": 1250.0,
    "heuristic": 1500.0,
    "ismcts": 1580.0,
}


def anchor_ratings() -> dict[str, float]:
    """Built-in bot name -> its fixed rating."""
    configured = getattr(settings, "RATING_ANCHORS", None)
    table = DEFAULT_ANCHORS if configured is None else configured
    return {str(name): float(rating) for name, rating in table.items()}


def anchors_among(
    pool: RatingPool, participants: Iterable[Participant]
) -> dict[int, float]:
    """Participant id -> fixed rating for the anchors among ``participants``."""
    if pool.participants == ParticipantKind.HUMANS:
        return {}
    table = anchor_ratings()
    out = {}
    for p in participants:
        if p.type == ParticipantType.BUILTIN:
            name = p.key.removeprefix(BUILTIN_PREFIX)
            if name in table:
                out[p.pk] = table[name]
    return out


def pool_anchors(pool: RatingPool) -> dict[int, float]:
    """Every anchor participant the pool could hold (for a full recompute)."""
    if pool.participants == ParticipantKind.HUMANS or not anchor_ratings():
        return {}
    return anchors_among(pool, Participant.objects.filter(type=ParticipantType.BUILTIN))
