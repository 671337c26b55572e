"""Tables, challenges and the quick-play queue."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay import lobby
from gameplay.errors import BadRequest, Forbidden, NotActive
from gameplay.models import ChallengeStatus, MatchStatus, QueueEntry

pytestmark = pytest.mark.django_db


def test_table_fills_and_starts_by_itself(players, django_capture_on_commit_callbacks):
    table = lobby.table_create(host=players[0], game="duelo", players=3)
    assert table.status == MatchStatus.WAITING
    lobby.table_join(match_id=table.pk, user=players[1])
    with django_capture_on_commit_callbacks(execute=True):
        lobby.table_join(match_id=table.pk, user=players[2])
    table.refresh_from_db()
    assert table.status == MatchStatus.ACTIVE
    assert [s.user for s in table.seats.all()] == players[:3]


def test_join_twice_leave_and_late_join(players):
    table = lobby.table_create(host=players[0], game="duelo", players=3)
    with pytest.raises(BadRequest, match="already have a seat"):
        lobby.table_join(match_id=table.pk, user=players[0])
    lobby.table_join(match_id=table.pk, user=players[1])
    lobby.table_leave(match_id=table.pk, user=players[1])
    assert table.seats.get(number=1).user is None
    lobby.table_join(match_id=table.pk, user=players[2])
    lobby.table_join(match_id=table.pk, user=players[3])
    with pytest.raises(NotActive, match="already started"):
        lobby.table_join(match_id=table.pk, user=players[4])
    other = lobby.table_create(host=players[5], game="duelo", players=2)
    lobby.table_leave(match_id=other.pk, user=players[5])
    other.refresh_from_db()
    assert other.status == MatchStatus.ABORTED


def test_host_fills_with_bots_and_bots_play(
    players, django_capture_on_commit_callbacks
):
    table = lobby.table_create(host=players[0], game="duelo", players=3)
    with pytest.raises(Forbidden):
        lobby.table_fill_with_bot(match_id=table.pk, user=players[1], bot="random")
    with pytest.raises(BadRequest, match="unknown built-in bot"):
        lobby.table_fill_with_bot(match_id=table.pk, user=players[0], bot="skynet")
    lobby.table_fill_with_bot(match_id=table.pk, user=players[0], bot="random")
    with django_capture_on_commit_callbacks(execute=True):
        lobby.table_fill_with_bot(match_id=table.pk, user=players[0], bot="heuristic")
    table.refresh_from_db()
    assert table.status == MatchStatus.ACTIVE
    # Bots moved until it was the person's turn (or the game ended).
    from gameplay.rules import get_game

    actors = get_game("duelo").actors(table.state)
    assert table.status == MatchStatus.FINISHED or actors == [0]


def test_host_starts_early_with_fewer_players(
    players, django_capture_on_commit_callbacks
):
    table = lobby.table_create(host=players[0], game="duelo", players=4)
    lobby.table_join(match_id=table.pk, user=players[1])
    with pytest.raises(Forbidden):
        lobby.table_start(match_id=table.pk, user=players[1])
    lobby.table_start(match_id=table.pk, user=players[0])
    table.refresh_from_db()
    assert table.status == MatchStatus.ACTIVE
    assert table.config["players"] == 2
    assert table.seats.count() == 2


def test_start_alone_is_refused(players):
    table = lobby.table_create(host=players[0], game="duelo", players=3)
    with pytest.raises(BadRequest) as refused:
        lobby.table_start(match_id=table.pk, user=players[0])
    assert refused.value.message == "This game is for 2 to 8 players, not 1."
    assert refused.value.extra() == {
        "reason": "players_range",
        "params": {"min": 2, "max": 8, "players": 1},
    }
    table.refresh_from_db()
    assert table.status == MatchStatus.WAITING


def test_public_tables_refuse_stacked_decks_and_unknown_options(players):
    with pytest.raises(BadRequest, match="cannot be set at public tables"):
        lobby.table_create(
            host=players[0], game="duelo", players=2, options={"deck": [1] * 24}
        )
    with pytest.raises(BadRequest):
        lobby.table_create(host=players[0], game="duelo", players=9)


def test_challenge_accept_starts_match(players):
    challenge = lobby.challenge_create(
        challenger=players[0], challenged=players[1], game="duelo"
    )
    with pytest.raises(BadRequest, match="pending challenge"):
        lobby.challenge_create(
            challenger=players[0], challenged=players[1], game="duelo"
        )
    with pytest.raises(Forbidden):
        lobby.challenge_accept(challenge_id=challenge.pk, user=players[2])
    match = lobby.challenge_accept(challenge_id=challenge.pk, user=players[1])
    assert match.status == MatchStatus.ACTIVE
    challenge.refresh_from_db()
    assert challenge.status == ChallengeStatus.ACCEPTED
    with pytest.raises(NotActive):
        lobby.challenge_decline(challenge_id=challenge.pk, user=players[1])


def test_challenge_decline_and_withdraw(players):
    one = lobby.challenge_create(
        challenger=players[0], challenged=players[1], game="duelo"
    )
    lobby.challenge_decline(challenge_id=one.pk, user=players[1])
    one.refresh_from_db()
    assert one.status == ChallengeStatus.DECLINED
    two = lobby.challenge_create(
        challenger=players[0], challenged=players[1], game="duelo"
    )
    lobby.challenge_decline(challenge_id=two.pk, user=players[0])
    two.refresh_from_db()
    assert two.status == ChallengeStatus.CANCELLED
    with pytest.raises(BadRequest):
        lobby.challenge_create(
            challenger=players[0], challenged=players[0], game="duelo"
        )


def test_quick_play_seats_waiting_players_together(players):
    assert lobby.queue_join(user=players[0], game="duelo", players=3) is None
    with pytest.raises(BadRequest, match="already waiting"):
        lobby.queue_join(user=players[0], game="duelo", players=3)
    assert lobby.queue_join(user=players[1], game="duelo", players=2) is None
    assert lobby.queue_join(user=players[2], game="duelo", players=3) is None
    match = lobby.queue_join(user=players[3], game="duelo", players=3)
    assert match is not None and match.status == MatchStatus.ACTIVE
    assert {s.user for s in match.seats.all()} == {players[0], players[2], players[3]}
    assert list(QueueEntry.objects.values_list("user", flat=True)) == [players[1].pk]
    assert lobby.queue_leave(user=players[1], game="duelo") is True


def test_rated_quick_play_pairs_near_ratings_and_widens_with_time(players):
    ratings = {players[0].pk: 1500.0, players[1].pk: 2100.0, players[2].pk: 1550.0}
    lobby.set_rating_provider(lambda user, game: ratings.get(user.pk))
    try:
        assert lobby.queue_join(user=players[0], game="duelo", rated=True) is None
        # 600 points apart: too far for players who just arrived.
        assert lobby.queue_join(user=players[1], game="duelo", rated=True) is None
        match = lobby.queue_join(user=players[2], game="duelo", rated=True)
        assert {s.user for s in match.seats.all()} == {players[0], players[2]}
        assert match.rated
        # After waiting long enough the window reaches the far opponent.
        ratings[players[3].pk] = 2700.0
        assert lobby.queue_join(user=players[3], game="duelo", rated=True) is None
        later = timezone.now() + timedelta(minutes=2)
        assert lobby.queue_pair(game="duelo", now=later) is not None
    finally:
        lobby.set_rating_provider(None)


def test_rating_window_grows_and_is_capped():
    assert lobby.rating_window(waited_seconds=0) == 100
    assert lobby.rating_window(waited_seconds=30) == 400
    assert lobby.rating_window(waited_seconds=10_000) == lobby.MAX_WINDOW
