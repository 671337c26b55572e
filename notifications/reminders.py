"""'Your move' away from the site: e-mail and browser push (issue 30 §3).

In a correspondence game (``gameplay.turns.is_correspondence``) a move may
wait days, and the player is usually not on the site when it becomes theirs.
When the broadcast of such a game finds a person to move with no connection
to the table (``receivers.turn_messages``), one ``TurnReminder`` is stored
for that move (its clock's start names it, so repeated broadcasts add
nothing) and a task delivers it:

- push: at once, to every browser the player turned push on in, if the
  profile's push setting is on;
- e-mail, by the profile's choice: one per game, but at most one per game in
  ``YOUR_MOVE_EMAIL_HOURS`` (a later move's e-mail waits for the period's end
  and goes only if the move still waits); or a daily digest at
  ``YOUR_MOVE_DIGEST_HOUR`` in the player's time zone listing every game
  waiting for them, by urgency; or none.

Each channel is claimed on the row before it is used, so a redelivered task
or a second sweep sends nothing twice; and each checks, when it runs, that
the move still waits for a player who is still away.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User, YourMoveEmail
from gameplay import clocks, turns, vacation
from gameplay.catalog import game_name
from gameplay.models import Match, MatchStatus, Seat
from languages.text import and_list, in_language_of
from notifications import enqueue, unsubscribe, webpush
from notifications.models import PushSubscription, TurnReminder

logger = logging.getLogger(__name__)

SWEEP_LIMIT = 500  # reminders one sweep handles at most (the next takes the rest)
PUSH_RESCUE = timedelta(hours=1)  # a lost push task is retried this long
KEEP = timedelta(days=30)  # reminders done are kept this long (the admin's view)


def email_period() -> timedelta:
    return timedelta(hours=settings.YOUR_MOVE_EMAIL_HOURS)


def wants_email(user: User) -> bool:
    return (
        bool(user.email)
        and user.is_active
        and user.your_move_email != YourMoveEmail.OFF
    )


def wants_push(user: User) -> bool:
    return user.is_active and user.your_move_push and webpush.push_configured()


def next_digest(*, user: User, now: datetime) -> datetime:
    """The player's next digest time: ``YOUR_MOVE_DIGEST_HOUR`` o'clock in
    their time zone (UTC if unset), today if still ahead, else tomorrow."""
    zone = ZoneInfo(user.time_zone or "UTC")
    local = now.astimezone(zone)
    slot = local.replace(
        hour=settings.YOUR_MOVE_DIGEST_HOUR, minute=0, second=0, microsecond=0
    )
    if slot <= local:
        slot = (slot + timedelta(days=1)).replace(hour=settings.YOUR_MOVE_DIGEST_HOUR)
    return slot.astimezone(ZoneInfo("UTC"))


def _email_due(
    *, user: User, match: Match, now: datetime, back: datetime | None = None
) -> datetime | None:
    """When this move's e-mail may go. ``back``: the end of the player's
    vacation now running (nobody is nagged on vacation: the e-mail waits)."""
    if not wants_email(user):
        return None
    if back is not None:
        now = max(now, back)
    if user.your_move_email == YourMoveEmail.DIGEST:
        return next_digest(user=user, now=now)
    last = (
        TurnReminder.objects.filter(user=user, match=match, email_sent=True)
        .order_by("-emailed_at")
        .values_list("emailed_at", flat=True)
        .first()
    )
    if last is None:
        return now
    return max(now, last + email_period())


def turn_reminders_create(
    *, match: Match, seats: list[Seat], now: datetime | None = None
) -> list[TurnReminder]:
    """Store one reminder per move for these absent seats to move, once.

    ``seats``: people to move in ``match`` with no connection to its table
    (their users loaded). Only for correspondence games; a player who wants
    neither e-mail nor push gets no row. The deliveries are queued after the
    commit; the rest (digests, e-mails that wait) is the sweep's.
    """
    if match.status != MatchStatus.ACTIVE or not turns.is_correspondence(match):
        return []
    now = now or timezone.now()
    starts: dict[int, tuple[Seat, datetime]] = {}
    for seat in seats:
        user = seat.user
        if user is None or not (wants_email(user) or wants_push(user)):
            continue
        start = clocks.clock_start(match=match, seat=seat)
        if start is not None:
            starts[user.pk] = (seat, start)
    if not starts:
        return []
    known = set(
        TurnReminder.objects.filter(match=match, user_id__in=list(starts)).values_list(
            "user_id", "turn_started"
        )
    )
    if all((uid, start) in known for uid, (_, start) in starts.items()):
        return []
    away = vacation.away_until(user_ids=list(starts), now=now)
    created = []
    for user_id, (seat, start) in starts.items():
        if (user_id, start) in known:
            continue
        user = seat.user
        assert user is not None
        try:
            with transaction.atomic():
                reminder = TurnReminder.objects.create(
                    user=user,
                    match=match,
                    turn_started=start,
                    created_at=now,
                    email_due_at=_email_due(
                        user=user, match=match, now=now, back=away.get(user_id)
                    ),
                    # Nothing to push (not wanted, or on vacation): the
                    # channel is done from the start.
                    pushed_at=(
                        None if wants_push(user) and user_id not in away else now
                    ),
                )
        except IntegrityError:  # a concurrent broadcast stored the same move
            continue
        created.append(reminder)
        transaction.on_commit(partial(enqueue.turn_reminder, reminder.pk))
    return created


def _waiting_seat(reminder: TurnReminder, now: datetime) -> Seat | None:
    """The player's seat if the reminded move still waits for them and they
    are still away from the table; None otherwise."""
    match = reminder.match
    if match.status != MatchStatus.ACTIVE:
        return None
    seat = (
        Seat.objects.select_related("user")
        .filter(match=match, user_id=reminder.user_id)
        .first()
    )
    if seat is None or clocks.seat_is_present(seat, now):
        return None
    if vacation.away_until(user_ids=[reminder.user_id], now=now):
        return None  # on vacation: their clocks stand still, nobody nags
    actors = turns.actors_of(match)
    if not turns.seat_to_move(seat, actors):
        return None
    if clocks.clock_start(match=match, seat=seat) != reminder.turn_started:
        return None  # moved since; a later move has its own reminder
    return seat


def _time_left_words(*, match: Match, seat: Seat, now: datetime) -> str:
    left = turns.time_left(
        match=match, seat=seat, actors=turns.actors_of(match), now=now
    )
    if left is None:
        return ""
    return _("%(time)s left") % {"time": timeuntil(now + left, now)}


def _opponents(match: Match, seat: Seat) -> str:
    """The other seats' names, "A, B and C" in the active language."""
    return and_list(
        [s.display_name for s in match.seats.all() if s.number != seat.number]
    )


