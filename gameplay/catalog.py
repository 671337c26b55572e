"""What the platform says about each game: display names, players, rulebooks.

The rules engines know the rules; this catalogue adds what pages need around
them (the publisher line, a one-paragraph summary, where the rulebook lives).
"""

from __future__ import annotations

from dataclasses import dataclass

from gameplay.rules import available_games, get_game


@dataclass(frozen=True)
class GameInfo:
    id: str
    name: str
    publisher: str
    summary: str
    min_players: int
    max_players: int
    playable: bool


_DESCRIPTIONS = {
    "duelo": (
        "Mandala Jogos, 2016",
        "Hidden hands and face-down duels: draw a card, then play one face up for "
        "its effect or face down to challenge an opponent. Lose your Master of Kung "
        "Fu or run out of cards and you are out; the last fighter standing wins.",
    ),
    "kungfu2013": (
        "White Goblin Games, 2013",
        "Two masters trade attacks and blocks with ten life each; power coins "
        "unlock special effects.",
    ),
    "kungfu2019": (
        "Good Game Studio, 2019",
        "Draft techniques, choose cards simultaneously and roll dice over three "
        "rounds.",
    ),
    "kungfu2009": (
        "Kuznia Gier, 2009",
        "Real-time trading: collect the right combination and shout KUNG FU first.",
    ),
}


def game_catalog() -> list[GameInfo]:
    """Every game the platform knows, playable ones (with an engine) first."""
    playable = set(available_games())
    infos = []
    for game_id, (publisher, summary) in _DESCRIPTIONS.items():
        if game_id in playable:
            game = get_game(game_id)
            infos.append(
                GameInfo(
                    id=game_id,
                    name=game.name,
                    publisher=publisher,
                    summary=summary,
                    min_players=game.min_players,
                    max_players=game.max_players,
                    playable=True,
                )
            )
    return infos


def game_choices() -> list[tuple[str, str]]:
    """(id, name) pairs for model and form choices: only games with an engine."""
    return [(info.id, info.name) for info in game_catalog()]
