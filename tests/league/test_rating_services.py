"""Rating services: pools a match feeds, idempotency, recompute, void, concurrency."""

from __future__ import annotations

import itertools
import random
import threading

import pytest
from django.core.management import call_command
from django.db import connection

from league.models import (
    MatchVoid,
    PoolScope,
    Rating,
    RatingEvent,
    RatingPool,
)
from league.participants import participant_for_user
from league.ratings import elo
from league.ratings.services import (
    pool_global,
    rating_apply_match,
    rating_correct_match,
    rating_recompute_pool,
    rating_void_match,
)
from tests.factories import LeagueFactory, SeasonFactory, UserFactory, finished_match
from tests.league.conftest import play_match
from tests.waiting import wait_until

pytestmark = pytest.mark.django_db


def _ratings(pool: RatingPool) -> dict[int, tuple]:
    return {
        r.participant_id: (
            r.rating,
            r.games,
            r.reached_elite,
            r.peak,
            r.played,
            r.wins,
            r.points,
        )
        for r in Rating.objects.filter(pool=pool)
    }


def _events(pool: RatingPool) -> list[tuple]:
    return list(
        RatingEvent.objects.filter(pool=pool)
        .order_by("seq", "participant_id")
        .values_list("seq", "participant_id", "rating_before", "rating_after", "delta")
    )


def test_two_player_result_matches_elo_by_hand(users) -> None:
    a, b = users[:2]
    match = finished_match([a, b], [1, 2])
    [result] = rating_apply_match(match_id=match.pk)
    assert result.applied
    pool = RatingPool.objects.get(pk=result.pool_id)
    assert pool.scope == PoolScope.GLOBAL and pool.game == "duelo"
    ra = Rating.objects.get(pool=pool, participant=participant_for_user(a))
    rb = Rating.objects.get(pool=pool, participant=participant_for_user(b))
    # Equal ratings: expected 0.5 each, K=40 for a new player -> +-20.
    assert ra.rating == pytest.approx(1520.0)
    assert rb.rating == pytest.approx(1480.0)
    assert (ra.games, ra.wins, ra.played, ra.points) == (1, 1, 1, 1.0)
    assert (rb.wins, rb.points) == (0, 0.0)
    assert ra.peak == pytest.approx(1520.0) and rb.peak == pytest.approx(1500.0)
    assert ra.provisional
    assert pool.__class__.objects.get(pk=pool.pk).rating_count == 2


def test_multiplayer_pool_decomposes_pairwise_with_k_divided(users) -> None:
    four = users[:4]
    match = finished_match(four, [1, 2, 2, 2])  # single winner: losers tie
    rating_apply_match(match_id=match.pk)
    pool = pool_global(game="duelo")
    got = {
        r.participant.user_id: r.rating
        for r in Rating.objects.filter(pool=pool).select_related("participant")
    }
    # Winner: 3 pairwise wins at 0.5 expected, K/(n-1)=40/3 -> +20.
    assert got[four[0].pk] == pytest.approx(1520.0)
    # Each loser: a loss to the winner and two draws -> -0.5 * 40/3.
    for u in four[1:]:
        assert got[u.pk] == pytest.approx(1500.0 - 20.0 / 3)
    assert sum(got.values()) == pytest.approx(4 * 1500.0)  # zero-sum
    events = RatingEvent.objects.filter(pool=pool, match=match)
    assert {e.players for e in events} == {4}
    assert sorted(e.score for e in events) == pytest.approx([1 / 3] * 3 + [1.0])


def test_applying_twice_equals_once(users) -> None:
    match = finished_match(users[:3], [2, 1, 3])
    first = rating_apply_match(match_id=match.pk)
    pool = RatingPool.objects.get(pk=first[0].pool_id)
    before = (_ratings(pool), _events(pool), pool.last_seq)
    again = rating_apply_match(match_id=match.pk)
    assert [r.applied for r in again] == [False]
    pool.refresh_from_db()
    assert (_ratings(pool), _events(pool), pool.last_seq) == before
    assert pool.rated_matches == 1


def test_unrated_match_feeds_no_global_pool(users) -> None:
    match = finished_match(users[:2], [1, 2], rated=False)
    assert rating_apply_match(match_id=match.pk) == []
    assert not RatingEvent.objects.exists()


def test_league_and_season_context_feed_their_pools(users) -> None:
    season = SeasonFactory()
    league = season.league
    match = finished_match(
        users[:2], [2, 1], rated=False, context=f"league:{league.pk}:season:{season.pk}"
    )
    results = rating_apply_match(match_id=match.pk)
    scopes = sorted(RatingPool.objects.get(pk=r.pool_id).scope for r in results)
    assert scopes == ["league", "season"]
    other_game = LeagueFactory(game="kungfu2013")
    stray = finished_match(
        users[:2], [1, 2], rated=False, context=f"league:{other_game.pk}"
    )
    assert rating_apply_match(match_id=stray.pk) == []