def turn_reminder_deliver(*, reminder_id: int, now: datetime | None = None) -> None:
    """Push now if not done; e-mail if it is due and one e-mail per game was
    chosen (digests are the sweep's). Idempotent: each channel is claimed."""
    now = now or timezone.now()
    reminder = (
        TurnReminder.objects.select_related("user", "match")
        .filter(pk=reminder_id)
        .first()
    )
    if reminder is None:
        return
    if reminder.pushed_at is None:
        claimed = TurnReminder.objects.filter(
            pk=reminder.pk, pushed_at__isnull=True
        ).update(pushed_at=now)
        if claimed:
            _push(reminder, now)
    user = reminder.user
    if (
        reminder.emailed_at is None
        and reminder.email_due_at is not None
        and reminder.email_due_at <= now
        and user.your_move_email == YourMoveEmail.EACH
    ):
        turn_reminder_email(reminder_id=reminder.pk, now=now)


def _push(reminder: TurnReminder, now: datetime) -> int:
    user = reminder.user
    if not wants_push(user):
        return 0
    seat = _waiting_seat(reminder, now)
    if seat is None:
        return 0
    match = reminder.match
    name = game_name(match.game)
    with in_language_of(user):
        left = _time_left_words(match=match, seat=seat, now=now)
        against = _opponents(match, seat)
        body = " ".join(
            part
            for part in (
                _("Against %(names)s.") % {"names": against} if against else "",
                left,
            )
            if part
        )
        title = _("Your move in %(game)s") % {"game": name}
    payload = {
        "title": title,
        "body": body,
        "url": settings.SITE_URL.rstrip("/") + turns.match_url(match),
        "tag": f"your-move-{match.public_id}",
    }
    deadline = turns.time_left(
        match=match, seat=seat, actors=turns.actors_of(match), now=now
    )
    ttl = deadline if deadline is not None else webpush.MAX_TTL
    sent = 0
    for subscription in PushSubscription.objects.filter(user=user):
        if webpush.push_send(subscription=subscription, payload=payload, ttl=ttl) == (
            webpush.SENT
        ):
            sent += 1
    return sent


