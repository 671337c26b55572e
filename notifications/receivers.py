"""Reactions to gameplay's and league's announcements.

Each receiver turns one announcement into frames for the players' own
sockets and notifications for their lists. They run after the announcing
transaction committed (the announcements are sent from ``on_commit``), and are
cheap: a few reads and inserts; e-mail goes to a Celery task.
"""

from __future__ import annotations

import logging

from django.db.models import Prefetch
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.models import User
from gameplay import selectors, turns
from gameplay.catalog import game_name
from gameplay.models import Challenge, Match, MatchStatus, Seat
from gameplay.timecontrol import TimeControl
from languages.text import and_list, in_language_of, recipient_datetime
from notifications import live, reminders, services, sockets
from notifications.models import Notification, NotificationKind
from notifications.services import Draft

logger = logging.getLogger(__name__)


def on_match_started(sender, match_id: int, **kwargs) -> None:
    """Take every open page of each seated person to the game; note it."""
    match = (
        Match.objects.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user"))
        )
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        return
    seats = list(match.seats.all())
    name = game_name(match.game)
    url = turns.match_url(match)
    messages = []
    drafts = []
    people = [s for s in seats if s.user_id is not None]
    # A person alone with bots outside any competition started the game
    # themselves (Play a bot, a table of bots, a bot's challenge, a rematch)
    # and is on their way to it: nothing to tell them. A tournament or season
    # game against a bot was started for them, so it is told.
    self_started = len(people) == 1 and not match.context
    for seat in seats:
        if seat.user_id is None:
            continue
        opponents = [s.display_name for s in seats if s.number != seat.number]
        messages.append(
            live.message(
                seat.user_id,
                {
                    "type": "match_started",
                    "match": str(match.public_id),
                    "url": url,
                    "game": match.game,
                    "game_name": name,
                    "opponents": opponents,
                },
            )
        )
        if self_started:
            continue
        with in_language_of(seat.user):
            drafts.append(
                Draft(
                    user_id=seat.user_id,
                    kind=NotificationKind.GAME_STARTED,
                    key=f"game_started:{match.pk}",
                    title=_("Your game of %(game)s started") % {"game": name},
                    body=_against(opponents),
                    url=url,
                )
            )
    # The move first: a page that leaves for the game need not wait for a list.
    live.push(messages)
    services.notifications_create(drafts=drafts)


def _against(names: list[str]) -> str:
    """ "Against Ana and Mei." in the active language ("" for nobody)."""
    if not names:
        return ""
    return _("Against %(names)s.") % {"names": and_list(names)}


def _game_news(match_id: int) -> tuple[tuple[str, ...], str]:
    """The keys of a game's news: its start, and every "your move" in it."""
    return (f"game_started:{match_id}",), f"your_move:{match_id}:"


def on_match_opened(sender, match_id: int, user_id: int, **kwargs) -> None:
    """A player at the table has seen what the game's news told them."""
    keys, prefix = _game_news(match_id)
    services.notifications_resolve(user_ids=[user_id], keys=keys, prefix=prefix)


