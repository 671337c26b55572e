"""Taking vacation days and coming back early (the reads and the rules of the
allowance are in ``gameplay.vacation``).

Both re-broadcast the player's correspondence tables and re-arm their clock
checks after the commit: the deadlines and "on vacation until ..." change.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from gameplay import broadcast, enqueue
from gameplay.errors import BadRequest
from gameplay.models import Match, MatchStatus, Vacation
from gameplay.vacation import DAY, current_vacation, vacation_days_left


def _correspondence_matches(user: User) -> list[int]:
    return [
        pk
        for pk, control in Match.objects.filter(
            seats__user=user, status=MatchStatus.ACTIVE
        ).values_list("pk", "time_control")
        if control and control.get("days")
    ]


def _clocks_changed(user: User) -> None:
    """After the commit: the user's correspondence tables show the new
    deadlines and "on vacation until", and their clock checks are re-armed
    (a vacation cut short brings a deadline nearer)."""

    def hook() -> None:
        for match_id in _correspondence_matches(user):
            broadcast.match_changed(match_id=match_id)
            enqueue.schedule_clock_check(match_id=match_id)

    transaction.on_commit(hook)


@transaction.atomic
def vacation_start(
    *, user: User, days: object, now: datetime | None = None
) -> Vacation:
    """Go on vacation for ``days`` whole days from now, from this year's
    allowance. Refused (``BadRequest``, nothing changed) when already away,
    or when ``days`` is not a whole number within the days left."""
    now = now or timezone.now()
    if not isinstance(days, int) or isinstance(days, bool) or days < 1:
        raise BadRequest(_("vacation days must be a whole number of at least 1"))
    # The user's row serialises two requests of one player (days left).
    User.objects.select_for_update().filter(pk=user.pk).first()
    if current_vacation(user_id=user.pk, now=now) is not None:
        raise BadRequest(_("you are already on vacation"))
    left = vacation_days_left(user=user, now=now)
    if days > left:
        raise BadRequest(
            ngettext(
                "you have %(left)s vacation day left this year",
                "you have %(left)s vacation days left this year",
                left,
            )
            % {"left": left}
        )
    vacation = Vacation.objects.create(
        user=user, starts_at=now, ends_at=now + days * DAY, created_at=now
    )
    _clocks_changed(user)
    return vacation


@transaction.atomic
def vacation_end(*, user: User, now: datetime | None = None) -> Vacation:
    """Come back early: the running vacation ends now (only the days begun
    are charged) and the clocks run again from now."""
    now = now or timezone.now()
    vacation = current_vacation(user_id=user.pk, now=now)
    if vacation is None:
        raise BadRequest(_("you are not on vacation"))
    # The row keeps its (charged) days; a vacation ended the instant it
    # began still lasted a moment (``ends_at`` after ``starts_at``).
    vacation.ends_at = max(now, vacation.starts_at + timedelta(microseconds=1))
    vacation.save(update_fields=["ends_at"])
    _clocks_changed(user)
    return vacation
