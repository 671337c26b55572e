"""Celery task of the ``analysis`` queue (config/settings: CELERY_TASK_ROUTES)."""

from __future__ import annotations

from celery import shared_task

from analysis import services


@shared_task(name="analysis.analyse_match", time_limit=900, soft_time_limit=840)
def analyse_match(analysis_id: int) -> str:
    """Analyse one match (ids only; a finished analysis is not redone)."""
    return str(services.analysis_run(analysis_id=analysis_id).status)


@shared_task(name="analysis.auto_analyse_match")
def auto_analyse_match(match_id: int) -> str:
    """The operator's automatic analysis of a finished rated tournament game:
    queues it once (``analysis_auto``); a repeat finds it stored or queued."""
    return services.analysis_auto(match_id=match_id)