def test_humans_only_pool_refuses_bot_seats(users) -> None:
    league = LeagueFactory(participants="humans")
    match = finished_match(
        [users[0], "builtin:random"], [1, 2], rated=False, context=f"league:{league.pk}"
    )
    [result] = rating_apply_match(match_id=match.pk)
    assert not result.applied and "kind" in result.reason
    assert not Rating.objects.exists()


def _random_history(users, n_matches: int, seed: int) -> list:
    rng = random.Random(seed)
    matches = []
    for _ in range(n_matches):
        size = rng.randint(2, 5)
        seated = rng.sample(users, size)
        ranks = [rng.randint(1, size) for _ in range(size)]
        match = finished_match(seated, ranks)
        rating_apply_match(match_id=match.pk)
        matches.append(match)
    return matches


def test_recompute_equals_incremental_exactly(users) -> None:
    _random_history(users, 40, seed=3)
    pool = pool_global(game="duelo")
    incremental = (_ratings(pool), _events(pool))
    result = rating_recompute_pool(pool_id=pool.pk)
    assert result.events_changed == 0
    assert (_ratings(pool), _events(pool)) == incremental
    # Scramble the stored history, then recompute must restore it bit for bit.
    RatingEvent.objects.filter(pool=pool).update(
        rating_before=0, rating_after=0, delta=0
    )
    Rating.objects.filter(pool=pool).update(rating=0, games=0, peak=0, points=0)
    result = rating_recompute_pool(pool_id=pool.pk)
    assert result.events_changed == RatingEvent.objects.filter(pool=pool).count()
    assert (_ratings(pool), _events(pool)) == incremental


def test_recompute_equals_elo_replay_pool(users) -> None:
    matches = _random_history(users, 25, seed=11)
    pool = pool_global(game="duelo")
    expected = elo.replay_pool(
        [
            {
                participant_for_user(s.user).pk: s.placement
                for s in m.seats.select_related("user")
            }
            for m in matches
        ]
    )
    got = {pid: row[0] for pid, row in _ratings(pool).items()}
    assert got == {pid: s.rating for pid, s in expected.states.items()}


def test_recompute_command_reports_and_reproduces(users, capsys) -> None:
    _random_history(users, 15, seed=5)
    pool = pool_global(game="duelo")
    incremental = _ratings(pool)
    Rating.objects.filter(pool=pool).update(rating=1.0)
    call_command("recompute_ratings", "--game", "duelo")
    out = capsys.readouterr()
    assert f"pool {pool.pk}" in out.out and "15 matches" in out.out
    assert "match" in out.err  # the tqdm bar
    assert _ratings(pool) == incremental
    with pytest.raises(Exception, match="no rating pool"):
        call_command("recompute_ratings", "--pool", "999999")


def test_void_removes_match_and_recomputes(users) -> None:
    matches = _random_history(users[:5], 10, seed=8)
    pool = pool_global(game="duelo")
    voided = matches[3]
    rating_void_match(match_id=voided.pk, reason="collusion")
    assert MatchVoid.objects.filter(match=voided).exists()
    assert not RatingEvent.objects.filter(match=voided).exists()
    expected = elo.replay_pool(
        [
            {
                participant_for_user(s.user).pk: s.placement
                for s in m.seats.select_related("user")
            }
            for m in matches
            if m.pk != voided.pk
        ]
    )
    got = {pid: row[0] for pid, row in _ratings(pool).items()}
    assert got == {pid: s.rating for pid, s in expected.states.items()}
    # A late "match finished" task must not bring it back.
    late = rating_apply_match(match_id=voided.pk)
    assert [(r.applied, r.reason) for r in late] == [(False, "voided")]
    assert not RatingEvent.objects.filter(match=voided).exists()


def test_correct_result_keeps_order_and_recomputes(users) -> None:
    a, b = users[:2]
    m1 = finished_match([a, b], [1, 2])
    m2 = finished_match([a, b], [1, 2])
    for m in (m1, m2):
        rating_apply_match(match_id=m.pk)
    pa, pb = participant_for_user(a), participant_for_user(b)
    rating_correct_match(match_id=m1.pk, placements={pa.pk: 2, pb.pk: 1})
    pool = pool_global(game="duelo")
    expected = elo.replay_pool([{pa.pk: 2, pb.pk: 1}, {pa.pk: 1, pb.pk: 2}])
    got = {pid: row[0] for pid, row in _ratings(pool).items()}
    assert got == {pid: s.rating for pid, s in expected.states.items()}