def _footer(user: User) -> list[str]:
    link = unsubscribe.unsubscribe_url(user=user, topic=unsubscribe.YOUR_MOVE)
    profile = settings.SITE_URL.rstrip("/") + reverse("accounts:profile_edit")
    return [
        "",
        _("You get this because it is your move in a correspondence game."),
        _("Stop these e-mails (one click, no sign-in): %(link)s") % {"link": link},
        _("Choose e-mail, a daily digest or push on your profile: %(link)s")
        % {"link": profile},
    ]


def _send(*, user: User, subject: str, lines: list[str]) -> None:
    """Send (the active language: the caller's ``in_language_of(user)``)."""
    link = unsubscribe.unsubscribe_url(user=user, topic=unsubscribe.YOUR_MOVE)
    EmailMessage(
        subject=subject,
        body="\n".join(lines + _footer(user)),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers=unsubscribe.list_headers(url=link),
    ).send()


def turn_reminder_email(*, reminder_id: int, now: datetime | None = None) -> bool:
    """The one e-mail of one move, if it still waits (claimed first: at most
    once; a failing mail server releases the claim and raises for a retry)."""
    now = now or timezone.now()
    claimed = TurnReminder.objects.filter(
        pk=reminder_id, emailed_at__isnull=True
    ).update(emailed_at=now)
    if not claimed:
        return False
    reminder = TurnReminder.objects.select_related("user", "match").get(pk=reminder_id)
    user = reminder.user
    if not wants_email(user) or user.your_move_email != YourMoveEmail.EACH:
        return False
    seat = _waiting_seat(reminder, now)
    if seat is None:
        return False  # moved, or at the table: nothing to tell
    match = reminder.match
    name = game_name(match.game)
    try:
        # A worker: the e-mail speaks the player's language, not the worker's.
        with in_language_of(user):
            _turn_email_send(user=user, match=match, seat=seat, name=name, now=now)
    except Exception:
        TurnReminder.objects.filter(pk=reminder_id).update(emailed_at=None)
        raise
    TurnReminder.objects.filter(pk=reminder_id).update(email_sent=True)
    return True


def _turn_email_send(
    *, user: User, match: Match, seat: Seat, name: str, now: datetime
) -> None:
    against = _opponents(match, seat)
    left = _time_left_words(match=match, seat=seat, now=now)
    words = {"game": name, "names": against}
    if against:
        line = _("It is your move in %(game)s against %(names)s.") % words
        subject = _("Kung Fu Arena: your move in %(game)s against %(names)s") % words
    else:
        line = _("It is your move in %(game)s.") % words
        subject = _("Kung Fu Arena: your move in %(game)s") % words
    lines = [_("Hello %(name)s,") % {"name": user.public_name}, "", line]
    if left:
        lines.append(_("Time for this move: %(time)s.") % {"time": left})
    lines += ["", settings.SITE_URL.rstrip("/") + turns.match_url(match)]
    _send(user=user, subject=subject, lines=lines)


