"""Celery tasks of the bots app, all routed to the ``bots`` queue.

Only bot workers (the containers allowed to create user namespaces) consume
that queue. Tasks take ids, are idempotent (the services re-check state: a
validated version is not validated again, a finished match is not replayed, a
ladder round exists once per period) and have time limits.
"""

from __future__ import annotations

import logging
import threading
import uuid
from datetime import timedelta

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from bots import conf, ladder, live_turns, realtime_tables, services
from bots.models import BotVersion, VersionStatus
from bots.sandbox import SandboxError, SandboxUnavailable, datadir, sandbox_available
from gameplay.models import Match
from gameplay.moverule import is_realtime
from gameplay.rules import available_games, get_game
from gameplay.selectors import uploaded_bot_seats_to_act

logger = logging.getLogger(__name__)

#: A version still validating after this long is queued again by the heartbeat
#: (its first task was lost, or no sandboxed worker was up at the time).
STALE_VALIDATION = timedelta(minutes=10)
#: Cache key prefix of the per-match "being played" lock, and its lease: the
#: worker playing the match renews it every third of this, so it lapses only
#: when that worker is gone, and beat's ``pick_up_matches`` (every 30 s) hands
#: the match to another worker, which resumes it from its stored state.
MATCH_LOCK_PREFIX = "bots:playing:"
MATCH_LOCK_SECONDS = 30