def on_match_finished(sender, match_id: int, **kwargs) -> None:
    """A finished game waits for nobody: its start and "your move" news stop
    counting (the result is on the game's page). One indexed update."""
    user_ids = list(
        Seat.objects.filter(match_id=match_id, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )
    keys, prefix = _game_news(match_id)
    services.notifications_resolve(user_ids=user_ids, keys=keys, prefix=prefix)


def on_challenge_answered(sender, challenge_id: int, user_id: int, **kwargs) -> None:
    """An accepted, declined or withdrawn challenge asks nothing any more."""
    services.notifications_resolve(
        user_ids=[user_id], keys=(f"challenge:{challenge_id}",)
    )


def on_challenge_created(sender, challenge_id: int, **kwargs) -> None:
    challenge = (
        Challenge.objects.select_related("challenger", "challenged")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None:
        return
    name = game_name(challenge.game)
    control = TimeControl.from_json(challenge.time_control)
    with in_language_of(challenge.challenged):
        title = _("%(name)s challenges you to %(game)s") % {
            "name": challenge.challenger.public_name,
            "game": name,
        }
        if control and challenge.rated:
            body = _("A rated game, %(time)s. Accept or decline it on the game's page.")
        elif control:
            body = _(
                "A casual game, %(time)s. Accept or decline it on the game's page."
            )
        elif challenge.rated:
            body = _("A rated game. Accept or decline it on the game's page.")
        else:
            body = _("A casual game. Accept or decline it on the game's page.")
        body = body % {"time": control.label} if control else body
    services.notifications_create(
        drafts=[
            Draft(
                user_id=challenge.challenged_id,
                kind=NotificationKind.CHALLENGE,
                key=f"challenge:{challenge.pk}",
                title=title,
                body=body,
                url=reverse("gameplay:game_detail", args=[challenge.game])
                + "#challenges",
            )
        ]
    )


def on_round_paired(sender, round_id: int, **kwargs) -> None:
    """Tell each person in the round whom they play (or of their bye); e-mail."""
    from league.models import Round

    rnd = (
        Round.objects.select_related("tournament")
        .filter(pk=round_id)
        .prefetch_related(
            "pairings__first__participant__user",
            "pairings__second__participant__user",
            "pairings__seats__entrant__participant__user",
        )
        .first()
    )
    if rnd is None:
        return
    tournament = rnd.tournament
    url = reverse("league:tournament", args=[tournament.slug])
    drafts = []
    for pairing in rnd.pairings.all():
        if tournament.is_tables:
            entrants = [s.entrant for s in sorted(pairing.seats.all(), key=_seat)]
        else:
            entrants = [e for e in (pairing.first, pairing.second) if e is not None]
        for entrant in entrants:
            user = entrant.participant.user
            if user is None:
                continue  # a bot: its owner follows the tournament page
            others = [str(e.participant) for e in entrants if e.pk != entrant.pk]
            with in_language_of(user):
                when = _("Starts %(starts)s; deadline %(deadline)s.") % {
                    "starts": recipient_datetime(rnd.starts_at, user),
                    "deadline": recipient_datetime(rnd.deadline, user),
                }
                title = _("Round %(number)s of %(tournament)s is paired") % {
                    "number": rnd.number,
                    "tournament": tournament.name,
                }
                if others:
                    body = _("You play %(names)s (table %(table)s).") % {
                        "names": and_list(others),
                        "table": pairing.table,
                    }
                else:
                    body = _("You have a bye this round.")
                body = f"{body} {when}"
            drafts.append(
                Draft(
                    user_id=user.pk,
                    kind=NotificationKind.ROUND_PAIRED,
                    key=f"round_paired:{rnd.pk}",
                    title=title,
                    body=body,
                    url=url,
                    email=services.wants_round_emails(user),
                )
            )
    services.notifications_create(drafts=drafts)


def on_checkin_opened(sender, tournament_id: int, **kwargs) -> None:
    """Tell every entrant (a bot's owner for the bot) that check-in is open."""
    from league.models import Tournament

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not tournament.checkin_minutes:
        return
    url = reverse("league:tournament", args=[tournament.slug])
    people: dict[int, list[str | None]] = {}
    for entrant in tournament.entrants.select_related(
        "participant__user", "participant__owner"
    ):
        participant = entrant.participant
        user = participant.user if not participant.is_bot else participant.owner
        if user is None:
            continue  # a built-in bot: always checked in
        # None: the person themselves ("you" in their own language).
        people.setdefault(user.pk, []).append(
            None if not participant.is_bot else participant.name
        )
    users = {u.pk: u for u in User.objects.filter(pk__in=people)}
    drafts = []
    for user_id, entries in people.items():
        if user_id not in users:
            continue
        user = users[user_id]
        with in_language_of(user):
            names = [_("you") if entry is None else entry for entry in entries]
            drafts.append(
                Draft(
                    user_id=user_id,
                    kind=NotificationKind.CHECK_IN,
                    key=f"check_in:{tournament.pk}",
                    title=_("Check in for %(tournament)s")
                    % {"tournament": tournament.name},
                    body=_(
                        "Check-in is open for %(names)s until the start, "
                        "%(starts)s. Whoever has not checked in then is removed."
                    )
                    % {
                        "names": and_list(names),
                        "starts": recipient_datetime(tournament.starts_at, user),
                    },
                    url=url,
                    email=services.wants_round_emails(user),
                )
            )
    services.notifications_create(drafts=drafts)


def _seat(table_seat) -> int:
    return table_seat.seat


def turn_messages(match: Match) -> live.Messages:
    """Broadcast listener: each seated person's socket learns if it is their move.

    Runs on every broadcast of a match, so it reads nothing for players at
    the table, and tells only players with a player socket open somewhere
    (``sockets.is_listening``). A person who is away from the table (no open
    connection to it) when it becomes their move also gets a "your move"
    notification, once until they read it; not at the deal, which "a game
    started" covers, nor in a game they started alone against bots before
    they first reach its table. A seat that left hears only of the end.
    """
    if match.status == MatchStatus.WAITING:
        return []  # nobody's move yet; the table's own socket follows it
    if match.status == MatchStatus.ACTIVE and not turns.has_turns(match.game):
        # A real-time table: nobody is ever to move, so a row that says "In
        # play" stays right until the match ends (that broadcast is sent);
        # every intent would otherwise send each seated player a frame.
        return []
    # The match page's path and the seats to act, worked out only for a
    # frame or a notice: most broadcasts of a live move tell nobody (the
    # players are at the table, with no player socket open).
    url = ""
    actors: set[int] | None = None
    messages: live.Messages = []
    absent_to_move: list[Seat] = []
    active = match.status == MatchStatus.ACTIVE
    # Every move of every match comes here: the prefetched seats as they are
    # (``match.seats.all()`` built a manager and a queryset each time).
    seats = selectors.seats_of(match)
    for seat in seats:
        if seat.user_id is None:
            continue
        if active and (seat.forfeited or seat.replaced_by_bot):
            # A seat that left (resigned, or a bot took it) sees what a
            # spectator sees: the spectator delay holds its match socket
            # back, so the live version must not reach it here either. The
            # match is no longer in its player's games (``turns.in_play``);
            # the end, public, is told.
            continue
        absent = (
            seat.connected == 0
            and match.version > 0
            and not _on_the_way(match, seats, seat)
        )
        listening = sockets.is_listening(seat.user_id)
        if not (absent or listening):
            continue  # at the table, no player socket open: nobody to tell
        if actors is None:
            actors = turns.actors_of(match)
        your_move = turns.seat_to_move(seat, actors)
        if your_move and absent:
            absent_to_move.append(seat)
        if not listening:
            continue  # no player socket open anywhere: nobody to tell
        url = url or turns.match_url(match)
        frame = {
            "type": "turn",
            "match": str(match.public_id),
            "url": url,
            "game": match.game,
            "version": match.version,
            "status": match.status,
            "your_move": your_move,
        }
        messages.append(live.message(seat.user_id, frame))
    if absent_to_move:
        url = url or turns.match_url(match)
        messages.extend(_your_move_notifications(match, absent_to_move, url))
        # A correspondence game: e-mail and push, once per move (a task).
        reminders.turn_reminders_create(match=match, seats=absent_to_move)
    return messages


def _on_the_way(match: Match, seats: list[Seat], seat: Seat) -> bool:
    """Alone with bots outside a competition, never at the table yet: the
    person started the game and is on the way to it (``on_match_started``),
    so the bots' first moves before they ever reach the table are nobody's
    news."""
    return (
        seat.seen_at is None
        and not match.context
        and sum(1 for s in seats if s.user_id) == 1
    )


def _your_move_notifications(
    match: Match, seats: list[Seat], url: str
) -> live.Messages:
    prefix = f"your_move:{match.pk}:"
    waiting = set(
        Notification.objects.filter(
            user_id__in=[s.user_id for s in seats],
            key__startswith=prefix,
            read_at__isnull=True,
        ).values_list("user_id", flat=True)
    )
    name = game_name(match.game)
    everyone = list(match.seats.all())
    drafts = []
    for seat in seats:
        assert seat.user is not None  # the people to move (caller's list)
        if seat.user_id in waiting or not seat.user.your_move_site:
            continue  # told already, or the player turned site notices off
        others = [s.display_name for s in everyone if s.number != seat.number]
        with in_language_of(seat.user):
            drafts.append(
                Draft(
                    user_id=seat.user.pk,
                    kind=NotificationKind.YOUR_MOVE,
                    key=f"{prefix}{match.version}",
                    title=_("Your move in %(game)s") % {"game": name},
                    body=_against(others),
                    url=url,
                )
            )
    created = services.notifications_create(drafts=drafts, push=False)
    return services.new_notification_messages([n.pk for n in created])
