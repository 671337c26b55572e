"""Kung Fu (Kuznia Gier, 2009), 4-8 players (3 as our variant): real-time trading.

The package holds everything about this one game: the hit cards and the 52
combination cards (:mod:`.cards`, the combinations are our design), the engine
(:mod:`.engine`), the built-in strategies (:mod:`.strategies`: random trader,
greedy collector, planner; the planner is the heuristic bot's strategy) and
:data:`META`, which the platform reads through :func:`gameplay.rules.game_meta`.
Bot matches run on the virtual clock of :mod:`gameplay.rules.ticks`.
"""

from __future__ import annotations

from gameplay.rules.base import TimedGame
from gameplay.rules.kungfu2009.engine import RULES_VERSION, KungFu2009Game
from gameplay.rules.meta import N_, GameMeta, TableOption

__all__ = ["ENGINE", "META", "RULES_VERSION", "KungFu2009Game"]

META = GameMeta(
    catalogue="gameplay.rules.kungfu2009.catalogue",
    publisher="Kuznia Gier, 2009",
    summary=N_(
        "Young adepts take their Kung Fu exam all at once: trade hit cards with "
        "anyone at any moment, honestly or not quite, arrange them into a "
        "combination and be the first to shout KUNG FU."
    ),
    table_options=(
        TableOption(
            "remove",
            N_("Shorter game (2-2-1 removals)"),
            "int",
            0,
            min_value=0,
            max_value=4,
            help_text=N_(
                "Each unit removes 2 easy, 2 normal and 1 difficult combination "
                "before the game."
            ),
        ),
        TableOption(
            "minutes",
            N_("Time limit (minutes)"),
            "int",
            20,
            min_value=5,
            max_value=60,
            help_text=N_("When it is up the game is scored as it stands."),
            match_minutes=True,
        ),
        TableOption(
            "severe",
            N_("Severe punishment"),
            "bool",
            False,
            help_text=N_("A wrong KUNG FU also costs one completed combination."),
        ),
    ),
    heuristic="gameplay.rules.kungfu2009.strategies",
    # Post-game analysis: a claim and trade review instead of a search.
    review="gameplay.rules.kungfu2009.review",
    # Swiss tournaments seat the rulebook's 4-8 (3 is only our variant).
    tables=(4, 8, 6),
    # docs/ratings.md: at tables of four the heuristic bot places above each
    # random bot 84.7% of the time (measured, about 300 Elo). ISMCTS does not
    # play real-time games, so it anchors nothing here.
    anchors={"random": 1200.0, "heuristic": 1500.0},
    # "Talk and promises" are part of play: two seats may message privately.
    private_messages=True,
)

#: The engine class the registry instantiates (one shared, stateless instance).
# Typed as the contract (with server timers), so mypy checks the engine keeps it.
ENGINE: type[TimedGame] = KungFu2009Game
