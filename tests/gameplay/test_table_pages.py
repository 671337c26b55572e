"""The game table pages: the board is found by the game's id, plus section-3 fixes."""

from __future__ import annotations

import pytest
from django.template.loader import get_template
from django.urls import reverse

from gameplay.catalog import game_catalog
from tests.gameplay.conftest import play_to_end, start_match

pytestmark = pytest.mark.django_db


def test_every_playable_game_brings_its_board_files() -> None:
    """A game with an engine must ship templates/gameplay/boards/<game>.html
    and static/js/boards/<game>.js, or its match page could not be drawn."""
    from django.contrib.staticfiles import finders

    for game in game_catalog():
        if not game.playable:
            continue
        get_template(f"gameplay/boards/{game.id}.html")
        assert finders.find(f"js/boards/{game.id}.js"), game.id


def test_match_and_replay_pages_load_the_games_board(players, client) -> None:
    match = start_match(players[:2])
    page = client.get(reverse("gameplay:match", args=[match.public_id]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "js/boards/duelo.js" in html
    assert 'data-game="duelo"' in html
    assert 'data-role="opponents"' in html  # Duelo's own part of the table
    assert 'data-role="card-reference"' in html
    assert 'data-control="resign"' in html  # the shared table around it
    play_to_end(match, players[:2])
    replay = client.get(reverse("gameplay:replay", args=[match.public_id]))
    html = replay.content.decode()
    assert replay.status_code == 200
    assert "js/boards/duelo.js" in html and "js/replay.js" in html
    assert 'data-role="opponents"' in html
    assert 'data-control="resign"' not in html  # read-only


def test_bots_of_one_kind_get_distinct_names_everywhere(players, client) -> None:
    from gameplay import lobby, selectors

    table = lobby.table_create(host=players[0], game="duelo", players=4)
    for _ in range(3):
        lobby.table_fill_with_bot(match_id=table.pk, user=players[0], bot="heuristic")
    table.refresh_from_db()
    names = [s.display_name for s in table.seats.order_by("number")]
    assert names == [
        players[0].public_name,
        "Heuristic bot",
        "Heuristic bot 2",
        "Heuristic bot 3",
    ]
    # The frame (seats, target buttons and log all name seats from it) and the
    # replay use the same names.
    frame = selectors.seat_frame(match=table, seat=0)
    assert [s["name"] for s in frame["seats"]] == names


def test_match_create_numbers_repeated_bots_and_names_them_properly(players) -> None:
    from gameplay import services
    from gameplay.services import SeatSpec

    match = services.match_create(
        game="duelo",
        seats=[
            SeatSpec(agent="builtin:ismcts"),
            SeatSpec(user=players[0]),
            SeatSpec(agent="builtin:ismcts"),
            SeatSpec(agent="builtin:random"),
        ],
    )
    assert [s.display_name for s in match.seats.order_by("number")] == [
        "ISMCTS bot",
        players[0].public_name,
        "ISMCTS bot 2",
        "Random bot",
    ]


def test_bot_menu_shows_names_not_ids() -> None:
    from gameplay.forms import BotSeatForm

    labels = dict(BotSeatForm().fields["bot"].choices)
    assert labels["ismcts"] == "Strong: ISMCTS bot"
    assert all("(" not in label for label in labels.values())
