"""The uniform random bot: the baseline every other bot must beat."""

from __future__ import annotations

from gameplay.rules.bots.base import DecisionContext, check_options, make_rng


class RandomBot:
    """Picks uniformly among the legal actions, seeded by ``ctx.seed``."""

    name = "random"

    def __init__(self, **options: object) -> None:
        check_options(self.name, options, {})

    def choose(self, ctx: DecisionContext) -> str:
        ids = ctx.legal_ids
        return ids[make_rng(ctx.seed).randrange(len(ids))]
