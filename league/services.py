"""League writes: seasons, registrations, invitations, rollover, league matches.

Every function checks first and writes inside one transaction, so a refused
request (registering twice, outside the window, a bot for another game, an
organiser action by someone else) raises a ``LeagueError`` and changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from gameplay import services as gameplay_services
from gameplay.errors import MatchError, refusal_text
from gameplay.models import Match
from gameplay.moverule import is_realtime
from gameplay.rules import GameError, get_game
from gameplay.services import SeatSpec
from league.divisions.selectors import member_divisions
from league.divisions.services import season_divisions_build, season_divisions_rollover
from league.errors import Conflict, Invalid, NotFound, PermissionDenied
from league.models import (
    Invitation,
    League,
    Participant,
    ParticipantKind,
    Registration,
    RegistrationStatus,
    Season,
    SeasonQueueEntry,
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
from league.selectors import is_organiser, registration_window_open

ACTIVE_REGISTRATION = (RegistrationStatus.PENDING, RegistrationStatus.APPROVED)


def league_game_options(league: League) -> dict:
    """The game options of the league's matches (``elo`` holds pool settings)."""
    return {k: v for k, v in (league.options or {}).items() if k != "elo"}


def require_organiser(*, league: League, user: User | None) -> None:
    if not is_organiser(league=league, user=user):
        raise PermissionDenied(_("only this league's organisers may do that"))


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
            raise Invalid(
                _("%(name)s plays %(game)s, not %(wanted)s")
                % {"name": info.name, "game": info.game, "wanted": game}
            )
        participant = participant_for_bot(info)
        if not can_manage(user, participant):
            raise PermissionDenied(_("only the bot's owner may enter it"))
    if not kind_allows(kind, participant):
        refusal = (
            _("bots cannot take part here (%(kind)s)")
            if participant.is_bot
            else _("people cannot take part here (%(kind)s)")
        )
        raise Invalid(refusal % {"kind": ParticipantKind(kind).label.lower()})
    return participant


def season_register(
    *, season: Season, user: User, bot_id: int | None = None, game: str | None = None
) -> Registration:
    """Register the user (or their bot) for a season.

    An open league approves at once. An invite-only league approves invited
    participants at once and leaves others pending until an organiser decides.
    """
    league = season.league
    if game is not None and game != league.game:
        raise Invalid(
            _("%(name)s runs %(game)s, not %(wanted)s")
            % {"name": league.name, "game": league.game, "wanted": game}
        )
    if not registration_window_open(season):
        raise Conflict(_("registration for this season is closed"))
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
                raise Conflict(
                    _("%(name)s is already registered") % {"name": participant.name}
                )
            if existing.status == RegistrationStatus.REJECTED:
                raise Conflict(_("an organiser declined this registration"))
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
            raise Conflict(
                _("%(name)s is already registered") % {"name": participant.name}
            ) from exc


def season_withdraw(
    *, season: Season, user: User, bot_id: int | None = None
) -> Registration:
    """Withdraw from a season that has not finished."""
    if season.status == SeasonStatus.FINISHED:
        raise Conflict(_("this season is over"))
    participant: Participant | None
    if bot_id is None:
        participant = participant_for_user(user)
    else:
        participant = Participant.objects.filter(
            key=Participant.bot_key(bot_id)
        ).first()
        if participant is None:
            raise NotFound(_("that bot is not registered here"))
        if not can_manage(user, participant):
            raise PermissionDenied(_("only the bot's owner may withdraw it"))
    with transaction.atomic():
        registration = (
            Registration.objects.select_for_update()
            .filter(
                season=season, participant=participant, status__in=ACTIVE_REGISTRATION
            )
            .first()
        )
        if registration is None:
            raise Conflict(
                _("%(name)s is not registered for this season")
                % {"name": participant.name}
            )
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
        raise NotFound(_("no such registration"))
    require_organiser(league=registration.season.league, user=by)
    with transaction.atomic():
        registration = Registration.objects.select_for_update().get(pk=registration_id)
        if registration.status != RegistrationStatus.PENDING:
            raise Conflict(_("this registration is not awaiting a decision"))
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
        raise Invalid(_("invite either a username or a bot id"))
    if username is not None:
        invitee = User.objects.filter(username=username).first()
        if invitee is None:
            raise NotFound(
                _("no player called %(username)s") % {"username": repr(username)}
            )
        participant = participant_for_user(invitee)
    else:
        assert bot_id is not None  # exactly one of the two, checked above
        info = bot_info(bot_id=bot_id)
        if info.game != league.game:
            raise Invalid(
                _("%(name)s plays %(game)s, not %(wanted)s")
                % {"name": info.name, "game": info.game, "wanted": league.game}
            )
        participant = participant_for_bot(info)
    if not kind_allows(league.participants, participant):
        raise Invalid(
            _("this league admits %(kinds)s")
            % {"kinds": league.get_participants_display().lower()}
        )
    with transaction.atomic():
        invitation, created = Invitation.objects.get_or_create(
            league=league, participant=participant, defaults={"invited_by": by}
        )
        if not created:
            raise Conflict(
                _("%(name)s is already invited") % {"name": participant.name}
            )
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
        raise Invalid(_("a season must end after it starts"))
    if registration_closes_at <= registration_opens_at:
        raise Invalid(_("registration must close after it opens"))
    if registration_closes_at > ends_at:
        raise Invalid(_("registration must close before the season ends"))


