"""Celery task of the ``analysis`` queue (config/settings: CELERY_TASK_ROUTES)."""

from __future__ import annotations

from celery import shared_task

from analysis import services


@shared_task(name="analysis.analyse_match", time_limit=900, soft_time_limit=840)
def analyse_match(analysis_id: int) -> str:
    """Analyse one match (ids only; a finished analysis is not redone)."""
    return str(services.analysis_run(analysis_id=analysis_id).status)
