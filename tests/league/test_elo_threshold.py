"""The 400-point rule's threshold as a pool setting, and its migration."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from league.models import Rating, RatingEvent
from league.participants import participant_for_user
from league.ratings.elo import elo_config_from
from league.ratings.services import pool_global, rating_apply_match
from tests.factories import finished_match

pytestmark = pytest.mark.django_db

migration = importlib.import_module("league.migrations.0007_elo_cap_threshold")


def _seed(pool, user, rating):
    return Rating.objects.create(
        pool=pool,
        participant=participant_for_user(user),
        rating=rating,
        games=100,
        reached_elite=True,
        peak=rating,
    )


def _gm_gain(users, config):
    gm, club = users[:2]
    pool = pool_global(game="duelo")
    pool.config = config
    pool.save(update_fields=["config"])
    _seed(pool, gm, 2700.0)
    _seed(pool, club, 2200.0)
    rating_apply_match(match_id=finished_match([gm, club], [1, 2]).pk)
    event = RatingEvent.objects.get(pool=pool, participant__user=gm)
    return event.delta


def test_default_pool_follows_fide_since_october_2025(users):
    # 2700 beats 2200: the full 500 points count for the 2700 player (K=10).
    assert _gm_gain(users, {}) == pytest.approx(10 * (1 - 1 / (1 + 10**-1.25)))


def test_pool_setting_none_applies_the_cap_to_everyone(users):
    delta = _gm_gain(users, {"max_difference_below": None})
    assert delta == pytest.approx(10 * (1 - 1 / 1.1))


def test_threshold_is_validated():
    assert elo_config_from({"max_difference_below": 2500}).max_difference_below == 2500
    with pytest.raises(ValueError):
        elo_config_from({"max_difference_below": -1})


def test_migration_pins_old_rule_only_where_history_needs_it(users):
    pool = pool_global(game="duelo")
    _seed(pool, users[0], 2700.0)
    _seed(pool, users[1], 2200.0)
    rating_apply_match(match_id=finished_match(users[:2], [1, 2]).pk)
    other = pool_global(game="kungfu2013")
    migration.pin_old_rule(apps, None)
    pool.refresh_from_db()
    other.refresh_from_db()
    assert pool.config == {"max_difference_below": None}
    assert pool.elo_config.max_difference_below is None
    assert "max_difference_below" not in other.config
    migration.unpin(apps, None)
    pool.refresh_from_db()
    assert pool.config == {}
