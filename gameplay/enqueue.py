"""The one place gameplay queues its Celery tasks, and when.

The services (after a commit), the live owner and the tasks themselves ask
here for bot moves, clock checks, timer checks, grace checks and the bots'
ticks at real-time tables. Tasks are sent by their registered name
(``_task``), so this module never imports ``gameplay.tasks``: the tasks
import the services, and the services queue work through here, without an
import circle. The tasks are registered when the app is ready
(``GameplayConfig.ready``); a name that is not registered is a ``KeyError``,
never a task silently sent nowhere.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime
from uuid import UUID

from celery import Task, current_app
from django.conf import settings
from django.utils import timezone
from kombu.exceptions import OperationalError

from gameplay import agents, clocks, moverule, selectors
from gameplay.models import Match, MatchStatus
from gameplay.rules import get_game
from gameplay.signals import uploaded_bot_turn

logger = logging.getLogger(__name__)


def _task(name: str) -> Task:
    """The task registered as ``name`` (``gameplay.tasks``)."""
    return current_app.tasks[name]


def arm_grace_check(
    *, match_id: int, seat_number: int, disconnected_at: str, countdown: float
) -> None:
    """Queue the check of an absent seat's grace period (``disconnected_at``:
    the stamp it went away with, ``clocks.NEVER_CONNECTED`` for a no-show)."""
    _task("gameplay.seat_grace_expired").apply_async(
        (match_id, seat_number, disconnected_at), countdown=countdown
    )


def announce_match_finished(*, match_id: int) -> None:
    """Queue the announcement of a match that just finished (``match_finished``:
    rating, tournament pairing, the chat's last line, the news it settles).

    The receivers' reads and writes are several times an ordinary move's, so
    the web process that took the last move only queues them: a worker runs
    ``services.match_announce_finished``. The finished row is the outbox entry:
    when the broker refuses this, beat's sweep (``announce_finished_matches``)
    announces the match instead, so a refusal is logged, never raised (the
    move has committed and its ack must go out).
    """
    try:
        _task("gameplay.announce_match_finished").apply_async((match_id,))
    except OperationalError:
        logger.warning(
            "the announcement of match %s was not queued (broker away); "
            "beat's sweep announces it",
            match_id,
        )


#: How long a round of simultaneous built-in choices may stay open (its
#: bookkeeping's lifetime): above play_builtin_seat's time limit plus a queue
#: wait. A round whose tasks were lost is started again after this, by beat's
#: ``sweep_bot_turns``.
ROUND_SECONDS = 300


def round_key(public_id: UUID | str) -> str:
    """The cache key of a match's round of simultaneous built-in choices."""
    return f"gameplay:bot-round:{public_id}"


def builtin_round_open(*, match: Match) -> bool:
    """Whether a round of simultaneous built-in choices is still being thought:
    some seat's task of the current round has not finished."""
    from django.core.cache import cache

    key = round_key(match.public_id)
    current = cache.get(key)
    if not current:
        return False
    done = [f"{key}:{current['version']}:{seat}" for seat in current["seats"]]
    return len(cache.get_many(done)) < len(done)


def schedule_builtin_round(*, match: Match, seats: list[int], countdown: float) -> bool:
    """One task per built-in seat that must choose now, all on this version.

    The worker's processes think them in parallel (ISMCTS is CPU-bound:
    threads in one process would take turns), and each seat's commit goes in
    when it is ready (``services.match_play_builtin_seat``). The round is
    started once per version (a cache claim: every commit of the round, and
    beat's sweep, call here again); its seats think on the state of that
    version with their seeds for it, so the match is the one a single batch
    would have played. Until all of them have finished no next round starts
    (``builtin_round_open``), even for a seat that committed and must choose
    again: the last task to finish schedules what follows. True when queued.
    """
    from django.core.cache import cache

    key, version = round_key(match.public_id), match.version
    timeout = int(countdown) + ROUND_SECONDS
    if not cache.add(f"{key}:{version}", seats, timeout=timeout):
        return False  # this round is running (or ran) already
    cache.set(key, {"version": version, "seats": seats}, timeout=timeout)
    try:
        for seat in seats:
            if countdown:
                _task("gameplay.play_builtin_seat").apply_async(
                    (match.pk, seat, version), countdown=countdown
                )
            else:
                _task("gameplay.play_builtin_seat").delay(match.pk, seat, version)
    except Exception:
        # Not every seat queued (the broker is away): no round is open, beat's
        # sweep starts it again (a queued seat's commit then counts once).
        cache.delete_many([key, f"{key}:{version}"])
        raise
    return True


def bots_only_move_delay(match: Match) -> float:
    """Seconds to wait before each move of a match where no person is seated.

    Bots alone finish a game in well under a second; spectators (the demo's
    "Live now" game, a tournament of bots) could not follow it. With
    BOTS_ONLY_MOVE_DELAY set, such a match moves one step per delay instead.
    Never in eager mode, where a countdown cannot be honoured.
    """
    delay = float(getattr(settings, "BOTS_ONLY_MOVE_DELAY", 0) or 0)
    if delay <= 0 or current_app.conf.task_always_eager:
        return 0.0
    if any(seat.user_id is not None for seat in match.seats.all()):
        return 0.0
    return delay


def bot_move_pace(match: Match) -> float | None:
    """Seconds until a bot may move at a table where people play; None: no pace.

    A bot answers in milliseconds; several bot decisions in a row would flash
    past the person at the table. Each bot move waits until BOT_MOVE_DELAY
    seconds after the previous move (time the person already spent counts), one
    move per task, so the table shows every step. Never in eager mode.
    """
    pace = float(getattr(settings, "BOT_MOVE_DELAY", 0) or 0)
    if pace <= 0 or current_app.conf.task_always_eager:
        return None
    if not any(
        seat.user_id is not None and not seat.forfeited for seat in match.seats.all()
    ):
        return None
    if match.turn_started_at is None:
        return pace
    since = (timezone.now() - match.turn_started_at).total_seconds()
    return max(0.0, pace - since)


def schedule_bot_turns(*, match_id: int) -> None:
    """Queue the built-in bots' moves if a built-in bot is to act.

    One seat to act: ``play_builtin_bots``. Several at once (simultaneous
    commits): one ``play_builtin_seat`` task each (``schedule_builtin_round``).
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return
    if moverule.is_realtime(get_game(match.game)):
        schedule_realtime_bots(match=match)
        return
    if current_app.conf.task_always_eager:
        _drive_eagerly(match_id)
    else:
        _schedule_turns(match)


#: Eager mode: the matches whose bots a call below is driving in this thread
#: (value: whether a nested call asked it to look again).
_driving = threading.local()


def _drive_eagerly(match_id: int) -> None:
    """Eager mode (tests, the demo seeding): every task runs inside the call
    that queues it, so each round's last commit would start the next round one
    level deeper, a whole game deep. The outermost call loops instead; a nested
    one only asks it to look again."""
    looking = getattr(_driving, "matches", None)
    if looking is None:
        looking = _driving.matches = {}
    if match_id in looking:
        looking[match_id] = True
        return
    looking[match_id] = True
    try:
        while looking[match_id]:
            looking[match_id] = False
            match = Match.objects.filter(pk=match_id).first()
            if match is None:
                return
            _schedule_turns(match)
    finally:
        del looking[match_id]


def _schedule_turns(match: Match) -> None:
    """A turn-based match's built-in moves, at the pace of the table."""
    seats = selectors.builtin_bot_seats_to_act(match=match)
    if not seats or agents.played_by_bots_runner(list(match.seats.all())):
        return  # the bot runner plays every seat of its matches itself
    if builtin_round_open(match=match):
        return  # the round's last task schedules what follows
    pace = bot_move_pace(match)
    if len(seats) > 1:
        countdown = pace if pace is not None else bots_only_move_delay(match)
        schedule_builtin_round(
            match=match, seats=[seat.number for seat in seats], countdown=countdown
        )
        return
    match_id = match.pk
    if pace is not None:
        # One move at the pace; that move's commit schedules the next one.
        _task("gameplay.play_builtin_bots").apply_async((match_id, 1), countdown=pace)
        return
    delay = bots_only_move_delay(match)
    if delay:
        _task("gameplay.play_builtin_bots").apply_async((match_id, 1), countdown=delay)
    else:
        _task("gameplay.play_builtin_bots").delay(match_id)


def schedule_uploaded_bot_turns(*, match_id: int) -> None:
    """Tell whoever drives uploaded bots (the bots app) that one is to move.

    gameplay does not know the bots app: it only announces the turn, with
    ``signals.uploaded_bot_turn``; without a receiver the seat never moves, and
    its clock and the claim rules let the other players end the match.
    """
    match = Match.objects.filter(pk=match_id, status=MatchStatus.ACTIVE).first()
    if match is None:
        return
    seats = selectors.uploaded_bot_seats_to_act(match=match)
    if seats:
        uploaded_bot_turn.send(
            sender=Match, match_id=match_id, seats=[s.number for s in seats]
        )


#: The longest countdown any task here is queued with. A worker holds a
#: countdown task unacknowledged until it runs, and Redis hands it to another
#: worker once the visibility timeout passes, so every countdown must stay well
#: under CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]. A clock deadline
#: further away is checked at this distance and re-armed from there.
MAX_COUNTDOWN = 300.0


def schedule_clock_check(*, match_id: int, only_ahead: bool = False) -> None:
    """Arm a check for the earliest deadline of the seats now to act.

    ``only_ahead``: arm nothing for a deadline already past (a re-arm from a
    check that found nothing to do must not spin; beat's sweep is the net).

    In eager mode a countdown cannot be honoured, so nothing is armed; the
    periodic sweep (and tests calling the service with a chosen time) cover it.
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    match = Match.objects.filter(pk=match_id, status=MatchStatus.ACTIVE).first()
    if match is None or not match.time_control:
        return
    deadlines = [
        d
        for seat in match.seats.all()
        if (d := clocks.seat_deadline(match=match, seat=seat)) is not None
    ]
    if deadlines:
        ahead = (min(deadlines) - timezone.now()).total_seconds()
        if only_ahead and ahead <= 0:
            return
        if ahead > MAX_COUNTDOWN and match.time_control.get("days"):
            # Days away (correspondence): beat's correspondence sweep (each
            # minute) finds it; a check re-armed every 5 minutes for days
            # would cost more than it saves.
            return
        delay = max(0.0, ahead) + 0.05
        _task("gameplay.expire_clock").apply_async(
            (match_id,), countdown=min(delay, MAX_COUNTDOWN)
        )


def timer_key(match_id: int, due: str) -> str:
    """The cache key that says a check of ``match_id``'s timers due at
    ``due`` is armed (one armed check per due time)."""
    return f"gameplay:timer:{match_id}:{due}"


def schedule_timer_check(*, match_id: int) -> None:
    """Arm a check for the earliest of the match's timers that can fire now.

    One armed check per due time (a cache key): the steps of a busy table do
    not queue a task each. Best effort: beat's ``sweep_timers`` is the net.
    Nothing in eager mode, where a countdown cannot be honoured (tests call
    the service with a chosen time).
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    match = Match.objects.filter(pk=match_id, status=MatchStatus.ACTIVE).first()
    if match is None or not match.timers:
        return
    arm_timer_check(match_id=match_id, due=clocks.next_timer_due(match=match))


def arm_timer_check(*, match_id: int, due: datetime | None) -> bool:
    """Arm the check of ``match_id``'s timers due at ``due`` unless one is.

    For callers that hold the match as committed (the live owner, the
    after-commit hook): no read. One armed check per due time across every
    process (a cache key); True when this call armed it. Nothing in eager
    mode (a countdown cannot be honoured there).
    """
    from django.core.cache import cache

    if due is None or settings.CELERY_TASK_ALWAYS_EAGER:
        return False
    ahead = max(0.0, (due - timezone.now()).total_seconds())
    stamp = due.isoformat()
    if not cache.add(timer_key(match_id, stamp), 1, timeout=int(ahead) + 120):
        return False  # already armed for this due time
    _task("gameplay.apply_timers").apply_async(
        (match_id, stamp), countdown=min(ahead + 0.05, MAX_COUNTDOWN)
    )
    return True


def realtime_bot_tick_seconds() -> float:
    """Wall-clock seconds per tick of the bots at a live real-time table."""
    return max(0.1, float(getattr(settings, "REALTIME_BOT_TICK", 1.0) or 1.0))


def tick_key(match: Match) -> str:
    # The public id, not the pk: a pk may come back (a test database made
    # again) while the cache still holds the old match's ticks.
    return f"gameplay:rt-bots:{match.public_id}"


def wall_tick(match: Match) -> int:
    """The tick the wall clock is at: ticks count from the match's start."""
    if match.started_at is None:
        return 0
    since = (timezone.now() - match.started_at).total_seconds()
    return max(0, int(since / realtime_bot_tick_seconds()))


def schedule_realtime_bots(*, match: Match, stalled_ticks: int = 5) -> bool:
    """Start the bots' tick chain of a real-time table unless it is running.

    Called after every change (cheap: one cache read) and by beat's bot
    sweep; a chain whose last tick is more than ``stalled_ticks`` behind the
    wall clock counts as lost. Never in eager mode (ticks are countdowns;
    tests call ``services.match_realtime_bots_tick``).
    """
    from django.core.cache import cache

    if settings.CELERY_TASK_ALWAYS_EAGER or match.status != MatchStatus.ACTIVE:
        return False
    if not any(agents.plays_builtin(seat) for seat in match.seats.all()):
        return False
    now_tick = wall_tick(match)
    last = cache.get(tick_key(match))
    if last is not None and last >= now_tick - stalled_ticks:
        return False
    _task("gameplay.realtime_bots_tick").apply_async(
        (match.pk, now_tick + 1), countdown=0
    )
    return True
