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
import math
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import User
from gameplay import services as gameplay_services
from gameplay.errors import MatchError
from gameplay.models import Match, MatchStatus
from gameplay.options import OptionError, clean_table_options
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
    TableSeat,
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
from league.signals import round_paired
from league.tournaments.formats import (
    elimination,
    round_robin,
    swiss,
    swiss_multiplayer,
)

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
    is_swiss = format in (TournamentFormat.SWISS, TournamentFormat.SWISS_TABLES)
    if (
        is_swiss
        and swiss_rounds is not None
        and not (isinstance(swiss_rounds, int) and 1 <= swiss_rounds <= 20)
    ):
        raise Invalid(
            "a Swiss tournament plays between 1 and 20 rounds (leave it empty "
            "for the usual number for its field)"
        )
    if not 0.05 <= float(round_hours) <= 24 * 30:
        raise Invalid("round deadlines must be between 3 minutes and 30 days")
    try:
        engine = get_game(game)
        size = 2
        if format == TournamentFormat.SWISS_TABLES:
            sizes = table_sizes(game)
            if sizes is None:
                raise Invalid(f"{engine.name} is a two-player game: no tables")
            size = sizes[0]
        # Only the game's public options, checked: a tournament never carries a
        # stacked deck or a fixed first seat (gameplay.options).
        public = clean_table_options(game, options, players=size)
        config = engine.validate_config({**public, "players": size})
        clean_tc = gameplay_services.validate_time_control(time_control)
    except (GameError, MatchError, OptionError) as exc:
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
            swiss_rounds=swiss_rounds if is_swiss else None,
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


def table_sizes(game: str) -> tuple[int, int, int] | None:
    """(smallest, largest, preferred) table of ``game``'s multiplayer Swiss.

    The game's own (``GameMeta.tables``), else 3-5 preferring 4 within the
    engine's player range; None for a two-player game.
    """
    from gameplay.rules import game_meta, get_game

    engine = get_game(game)
    sizes = game_meta(game).tables
    if sizes is None:
        low, high = max(3, engine.min_players), min(5, engine.max_players)
        if high < low:
            return None
        sizes = (low, high, min(max(4, low), high))
    return sizes


def default_swiss_rounds(*, entrants: int, tables: bool = False) -> int:
    """The usual number of Swiss rounds for a field: ceil(log2(entrants)).

    That many rounds is what it takes for one player to be the only one left
    with a perfect score (the classic rule for Swiss events). Two-player Swiss
    is capped below the field size, so nobody has to meet an opponent twice;
    tables of 3-5 meet more players per round, so one round fewer is enough,
    with at least two.
    """
    rounds = max(1, math.ceil(math.log2(max(2, entrants))))
    if tables:
        return max(2, rounds - 1)
    return max(1, min(rounds, entrants + entrants % 2 - 1))


def tournament_add_named_entrant(
    *,
    tournament: Tournament,
    by: User,
    username: str = "",
    bot_id: int | None = None,
    builtin: str = "",
) -> Entrant:
    """An organiser enters a person (by username), an uploaded bot or a
    built-in bot before the start; exactly one of the three is given."""
    from gameplay.rules.bots import available_bots
    from league.participants import (
        bot_info,
        participant_for_bot,
        participant_for_builtin,
        participant_for_user,
    )

    _require_organiser(tournament, by)
    given = [bool(username), bot_id is not None, bool(builtin)]
    if sum(given) != 1:
        raise Invalid("name one player, one uploaded bot or one built-in bot")
    if username:
        person = User.objects.filter(username__iexact=username, is_active=True).first()
        if person is None:
            raise NotFound(f"no player called {username!r}")
        participant = participant_for_user(person)
    elif bot_id is not None:
        info = bot_info(bot_id=bot_id)
        if info.game != tournament.game:
            raise Invalid(f"{info.name} plays {info.game}, not {tournament.game}")
        participant = participant_for_bot(info)
    else:
        if builtin not in available_bots():
            raise Invalid(f"there is no built-in bot {builtin!r}")
        participant = participant_for_builtin(builtin)
    return tournament_add_entrant(
        tournament=tournament, by=by, participant_id=participant.pk
    )


