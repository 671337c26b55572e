"""Deadlines, beat's tick and the organiser's interventions (advance, void).

A round past its deadline forfeits its no-shows; beat runs the tick for every
running tournament each minute; an organiser may close the open rounds now
(``tournament_advance``) or void a decided pairing (``pairing_void``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from gameplay import services as gameplay_services
from gameplay.clocks import absent_past_grace
from gameplay.models import Match, MatchStatus
from league.errors import Conflict, NotFound
from league.models import (
    Pairing,
    PairingStatus,
    Round,
    RoundStatus,
    TableSeat,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from league.ratings.services import rating_void_match
from league.tournaments.formats import elimination
from league.tournaments.services.checkin import tournaments_open_checkin
from league.tournaments.services.locking import locked_tournament, require_organiser
from league.tournaments.services.rounds import (
    record_no_shows,
    round_maybe_complete,
    start_pairing,
    tournament_start_due_rounds,
)


def _showed_up(match: Match, seat_number: int) -> bool:
    seat = match.seats.get(number=seat_number)
    if seat.is_bot:
        return True
    if seat.connected or seat.disconnected_at is not None:
        return True
    return match.actions.filter(seat=seat_number).exists()


def _left(match: Match, seat_number: int, now: datetime) -> bool:
    """A person who showed up and has been away past the grace period now.

    Tournament games keep an absent player's seat until the deadline (no bot
    takes it after a minute, ``contexts.register``); at the deadline such a
    seat forfeits like a no-show, so a table whose player left is not stuck.
    """
    seat = match.seats.get(number=seat_number)
    return not seat.forfeited and absent_past_grace(seat, now)


def _enforce_deadline(tournament: Tournament, rnd: Round, now: datetime) -> int:
    """Forfeit no-shows of a round past its deadline; returns pairings decided.

    A no-show never connected to its match and never moved. If one side is a
    no-show it forfeits (through gameplay's ``match_forfeit``, so the result
    comes back like any other); if both are, the match is called off and both
    lose. A seat whose player left and stayed away past the grace period
    forfeits too (``_left``). A game both sides are playing is left to its
    clocks.
    """
    decided = 0
    for pairing in rnd.pairings.filter(status=PairingStatus.PLAYING).select_related(
        "match", "tournament", "first__participant", "second__participant"
    ):
        match = pairing.match
        if match is None:
            continue
        if match.status == MatchStatus.ABORTED:
            record_no_shows(pairing, no_shows=list(range(match.seats.count())))
            decided += 1
            continue
        if match.status != MatchStatus.ACTIVE:
            continue
        count = match.seats.count()
        no_shows = [s for s in range(count) if not _showed_up(match, s)]
        if no_shows and len(no_shows) == count:
            gameplay_services.match_abort(
                match_id=match.pk, user=None, reason="no-show"
            )
            record_no_shows(pairing, no_shows=no_shows)
            decided += 1
            continue
        gone = [s for s in range(count) if s not in no_shows and _left(match, s, now)]
        if no_shows or gone:
            # Each absent seat forfeits; at a table of three or more a bot
            # plays on for it, and the game ends once one player is left.
            for seat_number in no_shows + gone:
                if not Match.objects.filter(
                    pk=match.pk, status=MatchStatus.ACTIVE
                ).exists():
                    break
                gameplay_services.match_forfeit(
                    match_id=match.pk,
                    seat_number=seat_number,
                    reason="no-show" if seat_number in no_shows else "left",
                )
            decided += 1
    return decided


def tournament_check_deadlines(
    *, tournament_id: int, now: datetime | None = None
) -> int:
    now = now or timezone.now()
    decided = 0
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status != TournamentStatus.RUNNING:
            return 0
        for rnd in tournament.rounds.filter(
            status=RoundStatus.RUNNING, deadline__lte=now
        ).order_by("number"):
            decided += _enforce_deadline(tournament, rnd, now)
    return decided


def _replay_aborted(tournament_id: int, now: datetime) -> int:
    """A match aborted before the deadline (nobody moved) is simply set up again."""
    replayed = 0
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        for pairing in Pairing.objects.filter(
            tournament=tournament,
            status=PairingStatus.PLAYING,
            match__status=MatchStatus.ABORTED,
            round__deadline__gt=now,
        ).select_related("tournament", "first__participant", "second__participant"):
            start_pairing(pairing)
            replayed += 1
    return replayed


def tournaments_tick(*, now: datetime | None = None) -> dict[str, int]:
    """What beat runs every minute for every running tournament (and the
    check-in notices of those about to start)."""
    now = now or timezone.now()
    done = {"matches_created": 0, "forfeits": 0, "replayed": 0}
    done["checkin_opened"] = tournaments_open_checkin(now=now)
    running = Tournament.objects.filter(status=TournamentStatus.RUNNING)
    for tournament_id in running.values_list("pk", flat=True):
        done["matches_created"] += tournament_start_due_rounds(
            tournament_id=tournament_id, now=now
        )
        done["replayed"] += _replay_aborted(tournament_id, now)
        done["forfeits"] += tournament_check_deadlines(
            tournament_id=tournament_id, now=now
        )
    return done


def tournament_advance(
    *, tournament: Tournament, by: User, now: datetime | None = None
) -> Tournament:
    """Close the open rounds now: start what is due, forfeit no-shows, move on.

    This is the beat tick for one tournament with every deadline treated as
    passed, for organisers who do not want to wait.
    """
    require_organiser(tournament, by)
    now = now or timezone.now()
    with transaction.atomic():
        locked = locked_tournament(tournament.pk)
        if locked.status != TournamentStatus.RUNNING:
            raise Conflict(_("only a running tournament can be advanced"))
        locked.rounds.filter(status=RoundStatus.SCHEDULED).update(starts_at=now)
    tournament_start_due_rounds(tournament_id=tournament.pk, now=now)
    with transaction.atomic():
        locked = locked_tournament(tournament.pk)
        decided = 0
        for rnd in locked.rounds.filter(status=RoundStatus.RUNNING).order_by("number"):
            decided += _enforce_deadline(locked, rnd, now)
            if rnd.pairings.filter(
                status__in=[PairingStatus.PENDING, PairingStatus.PLAYING]
            ).exists():
                continue
            round_maybe_complete(locked, rnd, now)
    tournament.refresh_from_db()
    return tournament


def pairing_void(
    *, pairing_id: int, by: User, reason: str = "", now: datetime | None = None
) -> Pairing:
    """Void a decided pairing: its match leaves the rating pools, the pairing is
    played again.

    In a bracket every result that depended on it is undone too (their matches
    are voided or called off). In a Swiss only the latest round can be voided,
    because later pairings were made from its result.
    """
    now = now or timezone.now()
    pairing = Pairing.objects.select_related("tournament").filter(pk=pairing_id).first()
    if pairing is None:
        raise NotFound(_("no such pairing"))
    require_organiser(pairing.tournament, by)
    voided_matches: list[int] = []
    with transaction.atomic():
        tournament = locked_tournament(pairing.tournament_id)
        pairing = Pairing.objects.select_related(
            "round", "tournament", "first__participant", "second__participant"
        ).get(pk=pairing_id)
        if pairing.status != PairingStatus.DONE:
            raise Conflict(_("only a decided pairing can be voided"))
        if (
            tournament.format in (TournamentFormat.SWISS, TournamentFormat.SWISS_TABLES)
            and tournament.rounds.filter(number__gt=pairing.round.number).exists()
        ):
            raise Conflict(_("later Swiss rounds were paired from this result"))
        affected = [pairing]
        if tournament.is_elimination:
            bracket = elimination.Bracket.from_dict(tournament.bracket)
            bracket = elimination.void_result(bracket, pairing.bracket_match)
            tournament.bracket = bracket.to_dict()
            dependents = elimination.dependent_matches(bracket, pairing.bracket_match)
            for other in tournament.pairings.filter(
                bracket_match__in=dependents
            ).exclude(status=PairingStatus.CANCELLED):
                if other.match and other.match.status == MatchStatus.ACTIVE:
                    gameplay_services.match_abort(
                        match_id=other.match.pk, user=None, reason="result voided"
                    )
                elif other.match and other.match.status == MatchStatus.FINISHED:
                    voided_matches.append(other.match.pk)
                other.status = PairingStatus.CANCELLED
                other.save(update_fields=["status"])
            affected = [pairing]
        if pairing.match_id:
            voided_matches.append(pairing.match_id)
        TableSeat.objects.filter(pairing__in=affected).update(
            placement=None, points=None
        )
        for p in affected:
            p.status = PairingStatus.PENDING
            p.first_points = p.second_points = None
            p.winner = None
            p.outcome = ""
            p.decided_at = None
            p.match = None
            p.save()
        rnd = pairing.round
        rnd.status = RoundStatus.RUNNING
        rnd.deadline = max(rnd.deadline, now + timedelta(hours=tournament.round_hours))
        rnd.save(update_fields=["status", "deadline"])
        if tournament.status == TournamentStatus.FINISHED:
            tournament.status = TournamentStatus.RUNNING
            tournament.champion = None
            tournament.finished_at = None
        tournament.save()
        start_pairing(pairing)
    for match_id in voided_matches:
        rating_void_match(match_id=match_id, by=by, reason=reason or "tournament void")
    pairing.refresh_from_db()
    return pairing
