"""Celery tasks of the bots app, all routed to the ``bots`` queue.

Only bot workers (the containers allowed to create user namespaces) consume
that queue. Tasks take ids, are idempotent (the services re-check state: a
validated version is not validated again, a finished match is not replayed, a
ladder round exists once per period) and have time limits.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from celery.signals import worker_ready
from django.utils import timezone

from bots import conf, services
from bots.models import BotVersion, VersionStatus
from bots.sandbox import SandboxError, SandboxUnavailable, sandbox_available
from gameplay.models import Match, MatchStatus
from gameplay.rules import available_games

logger = logging.getLogger(__name__)

#: A version still validating after this long is queued again by the heartbeat
#: (its first task was lost, or no sandboxed worker was up at the time).
STALE_VALIDATION = timedelta(minutes=10)
#: A bots-app match still in play after this long lost its worker (or its task
#: gave up); the heartbeat queues it again and the runner resumes it.
STALE_MATCH = timedelta(minutes=15)


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
    """Play one all-bot match; a sandbox failure retries, then calls it off."""
    try:
        outcome = services.bot_match_play(match_id=match_id)
    except (SandboxUnavailable, SandboxError) as exc:
        if self.request.retries < self.max_retries:
            raise self.retry(exc=exc, countdown=60) from exc
        match = Match.objects.filter(pk=match_id).only("context").first()
        if match is not None and match.context.startswith(services.CONTEXT_PREFIX):
            services.bot_match_abandon(match_id=match_id, reason="sandbox unavailable")
        logger.error("bot match %s not played: %s", match_id, exc)
        return "not played"
    if outcome is None:
        return "nothing to play"
    return f"{outcome.steps} steps, {outcome.end_reason}"


@shared_task(name="bots.ladder_schedule", time_limit=120, soft_time_limit=110)
def ladder_schedule() -> dict[str, int]:
    """Beat: this period's ladder round for every game (a no-op if it exists)."""
    created = {}
    for game in available_games():
        ladder_round = services.ladder_round_schedule(game=game)
        if ladder_round is not None:
            created[game] = ladder_round.match_count
    return created


@shared_task(name="bots.sandbox_heartbeat", time_limit=60)
def sandbox_heartbeat() -> bool:
    """Beat: report this worker's sandbox verdict and re-queue stuck work.

    Routed to the bots queue, so only a worker that would run bots answers; the
    web processes read the verdict to refuse uploads when no sandbox works.
    Validations and bot matches that should long be done are queued again;
    both tasks are idempotent, so a duplicate does no harm.
    """
    status = sandbox_available(conf.sandbox_config())
    services.sandbox_report(ok=status.ok, reason=status.reason)
    if not status.ok and not conf.allow_unsandboxed():
        return False
    now = timezone.now()
    stuck = BotVersion.objects.filter(
        status=VersionStatus.VALIDATING, created_at__lte=now - STALE_VALIDATION
    ).values_list("pk", flat=True)[:100]
    for version_id in stuck:
        validate_version.delay(version_id)
    stalled = Match.objects.filter(
        status=MatchStatus.ACTIVE,
        context__startswith=services.CONTEXT_PREFIX,
        started_at__lte=now - STALE_MATCH,
    ).values_list("pk", flat=True)[:100]
    for match_id in stalled:
        play_match.delay(match_id)
    return True


@worker_ready.connect
def _report_sandbox_on_start(**_: object) -> None:
    """Ask a bots worker for its verdict as soon as workers come up."""
    try:
        sandbox_heartbeat.delay()
    except Exception:  # a broker hiccup must not stop the worker from starting
        logger.exception("could not queue the sandbox heartbeat")
