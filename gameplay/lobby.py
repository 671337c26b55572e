"""Lobby services: open tables, direct challenges and the quick-play queue.

A table is simply a match in the ``waiting`` state with open seats; starting it
is ``services.match_start``. Everything here locks what it changes, so two
players racing for the last seat cannot both get it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from accounts.models import User
from gameplay import agents, broadcast, services
from gameplay.errors import (
    BadRequest,
    Forbidden,
    MatchNotFound,
    NotActive,
    config_refused,
)
from gameplay.models import (
    Challenge,
    ChallengeStatus,
    Match,
    MatchStatus,
    QueueEntry,
    Seat,
)
from gameplay.moverule import is_realtime
from gameplay.options import OptionError, clean_table_options
from gameplay.rules import Game, GameError, get_game
from gameplay.services import SeatSpec
from gameplay.signals import challenge_answered, challenge_created, seat_changed

# league registers a provider so that rated quick play can pair near ratings
# without gameplay importing league: (user, game) -> rating or None.
RatingProvider = Callable[[User, str], float | None]
_rating_provider: RatingProvider | None = None


def set_rating_provider(provider: RatingProvider | None) -> None:
    global _rating_provider
    _rating_provider = provider


def _rating_of(user: User, game: str) -> float | None:
    return _rating_provider(user, game) if _rating_provider else None


class UploadedBotProvider(Protocol):
    """What the bots app tells the lobby about uploaded bots (gameplay cannot
    import it): which may be seated at a table of ``game`` now, and the seat
    agent and label for one of them. Values look like ``upload:<bot id>``."""

    def seatable(self, game: str) -> list[tuple[str, str]]: ...

    def resolve(self, game: str, value: str) -> tuple[str, str] | None: ...


_uploaded_bots: UploadedBotProvider | None = None


def set_uploaded_bot_provider(provider: UploadedBotProvider | None) -> None:
    global _uploaded_bots
    _uploaded_bots = provider


def seatable_uploaded_bots(*, game: str) -> list[tuple[str, str]]:
    """(value, name) of the uploaded bots a host may seat (empty without bots app)."""
    return _uploaded_bots.seatable(game) if _uploaded_bots else []


class ConnectedBotProvider(Protocol):
    """What the bots app tells the lobby about connected bots (bot accounts
    that play through the bot API from their authors' machines): which are
    online for ``game`` now, and the account's user for one of them. A
    connected bot sits in its seat as that user, like a person who joined.
    Values look like ``connected:<username>``."""

    def seatable(self, game: str) -> list[tuple[str, str]]: ...

    def resolve(self, game: str, value: str) -> User | None: ...


_connected_bots: ConnectedBotProvider | None = None


def set_connected_bot_provider(provider: ConnectedBotProvider | None) -> None:
    global _connected_bots
    _connected_bots = provider


def seatable_connected_bots(*, game: str) -> list[tuple[str, str]]:
    """(value, name) of the connected bots online for ``game`` that a host may
    seat (empty without the bots app)."""
    return _connected_bots.seatable(game) if _connected_bots else []


# The community app registers who may not meet whom (blocks) without gameplay
# importing it: (one user, another) -> True when they may play each other.
MeetingGuard = Callable[[User, User], bool]
_meeting_guard: MeetingGuard | None = None


def set_meeting_guard(guard: MeetingGuard | None) -> None:
    global _meeting_guard
    _meeting_guard = guard


def _may_meet(one: User, other: User) -> bool:
    return _meeting_guard(one, other) if _meeting_guard else True


def tables_open_to(*, user: User, tables: list[Match]) -> list[Match]:
    """``tables`` less those whose host may not meet ``user`` (a block either
    way): the blocked user's list of open tables never shows the blocker's."""
    allowed: dict[int, bool] = {}
    shown = []
    for table in tables:
        host_id = table.host_id
        if host_id is not None and host_id != user.pk:
            if host_id not in allowed:
                allowed[host_id] = table.host is None or _may_meet(table.host, user)
            if not allowed[host_id]:
                continue
        shown.append(table)
    return shown


# And whom a user accepts challenges from (their profile's setting, which may
# name the players they follow): (challenger, challenged) -> True when allowed.
ChallengeGuard = Callable[[User, User], bool]
_challenge_guard: ChallengeGuard | None = None


def set_challenge_guard(guard: ChallengeGuard | None) -> None:
    global _challenge_guard
    _challenge_guard = guard


def _may_challenge(challenger: User, challenged: User) -> bool:
    return _challenge_guard(challenger, challenged) if _challenge_guard else True


# And who may not play rated games now (a moderator's suspension): user -> True
# when they may.
RatedGuard = Callable[[User], bool]
_rated_guard: RatedGuard | None = None


def set_rated_guard(guard: RatedGuard | None) -> None:
    global _rated_guard
    _rated_guard = guard


def _check_rated(user: User, rated: bool) -> None:
    if rated and _rated_guard is not None and not _rated_guard(user):
        raise Forbidden(N_("you are suspended from rated play for now"))


def _locked_table(match_id: int) -> Match:
    try:
        match = Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist as exc:
        raise MatchNotFound(N_("no such table")) from exc
    if match.status != MatchStatus.WAITING:
        raise NotActive(N_("this table has already started or closed"))
    return match


def table_create(
    *,
    host: User,
    game: str,
    players: int,
    options: dict[str, Any] | None = None,
    rated: bool = False,
    time_control: dict[str, Any] | None = None,
    spectator_delay: int = 0,
) -> Match:
    """Open a table with the host in seat 0 and the other seats open."""
    _check_rated(host, rated)
    if not isinstance(players, int) or isinstance(players, bool):
        raise BadRequest(N_("players must be a whole number"))
    options = _public_options(game, options)
    seats = [SeatSpec(user=host)] + [SeatSpec() for _ in range(players - 1)]
    return services.match_create(
        game=game,
        seats=seats,
        config=options,
        rated=rated,
        time_control=time_control,
        host=host,
        spectator_delay=spectator_delay,
    )


def _public_options(game: str, options: object) -> dict[str, Any]:
    try:
        return clean_table_options(game, options)
    except OptionError as exc:
        raise config_refused(exc) from exc


def _first_open_seat(match: Match) -> Seat | None:
    return match.seats.filter(user__isnull=True, agent="").order_by("number").first()


def _start_if_full(match: Match) -> None:
    if not any(seat.is_open for seat in match.seats.all()):
        services.match_start(match_id=match.pk)


@transaction.atomic
def table_join(*, match_id: int, user: User) -> Seat:
    """Take the first open seat; a full table starts by itself."""
    match = _locked_table(match_id)
    if match.seats.filter(user=user).exists():
        raise BadRequest(N_("you already have a seat at this table"))
    if match.host is not None and not _may_meet(match.host, user):
        raise BadRequest(N_("this table is not available"))
    _check_rated(user, match.rated)
    seat = _first_open_seat(match)
    if seat is None:
        raise BadRequest(N_("this table is full"))
    seat.user = user
    seat.save(update_fields=["user"])
    _announce_seat(match_id, seat.number, user.pk, "joined")
    _start_if_full(match)
    transaction.on_commit(lambda: broadcast.match_changed(match_id=match_id))
    return seat


@transaction.atomic
def table_leave(*, match_id: int, user: User) -> None:
    """Give a seat back; the host leaving closes the table."""
    match = _locked_table(match_id)
    seat = match.seats.filter(user=user).first()
    if seat is None:
        raise BadRequest(N_("you have no seat at this table"))
    if match.host_id == user.pk:
        match.status = MatchStatus.ABORTED
        match.end_reason = "host left"
        match.finished_at = timezone.now()
        match.save()
    else:
        seat.user = None
        seat.save(update_fields=["user"])
        _announce_seat(match_id, seat.number, user.pk, "left")
    transaction.on_commit(lambda: broadcast.match_changed(match_id=match_id))


def _announce_seat(match_id: int, seat_number: int, user_id: int, change: str) -> None:
    """``seat_changed`` after the commit (the community app's chat lines)."""
    transaction.on_commit(
        lambda: seat_changed.send_robust(
            sender=Match,
            match_id=match_id,
            seat_number=seat_number,
            user_id=user_id,
            change=change,
            reason="",
        )
    )


@transaction.atomic
def table_fill_with_bot(*, match_id: int, user: User, bot: str) -> Seat:
    """The host seats a bot in an open seat: a built-in bot of the chosen
    strength, an uploaded bot (``upload:<bot id>``) that can play now, or a
    connected bot online now (``connected:<username>``)."""
    match = _locked_table(match_id)
    if match.host_id != user.pk:
        raise Forbidden(N_("only the host can seat bots"))
    if agents.is_connected_choice(bot):
        return _seat_connected_bot(match, host=user, value=bot)
    label = ""
    if agents.is_upload_choice(bot):
        resolved = _uploaded_bots.resolve(match.game, bot) if _uploaded_bots else None
        if resolved is None:
            raise BadRequest(N_("that uploaded bot cannot play at this table now"))
        agent, label = resolved
    else:
        agent = agents.builtin_agent(bot)

    services.validate_agent(agent, get_game(match.game))
    if match.rated:
        seated = [s.agent for s in match.seats.all() if s.user_id is None]
        repeated = services.repeated_bot_error([*seated, agent])
        if repeated:
            raise BadRequest(repeated)
    seat = _first_open_seat(match)
    if seat is None:
        raise BadRequest(N_("this table has no open seat"))
    taken = [
        s.display_name for s in match.seats.select_related("user") if not s.is_open
    ]
    seat.agent = agent
    seat.label = services.bot_seat_label(taken=taken, agent=agent, label=label)
    seat.save(update_fields=["agent", "label"])
    _start_if_full(match)
    transaction.on_commit(lambda: broadcast.match_changed(match_id=match_id))
    return seat


def _seat_connected_bot(match: Match, *, host: User, value: str) -> Seat:
    """Seat an online connected bot (``connected:<username>``) as its own
    user: the seat is a person's seat, so the match's clocks, the grace
    period, claims and the seat's view are the ones a person gets. Its event
    stream tells it the seat and, when the table starts, the game."""
    bot_user = _connected_bots.resolve(match.game, value) if _connected_bots else None
    if bot_user is None:
        raise BadRequest(N_("that connected bot is not online for this game now"))
    if match.seats.filter(user=bot_user).exists():
        raise BadRequest(N_("that bot has a seat at this table already"))
    if not _may_meet(host, bot_user):
        raise BadRequest(N_("that bot cannot be seated at this table"))
    _check_rated(bot_user, match.rated)
    seat = _first_open_seat(match)
    if seat is None:
        raise BadRequest(N_("this table has no open seat"))
    seat.user = bot_user
    seat.save(update_fields=["user"])
    match_id = match.pk
    _announce_seat(match_id, seat.number, bot_user.pk, "joined")
    _start_if_full(match)
    transaction.on_commit(lambda: broadcast.match_changed(match_id=match_id))
    return seat


def _bot_lineup(*, engine: Game, bot: str, others: int, rated: bool) -> list[str]:
    """The built-in bots for a person's ``others`` opponents: the chosen
    ``bot`` first; the rest the same bot, or at a rated game (each bot once,
    ``services.repeated_bot_error``) the other bots that play the game, the
    nearest in strength first."""
    from gameplay.rules.bots import BOT_STRENGTHS, bot_plays

    if not rated:
        return [bot] * others
    ladder = [name for name in BOT_STRENGTHS if bot_plays(name, engine)]
    at = ladder.index(bot) if bot in ladder else 0
    nearest = sorted(ladder, key=lambda name: (abs(ladder.index(name) - at), name))
    if len(nearest) < others:
        raise BadRequest(
            N_(
                "a rated game seats each bot once, and only %(count)s built-in "
                "bot(s) play %(game)s: play it casual"
            ),
            params={"count": len(nearest), "game": engine.name},
        )
    return nearest[:others]


def play_bot(*, user: User, game: str, bot: str, rated: bool = False) -> Match:
    """Start a game against the computer at once: the person in seat 0 and
    the built-in ``bot`` (a strength from ``BOT_STRENGTHS``) opposite, in a
    game of the fewest players the game allows (a bigger table of bots is
    "Open a table"). Rated only when the person asks."""
    _check_rated(user, rated)
    try:
        engine = get_game(game)
    except GameError as exc:
        raise config_refused(exc) from exc
    services.validate_agent(agents.builtin_agent(bot), engine)
    others = engine.min_players - 1
    names = _bot_lineup(engine=engine, bot=bot, others=others, rated=rated)
    seats = [SeatSpec(user=user)] + [
        SeatSpec(agent=agents.builtin_agent(name)) for name in names
    ]
    with transaction.atomic():
        match = services.match_create(
            game=game, seats=seats, rated=rated, host=user, config={}
        )
        return services.match_start(match_id=match.pk)


@transaction.atomic
def table_start(*, match_id: int, user: User) -> Match:
    """The host starts now; open seats are removed and the player count shrinks."""
    match = _locked_table(match_id)
    if match.host_id != user.pk:
        raise Forbidden(N_("only the host can start this table"))
    seats = list(match.seats.order_by("number"))
    filled = [seat for seat in seats if not seat.is_open]

    try:
        match.config = get_game(match.game).validate_config(
            {**match.config, "players": len(filled)}
        )
    except GameError as exc:  # the seats taken are too few for the game
        raise config_refused(exc) from exc
    for seat in seats:
        if seat.is_open:
            seat.delete()
    for number, seat in enumerate(filled):
        if seat.number != number:
            Seat.objects.filter(pk=seat.pk).update(number=number)
    match.save(update_fields=["config"])
    return services.match_start(match_id=match.pk)


# --- Challenges ------------------------------------------------------------------


def challenge_create(
    *,
    challenger: User,
    challenged: User,
    game: str,
    options: dict[str, Any] | None = None,
    rated: bool = False,
    time_control: dict[str, Any] | None = None,
) -> Challenge:
    if challenger.pk == challenged.pk:
        raise BadRequest(N_("you cannot challenge yourself"))
    if not _may_meet(challenger, challenged) or not _may_challenge(
        challenger, challenged
    ):
        raise BadRequest(N_("this player is not available"))
    _check_rated(challenger, rated)
    if Challenge.objects.filter(
        challenger=challenger,
        challenged=challenged,
        game=game,
        status=ChallengeStatus.PENDING,
    ).exists():
        raise BadRequest(N_("you already have a pending challenge to this player"))

    options = _public_options(game, options)
    try:
        config = get_game(game).validate_config({**options, "players": 2})
    except GameError as exc:
        raise config_refused(exc) from exc
    challenge = Challenge.objects.create(
        challenger=challenger,
        challenged=challenged,
        game=game,
        config=config,
        rated=rated,
        time_control=services.validate_time_control(time_control),
    )
    challenge_pk = challenge.pk
    transaction.on_commit(
        lambda: challenge_created.send_robust(
            sender=Challenge, challenge_id=challenge_pk
        )
    )
    return challenge


# Why a challenge can no longer be answered, one message per way it ended.
_CHALLENGE_ENDED: dict[str, str] = {
    ChallengeStatus.ACCEPTED: N_("this challenge was already accepted"),
    ChallengeStatus.DECLINED: N_("this challenge was already declined"),
    ChallengeStatus.CANCELLED: N_("this challenge was already cancelled"),
}


def _locked_pending_challenge(challenge_id: int) -> Challenge:
    try:
        challenge = Challenge.objects.select_for_update().get(pk=challenge_id)
    except Challenge.DoesNotExist as exc:
        raise MatchNotFound(N_("no such challenge")) from exc
    if challenge.status != ChallengeStatus.PENDING:
        raise NotActive(
            _CHALLENGE_ENDED.get(
                challenge.status, N_("this challenge is no longer pending")
            )
        )
    return challenge


@transaction.atomic
def challenge_accept(*, challenge_id: int, user: User) -> Match:
    challenge = _locked_pending_challenge(challenge_id)
    if challenge.challenged_id != user.pk:
        raise Forbidden(N_("this challenge is not addressed to you"))
    _check_rated(user, challenge.rated)
    match = services.match_create(
        game=challenge.game,
        seats=[
            SeatSpec(user=challenge.challenger),
            SeatSpec(user=challenge.challenged),
        ],
        config=challenge.config,
        rated=challenge.rated,
        time_control=challenge.time_control,
        host=challenge.challenger,
    )
    challenge.status = ChallengeStatus.ACCEPTED
    challenge.match = match
    challenge.save(update_fields=["status", "match"])
    _announce_answered(challenge)
    return services.match_start(match_id=match.pk)


def _announce_answered(challenge: Challenge) -> None:
    challenge_pk, user_pk = challenge.pk, challenge.challenged_id
    transaction.on_commit(
        lambda: challenge_answered.send_robust(
            sender=Challenge, challenge_id=challenge_pk, user_id=user_pk
        )
    )


@transaction.atomic
def challenge_decline(*, challenge_id: int, user: User) -> Challenge:
    challenge = _locked_pending_challenge(challenge_id)
    if user.pk == challenge.challenged_id:
        challenge.status = ChallengeStatus.DECLINED
    elif user.pk == challenge.challenger_id:
        challenge.status = ChallengeStatus.CANCELLED
    else:
        raise Forbidden(N_("this challenge is not yours"))
    challenge.save(update_fields=["status"])
    _announce_answered(challenge)
    return challenge


# --- Quick play ------------------------------------------------------------------

BASE_WINDOW = 100.0
WINDOW_GROWTH_PER_SECOND = 10.0
MAX_WINDOW = 1000.0


def rating_window(*, waited_seconds: float) -> float:
    """How far apart two rated players may be: wider the longer they wait."""
    return min(MAX_WINDOW, BASE_WINDOW + WINDOW_GROWTH_PER_SECOND * waited_seconds)


def queue_join(
    *,
    user: User,
    game: str,
    players: int = 2,
    rated: bool = False,
    time_control: dict[str, Any] | None = None,
) -> Match | None:
    """Join the quick-play queue; returns the match if this completed a table.

    Players are paired only with others who asked for the same time control
    (untimed, a live clock or days per move)."""
    _check_rated(user, rated)
    try:
        engine = get_game(game)
        engine.validate_config({"players": players})
    except GameError as exc:
        raise config_refused(exc) from exc
    clean_time_control = services.validate_time_control(time_control)
    if clean_time_control and is_realtime(engine):
        raise BadRequest(N_("a real-time game has no turns to time"))
    try:
        with transaction.atomic():
            QueueEntry.objects.create(
                user=user,
                game=game,
                players=players,
                rated=rated,
                time_control=clean_time_control,
                rating=_rating_of(user, game) if rated else None,
            )
    except IntegrityError as exc:
        raise BadRequest(N_("you are already waiting in this game's queue")) from exc
    return queue_pair(game=game)


def queue_leave(*, user: User, game: str) -> bool:
    deleted, _ = QueueEntry.objects.filter(user=user, game=game).delete()
    return bool(deleted)


def _compatible(group: list[QueueEntry], candidate: QueueEntry, now: datetime) -> bool:
    # Two people one of whom blocked the other are never seated together.
    if not all(_may_meet(entry.user, candidate.user) for entry in group):
        return False
    if not candidate.rated:
        return True
    for entry in group:
        if entry.rating is None or candidate.rating is None:
            continue
        waited = (now - min(entry.joined_at, candidate.joined_at)).total_seconds()
        if abs(entry.rating - candidate.rating) > rating_window(waited_seconds=waited):
            return False
    return True


@transaction.atomic
def queue_pair(*, game: str, now: datetime | None = None) -> Match | None:
    """Seat the longest-waiting compatible players together; one table per call."""
    now = now or timezone.now()
    entries = list(
        QueueEntry.objects.select_for_update()
        .filter(game=game)
        .select_related("user")
        .order_by("joined_at")
    )
    for anchor in entries:
        group = [anchor]
        for candidate in entries:
            if candidate is anchor or candidate.players != anchor.players:
                continue
            if candidate.rated != anchor.rated:
                continue
            if candidate.time_control != anchor.time_control:
                continue
            if _compatible(group, candidate, now):
                group.append(candidate)
            if len(group) == anchor.players:
                break
        if len(group) == anchor.players:
            match = services.match_create(
                game=game,
                seats=[SeatSpec(user=entry.user) for entry in group],
                rated=anchor.rated,
                time_control=anchor.time_control,
            )
            QueueEntry.objects.filter(pk__in=[entry.pk for entry in group]).delete()
            return services.match_start(match_id=match.pk)
    return None
