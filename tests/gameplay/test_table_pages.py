"""The game table pages: the board is found by the game's id, plus section-3 fixes."""

from __future__ import annotations

import pytest
from django.template.loader import get_template
from django.urls import reverse

from gameplay.catalog import game_catalog
from tests.gameplay.conftest import play_to_end, start_match

pytestmark = pytest.mark.django_db

BOOT = (
    'import {{ startPage }} from "/static/js/{page}.js";\n'
    '  import * as board from "/static/js/boards/{game}.js";'
)


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
    # The page's module hands the game's board module to the live page.
    assert BOOT.format(page="live-match", game="duelo") in html
    assert 'data-game="duelo"' in html
    assert 'data-role="opponents"' in html  # Duelo's own part of the table
    assert 'data-role="card-reference"' in html
    assert 'data-control="resign"' in html  # the shared table around it
    play_to_end(match, players[:2])
    replay = client.get(reverse("gameplay:replay", args=[match.public_id]))
    html = replay.content.decode()
    assert replay.status_code == 200
    assert BOOT.format(page="replay", game="duelo") in html
    assert 'data-role="opponents"' in html
    assert 'data-control="resign"' not in html  # read-only


def test_bots_of_one_kind_get_distinct_names_everywhere(players, client) -> None:
    from gameplay import frames, lobby

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
    frame = frames.seat_frame(match=table, seat=0)
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
    from typing import cast

    from django.forms import ChoiceField

    from gameplay.forms import BotSeatForm

    field = BotSeatForm().fields["bot"]
    assert isinstance(field, ChoiceField)
    # django-stubs type the getter as the setter's union; it returns pairs.
    labels = dict(cast("list[tuple[str, str]]", field.choices))
    assert labels["ismcts"] == "Strong: ISMCTS bot"
    assert all("(" not in label for label in labels.values())


def test_rules_page_is_linked_from_the_lobby_list_and_table(players, client) -> None:
    url = reverse("gameplay:rules", args=["duelo"])
    page = client.get(url)
    html = page.content.decode()
    assert page.status_code == 200
    for words in ("Your turn", "Duels", "Master of Kung Fu", "Crane Style", "deck"):
        assert words in html
    assert url in client.get(reverse("gameplay:games")).content.decode()
    lobby_page = client.get(reverse("gameplay:game_detail", args=["duelo"]))
    assert url in lobby_page.content.decode()
    match = start_match(players[:2])
    assert (
        url
        in client.get(
            reverse("gameplay:match", args=[match.public_id])
        ).content.decode()
    )
    assert client.get(reverse("gameplay:rules", args=["chess"])).status_code == 404


def test_home_page_names_only_games_that_can_be_played(client) -> None:
    html = client.get("/").content.decode()
    assert "four Kung Fu card games" not in html
    for game in game_catalog():
        assert game.name in html


def test_rematch_against_bots_starts_at_once(players, client) -> None:
    from gameplay import services
    from gameplay.models import Match, MatchStatus
    from gameplay.services import SeatSpec

    match = services.match_create(
        game="duelo",
        seats=[SeatSpec(user=players[0]), SeatSpec(agent="builtin:random")],
        rated=True,
        time_control={"per_move": 30},
    )
    match = services.match_start(match_id=match.pk)
    services.match_resign(match_id=match.pk, user=players[0])
    client.force_login(players[0])
    response = client.post(reverse("gameplay:rematch", args=[match.public_id]))
    rematch = Match.objects.get(rematch_of=match)
    assert response.status_code == 302
    assert response.url == reverse("gameplay:match", args=[rematch.public_id])
    assert rematch.status == MatchStatus.ACTIVE
    assert rematch.rated and rematch.time_control == {"per_move": 30}
    assert [s.agent for s in rematch.seats.all()] == ["", "builtin:random"]
    # Asking again goes to the same rematch, not a third match.
    again = client.post(reverse("gameplay:rematch", args=[match.public_id]))
    assert again.url == response.url


def test_rematch_with_people_keeps_their_seats_open_until_they_join(
    players, client
) -> None:
    from gameplay import frames
    from gameplay.models import Match, MatchStatus

    match = start_match(players[:2])
    play_to_end(match, players[:2])
    client.force_login(players[1])
    response = client.post(reverse("gameplay:rematch", args=[match.public_id]))
    rematch = Match.objects.get(rematch_of=match)
    assert rematch.status == MatchStatus.WAITING
    assert [s.user for s in rematch.seats.all()] == [None, players[1]]
    # The old match's frame offers it to the other player.
    match.refresh_from_db()
    offer = frames.seat_frame(match=match, seat=0)["rematch"]
    assert offer["url"] == response.url and offer["host"] == players[1].public_name
    client.force_login(players[0])
    joined = client.post(reverse("gameplay:rematch", args=[match.public_id]))
    assert joined.url == response.url
    rematch.refresh_from_db()
    assert rematch.status == MatchStatus.ACTIVE
    assert [s.user for s in rematch.seats.all()] == players[:2]
    # Only the players may ask; not while the match is on.
    client.force_login(players[5])
    client.post(reverse("gameplay:rematch", args=[match.public_id]))
    assert Match.objects.filter(rematch_of=match).count() == 1
    client.force_login(players[0])
    client.post(reverse("gameplay:rematch", args=[rematch.public_id]))
    assert not Match.objects.filter(rematch_of=rematch).exists()


def test_a_finished_match_without_a_rematch_asks_one_bare_exists(players) -> None:
    """Every socket closing on a finished table broadcasts its frames: without
    an open rematch (the common case) the rematch is looked for with one
    cheap EXISTS, not the full query with its join and prefetch."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from gameplay import selectors
    from gameplay.models import Match

    match = start_match(players[:2])
    play_to_end(match, players[:2])
    match = Match.objects.get(pk=match.pk)
    with CaptureQueriesContext(connection) as queries:
        assert selectors.rematch_info(match=match) is None
    assert len(queries) == 1
    sql = queries[0]["sql"].upper()
    assert "JOIN" not in sql and "LIMIT 1" in sql


def test_profile_shows_results_with_game_and_opponent_names(players, client) -> None:
    match = start_match(players[:2])
    live = start_match([players[0], players[2]])
    play_to_end(match, players[:2])
    html = client.get(reverse("accounts:profile", args=["p0"])).content.decode()
    assert "duelo match" not in html
    assert "Duelo: Kung Fu" in html
    assert players[1].public_name in html
    assert f"Duelo: Kung Fu against {players[2].public_name}" in html
    assert reverse("gameplay:match", args=[live.public_id]) in html


def test_form_errors_are_shown_once_and_by_label(players, client) -> None:
    client.force_login(players[0])
    page = client.post(
        reverse("gameplay:table_create", args=["duelo"]), {"players": 99}, follow=True
    )
    shown = [str(m) for m in page.context["messages"]]
    assert not any("opt_" in m or "spectator_delay" in m for m in shown), shown
    assert sum("99 is not one of" in m for m in shown) == 1
    assert any(m.startswith("Players: Select a valid choice") for m in shown)


def test_bot_pages_name_the_game_not_its_id(client) -> None:
    from tests.factories import BotFactory

    bot = BotFactory(game="duelo")
    detail = client.get(reverse("bots:detail", args=[bot.pk])).content.decode()
    assert "Duelo: Kung Fu bot by" in detail
    assert "duelo bot by" not in detail
