"""Tournament writes: create, enter, seed, start, rounds, results, deadlines, void.

The pure formats (``league.tournaments.formats``) decide who meets whom; this
module stores rounds and pairings, creates each pairing's gameplay match (with
the context ``tournament:<id>:<pairing id>``) and feeds results back.

Locking: every change to a tournament's rounds, pairings or bracket first
locks the tournament row, so a result arriving while beat checks deadlines, or
two results finishing the same round at once, are handled one after the other
and a round is never paired twice.

Rounds: round robin and Swiss have numbered rounds, each paired when the
previous one is complete. Elimination brackets advance match by match; every
batch of bracket matches that becomes ready forms the next "round" with its
own deadline, so the winners and losers brackets run side by side.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import User
from gameplay import services as gameplay_services
from gameplay.errors import MatchError
from gameplay.models import Match, MatchStatus
from gameplay.services import SeatSpec
from league.errors import Conflict, Invalid, NotFound, PermissionDenied
from league.models import (
    Entrant,
    League,
    Pairing,
    PairingOutcome,
    PairingStatus,
    ParticipantKind,
    Rating,
    Registration,
    RegistrationStatus,
    Round,
    RoundStatus,
    Season,
    SeedingMethod,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from league.participants import can_manage, seat_agent_for
from league.ratings.services import (
    pool_for_league,
    pool_for_season,
    pool_global,
    rating_void_match,
)
from league.services import is_organiser, resolve_entrant
from league.tournaments.formats import elimination, round_robin, swiss

logger = logging.getLogger(__name__)

MAX_ENTRANTS = 256


# --- Permissions ---------------------------------------------------------------


def can_organise(*, tournament: Tournament, user: User | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or tournament.created_by_id == user.pk:
        return True
    if tournament.organisers.filter(pk=user.pk).exists():
        return True
    return tournament.league is not None and is_organiser(
        league=tournament.league, user=user
    )


def _require_organiser(tournament: Tournament, user: User | None) -> None:
    if not can_organise(tournament=tournament, user=user):
        raise PermissionDenied("only this tournament's organisers may do that")


def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound("no such tournament")
    return tournament


# --- Create, enter, seed --------------------------------------------------------


def tournament_create(
    *,
    by: User,
    name: str,
    game: str,
    format: str,
    league: League | None = None,
    season: Season | None = None,
    participants: str = ParticipantKind.MIXED,
    rated: bool = True,
    swiss_rounds: int | None = None,
    third_place: bool = False,
    options: dict[str, Any] | None = None,
    time_control: dict[str, Any] | None = None,
    round_hours: float = 24.0,
    starts_at: datetime | None = None,
    seeding: str = SeedingMethod.RATING,
) -> Tournament:
    """Create a tournament; in a league only its organisers may, for its game."""
    from gameplay.rules import GameError, available_games, get_game

    if not by.is_authenticated:
        raise PermissionDenied("sign in to create a tournament")
    name = (name or "").strip()
    if not name:
        raise Invalid("a tournament needs a name")
    if format not in TournamentFormat.values:
        raise Invalid(f"unknown format {format!r}")
    if seeding not in SeedingMethod.values:
        raise Invalid(f"unknown seeding {seeding!r}")
    if season is not None:
        if league is not None and season.league_id != league.pk:
            raise Invalid("that season belongs to another league")
        league = season.league
    if league is not None:
        if not is_organiser(league=league, user=by):
            raise PermissionDenied("only the league's organisers may add tournaments")
        if game != league.game:
            raise Invalid(f"{league.name} runs {league.game}, not {game}")
        participants = league.participants
    if participants not in ParticipantKind.values:
        raise Invalid(f"unknown participant kind {participants!r}")
    if game not in available_games():
        raise Invalid(f"no playable game {game!r}")
    if format == TournamentFormat.SWISS and not (
        isinstance(swiss_rounds, int) and 1 <= swiss_rounds <= 20
    ):
        raise Invalid("a Swiss tournament needs between 1 and 20 rounds")
    if not 0.05 <= float(round_hours) <= 24 * 30:
        raise Invalid("round deadlines must be between 3 minutes and 30 days")
    try:
        config = get_game(game).validate_config({**(options or {}), "players": 2})
        clean_tc = gameplay_services.validate_time_control(time_control)
    except (GameError, MatchError) as exc:
        raise Invalid(str(exc)) from exc
    base = slugify(name)[:40] or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    with transaction.atomic():
        tournament = Tournament.objects.create(
            slug=slug,
            name=name,
            game=game,
            league=league,
            season=season,
            format=format,
            participants=participants,
            rated=rated,
            swiss_rounds=swiss_rounds if format == TournamentFormat.SWISS else None,
            third_place=third_place and format == TournamentFormat.SINGLE_ELIM,
            options=config,
            time_control=clean_tc,
            round_hours=float(round_hours),
            starts_at=starts_at or timezone.now(),
            seeding=seeding,
            created_by=by,
        )
        tournament.organisers.add(by)
    return tournament


def tournament_enter(
    *, tournament: Tournament, user: User, bot_id: int | None = None
) -> Entrant:
    """Enter the user or their bot; season tournaments need a season registration."""
    participant = resolve_entrant(
        user=user, game=tournament.game, kind=tournament.participants, bot_id=bot_id
    )
    if (
        tournament.season_id
        and not Registration.objects.filter(
            season_id=tournament.season_id,
            participant=participant,
            status=RegistrationStatus.APPROVED,
        ).exists()
    ):
        raise Conflict("register for the season first")
    with transaction.atomic():
        tournament = _locked(tournament.pk)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict("entries are closed: the tournament has started")
        if Entrant.objects.filter(
            tournament=tournament, participant=participant
        ).exists():
            raise Conflict(f"{participant.name} has already entered")
        if tournament.entrants.count() >= MAX_ENTRANTS:
            raise Conflict("this tournament is full")
        return Entrant.objects.create(tournament=tournament, participant=participant)


def tournament_withdraw(
    *, tournament: Tournament, user: User, bot_id: int | None = None
) -> None:
    """Leave before the start (afterwards, no-shows forfeit instead)."""
    key = f"bot:{bot_id}" if bot_id is not None else f"user:{user.pk}"
    with transaction.atomic():
        tournament = _locked(tournament.pk)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict("the tournament has started; unplayed games are forfeited")
        entrant = (
            Entrant.objects.filter(tournament=tournament, participant__key=key)
            .select_related("participant")
            .first()
        )
        if entrant is None:
            raise Conflict("not entered in this tournament")
        if not can_manage(user, entrant.participant):
            raise PermissionDenied("only the bot's owner may withdraw it")
        entrant.delete()


def tournament_add_entrant(
    *, tournament: Tournament, by: User, participant_id: int
) -> Entrant:
    """An organiser enters someone (for example a built-in bot to fill a field)."""
    from league.models import Participant
    from league.participants import kind_allows

    _require_organiser(tournament, by)
    participant = Participant.objects.filter(pk=participant_id).first()
    if participant is None:
        raise NotFound("no such participant")
    if not kind_allows(tournament.participants, participant):
        raise Invalid("this tournament does not admit that kind of participant")
    with transaction.atomic():
        tournament = _locked(tournament.pk)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict("entries are closed: the tournament has started")
        entrant, created = Entrant.objects.get_or_create(
            tournament=tournament, participant=participant
        )
        if not created:
            raise Conflict(f"{participant.name} has already entered")
        return entrant


def seeding_pool(tournament: Tournament):
    """The pool whose ratings seed the tournament: season, league, else global."""
    if tournament.season_id:
        return pool_for_season(season=tournament.season)
    if tournament.league_id:
        return pool_for_league(league=tournament.league)
    return pool_global(game=tournament.game)


def tournament_seed(
    *,
    tournament: Tournament,
    by: User,
    method: str,
    order: list[int] | None = None,
) -> list[Entrant]:
    """Number the entrants: by rating (unrated last, by entry) or in ``order``."""
    _require_organiser(tournament, by)
    with transaction.atomic():
        tournament = _locked(tournament.pk)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict("seeds are fixed once the tournament has started")
        entrants = list(tournament.entrants.select_related("participant"))
        if method == SeedingMethod.MANUAL:
            ids = {e.pk for e in entrants}
            if order is None or sorted(order) != sorted(ids) or len(order) != len(ids):
                raise Invalid("give every entrant's id exactly once, best seed first")
            position = {eid: i for i, eid in enumerate(order)}
            entrants.sort(key=lambda e: position[e.pk])
        elif method == SeedingMethod.RATING:
            entrants = _by_rating(tournament, entrants)
        else:
            raise Invalid(f"unknown seeding {method!r}")
        for number, entrant in enumerate(entrants, start=1):
            entrant.seed = number
        Entrant.objects.bulk_update(entrants, ["seed"])
        tournament.seeding = method
        tournament.save(update_fields=["seeding"])
    return entrants


def _by_rating(tournament: Tournament, entrants: list[Entrant]) -> list[Entrant]:
    pool = seeding_pool(tournament)
    ratings = dict(
        Rating.objects.filter(
            pool=pool, participant_id__in=[e.participant_id for e in entrants]
        ).values_list("participant_id", "rating")
    )
    return sorted(
        entrants,
        key=lambda e: (
            e.participant_id not in ratings,
            -ratings.get(e.participant_id, 0.0),
            e.created_at,
            e.pk,
        ),
    )


# --- Start and rounds -----------------------------------------------------------


def _seeded(tournament: Tournament) -> list[Entrant]:
    return list(
        tournament.entrants.filter(withdrawn=False)
        .select_related("participant")
        .order_by("seed", "created_at", "pk")
    )


def tournament_start(
    *, tournament: Tournament, by: User, now: datetime | None = None
) -> Tournament:
    """Fix the field, seed it if needed and pair the first round."""
    _require_organiser(tournament, by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament.pk)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict("the tournament has already started")
        entrants = list(tournament.entrants.select_related("participant"))
        if len(entrants) < 2:
            raise Conflict("a tournament needs at least two entrants")
        if (
            tournament.format == TournamentFormat.SWISS
            and tournament.swiss_rounds >= len(entrants) + len(entrants) % 2
        ):
            raise Invalid(
                f"{len(entrants)} entrants cannot play {tournament.swiss_rounds} "
                "Swiss rounds without rematches"
            )
        if any(e.seed is None for e in entrants):
            if tournament.seeding == SeedingMethod.MANUAL:
                raise Conflict("seed every entrant by hand before starting")
            for number, entrant in enumerate(_by_rating(tournament, entrants), 1):
                entrant.seed = number
            Entrant.objects.bulk_update(entrants, ["seed"])
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])
        start = max(now, tournament.starts_at)
        if tournament.is_elimination:
            ids = [e.pk for e in _seeded(tournament)]
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
    return Round.objects.create(
        tournament=tournament,
        number=(last.number + 1) if last else 1,
        starts_at=starts_at,
        deadline=starts_at + timedelta(hours=tournament.round_hours),
    )


def _swiss_history(tournament: Tournament) -> list[swiss.SwissGame]:
    """Decided games and byes as the formats expect them (entrant ids)."""
    games = []
    for p in tournament.pairings.filter(
        status__in=[PairingStatus.DONE, PairingStatus.BYE]
    ).select_related("round"):
        if p.second_id is None:
            games.append(
                swiss.SwissGame(p.round.number, p.first_id, None, p.first_points or 0)
            )
        else:
            games.append(
                swiss.SwissGame(
                    p.round.number,
                    p.first_id,
                    p.second_id,
                    p.first_points,
                    p.second_points,
                    forfeit=p.outcome
                    in (PairingOutcome.FORFEIT, PairingOutcome.DOUBLE_FORFEIT),
                )
            )
    return games


def _total_rounds(tournament: Tournament, entrants: int) -> int:
    if tournament.format == TournamentFormat.SWISS:
        return tournament.swiss_rounds or 0
    cycles = 2 if tournament.format == TournamentFormat.DOUBLE_ROUND_ROBIN else 1
    return (entrants + entrants % 2 - 1) * cycles


def _next_round(tournament: Tournament, starts_at: datetime) -> Round | None:
    """Pair the next round of a round robin or Swiss; None when all are played."""
    entrants = _seeded(tournament)
    played = tournament.rounds.count()
    if played >= _total_rounds(tournament, len(entrants)):
        return None
    ids = [e.pk for e in entrants]
    if tournament.format == TournamentFormat.SWISS:
        try:
            pairings = swiss.pair_swiss_round(ids, _swiss_history(tournament))
        except swiss.SwissPairingError as exc:
            raise Conflict(str(exc)) from exc
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
        first, second = m.participants
        Pairing.objects.create(
            tournament=tournament,
            round=rnd,
            table=table,
            bracket_match=m.id,
            first_id=first,
            second_id=second,
        )
    return rnd


def _create_match(pairing: Pairing) -> Match | None:
    """Create and start the pairing's gameplay match; None if a seat cannot sit."""
    tournament = pairing.tournament
    seats = []
    for entrant in (pairing.first, pairing.second):
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


