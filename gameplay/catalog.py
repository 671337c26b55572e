"""What the platform says about each game: display names, players, rulebooks.

The rules engines know the rules; each game's package (``gameplay/rules/<game>/``)
also carries what pages need around them (the publisher line, a one-paragraph
summary, the public table options) in its ``META``. This module only reads those
records, so it names no game.
"""

from __future__ import annotations

from dataclasses import dataclass

from gameplay.moverule import is_realtime
from gameplay.rules import (
    GameError,
    TableOption,
    available_games,
    game_meta,
    get_game,
)


@dataclass(frozen=True)
class GameInfo:
    id: str
    name: str
    publisher: str
    summary: str
    min_players: int
    max_players: int
    playable: bool
    # No turns: everyone acts at once (no per-move clocks; the game's own
    # options hold its time limit).
    realtime: bool = False


def game_catalog() -> list[GameInfo]:
    """Every game the platform knows, playable ones (with an engine) first."""
    infos = []
    for game_id in available_games():
        game = get_game(game_id)
        meta = game_meta(game_id)
        infos.append(
            GameInfo(
                id=game_id,
                name=game.name,
                publisher=meta.publisher,
                summary=meta.summary,
                min_players=game.min_players,
                max_players=game.max_players,
                playable=True,
                realtime=is_realtime(game),
            )
        )
    return infos


def game_name(game_id: str) -> str:
    """The name people see for ``game_id`` (the id itself only if unknown)."""
    try:
        return get_game(game_id).name
    except GameError:
        return game_id


def game_choices() -> list[tuple[str, str]]:
    """(id, name) pairs for model and form choices: only games with an engine."""
    return [(info.id, info.name) for info in game_catalog()]


def table_options(game_id: str) -> tuple[TableOption, ...]:
    """The options a host may set on a public table of ``game_id`` (the game's
    package lists them in ``META.table_options``); none for an unknown game."""
    try:
        return game_meta(game_id).table_options
    except GameError:
        return ()
