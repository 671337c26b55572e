"""Pure-Python rules engines for the four Kung Fu games.

This package is the single source of truth for the rules: live games, bot
matches, replays and simulations all call it. It imports nothing from Django or
the rest of the project (a test enforces this) so it can run anywhere, fast.

Usage::

    from gameplay.rules import get_game
    game = get_game("duelo")
    state = game.setup({"players": 4}, seed=1)
"""

from __future__ import annotations

from collections.abc import Callable

from gameplay.rules.base import Event, Game, State, event, view_events
from gameplay.rules.errors import GameError, IllegalAction, InvalidConfig

__all__ = [
    "Event",
    "Game",
    "GameError",
    "IllegalAction",
    "InvalidConfig",
    "State",
    "available_games",
    "event",
    "get_game",
    "view_events",
]


def _load_duelo() -> Game:
    from gameplay.rules.duelo import DueloGame

    return DueloGame()


# Game id -> loader. Loaders import lazily so that listing the games stays cheap and
# one engine's import error cannot break the others.
_LOADERS: dict[str, Callable[[], Game]] = {"duelo": _load_duelo}
_INSTANCES: dict[str, Game] = {}


def available_games() -> list[str]:
    """Ids of the games whose engines are implemented, in a stable order."""
    return sorted(_LOADERS)


def get_game(game_id: str) -> Game:
    """The engine for ``game_id`` (engines are stateless, so one instance is shared)."""
    game = _INSTANCES.get(game_id)
    if game is not None:
        return game
    loader = _LOADERS.get(game_id) if isinstance(game_id, str) else None
    if loader is None:
        raise GameError(
            f"unknown game {game_id!r}; available games: "
            + ", ".join(available_games())
        )
    game = _INSTANCES[game_id] = loader()
    return game
