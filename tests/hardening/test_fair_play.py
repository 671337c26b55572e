"""Fair play (issue 10, section 1): only public options, no secret config shown,
left seats see the public view, and the spectator delay holds on every path."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from gameplay import broadcast, frames, lobby, selectors, services
from gameplay.errors import BadRequest
from gameplay.models import Match, MatchStatus
from gameplay.options import (
    OptionError,
    clean_table_options,
    option_labels,
    public_config,
)
from gameplay.rules import get_game
from gameplay.services import SeatSpec
from league.errors import Invalid
from league.tournaments import services as tournament_services
from tests.factories import LeagueFactory, SeasonFactory, UserFactory
from tests.gameplay.conftest import first_legal, start_match


@pytest.fixture
def players(db):
    return [UserFactory(username=f"fp{i}") for i in range(6)]


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _deck_focus(_=None) -> list[int]:
    """A complete two-player deck, top first: a valid stacked deal."""
    from gameplay.rules.duelo import BASE_DECK

    return [int(card) for card in reversed(BASE_DECK)]


# --- only public options, with checked values -------------------------------------


@pytest.mark.parametrize(
    "options, fragment",
    [
        ({"rounds": 12}, "between 1 and 5"),
        ({"rounds": "3"}, "whole number"),
        ({"rounds": True}, "whole number"),
        ({"start": 0}, "one of"),
        ({"start": "seat0"}, "one of"),
        ({"reshuffle_discard": "yes"}, "true or false"),
        ({"deck": [1] * 24}, "cannot be set"),
        ({"seed": 5}, "cannot be set"),
        ([1, 2], "JSON object"),
    ],
)
def test_clean_table_options_refuses_private_keys_and_bad_values(options, fragment):
    with pytest.raises(OptionError, match=fragment):
        clean_table_options("duelo", options)


def test_clean_table_options_keeps_public_values_and_stored_defaults():
    stored = get_game("duelo").validate_config({"players": 2, "rounds": 3})
    assert clean_table_options("duelo", stored) == {
        key: stored[key] for key in ("start", "rounds", "reshuffle_discard")
    }
    assert clean_table_options("duelo", {"rounds": 3}) == {"rounds": 3}


@pytest.mark.parametrize("options", [{"rounds": 12}, {"start": 0}])
def test_rated_tables_refuse_out_of_range_and_seat_start(players, options):
    response = api(players[0]).post(
        reverse("api-tables"),
        {"game": "duelo", "players": 2, "rated": True, "options": options},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert "rounds" in str(response.json()) or "start" in str(response.json())
    assert not Match.objects.exists()


def test_challenges_refuse_a_fixed_start(players):
    response = api(players[0]).post(
        reverse("api-challenges"),
        {"username": players[1].username, "game": "duelo", "options": {"start": 1}},
        format="json",
    )
    assert response.status_code == 400
    assert "start" in response.json()["detail"]


def test_tournaments_refuse_a_stacked_deck(players):
    response = api(players[0]).post(
        reverse("api-tournaments"),
        {
            "name": "Stacked",
            "game": "duelo",
            "format": "single_elim",
            "rated": True,
            "options": {"deck": _deck_focus()},
        },
        format="json",
    )
    assert response.status_code == 400, response.content
    assert "cannot be set" in response.json()["detail"]
    with pytest.raises(Invalid, match="between 1 and 5"):
        tournament_services.tournament_create(
            by=players[0],
            name="Long",
            game="duelo",
            format="single_elim",
            options={"rounds": 99},
        )


def test_tournaments_keep_public_options(players):
    tournament = tournament_services.tournament_create(
        by=players[0],
        name="Best of three",
        game="duelo",
        format="single_elim",
        options={"rounds": 2},
    )
    assert tournament.options["rounds"] == 2
    assert tournament.options["deck"] is None


def test_league_matches_refuse_a_stacked_league_option(players):
    from league import services as league_services

    league = LeagueFactory(options={"deck": _deck_focus()})
    season = SeasonFactory(league=league, status="running")
    regs = [league_services.season_register(season=season, user=u) for u in players[:2]]
    with pytest.raises(Invalid, match="cannot be set"):
        league_services.league_match_create(
            season=season, by=None, participant_ids=[r.participant_id for r in regs]
        )
    assert not Match.objects.exists()


def test_match_create_refuses_private_options_unless_asked_and_never_rated(players):
    seats = [SeatSpec(user=u) for u in players[:2]]
    deck = _deck_focus()
    with pytest.raises(BadRequest, match="cannot be set"):
        services.match_create(game="duelo", seats=seats, config={"deck": deck})
    with pytest.raises(BadRequest, match="never used rated"):
        services.match_create(
            game="duelo",
            seats=seats,
            config={"deck": deck},
            rated=True,
            private_options=True,
        )
    match = services.match_create(
        game="duelo", seats=seats, config={"deck": deck}, private_options=True
    )
    assert match.config["deck"] == deck


def test_queue_and_ladder_matches_carry_only_defaults(players):
    lobby.queue_join(user=players[0], game="duelo")
    match = lobby.queue_join(user=players[1], game="duelo")
    assert match is not None
    assert match.config == get_game("duelo").validate_config({"players": 2})


# --- no API or page shows a running match's secret config -------------------------


def test_match_list_hides_a_stacked_deck_until_the_end(players):
    deck = _deck_focus()
    match = services.match_create(
        game="duelo",
        seats=[SeatSpec(user=u) for u in players[:2]],
        config={"deck": deck, "start": 1},
        private_options=True,
    )
    services.match_start(match_id=match.pk)
    listed = api().get(reverse("api-matches")).json()["results"][0]
    assert "deck" not in listed["config"] and "start" not in listed["config"]
    assert listed["config"]["players"] == 2
    assert str(deck) not in str(api(players[1]).get(reverse("api-matches")).json())
    page = api().get(reverse("gameplay:match", args=[match.public_id]))
    assert '"deck"' not in page.content.decode()
    assert str(deck)[1:-1] not in page.content.decode()
    services.match_abort(match_id=match.pk, user=None)
    listed = api().get(reverse("api-matches")).json()["results"][0]
    assert listed["config"]["deck"] == deck  # published with the seed at the end


def test_public_config_keeps_players_and_public_options():
    config = get_game("duelo").validate_config({"players": 3, "rounds": 2})
    assert public_config(game_id="duelo", config=config) == {
        "players": 3,
        "start": "random",
        "rounds": 2,
        "reshuffle_discard": False,
    }


def test_option_labels_name_public_options_only():
    """The lobby's words for a table's options: the game's labels, never a
    stacked deck or a fixed first seat (engine options outside the list)."""
    config = {"players": 2, "rounds": 2, "deck": [8, 7, 6, 5], "start": 1}
    labels = option_labels(game_id="duelo", config=config)
    assert labels == [
        "Who starts: At random",  # a private fixed seat reads as the default
        "Round wins needed: 2",
        "Reshuffle the discard pile once (optional rule for 4 players): no",
    ]
    assert option_labels(game_id="kungfu2013", config={"life": 6}) == [
        "Starting life: 6"
    ]
    assert option_labels(game_id="kungfu2019", config={}) == ["Draft the cards: yes"]


# --- a seat that resigned or was left sees the public view ------------------------


def _resign_seat_zero(players):
    match = start_match(players[:3])
    services.match_resign(match_id=match.pk, user=players[0])
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert match.seats.get(number=0).replaced_by_bot
    return match


def test_resigned_seat_gets_the_spectator_frame_over_the_api(players):
    match = _resign_seat_zero(players)
    frame = api(players[0]).get(reverse("api-match", args=[match.public_id])).json()
    assert frame["seat"] is None
    assert frame["legal"] == []
    public = api().get(reverse("api-match", args=[match.public_id])).json()
    frame.pop("server_time", None), public.pop("server_time", None)
    assert frame == public


def test_resigned_seat_gets_the_spectator_frame_on_the_page(players):
    match = _resign_seat_zero(players)
    client = api()
    client.force_login(players[0])
    page = client.get(reverse("gameplay:match", args=[match.public_id]))
    assert page.context["initial_frame"]["seat"] is None


def test_broadcast_sends_a_left_seat_the_public_frame(players, monkeypatch):
    match = _resign_seat_zero(players)
    sent: dict[str, dict] = {}

    async def capture(layer, messages):
        sent.update(messages)

    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: object())
    monkeypatch.setattr(broadcast, "_send_all", capture)
    broadcast.match_changed(match_id=match.pk)
    import json

    message = sent[broadcast.match_group(match.public_id)]
    # The left seat's own frame is not even in the message its old socket gets.
    assert "0" not in message["frames"]
    left = json.loads(broadcast.frame_for(message, 0))
    public = json.loads(broadcast.frame_for(message, None))
    playing = json.loads(broadcast.frame_for(message, 1))
    assert left == public
    assert left["seat"] is None
    assert playing["seat"] == 1


# --- the spectator delay holds on every path ---------------------------------------


def _delayed_match(players, moves: int = 4):
    match = services.match_create(
        game="duelo",
        seats=[SeatSpec(user=u) for u in players[:2]],
        time_control={"per_move": 60},
        spectator_delay=3,
    )
    match = services.match_start(match_id=match.pk)
    for _ in range(moves):
        seat, action = first_legal(match)
        services.match_act(
            match_id=match.pk,
            user=players[seat],
            action_id=action,
            expected_version=match.version,
        )
    match.refresh_from_db()
    return match


def test_match_list_shows_the_delayed_version(players):
    match = _delayed_match(players)
    assert match.version == 4
    listed = api().get(reverse("api-matches")).json()["results"][0]
    assert listed["version"] == 1


def test_delayed_spectator_frame_has_no_live_clock_or_deadline(players):
    match = _delayed_match(players)
    match = selectors.match_by_public_id(public_id=match.public_id)
    frame = frames.spectator_frame(match=match)
    assert frame["version"] == 1
    assert all(s["deadline"] is None and s["clock_ms"] is None for s in frame["seats"])
    seat_view = frames.seat_frame(match=match, seat=0)
    assert seat_view["version"] == 4
    assert any(s["deadline"] for s in seat_view["seats"])


def test_delayed_game_page_and_history_hold_back(players):
    match = _delayed_match(players)
    page = api().get(reverse("gameplay:game_detail", args=["duelo"]))
    assert page.status_code == 200
    assert match.public_version == 1
    steps = selectors.events_since(match=match, seat=None, after_version=0)
    assert [s["version"] for s in steps] == [1]
    replay = api().get(reverse("api-match-replay", args=[match.public_id]))
    assert replay.status_code == 409


def test_the_league_admin_refuses_a_stacked_deck_option(players):
    from league.admin import LeagueAdminForm

    data = {
        "slug": "stacked",
        "name": "Stacked",
        "game": "duelo",
        "participants": "mixed",
        "options": '{"deck": [1, 2, 3], "elo": {"k": 32}}',
    }
    form = LeagueAdminForm(data=data)
    assert not form.is_valid()
    assert "cannot be set" in str(form.errors["options"])
    form = LeagueAdminForm(data={**data, "options": '{"rounds": 2, "elo": {}}'})
    assert "options" not in form.errors


def test_no_analysis_hint_or_probability_for_a_match_in_play(players):
    """Even a stored analysis row of a match in play (as if written by a bug)
    is never served: not by the API, the page, the replay or a frame."""
    from analysis.models import AnalysisStatus, MatchAnalysis
    from gameplay.rules.analysis import ANALYSIS_VERSION

    match = start_match(players[:2])
    MatchAnalysis.objects.create(
        match=match,
        version=ANALYSIS_VERSION,
        iterations=1,
        status=AnalysisStatus.DONE,
        result={"decisions": [{"menu": "SECRET-VALUE"}], "summary": {}},
    )
    url = reverse("api-match-analysis", args=[match.public_id])
    for user in (None, players[0], players[1]):
        for perspective in ("", "?perspective=seat:0", "?perspective=full"):
            got = api(user).get(url + perspective)
            assert got.status_code == 403
            assert "SECRET-VALUE" not in got.content.decode()
    assert api(players[0]).post(url).status_code == 403
    page = api(players[0]).post(reverse("analysis:request", args=[match.public_id]))
    assert page.status_code in (302, 403)
    assert MatchAnalysis.objects.filter(match=match).count() == 1
    for seat in (None, 0, 1):
        frame = (
            frames.spectator_frame(match=match)
            if seat is None
            else frames.seat_frame(match=match, seat=seat)
        )
        assert "SECRET-VALUE" not in str(frame)
