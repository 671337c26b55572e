"""Every open table, challenge and quick-play queue names its time control."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gameplay import lobby
from gameplay.catalog import game_catalog
from gameplay.errors import BadRequest
from gameplay.forms import TableForm
from gameplay.models import Challenge, Match, QueueEntry

pytestmark = pytest.mark.django_db


def _table(game: str, **fields) -> dict:
    """A table form's fields as the page sends them (the game's options at
    their defaults), with ``fields`` chosen."""
    form = TableForm(game=next(g for g in game_catalog() if g.id == game))
    data = {
        name: field.initial
        for name, field in form.fields.items()
        if field.initial is not None and name.startswith("opt_")
    }
    return {**data, "players": 2, "spectator_delay": 0, **fields}


def test_table_form_opens_a_correspondence_table_shown_in_the_list(players, client):
    client.force_login(players[0])
    response = client.post(
        reverse("gameplay:table_create", args=["kungfu2013"]),
        _table("kungfu2013", days="3"),
    )
    table = Match.objects.get(host=players[0])
    assert response.url == reverse("gameplay:match", args=[table.public_id])
    assert table.time_control == {"days": 3}
    page = client.get(reverse("gameplay:game_detail", args=["kungfu2013"]))
    assert "3 days/move" in page.content.decode()
    match_page = client.get(response.url).content.decode()
    assert 'data-testid="match-time-control">3 days/move<' in match_page


def test_table_form_live_total_with_increment(players, client):
    client.force_login(players[0])
    client.post(
        reverse("gameplay:table_create", args=["duelo"]),
        _table("duelo", total=5, increment=5),
    )
    assert Match.objects.get(host=players[0]).time_control == {
        "total": 300,
        "increment": 5,
    }


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"days": "3", "per_move": 30}, "days per move only"),
        ({"increment": 5}, "needs a total"),
        ({"days": "4"}, "Select a valid choice"),
    ],
)
def test_bad_time_control_is_refused_and_changes_nothing(
    players, client, fields, error
):
    client.force_login(players[0])
    response = client.post(
        reverse("gameplay:table_create", args=["kungfu2013"]),
        _table("kungfu2013", **fields),
        follow=True,
    )
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not Match.objects.exists()


def test_real_time_game_has_no_time_control_fields(players, client):
    client.force_login(players[0])
    page = client.get(reverse("gameplay:game_detail", args=["kungfu2009"]))
    assert 'name="days"' not in page.content.decode()
    with pytest.raises(BadRequest, match="real-time"):
        lobby.queue_join(
            user=players[0], game="kungfu2009", players=4, time_control={"days": 1}
        )


def test_challenge_names_its_time_control(players, client):
    client.force_login(players[0])
    client.post(
        reverse("gameplay:challenge", args=["duelo"]),
        {"username": players[1].username, "days": "7"},
    )
    challenge = Challenge.objects.get()
    assert challenge.time_control == {"days": 7}
    client.force_login(players[1])
    page = client.get(reverse("gameplay:game_detail", args=["duelo"])).content.decode()
    assert 'data-testid="challenge-time-control">7 days/move<' in page
    match = lobby.challenge_accept(challenge_id=challenge.pk, user=players[1])
    assert match.time_control == {"days": 7}


def test_quick_play_pairs_only_the_same_time_control(players, client):
    assert (
        lobby.queue_join(user=players[0], game="kungfu2013", time_control={"days": 2})
        is None
    )
    assert (
        lobby.queue_join(
            user=players[1], game="kungfu2013", time_control={"per_move": 30}
        )
        is None
    )
    assert QueueEntry.objects.count() == 2
    client.force_login(players[0])
    page = client.get(reverse("gameplay:game_detail", args=["kungfu2013"]))
    assert 'data-testid="queue-time-control">2 days/move<' in page.content.decode()
    client.force_login(players[2])
    response = client.post(
        reverse("gameplay:quick_play", args=["kungfu2013"]),
        {"players": 2, "days": "2"},
    )
    match = Match.objects.get(seats__user=players[2])
    assert response.url == reverse("gameplay:match", args=[match.public_id])
    assert match.time_control == {"days": 2}
    assert {s.user for s in match.seats.all()} == {players[0], players[2]}
    assert list(QueueEntry.objects.values_list("user", flat=True)) == [players[1].pk]


def test_queue_api_takes_a_time_control(players, client):
    client.force_login(players[0])
    response = client.post(
        reverse("api-queue"),
        {"game": "kungfu2013", "time_control": {"days": 5}},
        content_type="application/json",
    )
    assert response.status_code in (200, 201, 202), response.content
    assert QueueEntry.objects.get().time_control == {"days": 5}
    bad = client.post(
        reverse("api-queue"),
        {"game": "duelo", "time_control": {"days": 5, "total": 60}},
        content_type="application/json",
    )
    assert bad.status_code == 400
    assert "days per move only" in bad.content.decode()
    assert QueueEntry.objects.count() == 1