def _start_pairing(pairing: Pairing) -> None:
    match = _create_match(pairing)
    if match is None:
        # An entrant that cannot be seated (a bot without a playable version)
        # loses by forfeit; if neither can sit, both do.
        _double_or_single_forfeit(pairing, no_shows=_unseatable(pairing))
        return
    pairing.match = match
    pairing.status = PairingStatus.PLAYING
    pairing.save(update_fields=["match", "status"])


def _unseatable(pairing: Pairing) -> list[int]:
    out = []
    for seat, entrant in enumerate((pairing.first, pairing.second)):
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
        tournament = _locked(tournament_id)
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
                _start_pairing(pairing)
                created += 1
            _round_maybe_complete(tournament, rnd, now)
    return created


# --- Results ------------------------------------------------------------------------


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


def _double_or_single_forfeit(pairing: Pairing, *, no_shows: list[int]) -> None:
    """Record a forfeit without a played game (seat numbers of the no-shows)."""
    tournament = pairing.tournament
    if len(no_shows) == 1:
        first, second = (0.0, 1.0) if no_shows == [0] else (1.0, 0.0)
        _decide(pairing, first=first, second=second, outcome=PairingOutcome.FORFEIT)
    else:
        # Nobody scores; a bracket still needs someone to go on: the better seed.
        winner = None
        if tournament.is_elimination:
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
    if match is None or not (match.context or "").startswith("tournament:"):
        return False
    parts = match.context.split(":")
    try:
        tournament_id, pairing_id = int(parts[1]), int(parts[2])
    except (IndexError, ValueError):
        return False
    if match.status != MatchStatus.FINISHED:
        return False
    with transaction.atomic():
        tournament = _locked(tournament_id)
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
        a, b = placements[0], placements[1]
        if a == b and tournament.is_elimination:
            _start_pairing(pairing)
            return True
        first = 1.0 if a < b else 0.5 if a == b else 0.0
        outcome = PairingOutcome.FORFEIT if forfeited else PairingOutcome.PLAYED
        _decide(pairing, first=first, second=1.0 - first, outcome=outcome)
        _after_decision(tournament, pairing, timezone.now())
    return True


