"""League models, one module per subject; every name is re-exported here.

``from league.models import X`` is the way to import them:

- ``participants``: a person or a bot, one identity for ratings and entries,
  and who may take part in a competition (``ParticipantKind``);
- ``seasons``: leagues, seasons, registrations, the season queue, invitations;
- ``ratings``: Elo pools, ratings, rating events, buckets, seeds, match voids;
- ``divisions``: divisions of a season, their members, ladder rounds;
- ``tournaments``: tournaments, entrants, rounds, pairings, table seats.
"""

from league.models.divisions import (
    Division,
    DivisionEntry,
    DivisionMember,
    DivisionMove,
    DivisionRound,
)
from league.models.participants import (
    Participant,
    ParticipantKind,
    ParticipantType,
)
from league.models.ratings import (
    MatchVoid,
    PoolScope,
    Rating,
    RatingBucket,
    RatingEvent,
    RatingPool,
    RatingSeed,
)
from league.models.seasons import (
    Invitation,
    League,
    Registration,
    RegistrationStatus,
    Season,
    SeasonQueueEntry,
    SeasonStatus,
)
from league.models.tournaments import (
    Entrant,
    Pairing,
    PairingOutcome,
    PairingStatus,
    Round,
    RoundStatus,
    SeedingMethod,
    TableSeat,
    Tournament,
    TournamentFormat,
    TournamentStatus,
    swiss_tables_label,
)

__all__ = [
    "Division",
    "DivisionEntry",
    "DivisionMember",
    "DivisionMove",
    "DivisionRound",
    "Entrant",
    "Invitation",
    "League",
    "MatchVoid",
    "Pairing",
    "PairingOutcome",
    "PairingStatus",
    "Participant",
    "ParticipantKind",
    "ParticipantType",
    "PoolScope",
    "Rating",
    "RatingBucket",
    "RatingEvent",
    "RatingPool",
    "RatingSeed",
    "Registration",
    "RegistrationStatus",
    "Round",
    "RoundStatus",
    "Season",
    "SeasonQueueEntry",
    "SeasonStatus",
    "SeedingMethod",
    "TableSeat",
    "Tournament",
    "TournamentFormat",
    "TournamentStatus",
    "swiss_tables_label",
]