def tournament_remove_entrant(
    *, tournament: Tournament, by: User, entrant_id: int
) -> None:
    """An organiser takes an entrant out before the start."""
    _require_organiser(tournament, by)
    with transaction.atomic():
        tournament = _locked(tournament.pk)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict("the field is fixed once the tournament has started")
        deleted, _ = Entrant.objects.filter(
            tournament=tournament, pk=entrant_id
        ).delete()
        if not deleted:
            raise NotFound("no such entrant in this tournament")


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
        if tournament.is_tables:
            low, high, _ = table_sizes(tournament.game) or (3, 5, 4)
            if len(entrants) < low:
                raise Conflict(f"tables of {low}-{high} need at least {low} entrants")
        if (
            tournament.format in (TournamentFormat.SWISS, TournamentFormat.SWISS_TABLES)
            and tournament.swiss_rounds is None
        ):
            tournament.swiss_rounds = default_swiss_rounds(
                entrants=len(entrants), tables=tournament.is_tables
            )
            tournament.save(update_fields=["swiss_rounds"])
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


def _table_results(tournament: Tournament) -> list[swiss_multiplayer.TableResult]:
    """Finished multiplayer tables as the formats expect them (entrant ids).

    A table where nobody showed up scores nothing and is no meeting: left out.
    Seats the match forfeited (no-shows) are marked: they met nobody, and the
    players present scored by forfeit (no bye for them later).
    """
    results = []
    pairings = tournament.pairings.filter(status=PairingStatus.DONE).select_related(
        "round", "match"
    )
    for pairing in pairings.prefetch_related("seats"):
        seats = sorted(pairing.seats.all(), key=lambda s: s.seat)
        if any(s.placement is None for s in seats):
            continue
        gone = set()
        if pairing.outcome == PairingOutcome.FORFEIT and pairing.match is not None:
            gone = set((pairing.match.result or {}).get("forfeited") or [])
        results.append(
            swiss_multiplayer.TableResult(
                round=pairing.round.number,
                seats=tuple(s.entrant_id for s in seats),
                placements={s.entrant_id: s.placement for s in seats},
                forfeited=frozenset(s.entrant_id for s in seats if s.seat in gone),
            )
        )
    return results


def _total_rounds(tournament: Tournament, entrants: int) -> int:
    if tournament.format in (TournamentFormat.SWISS, TournamentFormat.SWISS_TABLES):
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
    if tournament.is_tables:
        try:
            low, high, preferred = table_sizes(tournament.game) or (3, 5, 4)
            tables = swiss_multiplayer.seat_multiplayer_round(
                ids,
                _table_results(tournament),
                min_size=low,
                max_size=high,
                preferred_size=preferred,
            )
        except ValueError as exc:
            raise Conflict(str(exc)) from exc
        rnd = _new_round(tournament, starts_at)
        for table in tables:
            pairing = Pairing.objects.create(
                tournament=tournament,
                round=rnd,
                table=table.table,
                first_id=table.seats[0],
            )
            TableSeat.objects.bulk_create(
                TableSeat(pairing=pairing, entrant_id=eid, seat=number)
                for number, eid in enumerate(table.seats)
            )
        return rnd
    if tournament.format == TournamentFormat.SWISS:
        try:
            pairings = swiss.pair_swiss_round(
                ids,
                _swiss_history(tournament),
                total_rounds=_total_rounds(tournament, len(entrants)),
                ratings=_entrant_ratings(tournament, entrants),
            )
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


def _seat_entrants(pairing: Pairing) -> list[Entrant]:
    """The pairing's players in seat order (a pair, or a multiplayer table)."""
    if pairing.tournament.is_tables:
        return [
            s.entrant
            for s in pairing.seats.select_related("entrant__participant").order_by(
                "seat"
            )
        ]
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