def _after_decision(tournament: Tournament, pairing: Pairing, now: datetime) -> None:
    if tournament.is_elimination and pairing.bracket_match:
        bracket = elimination.Bracket.from_dict(tournament.bracket)
        bracket = elimination.advance(bracket, pairing.bracket_match, pairing.winner_id)
        tournament.bracket = bracket.to_dict()
        tournament.save(update_fields=["bracket"])
    _round_maybe_complete(tournament, pairing.round, now)


def _round_maybe_complete(tournament: Tournament, rnd: Round, now: datetime) -> None:
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
            _finish(tournament, champion_id=bracket.champion)
        return
    if open_pairings.exists() or rnd.status == RoundStatus.COMPLETE:
        return
    rnd.status = RoundStatus.COMPLETE
    rnd.save(update_fields=["status"])
    if tournament.rounds.filter(number__gt=rnd.number).exists():
        return
    new = _next_round(tournament, now)
    if new is None:
        standings = _standings_rows(tournament)
        _finish(tournament, champion_id=standings[0].participant if standings else None)
    else:
        _start_round_now(tournament, new)


def _start_round_now(tournament: Tournament, rnd: Round) -> None:
    rnd.status = RoundStatus.RUNNING
    rnd.save(update_fields=["status"])
    for pairing in rnd.pairings.filter(status=PairingStatus.PENDING).select_related(
        "tournament", "first__participant", "second__participant"
    ):
        _start_pairing(pairing)
    if not rnd.pairings.filter(
        status__in=[PairingStatus.PENDING, PairingStatus.PLAYING]
    ).exists():
        _round_maybe_complete(tournament, rnd, timezone.now())


