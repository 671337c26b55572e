"""Rating buckets: the triggers keep the histogram equal to the rating rows
whoever writes them, and the rankings' positions and ranks read from it equal
the plain ordering (rating descending, then id)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from league.models import (
    Participant,
    PoolScope,
    Rating,
    RatingBucket,
    RatingPool,
)
from league.ratings.selectors import page_rating_ids, ranking_page, ranks_of
from league.ratings.services import (
    pool_global,
    rating_apply_match,
    rating_recompute_pool,
    rating_void_match,
)
from tests.factories import UserFactory, finished_match

pytestmark = pytest.mark.django_db


def _histogram(pool: RatingPool) -> Counter[int]:
    return Counter(
        math.floor(r)
        for r in Rating.objects.filter(pool=pool).values_list("rating", flat=True)
    )


def _buckets(pool: RatingPool) -> Counter[int]:
    return Counter(
        {
            b.bucket: b.count
            for b in RatingBucket.objects.filter(pool=pool)
            if b.count  # emptied buckets stay, at zero
        }
    )


def _pool_with(ratings: list[float]) -> RatingPool:
    pool = RatingPool.objects.create(game="duelo", scope=PoolScope.SEASON)
    people = Participant.objects.bulk_create(
        [
            Participant(key=f"builtin:b{i}", type="builtin", name=f"Bot {i}")
            for i in range(len(ratings))
        ]
    )
    Rating.objects.bulk_create(
        [
            Rating(pool=pool, participant=p, rating=r, peak=r, games=1)
            for p, r in zip(people, ratings, strict=True)
        ]
    )
    return pool


def _ordered(pool: RatingPool) -> list[tuple[int, float]]:
    rows = Rating.objects.filter(pool=pool).values_list("id", "rating")
    return sorted(rows, key=lambda row: (-row[1], row[0]))


def test_buckets_follow_applies_voids_recomputes_and_deletes() -> None:
    users = [UserFactory() for _ in range(8)]
    rng = random.Random(5)
    matches = []
    for _ in range(12):
        seated = rng.sample(users, 4)
        match = finished_match(seated, [rng.randint(1, 4) for _ in seated])
        rating_apply_match(match_id=match.pk)
        matches.append(match)
    pool = pool_global(game="duelo")
    assert sum(_histogram(pool).values()) == 8
    assert _buckets(pool) == _histogram(pool)
    rating_void_match(match_id=matches[3].pk)
    assert _buckets(pool) == _histogram(pool)
    Rating.objects.filter(pool=pool).update(rating=1234.5)  # every row wrong
    assert _buckets(pool) == Counter({1234: 8})
    rating_recompute_pool(pool_id=pool.pk)
    assert _buckets(pool) == _histogram(pool) and 1234 not in _buckets(pool)
    Participant.objects.filter(user=users[0]).delete()  # cascades to its rating
    assert sum(_buckets(pool).values()) == 7 == sum(_histogram(pool).values())
    pool.delete()
    assert not RatingBucket.objects.exists()


def test_positions_and_ranks_equal_the_plain_ordering() -> None:
    rng = random.Random(7)
    # Ties, whole points, a bucket's edges, negatives and spread-out values.
    ratings = [1500.0] * 7 + [1500.999, 1501.0, 1499.0, -3.5, -3.0, 0.0, 2999.25]
    ratings += [round(rng.gauss(1500, 40), rng.choice([0, 1, 3])) for _ in range(60)]
    pool = _pool_with(ratings)
    assert _buckets(pool) == _histogram(pool)
    expected = _ordered(pool)
    for offset in range(len(expected) + 2):
        for limit in (1, 5, 50):
            want = [rid for rid, _ in expected[offset : offset + limit]]
            assert page_rating_ids(pool=pool, offset=offset, limit=limit) == want
    ranks = ranks_of(pool=pool, ratings=expected)
    assert ranks == {rid: i + 1 for i, (rid, _) in enumerate(expected)}


def test_ranking_page_reads_pages_through_the_buckets() -> None:
    pool = _pool_with([1400 + (i * 7) % 23 + i / 100 for i in range(120)])
    pool.rating_count = 120
    pool.save(update_fields=["rating_count"])
    expected = _ordered(pool)
    _, rows = ranking_page(pool=pool, page=2)
    assert [r.rank for r in rows] == list(range(51, 101))
    assert [r.exact for r in rows] == [rating for _, rating in expected[50:100]]
    _, found = ranking_page(pool=pool, search="Bot 7")  # Bot 7, Bot 70-79
    assert {r.rank for r in found} == {
        i + 1
        for i, (rid, _) in enumerate(expected)
        if Rating.objects.get(pk=rid).participant.name.startswith("Bot 7")
    }
