"""League writes: seasons, registrations, invitations, rollover, league matches.

Every function checks first and writes inside one transaction, so a refused
request (registering twice, outside the window, a bot for another game, an
organiser action by someone else) raises a ``LeagueError`` and changes nothing.
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from gameplay import services as gameplay_services
from gameplay.errors import MatchError
from gameplay.models import Match
from gameplay.services import SeatSpec
from league.errors import Conflict, Invalid, NotFound, PermissionDenied
from league.models import (
    Invitation,
    League,
    Participant,
    ParticipantKind,
    Registration,
    RegistrationStatus,
    Season,
    SeasonStatus,
)
from league.participants import (
    bot_info,
    can_manage,
    kind_allows,
    participant_for_bot,
    participant_for_user,
    seat_agent_for,
)
from league.ratings.services import pool_for_league, pool_for_season

ACTIVE_REGISTRATION = (RegistrationStatus.PENDING, RegistrationStatus.APPROVED)


def league_game_options(league: League) -> dict:
    """The game options of the league's matches (``elo`` holds pool settings)."""
    return {k: v for k, v in (league.options or {}).items() if k != "elo"}


def is_organiser(*, league: League, user: User | None) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff) or league.organisers.filter(pk=user.pk).exists()


def require_organiser(*, league: League, user: User | None) -> None:
    if not is_organiser(league=league, user=user):
        raise PermissionDenied("only this league's organisers may do that")


def resolve_entrant(
    *, user: User, game: str, kind: str, bot_id: int | None = None
) -> Participant:
    """The participant a request is about: the user, or a bot the user owns.

    Refuses a bot of another game, a bot someone else owns, and a participant
    the competition's kind (humans, bots, mixed) does not admit.
    """
    if bot_id is None:
        participant = participant_for_user(user)
    else:
        info = bot_info(bot_id=bot_id)
        if info.game != game:
            raise Invalid(f"{info.name} plays {info.game}, not {game}")
        participant = participant_for_bot(info)
        if not can_manage(user, participant):
            raise PermissionDenied("only the bot's owner may enter it")
    if not kind_allows(kind, participant):
        who = "bots" if participant.is_bot else "people"
        raise Invalid(
            f"{who} cannot take part here ({ParticipantKind(kind).label.lower()})"
        )
    return participant


