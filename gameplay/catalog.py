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


@dataclass(frozen=True)
class TableOption:
    """One option a host may set on a public table (a safe subset of the engine's)."""

    key: str
    label: str
    kind: str  # "choice", "bool" or "int"
    default: object
    choices: tuple[tuple[str, str], ...] = ()
    min_value: int = 0
    max_value: int = 0
    help_text: str = ""


# Engine options such as a stacked deck exist for tests and puzzles; public tables
# expose only these, so nobody can set up a rated game with a known deal.
TABLE_OPTIONS: dict[str, tuple[TableOption, ...]] = {
    "duelo": (
        TableOption(
            "start",
            "Who starts",
            "choice",
            "random",
            choices=(("random", "At random"), ("highest_focus", "Highest Focus draw")),
        ),
        TableOption(
            "rounds",
            "Round wins needed",
            "int",
            1,
            min_value=1,
            max_value=5,
            help_text="Victory markers: each round's winner starts the next.",
        ),
        TableOption(
            "reshuffle_discard",
            "Reshuffle the discard pile once (optional rule for 4 players)",
            "bool",
            False,
        ),
    ),
}


def table_options(game_id: str) -> tuple[TableOption, ...]:
    return TABLE_OPTIONS.get(game_id, ())


def clean_table_options(game_id: str, options: object) -> dict[str, object]:
    """Keep a lobby's options to the public subset; anything else is refused."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError("options must be a JSON object")
    allowed = {option.key for option in table_options(game_id)}
    refused = sorted(str(key) for key in options if key not in allowed)
    if refused:
        raise ValueError(
            f"option(s) {', '.join(refused)} cannot be set at public tables; "
            f"allowed: {', '.join(sorted(allowed)) or 'none'}"
        )
    return dict(options)
