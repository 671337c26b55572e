"""Built-in bots that play any seat through the same view a human seat gets.

Usage (the host builds the context from the real state; the bot never sees it)::

    from gameplay.rules.bots import decision_context, get_bot
    bot = get_bot("ismcts", iterations=300)
    ctx = decision_context(game, state, seat, seed)
    action_id = bot.choose(ctx)

Bots are deterministic given ``ctx.seed``. ``BOT_STRENGTHS`` labels each bot for a
"fill this seat with a bot" menu; docs/bots-builtin.md has the measured strengths.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameplay.rules.bots.base import Bot, DecisionContext, decision_context
from gameplay.rules.bots.heuristic import HeuristicBot
from gameplay.rules.bots.ismcts import ISMCTSBot
from gameplay.rules.bots.random_bot import RandomBot

__all__ = [
    "BOT_STRENGTHS",
    "Bot",
    "DecisionContext",
    "available_bots",
    "bot_display_name",
    "bot_thinks_long",
    "decision_context",
    "get_bot",
]

_FACTORIES: dict[str, Callable[..., Bot]] = {
    "heuristic": HeuristicBot,
    "ismcts": ISMCTSBot,
    "random": RandomBot,
}

# Label per bot for menus, ordered by measured strength (docs/bots-builtin.md).
BOT_STRENGTHS: dict[str, str] = {
    "random": "Beginner",
    "heuristic": "Intermediate",
    "ismcts": "Strong",
}


# What people see for each bot at a table, in logs and on ladders (never the raw id).
BOT_NAMES: dict[str, str] = {
    "random": "Random bot",
    "heuristic": "Heuristic bot",
    "ismcts": "ISMCTS bot",
}


def bot_display_name(name: str) -> str:
    """The name a table shows for built-in bot ``name``."""
    return BOT_NAMES.get(name, f"{name.replace('_', ' ').capitalize()} bot")


def available_bots() -> list[str]:
    """Names accepted by :func:`get_bot`, sorted."""
    return sorted(_FACTORIES)


def bot_plays(name: str, game: object) -> bool:
    """Whether built-in bot ``name`` can play ``game`` (an engine): a bot
    class with ``plays_realtime = False`` sits out real-time games."""
    factory = _FACTORIES.get(name)
    if factory is None:
        return False
    if getattr(game, "realtime", False):
        return bool(getattr(factory, "plays_realtime", True))
    return True


def bot_thinks_long(name: str) -> bool:
    """Whether built-in bot ``name`` spends real CPU time on a decision (its
    class says ``thinks_long = True``): the hosts think in parallel processes
    only for such bots; for the others a process costs more than the thought."""
    factory = _FACTORIES.get(name)
    return bool(getattr(factory, "thinks_long", False))


def get_bot(name: str, **options: Any) -> Bot:
    """A new bot; unknown names or options raise ValueError saying what is allowed."""
    factory = _FACTORIES.get(name) if isinstance(name, str) else None
    if factory is None:
        raise ValueError(
            f"unknown bot {name!r}; available bots: {', '.join(available_bots())}"
        )
    return factory(**options)
