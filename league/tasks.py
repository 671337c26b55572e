"""Celery tasks of the league app: thin, id-taking, idempotent.

Rating tasks run on the ``ratings`` queue (CELERY_TASK_ROUTES); everything is
late-acknowledged (CELERY_TASK_ACKS_LATE), so a task lost with its worker runs
again, which the idempotent services make harmless.
"""

from __future__ import annotations

from celery import shared_task


@shared_task(
    name="league.ratings_apply_match",
    acks_late=True,
    time_limit=120,
    soft_time_limit=110,
)
def ratings_apply_match(match_id: int) -> int:
    """Apply a finished match to its pools; returns how many pools changed."""
    from gameplay import broadcast
    from league.live import seasons_rated
    from league.ratings.services import rating_apply_match

    results = rating_apply_match(match_id=match_id)
    applied = [r.pool_id for r in results if r.applied]
    if applied:
        # The players' results panels show the new ratings as soon as they
        # exist, and so do the standings of a season page being watched.
        broadcast.match_changed(match_id=match_id)
        seasons_rated(applied)
    return len(applied)


@shared_task(
    name="league.ratings_recompute_pool",
    acks_late=True,
    time_limit=900,
    soft_time_limit=840,
)
def ratings_recompute_pool(pool_id: int) -> int:
    from league.ratings.recompute import rating_recompute_pool

    return rating_recompute_pool(pool_id=pool_id).events_changed


@shared_task(
    name="league.tournament_match_finished",
    acks_late=True,
    time_limit=120,
    soft_time_limit=110,
)
def tournament_match_finished(match_id: int) -> bool:
    """Record a tournament match's result and advance its tournament."""
    from league.tournaments.services import pairing_record_match

    return pairing_record_match(match_id=match_id)


@shared_task(
    name="league.tournaments_tick", acks_late=True, time_limit=300, soft_time_limit=280
)
def tournaments_tick() -> dict[str, int]:
    """Beat, every minute: start due rounds, forfeit no-shows, update seasons
    (and their divisions: league.divisions.services.divisions_sweep)."""
    from league.divisions.services import divisions_sweep
    from league.services import season_update_statuses
    from league.tournaments.services import tournaments_tick as tick

    done = tick()
    done["seasons"] = season_update_statuses()
    done.update(divisions_sweep())
    return done


@shared_task(
    name="league.season_divisions",
    acks_late=True,
    time_limit=120,
    soft_time_limit=110,
)
def season_divisions(season_id: int) -> int:
    """Make one season's divisions and place its newcomers (idempotent)."""
    from league.divisions.services import season_divisions_build
    from league.models import Season

    season = Season.objects.filter(pk=season_id).select_related("league").first()
    return season_divisions_build(season=season) if season else 0
