"""Kung Fu (White Goblin Games, 2013), 2 players: attack and block.

The package holds everything about this one game: the card list (:mod:`.cards`,
our design), the engine (:mod:`.engine`, with the rules beside it by topic), the
heuristic bot's strategy (:mod:`.heuristic`), the ISMCTS playout policy
(:mod:`.rollout`) and :data:`META`, which the platform reads through
:func:`gameplay.rules.game_meta`.
"""

from __future__ import annotations

from gameplay.rules.base import Game
from gameplay.rules.kungfu2013.engine import (
    CARDS,
    RULES_VERSION,
    KungFu2013Game,
)
from gameplay.rules.meta import N_, GameMeta, TableOption

__all__ = ["CARDS", "ENGINE", "META", "RULES_VERSION", "KungFu2013Game"]

META = GameMeta(
    publisher="White Goblin Games, 2013",
    summary=N_(
        "Two masters trade attacks and blocks with ten life each. Keep the "
        "initiative or pass it for cards, attack face up or face down, and spend "
        "the power coins of cards left in front of you on special effects."
    ),
    table_options=(
        TableOption(
            "life",
            N_("Starting life"),
            "int",
            10,
            min_value=5,
            max_value=10,
            help_text=N_("Life tokens each player starts with (the box has 20)."),
        ),
    ),
    heuristic="gameplay.rules.kungfu2013.heuristic",
    # The playout policy runs a whole playout per call, in C when the kernel
    # is built (rollout.py); no per-decision ``rollout`` policy is needed.
    playout="gameplay.rules.kungfu2013.rollout",
    evaluate="gameplay.rules.kungfu2013.rollout",
    catalogue="gameplay.rules.kungfu2013.catalogue",
    # A game to the end is ~150 decisions under the playout policy; a few
    # rounds and the life-based estimate judge a move as well, far cheaper.
    ismcts={"max_rollout_steps": 40, "heuristic_plies": 4},
    # docs/ratings.md: the heuristic bot beats the random bot 99.9% (measured,
    # about 1,200 Elo); ISMCTS at the live budget won 40 of 40 against the
    # heuristic (4 December 2026): 1500 + 410, the 95% interval's lower end.
    anchors={"random": 300.0, "heuristic": 1500.0, "ismcts": 1910.0},
)

#: The engine class the registry instantiates (one shared, stateless instance).
# Typed as the contract, so mypy checks that the engine keeps it.
ENGINE: type[Game] = KungFu2013Game
