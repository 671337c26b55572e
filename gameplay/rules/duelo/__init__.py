"""Duelo: Kung Fu (Mandala Jogos, 2016), 2-8 players.

The package holds everything about this one game: the engine (:mod:`.engine`,
with the rules beside it by topic), the heuristic bot's strategy
(:mod:`.heuristic`), the ISMCTS playout policy (:mod:`.rollout`) and
:data:`META`, the page and public-table metadata the platform reads through
:func:`gameplay.rules.game_meta`.
"""

from __future__ import annotations

from gameplay.rules.base import Game
from gameplay.rules.duelo.engine import (
    BASE_DECK,
    DOUBLE_DECK,
    RULES_VERSION,
    DueloGame,
)
from gameplay.rules.meta import N_, GameMeta, TableOption

__all__ = ["BASE_DECK", "DOUBLE_DECK", "ENGINE", "META", "RULES_VERSION", "DueloGame"]

META = GameMeta(
    publisher="Mandala Jogos, 2016",
    summary=N_(
        "Hidden hands and face-down duels: draw a card, then play one face up for "
        "its effect or face down to challenge an opponent. Lose your Master of Kung "
        "Fu or run out of cards and you are out; the last fighter standing wins."
    ),
    table_options=(
        TableOption(
            "start",
            N_("Who starts"),
            "choice",
            "random",
            choices=(
                ("random", N_("At random")),
                ("highest_focus", N_("Highest Focus draw")),
            ),
        ),
        TableOption(
            "rounds",
            N_("Round wins needed"),
            "int",
            1,
            min_value=1,
            max_value=5,
            help_text=N_("Victory markers: each round's winner starts the next."),
        ),
        TableOption(
            "reshuffle_discard",
            N_("Reshuffle the discard pile once (optional rule for 4 players)"),
            "bool",
            False,
        ),
    ),
    heuristic="gameplay.rules.duelo.heuristic",
    rollout="gameplay.rules.duelo.rollout",
    # Swiss tournaments seat tables of 3-5, preferring 4 (the platform's sizes).
    tables=(3, 5, 4),
    # Measured (docs/ratings.md): the heuristic bot beats the random bot 81%
    # (about 250 Elo), ISMCTS beats the heuristic 61.5% (about 80 Elo).
    anchors={"random": 1250.0, "heuristic": 1500.0, "ismcts": 1580.0},
    exhibition={"rounds": 3},  # three round wins: a game long enough to watch
)

#: The engine class the registry instantiates (one shared, stateless instance).
# Typed as the contract, so mypy checks that the engine keeps it.
ENGINE: type[Game] = DueloGame
