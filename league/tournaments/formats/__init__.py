"""Pure tournament formats: no Django, no I/O, deterministic.

The Django services store participants' ids and results and call these
functions to produce the next round or to advance a bracket (the two-player
Swiss hands a TRF-16 text of the history to the py4swiss library); see
``docs/tournaments.md`` for the rules each one implements.
"""

from league.tournaments.formats.base import Pairing
from league.tournaments.formats.elimination import (
    Bracket,
    BracketMatch,
    BracketRound,
    advance,
    bracket_rounds,
    dependent_matches,
    double_elimination,
    playable_matches,
    single_elimination,
    standard_seed_order,
    void_result,
)
from league.tournaments.formats.round_robin import berger_table, round_robin_rounds
from league.tournaments.formats.swiss import (
    SwissGame,
    SwissPairingError,
    SwissStanding,
    default_swiss_rounds,
    pair_swiss_round,
    swiss_standings,
    swiss_trf,
)
from league.tournaments.formats.swiss_multiplayer import (
    MultiplayerStanding,
    Table,
    TableResult,
    multiplayer_standings,
    placement_points,
    seat_multiplayer_round,
    split_into_tables,
)

__all__ = [
    "Bracket",
    "BracketMatch",
    "BracketRound",
    "MultiplayerStanding",
    "Pairing",
    "SwissGame",
    "SwissPairingError",
    "SwissStanding",
    "Table",
    "TableResult",
    "advance",
    "berger_table",
    "bracket_rounds",
    "default_swiss_rounds",
    "dependent_matches",
    "double_elimination",
    "multiplayer_standings",
    "pair_swiss_round",
    "placement_points",
    "playable_matches",
    "round_robin_rounds",
    "seat_multiplayer_round",
    "single_elimination",
    "split_into_tables",
    "standard_seed_order",
    "swiss_standings",
    "swiss_trf",
    "void_result",
]
