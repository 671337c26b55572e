"""Before the start: create a tournament, enter and withdraw, fix the seeds."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from gameplay import services as gameplay_services
from gameplay.errors import MatchError, refusal_text
from gameplay.moverule import is_realtime
from gameplay.options import OptionError, clean_table_options
from gameplay.rules import GameError, available_games, game_meta, get_game
from gameplay.rules.bots import available_bots
from gameplay.timecontrol import TimeControl
from league.errors import Conflict, Invalid, NotFound, PermissionDenied
from league.models import (
    Entrant,
    League,
    Participant,
    ParticipantKind,
    Rating,
    RatingPool,
    Registration,
    RegistrationStatus,
    Season,
    SeedingMethod,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from league.participants import (
    bot_info,
    can_manage,
    kind_allows,
    participant_for_bot,
    participant_for_builtin,
    participant_for_user,
)
from league.ratings.services import pool_for_league, pool_for_season, pool_global
from league.selectors import is_organiser
from league.services import resolve_entrant
from league.tournaments.services.checkin import validate_checkin_minutes
from league.tournaments.services.locking import locked_tournament, require_organiser

MAX_ENTRANTS = 256


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
    checkin_minutes: int | None = None,
    vacation_allowed: bool = True,
) -> Tournament:
    """Create a tournament; in a league only its organisers may, for its game.

    ``checkin_minutes``: entrants must check in during that many minutes
    before ``starts_at`` (services.checkin); None for no check-in.
    ``time_control`` may be live or correspondence (days per move); a
    correspondence round's deadline is at least one move's days, so a no-show
    (forfeited only at the deadline) has had a whole move's time.
    ``vacation_allowed``: whether a player's vacation pauses their clocks.
    """
    if not by.is_authenticated:
        raise PermissionDenied(_("sign in to create a tournament"))
    name = (name or "").strip()
    if not name:
        raise Invalid(_("a tournament needs a name"))
    if format not in TournamentFormat.values:
        raise Invalid(_("unknown format %(format)s") % {"format": repr(format)})
    if seeding not in SeedingMethod.values:
        raise Invalid(_("unknown seeding %(seeding)s") % {"seeding": repr(seeding)})
    if season is not None:
        if league is not None and season.league_id != league.pk:
            raise Invalid(_("that season belongs to another league"))
        league = season.league
    if league is not None:
        if not is_organiser(league=league, user=by):
            raise PermissionDenied(
                _("only the league's organisers may add tournaments")
            )
        if game != league.game:
            raise Invalid(
                _("%(name)s runs %(game)s, not %(wanted)s")
                % {"name": league.name, "game": league.game, "wanted": game}
            )
        participants = league.participants
    if participants not in ParticipantKind.values:
        raise Invalid(
            _("unknown participant kind %(participants)s")
            % {"participants": repr(participants)}
        )
    if game not in available_games():
        raise Invalid(_("no playable game %(game)s") % {"game": repr(game)})
    is_swiss = format in (TournamentFormat.SWISS, TournamentFormat.SWISS_TABLES)
    if (
        is_swiss
        and swiss_rounds is not None
        and not (isinstance(swiss_rounds, int) and 1 <= swiss_rounds <= 20)
    ):
        raise Invalid(
            _(
                "a Swiss tournament plays between 1 and 20 rounds (leave it empty "
                "for the usual number for its field)"
            )
        )
    checkin_minutes = validate_checkin_minutes(checkin_minutes)
    if not 0.05 <= float(round_hours) <= 24 * 30:
        raise Invalid(_("round deadlines must be between 3 minutes and 30 days"))
    try:
        engine = get_game(game)
        size = 2
        if format == TournamentFormat.SWISS_TABLES:
            sizes = game_meta(game).tables
            if sizes is None:
                raise Invalid(
                    _("%(name)s is a two-player game: no tables")
                    % {"name": engine.name}
                )
            size = sizes[0]
        # Only the game's public options, checked: a tournament never carries a
        # stacked deck or a fixed first seat (gameplay.options).
        public = clean_table_options(game, options, players=size)
        config = engine.validate_config({**public, "players": size})
        clean_tc = gameplay_services.validate_time_control(time_control)
        if clean_tc and is_realtime(engine):
            raise Invalid(
                _(
                    "a real-time game has no turns to time: its time limit is a game "
                    "option"
                )
            )
    except (GameError, MatchError, OptionError) as exc:
        raise Invalid(refusal_text(exc)) from exc
    days = TimeControl.from_json(clean_tc).days
    if days and float(round_hours) < days * 24:
        raise Invalid(
            ngettext(
                "a correspondence round must last at least one move's %(days)s day",
                "a correspondence round must last at least one move's %(days)s days",
                days,
            )
            % {"days": days}
        )
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
            vacation_allowed=bool(vacation_allowed),
            starts_at=starts_at or timezone.now(),
            seeding=seeding,
            checkin_minutes=checkin_minutes,
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
        raise Conflict(_("register for the season first"))
    with transaction.atomic():
        tournament = locked_tournament(tournament.pk)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict(_("entries are closed: the tournament has started"))
        if Entrant.objects.filter(
            tournament=tournament, participant=participant
        ).exists():
            raise Conflict(
                _("%(name)s has already entered") % {"name": participant.name}
            )
        if tournament.entrants.count() >= MAX_ENTRANTS:
            raise Conflict(_("this tournament is full"))
        return Entrant.objects.create(tournament=tournament, participant=participant)


def tournament_withdraw(
    *, tournament: Tournament, user: User, bot_id: int | None = None
) -> None:
    """Leave before the start (afterwards, no-shows forfeit instead)."""
    key = (
        Participant.bot_key(bot_id)
        if bot_id is not None
        else Participant.user_key(user.pk)
    )
    with transaction.atomic():
        tournament = locked_tournament(tournament.pk)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict(
                _("the tournament has started; unplayed games are forfeited")
            )
        entrant = (
            Entrant.objects.filter(tournament=tournament, participant__key=key)
            .select_related("participant")
            .first()
        )
        if entrant is None:
            raise Conflict(_("not entered in this tournament"))
        if not can_manage(user, entrant.participant):
            raise PermissionDenied(_("only the bot's owner may withdraw it"))
        entrant.delete()


def tournament_add_entrant(
    *, tournament: Tournament, by: User, participant_id: int
) -> Entrant:
    """An organiser enters someone (for example a built-in bot to fill a field)."""
    require_organiser(tournament, by)
    participant = Participant.objects.filter(pk=participant_id).first()
    if participant is None:
        raise NotFound(_("no such participant"))
    if not kind_allows(tournament.participants, participant):
        raise Invalid(_("this tournament does not admit that kind of participant"))
    with transaction.atomic():
        tournament = locked_tournament(tournament.pk)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict(_("entries are closed: the tournament has started"))
        entrant, created = Entrant.objects.get_or_create(
            tournament=tournament, participant=participant
        )
        if not created:
            raise Conflict(
                _("%(name)s has already entered") % {"name": participant.name}
            )
        return entrant


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
    require_organiser(tournament, by)
    given = [bool(username), bot_id is not None, bool(builtin)]
    if sum(given) != 1:
        raise Invalid(_("name one player, one uploaded bot or one built-in bot"))
    if username:
        person = User.objects.filter(username__iexact=username, is_active=True).first()
        if person is None:
            raise NotFound(
                _("no player called %(username)s") % {"username": repr(username)}
            )
        participant = participant_for_user(person)
    elif bot_id is not None:
        info = bot_info(bot_id=bot_id)
        if info.game != tournament.game:
            raise Invalid(
                _("%(name)s plays %(game)s, not %(wanted)s")
                % {"name": info.name, "game": info.game, "wanted": tournament.game}
            )
        participant = participant_for_bot(info)
    else:
        if builtin not in available_bots():
            raise Invalid(
                _("there is no built-in bot %(builtin)s") % {"builtin": repr(builtin)}
            )
        participant = participant_for_builtin(builtin)
    return tournament_add_entrant(
        tournament=tournament, by=by, participant_id=participant.pk
    )


def tournament_remove_entrant(
    *, tournament: Tournament, by: User, entrant_id: int
) -> None:
    """An organiser takes an entrant out before the start."""
    require_organiser(tournament, by)
    with transaction.atomic():
        tournament = locked_tournament(tournament.pk)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict(_("the field is fixed once the tournament has started"))
        deleted, _kinds = Entrant.objects.filter(
            tournament=tournament, pk=entrant_id
        ).delete()
        if not deleted:
            raise NotFound(_("no such entrant in this tournament"))


def seeding_pool(tournament: Tournament) -> RatingPool:
    """The pool whose ratings seed the tournament: season, league, else global."""
    if tournament.season is not None:
        return pool_for_season(season=tournament.season)
    if tournament.league is not None:
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
    require_organiser(tournament, by)
    with transaction.atomic():
        tournament = locked_tournament(tournament.pk)
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict(_("seeds are fixed once the tournament has started"))
        entrants = list(tournament.entrants.select_related("participant"))
        if method == SeedingMethod.MANUAL:
            ids = {e.pk for e in entrants}
            if order is None or sorted(order) != sorted(ids) or len(order) != len(ids):
                raise Invalid(
                    _("give every entrant's id exactly once, best seed first")
                )
            position = {eid: i for i, eid in enumerate(order)}
            entrants.sort(key=lambda e: position[e.pk])
        elif method == SeedingMethod.RATING:
            entrants = entrants_by_rating(tournament, entrants)
        else:
            raise Invalid(_("unknown seeding %(method)s") % {"method": repr(method)})
        for number, entrant in enumerate(entrants, start=1):
            entrant.seed = number
        Entrant.objects.bulk_update(entrants, ["seed"])
        tournament.seeding = method
        tournament.save(update_fields=["seeding"])
    return entrants


def entrants_by_rating(
    tournament: Tournament, entrants: list[Entrant]
) -> list[Entrant]:
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
