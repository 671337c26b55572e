"""Tournament writes, one module per stage (the public API is re-exported here).

* ``entries``: before the start: create, enter, withdraw, the field and seeds.
* ``checkin``: check-in before the start; no-shows removed at the start.
* ``rounds``: a running tournament: start, pair rounds, start their matches,
  record results, finish.
* ``deadlines``: deadlines and no-shows, beat's tick, the organiser's advance
  and void.
* ``locking``: the tournament row lock and the organiser check they all take.

Reads (standings, the history the formats read, who may organise) are in
``league.tournaments.selectors``; the pairing maths in
``league.tournaments.formats``. Callers use ``league.tournaments.services``;
the modules import each other directly, never through this package.
"""

from league.tournaments.services.checkin import (
    checkin_is_open,
    tournament_check_in,
    tournaments_open_checkin,
)
from league.tournaments.services.deadlines import (
    pairing_void,
    tournament_advance,
    tournament_check_deadlines,
    tournaments_tick,
)
from league.tournaments.services.entries import (
    MAX_ENTRANTS,
    seeding_pool,
    tournament_add_entrant,
    tournament_add_named_entrant,
    tournament_create,
    tournament_enter,
    tournament_remove_entrant,
    tournament_seed,
    tournament_withdraw,
)
from league.tournaments.services.rounds import (
    pairing_record_match,
    tournament_start,
    tournament_start_due_rounds,
)

__all__ = [
    "MAX_ENTRANTS",
    "checkin_is_open",
    "pairing_record_match",
    "pairing_void",
    "seeding_pool",
    "tournament_add_entrant",
    "tournament_add_named_entrant",
    "tournament_advance",
    "tournament_check_deadlines",
    "tournament_check_in",
    "tournament_create",
    "tournament_enter",
    "tournament_remove_entrant",
    "tournament_seed",
    "tournament_start",
    "tournament_start_due_rounds",
    "tournament_withdraw",
    "tournaments_open_checkin",
    "tournaments_tick",
]
