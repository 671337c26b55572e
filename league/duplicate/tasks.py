"""Celery tasks of duplicate events: thin, id-taking, idempotent."""

from __future__ import annotations

from celery import shared_task


@shared_task(
    name="duplicate.game_finished", acks_late=True, time_limit=120, soft_time_limit=110
)
def duplicate_game_finished(match_id: int) -> bool:
    from league.duplicate.services import duplicate_game_finished as settle

    return settle(match_id=match_id)


@shared_task(name="duplicate.tick", time_limit=120, soft_time_limit=110)
def duplicate_tick() -> int:
    from league.duplicate.services import duplicate_rounds_sweep

    return duplicate_rounds_sweep()