def league_set_correspondence_pool(
    *, league: League, by: User, separate: bool
) -> League:
    """An organiser keeps the league's correspondence games on a ladder of
    their own (``separate``) or with the live games' (docs/time-controls.md).
    Applies to games finished from now on."""
    require_organiser(league=league, user=by)
    if not isinstance(separate, bool):
        raise Invalid(_("say true or false"))
    League.objects.filter(pk=league.pk).update(correspondence_pool=separate)
    league.correspondence_pool = separate
    return league


def season_time_control(*, game: str, time_control: object) -> dict[str, Any]:
    """A season's or tournament's time control, checked for its game
    (``gameplay.timecontrol``; a real-time game takes none); ``Invalid``."""
    try:
        clean = gameplay_services.validate_time_control(time_control)
        if clean and is_realtime(get_game(game)):
            raise Invalid(
                _(
                    "a real-time game has no turns to time: its time limit is a game "
                    "option"
                )
            )
    except (MatchError, GameError) as exc:
        raise Invalid(refusal_text(exc)) from exc
    return clean


def season_create(
    *,
    league: League,
    by: User,
    starts_at: datetime,
    ends_at: datetime,
    registration_opens_at: datetime,
    registration_closes_at: datetime,
    name: str = "",
    time_control: dict[str, Any] | None = None,
    vacation_allowed: bool = True,
) -> Season:
    """A new season; ``time_control`` is its games' (live or correspondence),
    ``vacation_allowed`` whether a player's vacation pauses their clocks."""
    require_organiser(league=league, user=by)
    _check_dates(starts_at, ends_at, registration_opens_at, registration_closes_at)
    clean_tc = season_time_control(game=league.game, time_control=time_control)
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
            time_control=clean_tc,
            vacation_allowed=bool(vacation_allowed),
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
    time_control: dict[str, Any] | None = None,
    vacation_allowed: bool = True,
) -> Season:
    """Finish the league's current seasons and open the next one.

    The new season's rating pool starts from the last season's ratings when the
    league carries ratings over, and from the initial rating otherwise. In a
    league with divisions the finished tables are frozen and their players
    carried into the new season's divisions, one up or down where they
    finished in a zone (league.divisions.services).
    """
    require_organiser(league=league, user=by)
    _check_dates(starts_at, ends_at, registration_opens_at, registration_closes_at)
    season_time_control(game=league.game, time_control=time_control)
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
            time_control=time_control,
            vacation_allowed=vacation_allowed,
        )
        pool_for_season(season=season)
        pool_for_league(league=league)
        season_divisions_rollover(previous=previous, season=season)
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
    order: list[str] = [
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
    by: User | None,
    participant_ids: list[int],
    rated: bool = False,
) -> Match:
    """An organiser (or a pairing service, ``by=None``) starts a league game.

    Players never create league matches directly: a rated game between any
    registered participants without their consent would be a forced match.
    They enter through the season queue (:func:`season_queue_join`) or
    challenges. ``rated`` also feeds the global ladder; the league and season
    pools are fed regardless.
    """
    league = season.league
    if by is not None and not is_organiser(league=league, user=by):
        raise PermissionDenied(
            _(
                "only this league's organisers may pair league games; join the "
                "season's queue to play one"
            )
        )
    if season.status != SeasonStatus.RUNNING:
        raise Conflict(_("league games are played while the season is running"))
    if len(participant_ids) != len(set(participant_ids)) or len(participant_ids) < 2:
        raise Invalid(_("name at least two different participants"))
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
        raise Invalid(_("every participant must be registered for this season"))
    return _league_match(
        season=season,
        participants=[registered[pid] for pid in participant_ids],
        rated=rated,
        host=by,
    )


def _league_match(
    *,
    season: Season,
    participants: list[Participant],
    rated: bool,
    host: User | None,
) -> Match:
    """Create and start the match through gameplay's normal services.

    Starting through ``match_start`` is what tells the players (the "match
    started" push) and lets bots move, the same as any table.
    """
    league = season.league
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
            host=host,
            time_control=season.time_control,
            context=f"league:{league.pk}:season:{season.pk}",
        )
        return gameplay_services.match_start(match_id=match.pk)
    except MatchError as exc:
        raise Invalid(exc.message) from exc


# --- The season queue ------------------------------------------------------------


