"""The Elo 400-point rule's threshold becomes a pool setting (FIDE, Oct 2025).

``EloConfig.max_difference_below`` (default 2650) is read from each pool's
``config`` like every other Elo option. Pools whose stored history already
contains a participant rated 2650 or more before a match were rated with the
cap for everyone; they are pinned to that rule (``null``) so a recompute
still reproduces their stored events. Every other pool - in practice all of
them - follows FIDE's current rule from now on without any change.
"""

from django.db import migrations

THRESHOLD = 2650.0
KEY = "max_difference_below"


def pin_old_rule(apps, schema_editor):
    RatingPool = apps.get_model("league", "RatingPool")
    RatingEvent = apps.get_model("league", "RatingEvent")
    affected = (
        RatingEvent.objects.filter(rating_before__gte=THRESHOLD)
        .values_list("pool_id", flat=True)
        .distinct()
    )
    for pool in RatingPool.objects.filter(pk__in=list(affected)):
        if KEY not in (pool.config or {}):
            pool.config = {**(pool.config or {}), KEY: None}
            pool.save(update_fields=["config"])


def unpin(apps, schema_editor):
    RatingPool = apps.get_model("league", "RatingPool")
    for pool in RatingPool.objects.filter(config__has_key=KEY):
        if pool.config.get(KEY) is None:
            config = dict(pool.config)
            del config[KEY]
            pool.config = config
            pool.save(update_fields=["config"])


class Migration(migrations.Migration):
    dependencies = [("league", "0006_season_queue")]

    operations = [migrations.RunPython(pin_old_rule, unpin)]
