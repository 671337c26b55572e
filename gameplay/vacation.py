"""Vacation: days a player is away while their correspondence clocks stand still.

Each player has ``settings.VACATION_DAYS_PER_YEAR`` days a calendar year (UTC).
A vacation starts now and lasts whole days; coming back early ends it at once
and charges only the days begun. While it lasts, the clock of every
correspondence game the player is to move in does not run
(``clocks.seat_deadline`` spends the allowance outside the vacation), unless
the game's competition does not allow vacation
(``contexts.context_allows_vacation``: a tournament or season says). Live
games are never paused. The opponents see "on vacation until ..." at the
table (``frames.seats_public``) and on the player's profile.

This module holds the reads (the clocks ask it); taking and ending a vacation
are services (``gameplay.services.vacation``), which re-broadcast the tables
and re-arm their clock checks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from gameplay.contexts import context_allows_vacation
from gameplay.models import Match, Seat, Vacation

DAY = timedelta(days=1)


def days_per_year() -> int:
    return int(getattr(settings, "VACATION_DAYS_PER_YEAR", 30))


def charged_days(vacation: Vacation) -> int:
    """Days a vacation costs: each day begun (at least one)."""
    return max(1, math.ceil((vacation.ends_at - vacation.starts_at) / DAY))


def _year_start(now: datetime) -> datetime:
    return now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)


def vacation_days_used(*, user: User, now: datetime | None = None) -> int:
    """Days charged for vacations that began in ``now``'s calendar year."""
    now = now or timezone.now()
    start = _year_start(now)
    end = start.replace(year=start.year + 1)
    return sum(
        charged_days(v)
        for v in Vacation.objects.filter(
            user=user, starts_at__gte=start, starts_at__lt=end
        )
    )


def vacation_days_left(*, user: User, now: datetime | None = None) -> int:
    return max(0, days_per_year() - vacation_days_used(user=user, now=now))


def current_vacation(*, user_id: int, now: datetime | None = None) -> Vacation | None:
    now = now or timezone.now()
    return (
        Vacation.objects.filter(user_id=user_id, starts_at__lte=now, ends_at__gt=now)
        .order_by("-ends_at")
        .first()
    )


def away_until(
    *, user_ids: list[int], now: datetime | None = None
) -> dict[int, datetime]:
    """user id -> the end of their vacation now running (one query)."""
    now = now or timezone.now()
    out: dict[int, datetime] = {}
    rows = Vacation.objects.filter(
        user_id__in=user_ids, starts_at__lte=now, ends_at__gt=now
    ).values_list("user_id", "ends_at")
    for user_id, ends_at in rows:
        out[user_id] = max(ends_at, out.get(user_id, ends_at))
    return out


@dataclass(frozen=True)
class VacationStatus:
    """What the vacation page and API show a player."""

    days_per_year: int
    days_left: int
    away_until: datetime | None


def vacation_status(*, user: User, now: datetime | None = None) -> VacationStatus:
    now = now or timezone.now()
    current = current_vacation(user_id=user.pk, now=now)
    return VacationStatus(
        days_per_year=days_per_year(),
        days_left=vacation_days_left(user=user, now=now),
        away_until=current.ends_at if current is not None else None,
    )


def clock_pauses(
    *, match: Match, seat: Seat, since: datetime
) -> list[tuple[datetime, datetime]]:
    """The stretches after ``since`` during which ``seat``'s correspondence
    clock stands still: its player's vacations, when the match's competition
    allows vacation. Bots and uploaded bots never take vacation."""
    if seat.user_id is None or seat.agent or seat.replaced_by_bot:
        return []
    pauses = list(
        Vacation.objects.filter(user_id=seat.user_id, ends_at__gt=since).values_list(
            "starts_at", "ends_at"
        )
    )
    if not pauses or not context_allows_vacation(match):
        return []
    return pauses


def vacation_profile_section(user: User):
    """ "On vacation until ..." on a player's profile while they are away."""
    from accounts.profile import ProfileSection

    current = current_vacation(user_id=user.pk)
    if current is None:
        return None
    return ProfileSection(
        title=_("Vacation"),
        template="gameplay/_profile_vacation.html",
        context={"until": current.ends_at, "name": user.public_name},
    )