def _queue_participant(
    *, season: Season, user: User, bot_id: int | None
) -> Participant:
    """The user (or their bot), who must hold an approved registration."""
    participant: Participant | None
    if bot_id is None:
        participant = participant_for_user(user)
    else:
        participant = Participant.objects.filter(
            key=Participant.bot_key(bot_id)
        ).first()
        if participant is None:
            raise Invalid(_("that bot is not registered for this season"))
        if not can_manage(user, participant):
            raise PermissionDenied(_("only the bot's owner may queue it"))
    if not Registration.objects.filter(
        season=season, participant=participant, status=RegistrationStatus.APPROVED
    ).exists():
        raise Conflict(
            _("%(name)s is not registered for this season") % {"name": participant.name}
        )
    return participant


def season_queue_join(
    *,
    season: Season,
    user: User,
    players: int = 2,
    bot_id: int | None = None,
) -> Match | None:
    """Wait for a season game; returns the match if this completed one.

    Only approved registrations queue, only while the season runs. A bot is
    queued by its owner and must have a playable version, so a pairing never
    seats a bot that cannot move.
    """
    from gameplay.rules import GameError, get_game

    league = season.league
    if season.status != SeasonStatus.RUNNING:
        raise Conflict(_("season games are played while the season is running"))
    if not isinstance(players, int) or isinstance(players, bool):
        raise Invalid(_("players must be a whole number"))
    try:
        get_game(league.game).validate_config(
            {**league_game_options(league), "players": players}
        )
    except GameError as exc:
        raise Invalid(refusal_text(exc)) from exc
    participant = _queue_participant(season=season, user=user, bot_id=bot_id)
    if league.has_divisions:
        season_divisions_build(season=season)  # places a late registrant
    if participant.is_bot:
        seat_agent_for(participant)  # refuses a bot without a playable version
    try:
        with transaction.atomic():
            SeasonQueueEntry.objects.create(
                season=season, participant=participant, players=players, queued_by=user
            )
    except IntegrityError as exc:
        raise Conflict(
            _("%(name)s is already waiting") % {"name": participant.name}
        ) from exc
    return season_queue_pair(season=season)


def season_queue_leave(
    *, season: Season, user: User, bot_id: int | None = None
) -> bool:
    """Stop waiting; False when the participant was not in the queue."""
    participant: Participant | None
    if bot_id is None:
        participant = participant_for_user(user)
    else:
        participant = Participant.objects.filter(
            key=Participant.bot_key(bot_id)
        ).first()
        if participant is None:
            return False
        if not can_manage(user, participant):
            raise PermissionDenied(
                _("only the bot's owner may take it out of the queue")
            )
    deleted, _kinds = SeasonQueueEntry.objects.filter(
        season=season, participant=participant
    ).delete()
    return bool(deleted)


def season_queue_pair(*, season: Season) -> Match | None:
    """Seat the longest-waiting entries of one table size together (one game).

    Locks the season's entries, so two joins racing cannot seat one entry
    twice. Entries whose registration was withdrawn meanwhile are dropped. Each
    game is built around the longest-waiting person, filled with the next
    entries (people or queued bots) of the same division when the league has
    divisions; only a bots-only league pairs bots among themselves, so queued
    bots in a mixed league wait for a person.
    """
    with transaction.atomic():
        entries = list(
            # Lock the queue rows only: PostgreSQL cannot lock the nullable side
            # of the participant -> user outer join.
            SeasonQueueEntry.objects.select_for_update(of=("self",))
            .filter(season=season)
            .select_related("participant__user")
            .order_by("joined_at", "pk")
        )
        approved = set(
            Registration.objects.filter(
                season=season,
                participant_id__in=[e.participant_id for e in entries],
                status=RegistrationStatus.APPROVED,
            ).values_list("participant_id", flat=True)
        )
        stale = [e.pk for e in entries if e.participant_id not in approved]
        if stale:
            SeasonQueueEntry.objects.filter(pk__in=stale).delete()
        entries = [e for e in entries if e.participant_id in approved]
        bots_league = season.league.participants == ParticipantKind.BOTS
        # With divisions, a season game is played within one division.
        division = (
            member_divisions(season=season) if season.league.has_divisions else {}
        )
        for anchor in entries:
            if anchor.participant.is_bot and not bots_league:
                continue  # a game needs a person waiting; bots fill it
            others = [
                e
                for e in entries
                if e is not anchor
                and e.players == anchor.players
                and division.get(e.participant_id)
                == division.get(anchor.participant_id)
            ]
            group = [anchor, *others[: anchor.players - 1]]
            if len(group) < anchor.players:
                continue
            match = _league_match(
                season=season,
                participants=[e.participant for e in group],
                rated=False,
                host=None,
            )
            SeasonQueueEntry.objects.filter(pk__in=[e.pk for e in group]).delete()
            return match
    return None
