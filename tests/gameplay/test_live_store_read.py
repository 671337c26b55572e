"""``reader.read_match`` must give the instances the ORM's prefetch gives: every
field of the match, its seats and their users equal, the relations cached, the
broadcast built from it byte for byte the same, in two queries (one round
trip on PostgreSQL)."""

from __future__ import annotations

import uuid
from unittest import mock

import pytest
from django.db import connection
from django.db.models import Prefetch
from django.utils import timezone

from gameplay import broadcast, selectors, services
from gameplay.live import reader
from gameplay.models import Match, Seat
from gameplay.rules import available_games, get_game
from gameplay.services import SeatSpec
from tests.gameplay.conftest import start_match


def orm_read(pk: int) -> Match:
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    return Match.objects.prefetch_related(seats).get(pk=pk)


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.fields}


def read_queries() -> int:
    """The executes of a read: one message of two SELECTs on PostgreSQL."""
    return 1 if connection.vendor == "postgresql" else 2


def assert_same_read(pk: int, django_assert_num_queries) -> Match:
    expected = orm_read(pk)
    with django_assert_num_queries(read_queries()):
        got = reader.read_match(pk)
    assert got is not None
    assert fields_of(got) == fields_of(expected)
    assert got._state.adding is False and got._state.db == expected._state.db
    expected_seats = selectors.seats_of(expected)
    with django_assert_num_queries(0):
        seats = selectors.seats_of(got)
        assert list(got.seats.all()) == seats
        users = [seat.user for seat in seats]
        assert all(seat.match is got for seat in seats)
    assert [fields_of(s) for s in seats] == [fields_of(s) for s in expected_seats]
    assert [fields_of(u) if u else None for u in users] == [
        fields_of(s.user) if s.user else None for s in expected_seats
    ]
    return got


def test_an_active_match_reads_as_the_orm_reads_it(
    players, django_assert_num_queries
) -> None:
    match = start_match(players[:2])
    engine = get_game(match.game)
    for _ in range(3):  # a state with a history, not only the deal
        match.refresh_from_db()
        seat = engine.actors(match.state)[0]
        services.match_act(
            match_id=match.pk,
            user=players[seat],
            action_id=engine.legal_action_ids(match.state, seat)[0],
            expected_version=match.version,
        )
    # Both present: an absent player to move would be sent a "your move"
    # notification by the first broadcast only, and the two would differ.
    for user in players[:2]:
        services.seat_connected(match_id=match.pk, user=user)
    got = assert_same_read(match.pk, django_assert_num_queries)
    assert got.state == orm_read(match.pk).state
    # The frames the table is sent are the same either way (at one instant:
    # frames carry the server's time).
    now = timezone.now()
    with mock.patch("django.utils.timezone.now", return_value=now):
        fresh, orm = (
            broadcast.match_messages(match=m, reread=True)
            for m in (got, orm_read(match.pk))
        )
    assert fresh == orm


def test_open_and_bot_seats_and_a_finished_match(
    players, django_assert_num_queries
) -> None:
    waiting = services.match_create(
        game="duelo",
        seats=[SeatSpec(user=players[0]), SeatSpec(), SeatSpec(agent="builtin:random")],
        config={},
    )
    got = assert_same_read(waiting.pk, django_assert_num_queries)
    assert [seat.user for seat in selectors.seats_of(got)][1:] == [None, None]

    finished = start_match(players[2:4])
    services.match_resign(match_id=finished.pk, user=players[2])
    got = assert_same_read(finished.pk, django_assert_num_queries)
    assert got.status == "finished" and got.result and got.finished_at is not None


def test_no_such_match_is_none(db, django_assert_num_queries) -> None:
    with django_assert_num_queries(1):
        assert reader.read_match(10**9) is None


@pytest.mark.parametrize("game", available_games())
def test_every_game_reads_the_same(players, game, django_assert_num_queries) -> None:
    match = start_match(players[: get_game(game).min_players], game=game)
    assert_same_read(match.pk, django_assert_num_queries)


def test_without_the_state_column(players, django_assert_num_queries) -> None:
    match = start_match(players[:2])
    with django_assert_num_queries(read_queries()):
        got = reader.read_match(match.pk, with_state=False)
    assert got is not None
    assert "state" in got.get_deferred_fields()
    assert got.version == match.version and got.status == match.status
    expected = orm_read(match.pk).state
    with django_assert_num_queries(1):  # as a deferred field: read when asked
        assert got.state == expected


def test_match_pk_of_public_id(players, django_assert_num_queries) -> None:
    match = start_match(players[:2])
    with django_assert_num_queries(1):
        assert reader.match_pk_of(str(match.public_id)) == match.pk
    assert reader.match_pk_of(str(uuid.uuid4())) is None