def registration_window_open(season: Season, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return (
        season.status
        in (SeasonStatus.UPCOMING, SeasonStatus.OPEN, SeasonStatus.RUNNING)
        and season.registration_opens_at <= now <= season.registration_closes_at
    )


def season_register(
    *, season: Season, user: User, bot_id: int | None = None, game: str | None = None
) -> Registration:
    """Register the user (or their bot) for a season.

    An open league approves at once. An invite-only league approves invited
    participants at once and leaves others pending until an organiser decides.
    """
    league = season.league
    if game is not None and game != league.game:
        raise Invalid(f"{league.name} runs {league.game}, not {game}")
    if not registration_window_open(season):
        raise Conflict("registration for this season is closed")
    participant = resolve_entrant(
        user=user, game=league.game, kind=league.participants, bot_id=bot_id
    )
    status = RegistrationStatus.APPROVED
    if (
        league.invite_only
        and not Invitation.objects.filter(
            league=league, participant=participant
        ).exists()
    ):
        status = RegistrationStatus.PENDING
    with transaction.atomic():
        existing = (
            Registration.objects.select_for_update()
            .filter(season=season, participant=participant)
            .first()
        )
        if existing is not None:
            if existing.status in ACTIVE_REGISTRATION:
                raise Conflict(f"{participant.name} is already registered")
            if existing.status == RegistrationStatus.REJECTED:
                raise Conflict("an organiser declined this registration")
            existing.status = status
            existing.registered_by = user
            existing.updated_at = timezone.now()
            existing.save(update_fields=["status", "registered_by", "updated_at"])
            return existing
        try:
            with transaction.atomic():
                return Registration.objects.create(
                    season=season,
                    participant=participant,
                    status=status,
                    registered_by=user,
                )
        except IntegrityError as exc:
            raise Conflict(f"{participant.name} is already registered") from exc


def season_withdraw(
    *, season: Season, user: User, bot_id: int | None = None
) -> Registration:
    """Withdraw from a season that has not finished."""
    if season.status == SeasonStatus.FINISHED:
        raise Conflict("this season is over")
    if bot_id is None:
        participant = participant_for_user(user)
    else:
        participant = Participant.objects.filter(key=f"bot:{bot_id}").first()
        if participant is None:
            raise NotFound("that bot is not registered here")
        if not can_manage(user, participant):
            raise PermissionDenied("only the bot's owner may withdraw it")
    with transaction.atomic():
        registration = (
            Registration.objects.select_for_update()
            .filter(
                season=season, participant=participant, status__in=ACTIVE_REGISTRATION
            )
            .first()
        )
        if registration is None:
            raise Conflict(f"{participant.name} is not registered for this season")
        registration.status = RegistrationStatus.WITHDRAWN
        registration.updated_at = timezone.now()
        registration.save(update_fields=["status", "updated_at"])
    return registration


def registration_decide(
    *, registration_id: int, by: User, approve: bool
) -> Registration:
    """An organiser approves or rejects a pending registration."""
    registration = (
        Registration.objects.select_related("season__league")
        .filter(pk=registration_id)
        .first()
    )
    if registration is None:
        raise NotFound("no such registration")
    require_organiser(league=registration.season.league, user=by)
    with transaction.atomic():
        registration = Registration.objects.select_for_update().get(pk=registration_id)
        if registration.status != RegistrationStatus.PENDING:
            raise Conflict("this registration is not awaiting a decision")
        registration.status = (
            RegistrationStatus.APPROVED if approve else RegistrationStatus.REJECTED
        )
        registration.updated_at = timezone.now()
        registration.save(update_fields=["status", "updated_at"])
    return registration


def league_invite(
    *, league: League, by: User, username: str | None = None, bot_id: int | None = None
) -> Invitation:
    """An organiser invites a person or a bot; pending registrations get approved."""
    require_organiser(league=league, user=by)
    if (username is None) == (bot_id is None):
        raise Invalid("invite either a username or a bot id")
    if username is not None:
        invitee = User.objects.filter(username=username).first()
        if invitee is None:
            raise NotFound(f"no player called {username!r}")
        participant = participant_for_user(invitee)
    else:
        info = bot_info(bot_id=bot_id)
        if info.game != league.game:
            raise Invalid(f"{info.name} plays {info.game}, not {league.game}")
        participant = participant_for_bot(info)
    if not kind_allows(league.participants, participant):
        raise Invalid(f"this league admits {league.get_participants_display().lower()}")
    with transaction.atomic():
        invitation, created = Invitation.objects.get_or_create(
            league=league, participant=participant, defaults={"invited_by": by}
        )
        if not created:
            raise Conflict(f"{participant.name} is already invited")
        Registration.objects.filter(
            season__league=league,
            participant=participant,
            status=RegistrationStatus.PENDING,
        ).update(status=RegistrationStatus.APPROVED, updated_at=timezone.now())
    return invitation


def _check_dates(
    starts_at: datetime,
    ends_at: datetime,
    registration_opens_at: datetime,
    registration_closes_at: datetime,
) -> None:
    if ends_at <= starts_at:
        raise Invalid("a season must end after it starts")
    if registration_closes_at <= registration_opens_at:
        raise Invalid("registration must close after it opens")
    if registration_closes_at > ends_at:
        raise Invalid("registration must close before the season ends")


def season_create(
    *,
    league: League,
    by: User,
    starts_at: datetime,
    ends_at: datetime,
    registration_opens_at: datetime,
    registration_closes_at: datetime,
    name: str = "",
) -> Season:
    require_organiser(league=league, user=by)
    _check_dates(starts_at, ends_at, registration_opens_at, registration_closes_at)
    with transaction.atomic():
        last = (
            Season.objects.select_for_update()
            .filter(league=league)
            .order_by("-number")
            .first()
        )
        season = Season.objects.create(
            league=league,
            number=(last.number + 1) if last else 1,
            name=name,
            starts_at=starts_at,
            ends_at=ends_at,
            registration_opens_at=registration_opens_at,
            registration_closes_at=registration_closes_at,
            status=_status_at(
                timezone.now(), starts_at, ends_at, registration_opens_at
            ),
        )
    return season


def season_rollover(
    *,
    league: League,
    by: User,
    starts_at: datetime,
    ends_at: datetime,
    registration_opens_at: datetime,
    registration_closes_at: datetime,
    name: str = "",
) -> Season:
    """Finish the league's current seasons and open the next one.

    The new season's rating pool starts from the last season's ratings when the
    league carries ratings over, and from the initial rating otherwise.
    """
    require_organiser(league=league, user=by)
    _check_dates(starts_at, ends_at, registration_opens_at, registration_closes_at)
    with transaction.atomic():
        previous = list(
            Season.objects.select_for_update()
            .filter(league=league)
            .exclude(status=SeasonStatus.FINISHED)
        )
        for season in previous:
            season.status = SeasonStatus.FINISHED
            season.save(update_fields=["status"])
        # The pools of the seasons just closed must exist for the carry-over.
        for season in previous:
            pool_for_season(season=season)
        season = season_create(
            league=league,
            by=by,
            starts_at=starts_at,
            ends_at=ends_at,
            registration_opens_at=registration_opens_at,
            registration_closes_at=registration_closes_at,
            name=name,
        )
        pool_for_season(season=season)
        pool_for_league(league=league)
    return season


def _status_at(
    now: datetime, starts_at: datetime, ends_at: datetime, opens_at: datetime
) -> str:
    if now >= ends_at:
        return SeasonStatus.FINISHED
    if now >= starts_at:
        return SeasonStatus.RUNNING
    if now >= opens_at:
        return SeasonStatus.OPEN
    return SeasonStatus.UPCOMING


def season_update_statuses(*, now: datetime | None = None) -> int:
    """Move seasons along their dates (beat): upcoming, open, running, finished.

    A season only moves forward, so an organiser's rollover is never undone.
    """
    now = now or timezone.now()
    order = [
        SeasonStatus.UPCOMING,
        SeasonStatus.OPEN,
        SeasonStatus.RUNNING,
        SeasonStatus.FINISHED,
    ]
    changed = 0
    for season in Season.objects.exclude(status=SeasonStatus.FINISHED):
        target = _status_at(
            now, season.starts_at, season.ends_at, season.registration_opens_at
        )
        if order.index(target) > order.index(season.status):
            Season.objects.filter(pk=season.pk, status=season.status).update(
                status=target
            )
            changed += 1
    return changed


def league_match_create(
    *,
    season: Season,
    by: User,
    participant_ids: list[int],
    rated: bool = False,
) -> Match:
    """Start a league game between registered participants (feeds the pools).

    Organisers may pair anyone registered; a player may start a game that
    includes themselves or a bot they own. ``rated`` also feeds the global
    ladder; the league and season pools are fed regardless.
    """
    league = season.league
    if season.status != SeasonStatus.RUNNING:
        raise Conflict("league games are played while the season is running")
    if len(participant_ids) != len(set(participant_ids)) or len(participant_ids) < 2:
        raise Invalid("name at least two different participants")
    registered = {
        r.participant_id: r.participant
        for r in Registration.objects.filter(
            season=season,
            participant_id__in=participant_ids,
            status=RegistrationStatus.APPROVED,
        ).select_related("participant__user")
    }
    missing = [pid for pid in participant_ids if pid not in registered]
    if missing:
        raise Invalid("every participant must be registered for this season")
    participants = [registered[pid] for pid in participant_ids]
    if not is_organiser(league=league, user=by) and not any(
        can_manage(by, p) for p in participants
    ):
        raise PermissionDenied("you may only start league games you take part in")
    seats = []
    for p in participants:
        user, agent = seat_agent_for(p)
        seats.append(SeatSpec(user=user, agent=agent))
    try:
        match = gameplay_services.match_create(
            game=league.game,
            seats=seats,
            config=league_game_options(league),
            rated=rated,
            host=by,
            context=f"league:{league.pk}:season:{season.pk}",
        )
        return gameplay_services.match_start(match_id=match.pk)
    except MatchError as exc:
        raise Invalid(exc.message) from exc