class MatchLease:
    """A per-match lock that lives only while its holder keeps renewing it.

    A fixed lock had to outlive the task's time limit (660 s), so a worker that
    was killed left its match stuck for 11 minutes. Here a thread of the
    playing process renews the lease (only while it still holds it); when the
    process dies the renewals stop with it and the lease lapses within
    MATCH_LOCK_SECONDS. A renewal that races an expiry could let two workers
    play at once; the match's version check (``match_record_steps``) then
    refuses the second writer, so no move is applied twice.
    """

    def __init__(
        self,
        match_id: int,
        token: str,
        seconds: float | None = None,
        *,
        prefix: str = MATCH_LOCK_PREFIX,
    ):
        self.key = f"{prefix}{match_id}"
        self.token = token
        self.seconds = seconds or MATCH_LOCK_SECONDS
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def acquire(self) -> bool:
        if not cache.add(self.key, self.token, timeout=self.seconds):
            return False
        self._thread = threading.Thread(
            target=self._renew, name=f"lease-{self.key}", daemon=True
        )
        self._thread.start()
        return True

    def _renew(self) -> None:
        while not self._stop.wait(self.seconds / 3):
            try:
                if cache.get(self.key) != self.token:
                    logger.warning("lost the lease %s; another worker plays", self.key)
                    return
                cache.touch(self.key, self.seconds)
            except Exception:  # Redis blip: try again at the next renewal
                logger.warning("could not renew %s", self.key, exc_info=True)

    def held(self) -> bool:
        """Whether this holder still has the lease (a Redis blip says no)."""
        try:
            return cache.get(self.key) == self.token
        except Exception:
            logger.warning("could not read %s", self.key, exc_info=True)
            return False

    def release(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:
            if cache.get(self.key) == self.token:
                cache.delete(self.key)
        except Exception:  # it lapses by itself
            logger.warning("could not release %s", self.key, exc_info=True)


@shared_task(name="bots.validate_version", time_limit=300, soft_time_limit=280)
def validate_version(version_id: int) -> str:
    return services.bot_version_validate(version_id=version_id)


@shared_task(
    name="bots.play_match",
    bind=True,
    time_limit=600,
    soft_time_limit=580,
    max_retries=3,
    acks_late=True,
)
def play_match(self, match_id: int) -> str:
    """Play one all-bot match; a sandbox failure retries, then calls it off.

    A per-match lease (``MatchLease``, renewed while the match plays) keeps two
    workers from playing the same match when it was queued twice; a worker that
    died stops renewing, and the match is picked up again within a minute.
    """
    lease = MatchLease(match_id, self.request.id or f"eager-{uuid.uuid4()}")
    if not lease.acquire():
        return "already being played"
    try:
        return _play_match(self, match_id)
    finally:
        lease.release()


def _play_match(task, match_id: int) -> str:
    try:
        outcome = services.bot_match_play(match_id=match_id)
    except (SandboxUnavailable, SandboxError) as exc:
        if task.request.retries < task.max_retries:
            raise task.retry(exc=exc, countdown=60) from exc
        match = Match.objects.filter(pk=match_id).only("context").first()
        if match is not None and match.context.startswith(services.CONTEXT_PREFIX):
            services.bot_match_abandon(match_id=match_id, reason="sandbox unavailable")
        logger.error("bot match %s not played: %s", match_id, exc)
        return "not played"
    if outcome is None:
        return "nothing to play"
    return f"{outcome.steps} steps, {outcome.end_reason}"


#: Cache key prefix of the per-match lock of live (person vs bot) decisions.
LIVE_LOCK_PREFIX = "bots:live-lock:"
LIVE_LOCK_SECONDS = 330
_driving = threading.local()


@shared_task(
    name="bots.live_move",
    bind=True,
    time_limit=300,
    soft_time_limit=280,
    max_retries=5,
    acks_late=True,
)
def live_move(self, match_id: int) -> int:
    """Play the uploaded bots' moves in a match with people (bots.live_turns).

    One task per match at a time (a cache lock); after releasing the lock it
    looks once more, so a turn that arrived while the lock was held is not lost.
    Without a sandbox it retries a few times, then leaves the seat to its clock
    and the claim rules. In eager mode (tests) the moves it makes would start
    it again from inside itself; the running loop plays those moves instead.
    """
    active = getattr(_driving, "matches", None)
    if active is None:
        active = _driving.matches = set()
    if match_id in active:
        return 0
    lock = f"{LIVE_LOCK_PREFIX}{match_id}"
    if not cache.add(lock, self.request.id or "eager", timeout=LIVE_LOCK_SECONDS):
        return 0
    active.add(match_id)
    try:
        turns = live_turns.bot_live_turns(match_id=match_id)
    except (SandboxUnavailable, SandboxError) as exc:
        logger.warning("live bot move in match %s not played: %s", match_id, exc)
        if self.request.retries < self.max_retries:
            raise self.retry(exc=exc, countdown=10) from exc
        return 0
    finally:
        active.discard(match_id)
        cache.delete(lock)
    match = Match.objects.filter(pk=match_id).first()
    if match is not None and uploaded_bot_seats_to_act(match=match):
        live_move.delay(match_id)
    return len(turns)


def on_uploaded_bot_turn(*, match_id: int, **_: object) -> None:
    """gameplay's ``uploaded_bot_turn``: queue the move if people are at the table.

    All-bot matches are played whole by ``play_match``. A broker failure is
    logged, not raised into the move that triggered it; the seat's clock and
    the claim rules cover a lost task.
    """
    if not live_turns.has_people(match_id=match_id):
        return
    match = Match.objects.filter(pk=match_id).only("game").first()
    if match is None:
        return
    if is_realtime(get_game(match.game)):
        queue_live_realtime(match_id=match_id)
        return
    try:
        live_move.delay(match_id)
    except Exception:
        logger.exception("could not queue the live bot move of match %s", match_id)


#: Cache key prefix of the lease of a live real-time table's driver, and of
#: the short marker that one is queued (a busy table's every change announces
#: the bots' seats; one queued driver is enough).
LIVE_RT_LOCK_PREFIX = "bots:rt-live:lease:"
LIVE_RT_QUEUED_PREFIX = "bots:rt-live:queued:"
LIVE_RT_QUEUED_SECONDS = 20
#: A live real-time match lasts at most its time limit (60 minutes at the
#: tables' options, 240 in the engine's config).
LIVE_RT_TIME_LIMIT = 4 * 3600 + 600


def queue_live_realtime(*, match_id: int) -> bool:
    """Queue the driver of a live real-time table unless one holds or is queued.

    Called at every announced change of the table (cheap: a cache read) and
    by beat's ``pick_up_matches``; never in eager mode, where the driver
    would hold the calling request for the whole match (tests drive it).
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return False
    try:
        if cache.get(f"{LIVE_RT_LOCK_PREFIX}{match_id}") is not None:
            return False
        if not cache.add(
            f"{LIVE_RT_QUEUED_PREFIX}{match_id}", 1, timeout=LIVE_RT_QUEUED_SECONDS
        ):
            return False
        live_realtime.delay(match_id)
    except Exception:
        logger.exception("could not queue the live real-time bots of %s", match_id)
        return False
    return True


@shared_task(
    name="bots.live_realtime",
    bind=True,
    acks_late=False,
    time_limit=LIVE_RT_TIME_LIMIT,
    soft_time_limit=LIVE_RT_TIME_LIMIT - 60,
)
def live_realtime(self, match_id: int) -> str:
    """Hold the uploaded-bot seats of a live real-time table (bots.realtime_tables).

    One driver per match: a lease (``MatchLease``, renewed every 10 s while
    this worker plays) that lapses 30 s after the worker dies; beat's
    ``pick_up_matches`` then queues a fresh driver. Acknowledged at once (not
    late): a task held for a whole match must not be redelivered by the
    broker's visibility timeout, and the lease, not redelivery, is what
    recovers a dead worker.
    """
    lease = MatchLease(
        match_id,
        self.request.id or f"eager-{uuid.uuid4()}",
        prefix=LIVE_RT_LOCK_PREFIX,
    )
    if not lease.acquire():
        return "already driven"
    cache.delete(f"{LIVE_RT_QUEUED_PREFIX}{match_id}")
    try:
        report = realtime_tables.live_realtime_drive(
            match_id=match_id, still_held=lease.held
        )
    finally:
        lease.release()
    return f"{report.ticks} ticks, {report.applied} intents, {report.stopped}"


@shared_task(name="bots.debut_games", time_limit=60, soft_time_limit=55)
def debut_games(version_id: int) -> int:
    """A newly validated version's first ladder games (idempotent)."""
    return len(ladder.bot_debut_schedule(version_id=version_id))


@shared_task(name="bots.rate_versions", time_limit=60, soft_time_limit=55)
def rate_versions(match_id: int) -> int:
    """The per-version ratings of a finished rated match (idempotent)."""
    from bots.version_ratings import versions_rate_match

    return versions_rate_match(match_id=match_id)


def on_match_finished(
    sender: object,
    match_id: int,
    rated: bool | None = None,
    **_: object,
) -> None:
    """gameplay's ``match_finished``: queue the version ratings of a rated
    match with an uploaded seat. Enqueued at once (not after a commit), as
    league's receiver: gameplay retries the announcement if this raises."""
    from bots import enqueue
    from gameplay.agents import UPLOADED_PREFIX
    from gameplay.models import Seat

    if rated is False:
        return
    if Seat.objects.filter(
        match_id=match_id, agent__startswith=UPLOADED_PREFIX
    ).exists():
        enqueue.rate_versions(match_id)


@shared_task(name="bots.ladder_schedule", time_limit=120, soft_time_limit=110)
def ladder_schedule() -> dict[str, int]:
    """Beat: this period's ladder round for every game (a no-op if it exists),
    and the period's games of the bot leagues with divisions."""
    created = {}
    for game in available_games():
        ladder_round = ladder.ladder_round_schedule(game=game)
        if ladder_round is not None:
            created[game] = ladder_round.match_count
    for season_id, count in ladder.division_rounds_schedule().items():
        created[f"season:{season_id}"] = count
    return created


_logged_verdict: tuple[bool, str] | None = None


def _log_verdict(ok: bool, reason: str) -> None:
    """The self-test's verdict in the worker's log, once per process and again
    when it changes: which bubblewrap it verified ("sandbox verified with
    bubblewrap 0.11.0 (system: /usr/bin/bwrap)"), or why bots are refused."""
    global _logged_verdict
    if _logged_verdict == (ok, reason):
        return
    _logged_verdict = (ok, reason)
    if ok:
        logger.info("bot sandbox self-test passed: %s", reason)
    else:
        logger.warning("bot sandbox self-test failed: %s", reason)


@shared_task(name="bots.sandbox_heartbeat", time_limit=60, soft_time_limit=55)
def sandbox_heartbeat() -> bool:
    """Beat: report this worker's sandbox verdict and re-queue stuck work.

    Routed to the bots queue, so only a worker that would run bots answers; the
    web processes read the verdict to refuse uploads when no sandbox works.
    Validations that should long be done are queued again (idempotent).
    """
    status = sandbox_available(conf.sandbox_config())
    _log_verdict(status.ok, status.reason)
    services.sandbox_report(
        ok=status.ok,
        reason=status.reason,
        data_dir=datadir.data_dir_unavailable() if status.ok else "",
    )
    if not status.ok and not conf.allow_unsandboxed():
        return False
    stuck = BotVersion.objects.filter(
        status=VersionStatus.VALIDATING,
        created_at__lte=timezone.now() - STALE_VALIDATION,
    ).values_list("pk", flat=True)[:100]
    for version_id in stuck:
        validate_version.delay(version_id)
    return True


@shared_task(name="bots.pick_up_matches", time_limit=60, soft_time_limit=55)
def pick_up_matches() -> int:
    """Beat: queue every bot-driven match in play that nobody is driving.

    League tournaments seat bot entrants and start their matches without
    knowing the bots app; this finds them (and any ladder match whose task was
    lost or whose worker died) and hands them to the runner. Live real-time
    tables whose driver's lease lapsed (its worker died) get a fresh driver.
    """
    # Live real-time tables first, sandbox or not: a driver without a sandbox
    # forfeits the uploaded seats (the takeover bot plays on) instead of
    # leaving them idle at a table with people.
    queued = sum(
        queue_live_realtime(match_id=match_id)
        for match_id in realtime_tables.tables_to_drive()
    )
    status = sandbox_available(conf.sandbox_config())
    if not status.ok and not conf.allow_unsandboxed():
        return queued  # nothing could play them here; the heartbeat reports why
    for match_id in services.bot_matches_waiting_for_a_runner()[:200]:
        if cache.get(f"{MATCH_LOCK_PREFIX}{match_id}") is None:
            play_match.delay(match_id)
            queued += 1
    return queued


@worker_ready.connect
def _report_sandbox_on_start(**_: object) -> None:
    """Ask a bots worker for its verdict as soon as workers come up."""
    try:
        sandbox_heartbeat.delay()
    except Exception:  # a broker hiccup must not stop the worker from starting
        logger.exception("could not queue the sandbox heartbeat")
