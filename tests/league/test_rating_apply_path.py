"""The rating update's lean path (issue 33): one read for the match and its
people, a per-process cache of the ladders' ids checked under the lock, and on
PostgreSQL two round trips for the whole update. These tests hold it to the same
results as the general path and to a clean rollback."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.pgtrace import protocol_messages, round_trips
from gameplay.models import Seat
from league.models import Participant, PoolScope, Rating, RatingEvent, RatingPool
from league.participants import participant_for_user
from league.ratings import elo, services
from league.ratings.services import pool_global, rating_apply_match
from tests.factories import LeagueFactory, UserFactory, finished_match


def _state(pool: RatingPool) -> tuple:
    pool.refresh_from_db()
    ratings = sorted(
        Rating.objects.filter(pool=pool).values_list(
            "participant_id", "rating", "games", "peak", "played", "wins", "points"
        )
    )
    events = sorted(
        RatingEvent.objects.filter(pool=pool).values_list(
            "seq", "participant_id", "rating_before", "rating_after", "delta"
        )
    )
    return pool.last_seq, pool.rated_matches, pool.rating_count, ratings, events


@pytest.mark.django_db
def test_people_are_read_in_one_statement_and_rated_as_replay() -> None:
    """Three matches of people who already have participants: the update reads
    the match with its seats, people and participants in one statement, and
    the ratings equal elo.replay_pool's."""
    players = [UserFactory() for _ in range(5)]
    ids = [participant_for_user(u).pk for u in players]
    tables = [([0, 1, 2, 3], [1, 2, 2, 3]), ([4, 2, 0], [1, 1, 3]), ([1, 4], [2, 1])]
    pool = pool_global(game="duelo")
    for seated, ranks in tables:
        match = finished_match([players[i] for i in seated], ranks)
        with CaptureQueriesContext(connection) as queries:
            [result] = rating_apply_match(match_id=match.pk)
        assert result.applied and result.pool_id == pool.pk
        captured = queries.captured_queries
        reads = [q["sql"] for q in captured if "FROM gameplay_match" in q["sql"]]
        assert len(reads) == 1
        assert not any("accounts_user" in q["sql"] for q in captured[1:])
    expected = elo.replay_pool(
        [
            {ids[i]: rank for i, rank in zip(seated, ranks, strict=True)}
            for seated, ranks in tables
        ]
    )
    got = dict(Rating.objects.filter(pool=pool).values_list("participant_id", "rating"))
    assert got == {pid: s.rating for pid, s in expected.states.items()}
    last_seq, rated, count, _, _ = _state(pool)
    assert (last_seq, rated, count) == (3, 3, 5)


@pytest.mark.django_db
def test_renamed_people_and_new_players_take_the_general_path() -> None:
    """A person renamed since their participant was made, and one never rated,
    are rated as before: their participants are renamed and created."""
    old, new = UserFactory(), UserFactory()
    participant_for_user(old)
    old.display_name = "Renamed Master"
    old.save(update_fields=["display_name"])
    match = finished_match([old, new], [1, 2])
    [result] = rating_apply_match(match_id=match.pk)
    assert result.applied
    assert Participant.objects.get(user=old).name == "Renamed Master"
    assert Participant.objects.filter(user=new).exists()
    assert Rating.objects.filter(pool_id=result.pool_id).count() == 2


@pytest.mark.django_db
def test_a_stale_cached_ladder_id_is_looked_up_again() -> None:
    """The per-process cache of the ladders' ids is checked under the lock: an
    id that now names another pool, or none, is dropped and the ladder found
    again; the match lands in the right pool, once."""
    a, b = UserFactory(), UserFactory()
    ladder = pool_global(game="duelo")
    other = RatingPool.objects.create(game="kungfu2013", scope=PoolScope.GLOBAL)
    for wrong in (other.pk, other.pk + 1000):
        services._LADDER_IDS[(PoolScope.GLOBAL, "duelo")] = wrong
        match = finished_match([a, b], [1, 2])
        [result] = rating_apply_match(match_id=match.pk)
        assert result.applied and result.pool_id == ladder.pk
        assert services._LADDER_IDS[(PoolScope.GLOBAL, "duelo")] == ladder.pk
    assert not RatingEvent.objects.filter(pool=other).exists()
    assert _state(ladder)[:3] == (2, 2, 2)


@pytest.mark.django_db(transaction=True)
def test_a_failure_inside_the_update_rolls_everything_back(monkeypatch) -> None:
    """Outside any transaction (on PostgreSQL: the pipelined one), an error
    after the lock and the read leaves nothing written, releases the lock and
    leaves the connection usable: the same match then applies normally."""
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    first = finished_match([a, b], [1, 2])
    rating_apply_match(match_id=first.pk)
    pool = pool_global(game="duelo")
    before = _state(pool)
    match = finished_match([a, c], [2, 1])

    def broken(*args, **kwargs):
        raise RuntimeError("kernel failure")

    monkeypatch.setattr(elo, "rate_match", broken)
    with pytest.raises(RuntimeError):
        rating_apply_match(match_id=match.pk)
    assert not connection.in_atomic_block
    assert _state(pool) == before
    monkeypatch.undo()
    [result] = rating_apply_match(match_id=match.pk)
    assert result.applied
    assert _state(pool)[:3] == (2, 2, 3)