def _finish(tournament: Tournament, *, champion_id: int | None) -> None:
    if tournament.status == TournamentStatus.FINISHED:
        return
    tournament.status = TournamentStatus.FINISHED
    tournament.champion_id = champion_id
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "champion", "finished_at"])


def _standings_rows(tournament: Tournament) -> list[swiss.SwissStanding]:
    entrants = [e.pk for e in _seeded(tournament)]
    return swiss.swiss_standings(
        entrants, _swiss_history(tournament), tiebreaks=standings_tiebreaks(tournament)
    )


def standings_tiebreaks(tournament: Tournament) -> tuple[swiss.Tiebreak, ...]:
    """Swiss: Buchholz Cut-1, Buchholz, Sonneborn-Berger, direct encounter.

    A round robin has everyone meet everyone, so Buchholz says nothing there;
    direct encounter, then Sonneborn-Berger, is what round robins use.
    """
    if tournament.format == TournamentFormat.SWISS:
        return swiss.DEFAULT_TIEBREAKS
    return ("direct_encounter", "sonneborn_berger")


# --- Deadlines and the beat tick ----------------------------------------------------


def _showed_up(match: Match, seat_number: int) -> bool:
    seat = match.seats.get(number=seat_number)
    if seat.is_bot:
        return True
    if seat.connected or seat.disconnected_at is not None:
        return True
    return match.actions.filter(seat=seat_number).exists()


