"""Presence writes: sockets counted in and out, the grace period, the sweep.

Presence expires on its own: web processes vouch for their sockets'
seats (``seats_seen``), and beat writes off seats nobody vouched for within
the TTL, so a process that dies leaves no seat counted as connected.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from gameplay import broadcast, enqueue
from gameplay.clocks import (
    GRACE_SECONDS,
    NEVER_CONNECTED,
    absent_past_grace,
    presence_ttl,
    seat_is_present,
)
from gameplay.contexts import context_keeps_absent_seats, seat_keeping_prefixes
from gameplay.models import Match, MatchStatus, Seat
from gameplay.services.finish import forfeit_seat
from gameplay.services.locking import locked_match, seat_numbered
from gameplay.signals import match_opened

logger = logging.getLogger(__name__)


def _locked_seat_of(*, match_id: int, user: User) -> Seat | None:
    """The user's seat at a match, locked for a presence update (None: no seat)."""
    return Seat.objects.select_for_update().filter(match_id=match_id, user=user).first()


def seat_connected(*, match_id: int, user: User, announce: bool = True) -> bool:
    """A seat's player opened a connection (several tabs count separately).

    A count nobody has vouched for within the TTL belongs to sockets of a dead
    web process: it restarts from this connection. One UPDATE (the count is
    decided by the database, so two sockets connecting at once both count).
    ``announce=False``: the caller broadcasts the table itself (the live
    socket's owner does, from the read it makes anyway). False: no seat.
    """
    if user is None or not user.is_authenticated:
        return False
    sql, params = seat_connected_statement(
        user=user, now=timezone.now(), match=("%s", [match_id])
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        counted = cursor.rowcount
    if counted:
        seat_counted_in(match_id=match_id, user=user, announce=announce)
    return bool(counted)


def seat_connected_statement(
    *, user: User, now: datetime, match: tuple[str, list[Any]]
) -> tuple[str, list[Any]]:
    """``seat_connected``'s UPDATE (SQL and parameters), for a caller that
    sends it with other statements in one round trip (the live socket's
    open, with the match's read); it counts a row when the user has a seat,
    and then the caller calls ``seat_counted_in``. ``match``: SQL for the
    match's id and the values it binds (``%s`` with the id, or a subquery by public
    id)."""
    # Written as SQL, not built by the ORM: every socket's connect runs it,
    # and building this UPDATE (a Case with two conditions) was about 2,000
    # Python calls of a connect's ~10,500. Same statement the ORM made.
    adapt = connection.ops.adapt_datetimefield_value
    match_sql, match_params = match
    return (
        f"UPDATE {Seat._meta.db_table} SET connected = CASE "
        "WHEN connected > 0 AND seen_at > %s THEN connected + 1 ELSE 1 END, "
        "seen_at = %s, disconnected_at = NULL "
        f"WHERE match_id = {match_sql} AND user_id = %s",
        [adapt(now - presence_ttl()), adapt(now), *match_params, user.pk],
    )


def seat_counted_in(*, match_id: int, user: User, announce: bool = True) -> None:
    """What follows a seat counted in (``seat_connected``): the table told
    (``announce``), and the news that called the player here marked seen."""
    if announce:
        transaction.on_commit(lambda: broadcast.match_changed(match_id=match_id))
    user_pk = user.pk
    transaction.on_commit(
        lambda: match_opened.send_robust(
            sender=Match, match_id=match_id, user_id=user_pk
        )
    )


def _arm_grace(*, match_id: int, seat: Seat, now: datetime) -> None:
    """Queue the grace-period check of a seat that just went absent.

    Best effort: with the broker away the enqueue fails, and the beat sweep
    (``seats_sweep_absent``) hands the seat over instead.
    """
    from django.conf import settings

    if settings.CELERY_TASK_ALWAYS_EAGER or seat.disconnected_at is None:
        return
    due = seat.disconnected_at + timedelta(seconds=GRACE_SECONDS) - now
    try:
        enqueue.arm_grace_check(
            match_id=match_id,
            seat_number=seat.number,
            disconnected_at=seat.disconnected_at.isoformat(),
            countdown=max(0.0, due.total_seconds()) + 1,
        )
    except Exception:
        logger.warning(
            "could not queue the grace check of match %s seat %s; the sweep will",
            match_id,
            seat.number,
            exc_info=True,
        )


def seat_disconnected(*, match_id: int, user: User, announce: bool = True) -> bool:
    """A connection closed; the last one starts the grace period.

    Once the match is over, presence decides nothing (no claim, no grace
    period, no takeover), yet every finished game closes two sockets or more:
    then one UPDATE counts the socket out, without the row lock, the ORM's
    read and save, or the grace check's broker message (about 1,700 Python
    calls, for a task that would only find the match over). The table is
    still told, so the others see who left. ``announce=False``: the caller
    tells the table itself (the live socket's owner does, from the event
    loop). False: no seat of ``user``.
    """
    if user is None or not user.is_authenticated:
        return False
    now = timezone.now()
    sql, params = counted_out_after_the_end_statement(
        match_id=match_id, user=user, now=now
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        counted = cursor.rowcount > 0
    if counted:
        if announce:
            broadcast.match_changed(match_id=match_id)
        return True
    return seat_disconnected_in_play(
        match_id=match_id, user=user, now=now, announce=announce
    )


def seat_disconnected_in_play(
    *, match_id: int, user: User, now: datetime, announce: bool = True
) -> bool:
    """``seat_disconnected`` of a match not over (not counted out by
    ``counted_out_after_the_end_statement``): under the seat's row lock, the
    grace check armed when that was the seat's last connection. False: no
    seat of ``user``."""
    with transaction.atomic():
        seat = _locked_seat_of(match_id=match_id, user=user)
        if seat is None:
            return False
        present = seat_is_present(seat, now)
        seat.connected = max(0, seat.connected - 1) if present else 0
        if seat.connected == 0:
            # Absent since the last moment anyone vouched for the seat.
            seat.disconnected_at = now if present else (seat.seen_at or now)
        seat.save(update_fields=["connected", "disconnected_at"])
    if seat.connected == 0:
        _arm_grace(match_id=match_id, seat=seat, now=now)
    if announce:
        broadcast.match_changed(match_id=match_id)
    return True


def counted_out_after_the_end_statement(
    *, match_id: int, user: User, now: datetime
) -> tuple[str, list[Any]]:
    """``seat_disconnected``'s count and stamp as one UPDATE (SQL and
    parameters), which changes a row only if the match is finished or aborted
    (a match never leaves those) and the user has a seat there; with none
    changed, ``seat_disconnected_in_play`` counts the seat out. Sent alone,
    or with the match's read in one round trip (the live socket's close).

    The same rule as the locked path: a seat vouched for within the TTL loses
    one count and turns absent now when that was its last; one nobody vouched
    for turns absent at its last vouching (``seat_is_present``).
    """
    adapt = connection.ops.adapt_datetimefield_value
    cutoff, stamp = adapt(now - presence_ttl()), adapt(now)
    present = "(connected > 0 AND seen_at > %s)"
    return (
        f"UPDATE {Seat._meta.db_table} SET "
        f"connected = CASE WHEN {present} THEN connected - 1 ELSE 0 END, "
        f"disconnected_at = CASE WHEN {present} AND connected > 1 "
        f"THEN disconnected_at WHEN {present} THEN %s "
        f"ELSE COALESCE(seen_at, %s) END "
        f"WHERE match_id = %s AND user_id = %s "
        f"AND EXISTS (SELECT 1 FROM {Match._meta.db_table} "
        f"WHERE id = %s AND status IN (%s, %s))",
        [
            cutoff,
            cutoff,
            cutoff,
            stamp,
            stamp,
            match_id,
            user.pk,
            match_id,
            MatchStatus.FINISHED.value,
            MatchStatus.ABORTED.value,
        ],
    )


def seats_seen(*, seat_ids: list[int], now: datetime | None = None) -> list[int]:
    """A web process vouches for its open sockets' seats; returns revived matches.

    One UPDATE per process per refresh, whatever the number of sockets. A seat
    the sweep had already written off (the process stalled past the TTL) is
    counted back as connected, and its match is returned to be re-broadcast.
    """
    if not seat_ids:
        return []
    now = now or timezone.now()
    Seat.objects.filter(pk__in=seat_ids, connected__gt=0).update(seen_at=now)
    revived = list(
        Seat.objects.filter(pk__in=seat_ids, connected=0).values_list(
            "match_id", flat=True
        )
    )
    if revived:
        Seat.objects.filter(pk__in=seat_ids, connected=0).update(
            connected=1, seen_at=now, disconnected_at=None
        )
    return sorted(set(revived))


def seats_sweep_absent(*, now: datetime | None = None) -> int:
    """Beat: turn seats whose sockets nobody vouches for into absent seats.

    The seats of a web process killed mid-game keep ``connected > 0`` forever;
    once their ``seen_at`` is older than the TTL they are written off as
    disconnected at ``seen_at``, the table is told (the opponent's "Claim win"
    countdown starts), and the grace check is armed, or run here if it is due
    (at three or more seats a bot takes over). Returns seats handled.
    """
    now = now or timezone.now()
    stale = Seat.objects.filter(
        match__status=MatchStatus.ACTIVE, connected__gt=0, user__isnull=False
    ).filter(Q(seen_at__lt=now - presence_ttl()) | Q(seen_at__isnull=True))
    handled = 0
    for seat_id, match_id in list(stale.values_list("pk", "match_id")[:500]):
        with transaction.atomic():
            seat = Seat.objects.select_for_update().filter(pk=seat_id).first()
            if seat is None or seat_is_present(seat, now) or seat.connected == 0:
                continue
            seat.connected = 0
            seat.disconnected_at = seat.seen_at or now
            seat.save(update_fields=["connected", "disconnected_at"])
        logger.info(
            "match %s seat %s: no web process vouched for its socket since %s",
            match_id,
            seat.number,
            seat.disconnected_at.isoformat(),
        )
        handled += 1
        broadcast.match_changed(match_id=match_id)
        _arm_grace(match_id=match_id, seat=seat, now=now)
    # Grace periods whose armed check was lost (broker outage): run them here.
    overdue = Seat.objects.filter(
        match__status=MatchStatus.ACTIVE,
        connected=0,
        user__isnull=False,
        forfeited=False,
        disconnected_at__lte=now - timedelta(seconds=GRACE_SECONDS),
        match__seats__number=2,  # only tables of three or more hand seats over
    ).values_list("match_id", "number", "disconnected_at")
    for prefix in seat_keeping_prefixes():
        overdue = overdue.exclude(match__context__startswith=prefix)
    for match_id, number, since in list(overdue[:500]):
        assert since is not None  # the filter above: disconnected_at__lte
        outcome = seat_grace_expired(
            match_id=match_id,
            seat_number=number,
            disconnected_at=since.isoformat(),
            now=now,
        )
        handled += outcome == "bot took over"
    return handled


def seat_grace_expired(
    *,
    match_id: int,
    seat_number: int,
    disconnected_at: str,
    now: datetime | None = None,
) -> str:
    """The grace period of an absent seat ran out.

    At tables of three or more a built-in bot takes the seat over so the others'
    game goes on (the leaver still loses). With two players nothing happens by
    itself: the opponent may claim the win or abort. A competition game
    (``contexts.context_keeps_absent_seats``: a tournament round, a season)
    keeps the seat: its absent player keeps the competition's deadline, which
    decides no-shows there. ``disconnected_at`` is
    NEVER_CONNECTED for the check armed at the start for a player who has not
    connected at all (they count as away since the start).
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != MatchStatus.ACTIVE:
            return "match not in play"
        seat = seat_numbered(match, seat_number)
        stamp = (
            seat.disconnected_at.isoformat()
            if seat.disconnected_at
            else NEVER_CONNECTED
        )
        if stamp != disconnected_at:
            return "player is back"
        players = match.seats.count()
        # Asked first: a competition's absent seat is claimable only from its
        # deadline on (``clocks.absent_until_claimable``), not after the grace.
        if players > 2 and context_keeps_absent_seats(match.context):
            return "competition keeps the seat"
        if not absent_past_grace(seat, now):
            return "player is back"
        if players <= 2:
            return "opponent may claim"
        forfeit_seat(match, seat, reason="left")
        return "bot took over"
