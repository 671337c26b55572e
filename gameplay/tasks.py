"""Celery tasks for live matches: built-in bot moves and clock expiry.

Tasks take ids, are idempotent (every step re-checks the match under its lock),
and are enqueued only after the change that triggers them has committed, by
name through ``gameplay.enqueue`` (which never imports this module).
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from gameplay import agents, clocks, moverule, selectors, services
from gameplay.enqueue import (
    MAX_COUNTDOWN,
    ROUND_SECONDS,
    realtime_bot_tick_seconds,
    round_key,
    schedule_bot_turns,
    schedule_clock_check,
    schedule_realtime_bots,
    tick_key,
    timer_key,
    wall_tick,
)
from gameplay.models import Match, MatchStatus
from gameplay.rules import get_game

# Eager mode (tests, single-process use) would recurse: a bot move commits, which
# schedules bot moves again. The running loop picks up the next move itself.
_playing = threading.local()


@shared_task(name="gameplay.play_builtin_bots", time_limit=600, soft_time_limit=580)
def play_builtin_bots(match_id: int, max_steps: int = 500) -> int:
    """Built-in bots' moves one seat at a time; several seats choosing at once
    are left to one task each (``schedule_builtin_round``)."""
    active = getattr(_playing, "matches", None)
    if active is None:
        active = _playing.matches = set()
    if match_id in active:
        return 0
    active.add(match_id)
    try:
        moves = services.match_play_builtin_bots(
            match_id=match_id, max_steps=max_steps, leave_simultaneous=True
        )
    finally:
        active.discard(match_id)
    match = Match.objects.filter(pk=match_id).first()
    if match is not None and len(selectors.builtin_bot_seats_to_act(match=match)) > 1:
        schedule_bot_turns(match_id=match_id)  # it stopped at such a round
    return moves


@shared_task(name="gameplay.play_builtin_seat", time_limit=150, soft_time_limit=140)
def play_builtin_seat(match_id: int, seat: int, version: int) -> bool:
    """One built-in seat's choice in the round begun at ``version``.

    Idempotent: a second run for the same seat and round finds its commit in
    (the stale-version rule refuses it) and changes nothing. Whatever the
    outcome, the seat's part of the round is done; the last seat to finish
    schedules the next moves.
    """
    from django.core.cache import cache

    try:
        outcome = services.match_play_builtin_seat(
            match_id=match_id, seat_number=seat, version=version
        )
    finally:
        public_id = (
            Match.objects.filter(pk=match_id)
            .values_list("public_id", flat=True)
            .first()
        )
        if public_id is not None:
            cache.set(
                f"{round_key(public_id)}:{version}:{seat}", 1, timeout=ROUND_SECONDS
            )
    schedule_bot_turns(match_id=match_id)
    return outcome is not None


@shared_task(bind=True, name="gameplay.expire_clock", time_limit=60, soft_time_limit=55)
def expire_clock(self, match_id: int) -> list[str]:
    done = services.match_expire_clocks(match_id=match_id)
    # Woken early (a capped countdown): re-arm for what is left. Not when run
    # eagerly: the countdown would be ignored and the check would call itself
    # until the deadline really passed (a recursion as deep as the stack).
    if not done and not self.request.is_eager:
        schedule_clock_check(match_id=match_id, only_ahead=True)
    return done


@shared_task(name="gameplay.sweep_expired_clocks", time_limit=60, soft_time_limit=55)
def sweep_expired_clocks() -> int:
    """Safety net run by beat: catch any live deadline whose armed check was
    lost. Correspondence games have their own, slower sweep."""
    cutoff = timezone.now() - timedelta(seconds=5)
    # A seat still choosing while others commit keeps its own older start
    # (``Seat.acting_since``): the match's last change alone would hide it.
    candidates = (
        Match.objects.filter(status=MatchStatus.ACTIVE)
        .filter(Q(turn_started_at__lte=cutoff) | Q(seats__acting_since__lte=cutoff))
        .exclude(Q(time_control={}) | Q(time_control__isnull=True))
        .exclude(time_control__has_key="days")
        .distinct()
    )
    acted = 0
    for match_id in candidates.values_list("pk", flat=True)[:500]:
        acted += bool(services.match_expire_clocks(match_id=match_id))
    return acted


#: Correspondence matches one sweep reads at most (oldest decision first).
CORRESPONDENCE_SWEEP_LIMIT = 5000


@shared_task(
    name="gameplay.sweep_correspondence_clocks", time_limit=300, soft_time_limit=290
)
def sweep_correspondence_clocks() -> int:
    """Beat, each minute: end the correspondence games whose days per move ran
    out (no check is armed days ahead, ``enqueue.schedule_clock_check``).

    Only a decision begun a day ago (the shortest days per move) can have run
    out: the rest are filtered in SQL. The others' deadlines are read without
    a lock (vacations included) and only the expired ones are locked.
    Measured ~5 ms a match read on a loaded 2-core machine (docs/time-controls.md).
    """
    now = timezone.now()
    day_ago = now - timedelta(days=1)
    candidates = (
        Match.objects.filter(status=MatchStatus.ACTIVE, time_control__has_key="days")
        .filter(Q(turn_started_at__lte=day_ago) | Q(seats__acting_since__lte=day_ago))
        .distinct()
        .order_by("turn_started_at")
        .prefetch_related("seats")
    )
    due = [
        m.pk
        for m in candidates[:CORRESPONDENCE_SWEEP_LIMIT]
        if clocks.match_has_expired_clock(match=m, now=now)
    ]
    acted = 0
    for match_id in due:
        acted += bool(services.match_expire_clocks(match_id=match_id, now=now))
    return acted


@shared_task(name="gameplay.seat_grace_expired", time_limit=60, soft_time_limit=55)
def seat_grace_expired(match_id: int, seat_number: int, disconnected_at: str) -> str:
    return services.seat_grace_expired(
        match_id=match_id, seat_number=seat_number, disconnected_at=disconnected_at
    )


@shared_task(name="gameplay.sweep_absent_seats", time_limit=60, soft_time_limit=55)
def sweep_absent_seats() -> int:
    """Beat: seats whose web process died turn absent (services.seats_sweep_absent)."""
    return services.seats_sweep_absent()


@shared_task(name="gameplay.announce_finished", time_limit=120, soft_time_limit=110)
def announce_finished() -> int:
    """Beat: the finished-match outbox (services.announce_finished_matches)."""
    return services.announce_finished_matches()


@shared_task(
    name="gameplay.announce_match_finished",
    time_limit=120,
    soft_time_limit=110,
    ignore_result=True,
)
def announce_match_finished(match_id: int) -> bool:
    """A match just finished: announce it (services.match_announce_finished;
    idempotent: a match is announced once, a repeat finds nothing owed).

    No result is kept: nothing reads it, and with the Redis result backend
    every send of a task that keeps one subscribes its sender to the
    result's channel (and unsubscribes when it is stored): two more Redis
    round trips in the web process that took a game's last move, ten games
    ending a second at 400 games (docs/performance.md)."""
    return services.match_announce_finished(match_id=match_id)


@shared_task(name="gameplay.sweep_bot_turns", time_limit=60, soft_time_limit=55)
def sweep_bot_turns(stalled_after: float = 20.0) -> int:
    """Beat: queue built-in bot moves whose task was lost (broker outage).

    A bot's move is queued by the commit before it; if that enqueue failed, no
    one would ever queue it again and the person at the table would wait
    forever. Matches whose turn has not moved for ``stalled_after`` seconds with
    a built-in bot to act get their move queued again; a duplicate is harmless
    (the bot submits at the version it thought at, the second is refused).
    """
    from django.db.models import Q

    cutoff = timezone.now() - timedelta(seconds=stalled_after)
    candidates = (
        Match.objects.filter(status=MatchStatus.ACTIVE, turn_started_at__lte=cutoff)
        .filter(
            Q(seats__agent__startswith=agents.BUILTIN_PREFIX)
            | Q(seats__replaced_by_bot=True)
        )
        .distinct()
        .values_list("pk", flat=True)
    )
    queued = 0
    for match_id in list(candidates[:200]):
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            continue
        if moverule.is_realtime(get_game(match.game)):
            queued += schedule_realtime_bots(match=match)
        elif selectors.builtin_bot_seats_to_act(match=match):
            schedule_bot_turns(match_id=match_id)
            queued += 1
    return queued


@shared_task(bind=True, name="gameplay.apply_timers", time_limit=60, soft_time_limit=55)
def apply_timers(self, match_id: int, due: str | None = None) -> list[str]:
    """An armed timer check (``services.match_apply_timers``) for the timers
    due at ``due`` (an ISO time): idempotent, it applies whatever is due.

    Woken early (a countdown capped at MAX_COUNTDOWN) it re-arms itself for
    what is left; never when run eagerly (the countdown is ignored there).
    """
    from django.core.cache import cache

    if due is not None and not self.request.is_eager:
        left = (datetime.fromisoformat(due) - timezone.now()).total_seconds()
        if left > 0.01:
            apply_timers.apply_async(
                (match_id, due), countdown=min(left + 0.05, MAX_COUNTDOWN)
            )
            return []
        # Done with this due time: a later step may arm it again (a timer
        # that could not fire now, in a pause, is armed after the resume).
        cache.delete(timer_key(match_id, due))
    return services.match_apply_timers(match_id=match_id)


@shared_task(name="gameplay.sweep_timers", time_limit=60, soft_time_limit=55)
def sweep_timers() -> int:
    """Beat: apply due timers whose armed check was lost (broker outage)."""
    return sum(
        bool(services.match_apply_timers(match_id=pk))
        for pk in clocks.matches_with_timers_due()
    )


def _claim_tick(match: Match, tick: int) -> bool:
    """One task per tick: the first to claim it plays it (a duplicate chain,
    from a lost-and-requeued task or the sweep, stops at the first tick the
    other took)."""
    from django.core.cache import cache

    if not cache.add(f"{tick_key(match)}:{tick}", 1, timeout=120):
        return False
    cache.set(tick_key(match), tick, timeout=600)
    return True


@shared_task(name="gameplay.realtime_bots_tick", time_limit=60, soft_time_limit=55)
def realtime_bots_tick(match_id: int, tick: int) -> bool:
    """One tick of the bots at a real-time table, then the next one armed.

    Idempotent: each tick is played once (``_claim_tick``); the chain stops
    when the match ends or has no built-in bot left.
    """
    match = Match.objects.filter(pk=match_id).only("public_id", "started_at").first()
    if match is None or not _claim_tick(match, tick):
        return False
    more = services.match_realtime_bots_tick(match_id=match_id, tick=tick)
    if more and not settings.CELERY_TASK_ALWAYS_EAGER:
        # The next tick by the wall clock: a chain that fell behind (a
        # loaded worker) skips ahead instead of playing every tick late.
        nxt = max(tick + 1, wall_tick(match) + 1)
        step = realtime_bot_tick_seconds()
        assert match.started_at is not None  # its bots tick: it has started
        at = match.started_at + timedelta(seconds=nxt * step)
        countdown = max(0.0, (at - timezone.now()).total_seconds())
        realtime_bots_tick.apply_async((match_id, nxt), countdown=countdown)
    return more