def turn_reminders_digest(*, user_id: int, now: datetime | None = None) -> bool:
    """One digest e-mail for a player whose reminders are due: every
    correspondence game waiting for their move, the least time left first.

    The due reminders are claimed first (a second sweep finds none); if no
    game waits any more (all played meanwhile), nothing is sent.
    """
    now = now or timezone.now()
    due = TurnReminder.objects.filter(
        user_id=user_id, emailed_at__isnull=True, email_due_at__lte=now
    )
    ids = list(due.values_list("pk", flat=True))
    if not ids or not due.filter(pk__in=ids).update(emailed_at=now):
        return False
    user = User.objects.get(pk=user_id)
    if not wants_email(user) or user.your_move_email != YourMoveEmail.DIGEST:
        return False
    games = [
        game
        for game in turns.player_games(user=user, now=now)
        if game.your_move and turns.is_correspondence(game.match)
    ]
    if not games:
        return False
    try:
        with in_language_of(user):
            _digest_send(user=user, games=games, now=now)
    except Exception:
        TurnReminder.objects.filter(pk__in=ids).update(emailed_at=None)
        raise
    TurnReminder.objects.filter(pk__in=ids).update(email_sent=True)
    return True


def _digest_send(*, user: User, games: list, now: datetime) -> None:
    site = settings.SITE_URL.rstrip("/")
    count = len(games)
    lines = [
        _("Hello %(name)s,") % {"name": user.public_name},
        "",
        ngettext(
            "%(count)s correspondence game waits for your move:",
            "%(count)s correspondence games wait for your move, the most urgent first:",
            count,
        )
        % {"count": count},
        "",
    ]
    for game in games:
        words = {"game": game.game_name, "names": and_list(game.opponents)}
        line = (
            _("%(game)s against %(names)s") % words
            if game.opponents
            else game.game_name
        )
        if game.deadline:
            left = _("%(time)s left") % {"time": timeuntil(game.deadline, now)}
            line = f"{line} ({left})"
        lines.append(f"- {line}")
        lines.append(f"  {site}{game.url}")
    subject = ngettext(
        "Kung Fu Arena: your move in %(count)s game",
        "Kung Fu Arena: your move in %(count)s games",
        count,
    ) % {"count": count}
    _send(user=user, subject=subject, lines=lines)


def turn_reminders_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Beat's pass: e-mails whose period ended, digests whose hour came,
    pushes whose task was lost. Each is claimed, so overlapping sweeps and
    tasks never send twice."""
    now = now or timezone.now()
    pending = TurnReminder.objects.filter(
        emailed_at__isnull=True, email_due_at__lte=now
    )
    # Turned e-mail off since: the channel is closed, nothing is sent.
    off = pending.filter(user__your_move_email=YourMoveEmail.OFF).update(emailed_at=now)
    each = list(
        pending.filter(user__your_move_email=YourMoveEmail.EACH).values_list(
            "pk", flat=True
        )[:SWEEP_LIMIT]
    )
    emailed = sum(turn_reminder_email(reminder_id=pk, now=now) for pk in each)
    digest_users = set(
        pending.filter(user__your_move_email=YourMoveEmail.DIGEST).values_list(
            "user_id", flat=True
        )[:SWEEP_LIMIT]
    )
    digests = sum(
        turn_reminders_digest(user_id=uid, now=now) for uid in sorted(digest_users)
    )
    lost = list(
        TurnReminder.objects.filter(
            pushed_at__isnull=True, created_at__gte=now - PUSH_RESCUE
        ).values_list("pk", flat=True)[:SWEEP_LIMIT]
    )
    for pk in lost:
        turn_reminder_deliver(reminder_id=pk, now=now)
    # Done long ago: nothing reads them any more (the period looks back hours).
    old, _ = (
        TurnReminder.objects.filter(created_at__lt=now - KEEP)
        .exclude(email_due_at__isnull=False, emailed_at__isnull=True)
        .exclude(pushed_at__isnull=True)
        .delete()
    )
    return {
        "emailed": emailed,
        "digests": digests,
        "off": off,
        "pushed": len(lost),
        "forgotten": old,
    }
