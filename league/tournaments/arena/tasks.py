"""Arena tasks: thin, id-taking, idempotent (the services lock the arena)."""

from __future__ import annotations

from celery import shared_task


@shared_task(
    name="league.arena_match_finished",
    acks_late=True,
    time_limit=120,
    soft_time_limit=110,
)
def arena_match_finished(match_id: int) -> bool:
    """Score a finished arena game and pair its players again."""
    from league.tournaments.arena.services import arena_record_match

    return arena_record_match(match_id=match_id)


@shared_task(
    name="league.arenas_tick", acks_late=True, time_limit=120, soft_time_limit=110
)
def arenas_tick() -> dict[str, int]:
    """Beat: start due arenas, pair free players, end arenas whose time is up."""
    from league.tournaments.arena.services import arenas_tick as tick

    return tick()