def _enforce_deadline(tournament: Tournament, rnd: Round, now: datetime) -> int:
    """Forfeit no-shows of a round past its deadline; returns pairings decided.

    A no-show never connected to its match and never moved. If one side is a
    no-show it forfeits (through gameplay's ``match_forfeit``, so the result
    comes back like any other); if both are, the match is called off and both
    lose. A game both sides are playing is left to its clocks.
    """
    decided = 0
    for pairing in rnd.pairings.filter(status=PairingStatus.PLAYING).select_related(
        "match", "tournament", "first__participant", "second__participant"
    ):
        match = pairing.match
        if match is None:
            continue
        if match.status == MatchStatus.ABORTED:
            _double_or_single_forfeit(pairing, no_shows=[0, 1])
            decided += 1
            continue
        if match.status != MatchStatus.ACTIVE:
            continue
        no_shows = [s for s in (0, 1) if not _showed_up(match, s)]
        if len(no_shows) == 1:
            gameplay_services.match_forfeit(
                match_id=match.pk, seat_number=no_shows[0], reason="no-show"
            )
            decided += 1
        elif len(no_shows) == 2:
            gameplay_services.match_abort(
                match_id=match.pk, user=None, reason="no-show"
            )
            _double_or_single_forfeit(pairing, no_shows=[0, 1])
            decided += 1
    return decided


