"""Kung Fu (Good Game Studio, 2019), the dice game: 2-5 players, draft, dice.

The package holds everything about this one game: the card list (:mod:`.cards`,
our design), the dice combinations and their effects (:mod:`.combos`), the engine
(:mod:`.engine`, with the rules beside it by topic: :mod:`.assignment`,
:mod:`.rounds`, :mod:`.handlers`, :mod:`.observation`, ...), the dice-assignment
solver and the bot helpers, and
:data:`META`, which the platform reads through :func:`gameplay.rules.game_meta`.
The platform offers it (``_PACKAGES``): live play carries several seats choosing
at once; the page is ``templates/gameplay/boards/kungfu2019.html`` with
``static/js/boards/kungfu2019.js``.
"""

from __future__ import annotations

from gameplay.rules.base import Game
from gameplay.rules.kungfu2019.engine import RULES_VERSION, KungFu2019Game
from gameplay.rules.meta import N_, GameMeta, TableOption

__all__ = ["ENGINE", "META", "RULES_VERSION", "KungFu2019Game"]

META = GameMeta(
    catalogue="gameplay.rules.kungfu2019.catalogue",
    publisher="Good Game Studio, 2019 (designer Zong-Hua Yang)",
    summary=N_(
        "Draft ten Kung Fu cards, then fight three rounds: everyone plays three "
        "cards at once, the lowest initiative attacks first, and every attack is "
        "seven dice a player assigns to the combinations on the cards, bending "
        "them with HIT or AVO. Most HP after three rounds, or the last one "
        "standing, wins."
    ),
    table_options=(
        TableOption(
            "draft",
            N_("Draft the cards"),
            "bool",
            True,
            help_text=N_(
                "Off: the first-game option, ten cards dealt without a draft."
            ),
        ),
    ),
    heuristic="gameplay.rules.kungfu2019.heuristic",
    # The playout policy runs a whole playout per call, in C when the kernel
    # is built (rollout.py); no per-decision ``rollout`` policy is needed.
    playout="gameplay.rules.kungfu2019.rollout",
    evaluate="gameplay.rules.kungfu2019.rollout",
    # A whole game under the playout policy is ~100 steps (one `auto` per
    # fighter and fight), so playouts run to the end; the heuristic's draft and
    # play choices are cheap, so the first plies use it.
    ismcts={"max_rollout_steps": 400, "heuristic_plies": 8},
    # Swiss tables of 3-5 (the box seats 2-5; two is a duel plus a dummy).
    tables=(3, 5, 4),
    # docs/ratings.md: the heuristic bot beats the random bot 96.4% (measured,
    # about 570 Elo); ISMCTS at the live budget (200 iterations) beats the
    # heuristic 89.5 of 96 games, 93.2% (bench/anchors.py, about 456 Elo).
    anchors={"random": 930.0, "heuristic": 1500.0, "ismcts": 1960.0},
)

#: The engine class the registry instantiates (one shared, stateless instance).
# Typed as the contract, so mypy checks that the engine keeps it.
ENGINE: type[Game] = KungFu2019Game
