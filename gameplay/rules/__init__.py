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

import importlib
from types import ModuleType

from gameplay.rules.base import Event, Game, State, TimedGame, event, view_events
from gameplay.rules.errors import (
    COMMON_TEXTS,
    CONFIG_TEXTS,
    SEAT_PARAMS,
    GameError,
    IllegalAction,
    InvalidConfig,
    UnknownGame,
)
from gameplay.rules.meta import GameMeta, TableOption

__all__ = [
    "COMMON_TEXTS",
    "CONFIG_TEXTS",
    "SEAT_PARAMS",
    "Event",
    "Game",
    "GameError",
    "GameMeta",
    "IllegalAction",
    "InvalidConfig",
    "State",
    "TableOption",
    "TimedGame",
    "UnknownGame",
    "available_games",
    "error_text",
    "error_texts",
    "event",
    "game_meta",
    "get_game",
    "view_events",
]


# Game id -> the package that holds everything about that game: its engine class
# (``ENGINE``), its page and table metadata (``META``, a GameMeta) and its bot
# helpers. This is the only list of games; shared code asks the registry. Packages
# import lazily so that listing the games stays cheap and one engine's import
# error cannot break the others.
_PACKAGES: dict[str, str] = {
    "duelo": "gameplay.rules.duelo",
    "kungfu2013": "gameplay.rules.kungfu2013",
    "kungfu2019": "gameplay.rules.kungfu2019",
    "kungfu2009": "gameplay.rules.kungfu2009",
}
_INSTANCES: dict[str, Game] = {}


def _package(game_id: object) -> ModuleType:
    name = None
    if isinstance(game_id, str):
        name = _PACKAGES.get(game_id)
    if name is None:
        raise UnknownGame(game_id, available_games())
    return importlib.import_module(name)


def available_games() -> list[str]:
    """Ids of the games the platform offers (live play, bots, ladder), sorted."""
    return sorted(_PACKAGES)


def get_game(game_id: str) -> Game:
    """The engine for ``game_id`` (engines are stateless, so one instance is shared)."""
    game = _INSTANCES.get(game_id) if isinstance(game_id, str) else None
    if game is not None:
        return game
    engine: type[Game] = _package(game_id).ENGINE
    game = _INSTANCES[game_id] = engine()
    return game


def game_meta(game_id: str) -> GameMeta:
    """The game's metadata (publisher, summary, public table options, bot helpers).

    Unknown ids raise GameError naming the available games, like :func:`get_game`.
    """
    meta: GameMeta = _package(game_id).META
    return meta


def error_texts(game_id: str) -> dict[str, str]:
    """Every refusal code ``game_id``'s engine raises, with the English text a
    player reads (``N_``-marked; the site passes it through ``gettext``): the
    codes common to every engine and the game package's ``ERROR_TEXTS``."""
    own: dict[str, str] = getattr(_package(game_id), "ERROR_TEXTS", {})
    return {**COMMON_TEXTS, **own}


def error_text(game_id: str, code: str) -> str | None:
    """The player-facing English text of refusal ``code`` in ``game_id``, or
    None for a code the game does not know."""
    return error_texts(game_id).get(code)