def tournament_check_deadlines(
    *, tournament_id: int, now: datetime | None = None
) -> int:
    now = now or timezone.now()
    decided = 0
    with transaction.atomic():
        tournament = _locked(tournament_id)
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
        tournament = _locked(tournament_id)
        for pairing in Pairing.objects.filter(
            tournament=tournament,
            status=PairingStatus.PLAYING,
            match__status=MatchStatus.ABORTED,
            round__deadline__gt=now,
        ).select_related("tournament", "first__participant", "second__participant"):
            _start_pairing(pairing)
            replayed += 1
    return replayed


def tournaments_tick(*, now: datetime | None = None) -> dict[str, int]:
    """What beat runs every minute for every running tournament."""
    now = now or timezone.now()
    done = {"matches_created": 0, "forfeits": 0, "replayed": 0}
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


# --- Organiser actions ----------------------------------------------------------------


def tournament_advance(
    *, tournament: Tournament, by: User, now: datetime | None = None
) -> Tournament:
    """Close the open rounds now: start what is due, forfeit no-shows, move on.

    This is the beat tick for one tournament with every deadline treated as
    passed, for organisers who do not want to wait.
    """
    _require_organiser(tournament, by)
    now = now or timezone.now()
    with transaction.atomic():
        locked = _locked(tournament.pk)
        if locked.status != TournamentStatus.RUNNING:
            raise Conflict("only a running tournament can be advanced")
        locked.rounds.filter(status=RoundStatus.SCHEDULED).update(starts_at=now)
    tournament_start_due_rounds(tournament_id=tournament.pk, now=now)
    with transaction.atomic():
        locked = _locked(tournament.pk)
        decided = 0
        for rnd in locked.rounds.filter(status=RoundStatus.RUNNING).order_by("number"):
            decided += _enforce_deadline(locked, rnd, now)
            if rnd.pairings.filter(
                status__in=[PairingStatus.PENDING, PairingStatus.PLAYING]
            ).exists():
                continue
            _round_maybe_complete(locked, rnd, now)
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
        raise NotFound("no such pairing")
    _require_organiser(pairing.tournament, by)
    voided_matches: list[int] = []
    with transaction.atomic():
        tournament = _locked(pairing.tournament_id)
        pairing = Pairing.objects.select_related(
            "round", "tournament", "first__participant", "second__participant"
        ).get(pk=pairing_id)
        if pairing.status != PairingStatus.DONE:
            raise Conflict("only a decided pairing can be voided")
        if (
            tournament.format == TournamentFormat.SWISS
            and tournament.rounds.filter(number__gt=pairing.round.number).exists()
        ):
            raise Conflict("later Swiss rounds were paired from this result")
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
                        match_id=other.match_id, user=None, reason="result voided"
                    )
                elif other.match and other.match.status == MatchStatus.FINISHED:
                    voided_matches.append(other.match_id)
                other.status = PairingStatus.CANCELLED
                other.save(update_fields=["status"])
            affected = [pairing]
        if pairing.match_id:
            voided_matches.append(pairing.match_id)
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
        _start_pairing(pairing)
    for match_id in voided_matches:
        rating_void_match(match_id=match_id, by=by, reason=reason or "tournament void")
    pairing.refresh_from_db()
    return pairing


def my_open_pairings(*, user: User) -> list[Pairing]:
    """Pairings the user (or their bots) must play now, for pages."""
    return list(
        Pairing.objects.filter(status=PairingStatus.PLAYING)
        .filter(Q(first__participant__user=user) | Q(second__participant__user=user))
        .select_related("tournament", "match", "round")
    )