def test_real_match_finished_feeds_ratings_through_the_task(
    users, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = play_match(users[:3])
    pool = pool_global(game="duelo")
    events = RatingEvent.objects.filter(pool=pool, match=match)
    assert events.count() == 3
    assert sum(e.delta for e in events) == pytest.approx(0.0, abs=1e-9)
    placements = {s.user_id: s.placement for s in match.seats.all()}
    for e in events.select_related("participant"):
        assert e.placement == placements[e.participant.user_id]


def _apply_retrying_sqlite_lock(match_id: int) -> None:
    """In-memory SQLite (shared cache) fails fast instead of waiting for a
    lock; retrying emulates the wait PostgreSQL does by itself."""
    from django.db import OperationalError

    def applied() -> bool:
        try:
            rating_apply_match(match_id=match_id)
        except OperationalError as exc:
            if connection.vendor != "sqlite" or "locked" not in str(exc):
                raise
            return False
        return True

    wait_until(applied, timeout=60, interval=0.002, message="the lock")


@pytest.mark.django_db(transaction=True)
def test_concurrent_finishes_serialise_on_the_pool() -> None:
    """Six matches of one pool (sharing players) applied by six threads at
    once, twice each: every application waits for the pool lock and sees the
    previous result, so the ratings equal a sequential replay in the order the
    pool recorded (``seq``), and nothing is applied twice. Run the suite with
    DATABASE_URL pointing at PostgreSQL to exercise real row locks."""
    players = [UserFactory() for _ in range(4)]
    pool = pool_global(game="duelo")
    pairs = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (1, 3)]
    matches = [finished_match([players[a], players[b]], [1, 2]) for a, b in pairs]
    barrier = threading.Barrier(len(matches) * 2)
    errors: list[BaseException] = []

    def worker(match_id: int) -> None:
        try:
            barrier.wait()
            _apply_retrying_sqlite_lock(match_id)
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(m.pk,)) for m in matches + matches]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    pool.refresh_from_db()
    assert pool.last_seq == len(matches) == pool.rated_matches
    assert RatingEvent.objects.filter(pool=pool).count() == 2 * len(matches)
    seq_order = list(
        dict.fromkeys(
            RatingEvent.objects.filter(pool=pool)
            .order_by("seq")
            .values_list("match_id", flat=True)
        )
    )
    ids = {u.pk: participant_for_user(u).pk for u in players}
    placements = {
        m.pk: {ids[players[a].pk]: 1, ids[players[b].pk]: 2}
        for m, (a, b) in zip(matches, pairs, strict=True)
    }
    expected = elo.replay_pool([placements[mid] for mid in seq_order])
    got = {pid: row[0] for pid, row in _ratings(pool).items()}
    assert got == {pid: s.rating for pid, s in expected.states.items()}
    # Each player's events chain: every one starts where the previous ended.
    for pid in ids.values():
        chain = list(
            RatingEvent.objects.filter(pool=pool, participant_id=pid)
            .order_by("seq")
            .values_list("rating_before", "rating_after")
        )
        for (_, after), (before, _) in itertools.pairwise(chain):
            assert before == after


@pytest.mark.django_db(transaction=True)
def test_a_void_waits_for_an_application_that_read_the_match_before_it() -> None:
    """An application that holds the pool's lock read the match as not void;
    a void made meanwhile waits for it to commit, then finds its events and
    takes them out, where it would otherwise find none and leave the match
    rated for good (PostgreSQL's row locks; SQLite locks the whole file)."""
    from django.db import transaction

    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's")
    match = finished_match([UserFactory(), UserFactory()], [1, 2])
    pool = pool_global(game="duelo")
    applied, release = threading.Event(), threading.Event()
    voided: list[list[int]] = []
    errors: list[BaseException] = []

    def in_thread(body):
        def run() -> None:
            try:
                body()
            except BaseException as exc:  # reported below
                errors.append(exc)
            finally:
                connection.close()

        return threading.Thread(target=run)

    def apply_and_hold() -> None:
        with transaction.atomic():
            RatingPool.objects.select_for_update().get(pk=pool.pk)
            assert rating_apply_match(match_id=match.pk)[0].applied
            applied.set()
            release.wait(30)

    applier = in_thread(apply_and_hold)
    applier.start()
    assert applied.wait(30)
    void = in_thread(lambda: voided.append(rating_void_match(match_id=match.pk)))
    void.start()
    void.join(0.5)
    still_waiting = void.is_alive()
    release.set()
    applier.join(30)
    void.join(30)
    assert not errors
    assert still_waiting, "the void did not wait for the pool's lock"
    assert voided == [[pool.pk]]
    assert not RatingEvent.objects.filter(match_id=match.pk).exists()
    assert MatchVoid.objects.filter(match_id=match.pk).exists()