def _start_pairing(pairing: Pairing) -> None:
    match = _create_match(pairing)
    if match is None:
        # An entrant that cannot be seated (a bot without a playable version)
        # loses by forfeit; if neither can sit, both do.
        _record_no_shows(pairing, no_shows=_unseatable(pairing))
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


def _decide_table(pairing: Pairing, ranks: list[int | None], outcome: str) -> None:
    """Store a multiplayer table's result: placements and placement points.

    ``ranks`` per seat; all ``None`` means nobody showed up (nobody scores).
    """
    seats = list(pairing.seats.order_by("seat"))
    if all(r is None for r in ranks):
        for seat in seats:
            seat.placement, seat.points = None, 0.0
        winner_id = None
    else:
        by_entrant = {s.entrant_id: ranks[s.seat] for s in seats}
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


def _record_no_shows(pairing: Pairing, *, no_shows: list[int]) -> None:
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
            winner = min((pairing.first, pairing.second), key=lambda e: e.seed or 0)
        _decide(
            pairing,
            first=0.0,
            second=0.0,
            outcome=PairingOutcome.DOUBLE_FORFEIT,
            winner=winner,
        )
    _after_decision(tournament, pairing, timezone.now())


def is_tournament_context(context: str) -> bool:
    """Whether a match context names a tournament pairing (the only matches
    ``pairing_record_match`` records)."""
    return (context or "").startswith("tournament:")


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
        outcome = PairingOutcome.FORFEIT if forfeited else PairingOutcome.PLAYED
        if tournament.is_tables:
            _decide_table(pairing, list(placements), outcome)
            _after_decision(tournament, pairing, timezone.now())
            return True
        a, b = placements[0], placements[1]
        if a == b and tournament.is_elimination:
            _start_pairing(pairing)
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


def standings_rows(tournament: Tournament) -> list[tuple]:
    """(rank, entrant id, score, played, byes, first seats, tiebreaks) rows."""
    entrants = [e.pk for e in _seeded(tournament)]
    if tournament.is_tables:
        return [
            (
                r.rank,
                r.participant,
                r.score,
                r.played,
                0,
                r.first_seats,
                {"wins": float(r.wins), "opponent_score": r.opponent_score},
            )
            for r in swiss_multiplayer.multiplayer_standings(
                entrants, _table_results(tournament)
            )
        ]
    return [
        (r.rank, r.participant, r.score, r.played, r.byes, r.first_seats, r.tiebreaks)
        for r in swiss.swiss_standings(
            entrants,
            _swiss_history(tournament),
            tiebreaks=standings_tiebreaks(tournament),
        )
    ]


def ranked_entrant_ids(tournament: Tournament) -> list[int]:
    return [row[1] for row in standings_rows(tournament)]


def standings_tiebreaks(tournament: Tournament) -> tuple[str, ...]:
    """Swiss: Buchholz Cut-1, Buchholz, Sonneborn-Berger, direct encounter.

    A round robin has everyone meet everyone, so Buchholz says nothing there;
    direct encounter, then Sonneborn-Berger, is what round robins use. Tables
    of 3-5 rank by placement points, then wins, then opponents' score (the
    multiplayer Buchholz), as ``formats.swiss_multiplayer`` defines.
    """
    if tournament.is_tables:
        return ("wins", "opponent_score")
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
            _record_no_shows(pairing, no_shows=list(range(match.seats.count())))
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
            _record_no_shows(pairing, no_shows=no_shows)
            decided += 1
        elif no_shows:
            # Each absent seat forfeits; at a table of three or more a bot
            # plays on for it, and the game ends once one player is left.
            for seat_number in no_shows:
                if not Match.objects.filter(
                    pk=match.pk, status=MatchStatus.ACTIVE
                ).exists():
                    break
                gameplay_services.match_forfeit(
                    match_id=match.pk, seat_number=seat_number, reason="no-show"
                )
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
            tournament.format in (TournamentFormat.SWISS, TournamentFormat.SWISS_TABLES)
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
