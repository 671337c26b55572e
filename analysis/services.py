"""Requesting and running the post-game analysis of a match.

The search itself is ``gameplay.rules.analysis`` (pure Python); here it is
stored once per match and analysis version, queued on Celery's ``analysis``
queue after the request commits, and its progress written as it runs.
"""

from __future__ import annotations

import time
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from analysis.errors import NotAnalysable, NotFinished
from analysis.models import AnalysisStatus, MatchAnalysis
from gameplay.contexts import SEALED_MESSAGE, context_is_tournament, match_is_sealed
from gameplay.models import Match, MatchStatus
from gameplay.rules import game_meta, get_game
from gameplay.rules.analysis import (
    ANALYSIS_VERSION,
    Step,
    analyse_game,
)

#: A queued or running analysis older than this is taken to be lost with its
#: worker (the task's time limit is well below it) and may be queued again.
STALE_AFTER = timedelta(minutes=20)
#: Progress is written at most this often (one UPDATE a second, not per step).
PROGRESS_EVERY_S = 1.0


def analysable(*, match: Match) -> None:
    """Raise unless ``match`` may be analysed now: finished, and turn-based or
    with a review of its own (``META.review``: the real-time game)."""
    if match.status != MatchStatus.FINISHED:
        raise NotFinished(_("the analysis is available once the match has ended"))
    if match_is_sealed(match):  # its deal is still played at other tables
        raise NotFinished(str(SEALED_MESSAGE))
    realtime = getattr(get_game(match.game), "realtime", False)
    if realtime and game_meta(match.game).review is None:
        raise NotAnalysable(
            _("this game is played in real time: it has no per-decision analysis")
        )


def analysis_request(*, match: Match) -> MatchAnalysis:
    """The match's analysis of the current version, queued if not there yet.

    Idempotent: a second request returns the stored (or running) analysis;
    a failed or lost one is queued again.
    """
    analysable(match=match)
    with transaction.atomic():
        row, created = MatchAnalysis.objects.select_for_update().get_or_create(
            match=match,
            version=ANALYSIS_VERSION,
            defaults={"iterations": settings.ANALYSIS_ITERATIONS},
        )
        stale = (
            row.status in (AnalysisStatus.QUEUED, AnalysisStatus.RUNNING)
            and timezone.now() - row.requested_at > STALE_AFTER
        )
        if created or row.status == AnalysisStatus.FAILED or stale:
            row.status = AnalysisStatus.QUEUED
            row.error = ""
            row.done_steps = 0
            row.requested_at = timezone.now()
            row.save()
            analysis_id = row.pk
            transaction.on_commit(
                lambda: current_app.tasks["analysis.analyse_match"].delay(analysis_id)
            )
    return row


def analysis_auto(*, match_id: int) -> str:
    """Queue the analysis of a finished rated tournament game when the
    operator's ``ANALYSIS_AUTO_TOURNAMENTS`` is on; what happened, as a word.

    Idempotent (``analysis_request``): once per match and analysis version, a
    repeated announcement finds the stored or running row. A match that is not
    a rated tournament game, is gone, or may not be analysed yet (a sealed
    deal) is skipped: nothing is stored.
    """
    if not settings.ANALYSIS_AUTO_TOURNAMENTS:
        return "off"
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not match.rated or not context_is_tournament(match.context):
        return "skipped"
    try:
        row = analysis_request(match=match)
    except (NotFinished, NotAnalysable):
        return "skipped"
    return str(row.status)


def analysis_run(*, analysis_id: int) -> MatchAnalysis:
    """Run one queued analysis to the end and store it (idempotent)."""
    row = MatchAnalysis.objects.select_related("match").get(pk=analysis_id)
    if row.status == AnalysisStatus.DONE:
        return row
    match = row.match
    started_at = match.started_at
    steps = [
        Step(
            version=a.version,
            seat=a.seat,
            action_id=a.action_id,
            # When the server applied it (ms from the start): real-time reviews.
            at_ms=max(0, round((a.created_at - started_at).total_seconds() * 1000))
            if started_at is not None
            else None,
        )
        for a in match.actions.order_by("version")
    ]
    row.status = AnalysisStatus.RUNNING
    row.total_steps = sum(1 for s in steps if s.seat is not None)
    row.done_steps = 0
    row.save(update_fields=["status", "total_steps", "done_steps"])
    last = [time.monotonic()]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY_S or done == total:
            last[0] = now
            MatchAnalysis.objects.filter(pk=row.pk).update(done_steps=done)

    started = time.process_time()
    assert match.seed is not None, "a finished match was dealt"
    try:
        result = analyse_game(
            game=get_game(match.game),
            config=match.config,
            seed=match.seed,
            steps=steps,
            iterations=row.iterations,
            progress=progress,
        )
    except ValueError as exc:
        row.status = AnalysisStatus.FAILED
        row.error = str(exc)[:200]
        row.finished_at = timezone.now()
        row.save(update_fields=["status", "error", "finished_at"])
        return row
    row.result = result
    row.status = AnalysisStatus.DONE
    row.done_steps = row.total_steps
    row.cpu_seconds = round(time.process_time() - started, 3)
    row.finished_at = timezone.now()
    row.save()
    return row
