"""A running tournament: pair rounds, start their matches, record results.

The pure formats (``league.tournaments.formats``) decide who meets whom; this
module stores rounds and pairings, creates each pairing's gameplay match (with
the context ``tournament:<id>:<pairing id>``) and feeds results back. Every
function that changes rounds or pairings runs with the tournament row locked
(``locking.locked_tournament``).

Rounds: round robin and Swiss have numbered rounds, each paired when the
previous one is complete. Elimination brackets advance match by match; every
batch of bracket matches that becomes ready forms the next "round" with its
own deadline, so the winners and losers brackets run side by side.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable, Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import cast

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from gameplay import services as gameplay_services
from gameplay.models import Match, MatchStatus
from gameplay.rules import game_meta
from gameplay.services import SeatSpec
from league.errors import Conflict, Invalid, NotFound
from league.models import (
    Entrant,
    Pairing,
    PairingOutcome,
    PairingStatus,
    Rating,
    Round,
    RoundStatus,
    SeedingMethod,
    TableSeat,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from league.participants import seat_agent_for
from league.signals import round_paired
from league.tournaments.formats import (
    elimination,
    round_robin,
    swiss,
    swiss_multiplayer,
)
from league.tournaments.selectors import (
    is_tournament_context,
    ranked_entrant_ids,
    seeded_entrants,
    swiss_history,
    table_results,
)
from league.tournaments.services.checkin import checkin_remove_no_shows
from league.tournaments.services.entries import entrants_by_rating, seeding_pool
from league.tournaments.services.locking import locked_tournament, require_organiser

logger = logging.getLogger(__name__)


def _table_range(tournament: Tournament) -> tuple[int, int, int]:
    """(smallest, largest, preferred) table of a multiplayer Swiss: the game's
    own (``GameMeta.tables``; creation refuses a game without them)."""
    sizes = game_meta(tournament.game).tables
    if sizes is None:
        raise Conflict(
            _("%(game)s is a two-player game: no tables") % {"game": tournament.game}
        )
    return sizes


def tournament_start(
    *, tournament: Tournament, by: User, now: datetime | None = None
) -> Tournament:
    """Fix the field, seed it if needed and pair the first round.

    With check-in, only once check-in has opened; those who did not check in
    are removed first (``checkin.checkin_remove_no_shows``).
    """
    require_organiser(tournament, by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament.pk)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict(_("the tournament has already started"))
        opens = tournament.checkin_opens_at
        if opens is not None and now < opens:
            raise Conflict(
                _(
                    "check-in has not opened yet: start once it has, so entrants "
                    "can check in"
                )
            )
        # Entrants who did not check in are out; the rest make the field.
        checkin_remove_no_shows(tournament)
        entrants = list(tournament.entrants.select_related("participant"))
        if len(entrants) < 2:
            raise Conflict(
                _("a tournament needs at least two entrants checked in")
                if opens is not None
                else _("a tournament needs at least two entrants")
            )
        if tournament.is_tables:
            low, high, _size = _table_range(tournament)
            if len(entrants) < low:
                raise Conflict(
                    _("tables of %(low)s-%(high)s need at least %(low)s entrants")
                    % {"low": low, "high": high}
                )
        if (
            tournament.format in (TournamentFormat.SWISS, TournamentFormat.SWISS_TABLES)
            and tournament.swiss_rounds is None
        ):
            tournament.swiss_rounds = swiss.default_swiss_rounds(
                entrants=len(entrants), tables=tournament.is_tables
            )
            tournament.save(update_fields=["swiss_rounds"])
        if (
            tournament.format == TournamentFormat.SWISS
            and tournament.swiss_rounds is not None  # set just above
            and tournament.swiss_rounds >= len(entrants) + len(entrants) % 2
        ):
            raise Invalid(
                _(
                    "%(count)s entrants cannot play %(swiss_rounds)s Swiss rounds "
                    "without rematches"
                )
                % {"count": len(entrants), "swiss_rounds": tournament.swiss_rounds}
            )
        if any(e.seed is None for e in entrants):
            if tournament.seeding == SeedingMethod.MANUAL:
                raise Conflict(_("seed every entrant by hand before starting"))
            for number, entrant in enumerate(
                entrants_by_rating(tournament, entrants), 1
            ):
                entrant.seed = number
            Entrant.objects.bulk_update(entrants, ["seed"])
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])
        start = max(now, tournament.starts_at)
        if tournament.is_elimination:
            ids = [e.pk for e in seeded_entrants(tournament)]
            bracket = (
                elimination.single_elimination(ids, third_place=tournament.third_place)
                if tournament.format == TournamentFormat.SINGLE_ELIM
                else elimination.double_elimination(ids)
            )
            tournament.bracket = bracket.to_dict()
            tournament.save(update_fields=["bracket"])
            _bracket_new_round(tournament, bracket, start)
        else:
            _next_round(tournament, start)
    if start <= now:
        tournament_start_due_rounds(tournament_id=tournament.pk, now=now)
    tournament.refresh_from_db()
    return tournament


def _new_round(tournament: Tournament, starts_at: datetime) -> Round:
    last = tournament.rounds.order_by("-number").first()
    rnd = Round.objects.create(
        tournament=tournament,
        number=(last.number + 1) if last else 1,
        starts_at=starts_at,
        deadline=starts_at + timedelta(hours=tournament.round_hours),
    )
    # Every caller pairs the round in the same transaction: by the commit the
    # pairings exist, and players are told whom they play (league.signals).
    transaction.on_commit(
        partial(round_paired.send_robust, sender=Round, round_id=rnd.pk)
    )
    return rnd


def _entrant_ratings(tournament: Tournament, entrants: list[Entrant]) -> dict:
    """Entrant id -> rating in the seeding pool (the TRF's rating column)."""
    ratings = dict(
        Rating.objects.filter(
            pool=seeding_pool(tournament),
            participant_id__in=[e.participant_id for e in entrants],
        ).values_list("participant_id", "rating")
    )
    return {
        e.pk: ratings[e.participant_id] for e in entrants if e.participant_id in ratings
    }


def _total_rounds(tournament: Tournament, entrants: int) -> int:
    if tournament.format in (TournamentFormat.SWISS, TournamentFormat.SWISS_TABLES):
        return tournament.swiss_rounds or 0
    cycles = 2 if tournament.format == TournamentFormat.DOUBLE_ROUND_ROBIN else 1
    return (entrants + entrants % 2 - 1) * cycles


def _next_round(tournament: Tournament, starts_at: datetime) -> Round | None:
    """Pair the next round of a round robin or Swiss; None when all are played."""
    entrants = seeded_entrants(tournament)
    played = tournament.rounds.count()
    if played >= _total_rounds(tournament, len(entrants)):
        return None
    ids = [e.pk for e in entrants]
    if tournament.is_tables:
        try:
            low, high, preferred = _table_range(tournament)
            tables = swiss_multiplayer.seat_multiplayer_round(
                ids,
                table_results(tournament),
                min_size=low,
                max_size=high,
                preferred_size=preferred,
            )
        except swiss_multiplayer.SeatingError as exc:
            raise Conflict(
                _(
                    "%(players)s players cannot be seated at tables of %(min)s to "
                    "%(max)s"
                )
                % {"players": exc.players, "min": exc.min_size, "max": exc.max_size}
            ) from exc
        rnd = _new_round(tournament, starts_at)
        for table in tables:
            # The formats hand back the ids they were given: entrant pks.
            seats = cast(tuple[int, ...], table.seats)
            pairing = Pairing.objects.create(
                tournament=tournament,
                round=rnd,
                table=table.table,
                first_id=seats[0],
            )
            TableSeat.objects.bulk_create(
                TableSeat(pairing=pairing, entrant_id=eid, seat=number)
                for number, eid in enumerate(seats)
            )
        return rnd
    if tournament.format == TournamentFormat.SWISS:
        try:
            pairings = swiss.pair_swiss_round(
                ids,
                swiss_history(tournament),
                total_rounds=_total_rounds(tournament, len(entrants)),
                ratings=_entrant_ratings(tournament, entrants),
            )
        except swiss.SwissPairingError as exc:
            raise Conflict(
                _(
                    "round %(round)s cannot be paired: every pairing would repeat "
                    "a game, give someone a second bye or break the first-seat "
                    "balance"
                )
                % {"round": exc.round_number}
            ) from exc
    else:
        cycles = 2 if tournament.format == TournamentFormat.DOUBLE_ROUND_ROBIN else 1
        pairings = round_robin.round_robin_rounds(ids, cycles=cycles)[played]
    rnd = _new_round(tournament, starts_at)
    for p in pairings:
        pairing = Pairing.objects.create(
            tournament=tournament,
            round=rnd,
            table=p.table,
            first_id=p.first,
            second_id=p.second,
        )
        if p.second is None:
            _decide(pairing, first=1.0, second=None, outcome=PairingOutcome.BYE)
    return rnd


def _bracket_new_round(
    tournament: Tournament, bracket: elimination.Bracket, starts_at: datetime
) -> Round | None:
    """Pairings for bracket matches that became ready and have none yet."""
    taken = set(
        tournament.pairings.exclude(status=PairingStatus.CANCELLED).values_list(
            "bracket_match", flat=True
        )
    )
    ready = [m for m in elimination.playable_matches(bracket) if m.id not in taken]
    if not ready:
        return None
    rnd = _new_round(tournament, starts_at)
    for table, m in enumerate(ready, start=1):
        # The bracket holds entrant pks; a playable match has both.
        first, second = cast(tuple[int, int], m.participants)
        Pairing.objects.create(
            tournament=tournament,
            round=rnd,
            table=table,
            bracket_match=m.id,
            first_id=first,
            second_id=second,
        )
    return rnd


def _seat_entrants(pairing: Pairing) -> list[Entrant]:
    """The pairing's players in seat order (a pair, or a multiplayer table)."""
    if pairing.tournament.is_tables:
        return [
            s.entrant
            for s in pairing.seats.select_related("entrant__participant").order_by(
                "seat"
            )
        ]
    assert pairing.second is not None  # a bye gets no match
    return [pairing.first, pairing.second]


def _create_match(pairing: Pairing) -> Match | None:
    """Create and start the pairing's gameplay match; None if a seat cannot sit."""
    tournament = pairing.tournament
    seats = []
    for entrant in _seat_entrants(pairing):
        try:
            user, agent = seat_agent_for(entrant.participant)
        except (Invalid, NotFound) as exc:
            logger.warning(
                "pairing %s: %s cannot be seated: %s", pairing.pk, entrant, exc
            )
            return None
        seats.append(SeatSpec(user=user, agent=agent))
    match = gameplay_services.match_create(
        game=tournament.game,
        seats=seats,
        config=tournament.options,
        rated=tournament.rated,
        time_control=tournament.time_control,
        host=tournament.created_by,
        context=pairing.context,
    )
    return gameplay_services.match_start(match_id=match.pk)


def start_pairing(pairing: Pairing) -> None:
    match = _create_match(pairing)
    if match is None:
        # An entrant that cannot be seated (a bot without a playable version)
        # loses by forfeit; if neither can sit, both do.
        record_no_shows(pairing, no_shows=_unseatable(pairing))
        return
    pairing.match = match
    pairing.status = PairingStatus.PLAYING
    pairing.save(update_fields=["match", "status"])


def _unseatable(pairing: Pairing) -> list[int]:
    out = []
    for seat, entrant in enumerate(_seat_entrants(pairing)):
        try:
            seat_agent_for(entrant.participant)
        except (Invalid, NotFound):
            out.append(seat)
    return out


def tournament_start_due_rounds(
    *, tournament_id: int, now: datetime | None = None
) -> int:
    """Create the matches of rounds whose start time has come; returns how many."""
    now = now or timezone.now()
    created = 0
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status != TournamentStatus.RUNNING:
            return 0
        due = tournament.rounds.filter(
            status=RoundStatus.SCHEDULED, starts_at__lte=now
        ).order_by("number")
        for rnd in due:
            rnd.status = RoundStatus.RUNNING
            rnd.save(update_fields=["status"])
            for pairing in rnd.pairings.filter(
                status=PairingStatus.PENDING
            ).select_related("tournament", "first__participant", "second__participant"):
                start_pairing(pairing)
                created += 1
            round_maybe_complete(tournament, rnd, now)
    return created


def _decide(
    pairing: Pairing,
    *,
    first: float,
    second: float | None,
    outcome: str,
    winner: Entrant | None = None,
) -> None:
    pairing.first_points = first
    pairing.second_points = second
    pairing.outcome = outcome
    pairing.status = (
        PairingStatus.BYE if outcome == PairingOutcome.BYE else PairingStatus.DONE
    )
    if winner is None and second is not None and first != second:
        winner = pairing.first if first > second else pairing.second
    if outcome == PairingOutcome.BYE:
        winner = pairing.first
    pairing.winner = winner
    pairing.decided_at = timezone.now()
    pairing.save()


def _decide_table(pairing: Pairing, ranks: Sequence[int | None], outcome: str) -> None:
    """Store a multiplayer table's result: placements and placement points.

    ``ranks`` per seat; all ``None`` means nobody showed up (nobody scores).
    """
    seats = list(pairing.seats.order_by("seat"))
    if all(r is None for r in ranks):
        for seat in seats:
            seat.placement, seat.points = None, 0.0
        winner_id = None
    else:
        # A table someone showed up to ranks every seat.
        by_entrant: dict[Hashable, int] = {
            s.entrant_id: cast(int, ranks[s.seat]) for s in seats
        }
        points = swiss_multiplayer.placement_points(by_entrant)
        for seat in seats:
            seat.placement, seat.points = (
                by_entrant[seat.entrant_id],
                points[seat.entrant_id],
            )
        winner_id = next(s.entrant_id for s in seats if s.placement == 1)
    TableSeat.objects.bulk_update(seats, ["placement", "points"])
    pairing.outcome = outcome
    pairing.status = PairingStatus.DONE
    pairing.winner_id = winner_id
    pairing.decided_at = timezone.now()
    pairing.save()


def record_no_shows(pairing: Pairing, *, no_shows: list[int]) -> None:
    """Record a result without a played game (seat numbers of the no-shows)."""
    tournament = pairing.tournament
    if tournament.is_tables:
        count = pairing.seats.count()
        if len(no_shows) == count:
            _decide_table(pairing, [None] * count, PairingOutcome.DOUBLE_FORFEIT)
        else:
            # Those present share first place, the absent share last.
            ranks = [count if s in no_shows else 1 for s in range(count)]
            _decide_table(pairing, ranks, PairingOutcome.FORFEIT)
        _after_decision(tournament, pairing, timezone.now())
        return
    if len(no_shows) == 1:
        first, second = (0.0, 1.0) if no_shows == [0] else (1.0, 0.0)
        _decide(pairing, first=first, second=second, outcome=PairingOutcome.FORFEIT)
    else:
        # Nobody scores; a bracket still needs someone to go on: the better seed.
        winner = None
        if tournament.is_elimination:
            assert pairing.second is not None  # two no-shows: not a bye
            winner = min((pairing.first, pairing.second), key=lambda e: e.seed or 0)
        _decide(
            pairing,
            first=0.0,
            second=0.0,
            outcome=PairingOutcome.DOUBLE_FORFEIT,
            winner=winner,
        )
    _after_decision(tournament, pairing, timezone.now())


def pairing_record_match(*, match_id: int) -> bool:
    """Feed a finished tournament match into its pairing (idempotent).

    A drawn elimination game is replayed (a new match for the same pairing).
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not is_tournament_context(match.context):
        return False
    parts = match.context.split(":")
    try:
        tournament_id, pairing_id = int(parts[1]), int(parts[2])
    except (IndexError, ValueError):
        return False
    if match.status != MatchStatus.FINISHED:
        return False
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        pairing = (
            Pairing.objects.select_related(
                "tournament", "first__participant", "second__participant", "round"
            )
            .filter(pk=pairing_id, tournament=tournament, match_id=match.pk)
            .first()
        )
        if pairing is None or pairing.status != PairingStatus.PLAYING:
            return False
        placements = (match.result or {}).get("placements") or [1, 1]
        forfeited = (match.result or {}).get("forfeited") or []
        outcome = PairingOutcome.FORFEIT if forfeited else PairingOutcome.PLAYED
        if tournament.is_tables:
            _decide_table(pairing, list(placements), outcome)
            _after_decision(tournament, pairing, timezone.now())
            return True
        a, b = placements[0], placements[1]
        if a == b and tournament.is_elimination:
            start_pairing(pairing)
            return True
        first = 1.0 if a < b else 0.5 if a == b else 0.0
        _decide(pairing, first=first, second=1.0 - first, outcome=outcome)
        _after_decision(tournament, pairing, timezone.now())
    return True


def _after_decision(tournament: Tournament, pairing: Pairing, now: datetime) -> None:
    if tournament.is_elimination and pairing.bracket_match:
        bracket = elimination.Bracket.from_dict(tournament.bracket)
        bracket = elimination.advance(bracket, pairing.bracket_match, pairing.winner_id)
        tournament.bracket = bracket.to_dict()
        tournament.save(update_fields=["bracket"])
    round_maybe_complete(tournament, pairing.round, now)


def round_maybe_complete(tournament: Tournament, rnd: Round, now: datetime) -> None:
    open_pairings = rnd.pairings.filter(
        status__in=[PairingStatus.PENDING, PairingStatus.PLAYING]
    )
    if tournament.is_elimination:
        if not open_pairings.exists() and rnd.status != RoundStatus.COMPLETE:
            rnd.status = RoundStatus.COMPLETE
            rnd.save(update_fields=["status"])
        bracket = elimination.Bracket.from_dict(tournament.bracket)
        new = _bracket_new_round(tournament, bracket, now)
        if new is not None:
            _start_round_now(tournament, new)
        if bracket.complete:
            _finish(tournament, champion_id=cast(int | None, bracket.champion))
        return
    if open_pairings.exists() or rnd.status == RoundStatus.COMPLETE:
        return
    rnd.status = RoundStatus.COMPLETE
    rnd.save(update_fields=["status"])
    # A round robin game voided in an earlier round is replayed while later
    # rounds go on: move on only once every round so far is complete.
    if tournament.rounds.exclude(status=RoundStatus.COMPLETE).exists():
        return
    new = _next_round(tournament, now)
    if new is None:
        ranked = ranked_entrant_ids(tournament)
        _finish(tournament, champion_id=ranked[0] if ranked else None)
    else:
        _start_round_now(tournament, new)


def _start_round_now(tournament: Tournament, rnd: Round) -> None:
    rnd.status = RoundStatus.RUNNING
    rnd.save(update_fields=["status"])
    for pairing in rnd.pairings.filter(status=PairingStatus.PENDING).select_related(
        "tournament", "first__participant", "second__participant"
    ):
        start_pairing(pairing)
    if not rnd.pairings.filter(
        status__in=[PairingStatus.PENDING, PairingStatus.PLAYING]
    ).exists():
        round_maybe_complete(tournament, rnd, timezone.now())


def _finish(tournament: Tournament, *, champion_id: int | None) -> None:
    if tournament.status == TournamentStatus.FINISHED:
        return
    tournament.status = TournamentStatus.FINISHED
    tournament.champion_id = champion_id
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "champion", "finished_at"])