@pytest.mark.django_db
def test_bot_seats_and_unfinished_matches_still_go_the_general_way() -> None:
    """A built-in bot's seat has no person: the general path names its
    participant. A match whose result lacks a seat is not rated."""
    person = UserFactory()
    match = finished_match([person, "builtin:random"], [2, 1])
    [result] = rating_apply_match(match_id=match.pk)
    assert result.applied
    keys = set(
        Rating.objects.filter(pool_id=result.pool_id).values_list(
            "participant__key", flat=True
        )
    )
    assert "builtin:random" in keys
    broken = finished_match([person, UserFactory()], [1, 2])
    broken.result = {"placements": [1]}
    broken.save(update_fields=["result"])
    [skipped] = rating_apply_match(match_id=broken.pk)
    assert (skipped.applied, skipped.reason) == (False, "not ratable")
    assert Seat.objects.filter(match=broken).count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("prepared", [True, False])
def test_on_postgresql_an_update_takes_tworound_trips(settings, prepared) -> None:
    """Outside a transaction on PostgreSQL, the match of people rated before
    is applied in two round trips (the reads under the ladder's lock, then the
    writes with the commit), and so is a repeated application, which writes
    nothing. Prepared (``RATING_PREPARED_STATEMENTS``), the update's
    statements are parsed once per connection: later updates send only
    ``BEGIN`` and ``COMMIT`` as text."""
    if connection.vendor != "postgresql":
        pytest.skip("the pipelined transaction is PostgreSQL's")
    settings.RATING_PREPARED_STATEMENTS = prepared
    players = [UserFactory() for _ in range(4)]
    pool = pool_global(game="duelo")
    # The first match names the participants (the general path).
    rating_apply_match(match_id=finished_match(players, [1, 2, 3, 4]).pk)
    results: list[list[services.ApplyResult]] = []

    def apply(match_id: int) -> Callable[[], None]:
        return lambda: results.append(rating_apply_match(match_id=match_id))

    match = finished_match(players, [4, 3, 2, 1])
    tie = finished_match(players, [1, 1, 2, 2])
    traces = [protocol_messages(apply(m.pk)) for m in (match, match, tie, match)]
    assert [round_trips(t) for t in traces] == [2, 2, 2, 2]
    parsed = [m[3] for m in traces[2] if m[0] == "F" and m[2] == "Parse"]
    if prepared:
        assert [m.split('"')[3] for m in parsed] == ["BEGIN", "COMMIT"]
    else:
        assert len(parsed) == 8  # BEGIN, three reads, three writes, COMMIT
    reasons = [[(r.pool_id, r.applied, r.reason) for r in rs] for rs in results]
    assert reasons == [
        [(pool.pk, True, "")],
        [(pool.pk, False, "already applied")],
        [(pool.pk, True, "")],
        [(pool.pk, False, "already applied")],
    ]
    assert _state(pool)[:3] == (3, 3, 4)


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_every_kind_of_match_is_rated_as_before(
    settings,
) -> None:
    """Outside any transaction (on PostgreSQL the global ladder's two round
    trips, which hand every other match to the general path): a league's
    match, a correspondence game on its own ladder, new people, an unrated,
    an unratable, a voided and a missing match all end as the general path
    ends them, and the ladder's ratings equal a replay."""
    settings.SEPARATE_CORRESPONDENCE_LADDER = True
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    participant_for_user(a)
    participant_for_user(b)
    ladder = pool_global(game="duelo")
    league = LeagueFactory(game="duelo")
    correspondence = finished_match([a, b], [2, 1])
    correspondence.time_control = {"days": 3}
    correspondence.save(update_fields=["time_control"])
    unratable = finished_match([a, b], [1, 2])
    unratable.result = {"placements": [1]}
    unratable.save(update_fields=["result"])
    voided = finished_match([b, c], [1, 2])
    services.rating_void_match(match_id=voided.pk)
    cases = [
        (finished_match([a, b], [1, 2]), {PoolScope.GLOBAL: ""}),
        (finished_match([a, c], [2, 1]), {PoolScope.GLOBAL: ""}),  # c is new
        (
            finished_match([b, c], [1, 1], context=f"league:{league.pk}"),
            {PoolScope.GLOBAL: "", PoolScope.LEAGUE: ""},
        ),
        (correspondence, {PoolScope.CORRESPONDENCE: ""}),
        (finished_match([a, c], [1, 2], rated=False), {}),
        (unratable, {PoolScope.GLOBAL: "not ratable"}),
        (voided, {PoolScope.GLOBAL: "voided"}),
    ]
    for match, expected in cases:
        results = rating_apply_match(match_id=match.pk)
        scopes = dict(
            RatingPool.objects.filter(pk__in=[r.pool_id for r in results]).values_list(
                "pk", "scope"
            )
        )
        got = {scopes[r.pool_id]: r.reason for r in results}
        assert got == expected, match.pk
        assert all(r.applied == (not r.reason) for r in results)
    assert rating_apply_match(match_id=voided.pk + 1000) == []
    ids = {u: Participant.objects.get(user=u).pk for u in (a, b, c)}
    replay = elo.replay_pool(
        [{ids[a]: 1, ids[b]: 2}, {ids[a]: 2, ids[c]: 1}, {ids[b]: 1, ids[c]: 1}]
    )
    ratings = dict(
        Rating.objects.filter(pool=ladder).values_list("participant_id", "rating")
    )
    assert ratings == {pid: s.rating for pid, s in replay.states.items()}
