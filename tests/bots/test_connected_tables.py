"""Connected bots at lobby tables: a host seats an online one like an uploaded bot.

The bot sits as its own account (a person's seat: the table's clocks, the
grace period and claims, the seat's view), hears of the seat and the start on
its event stream, and plays through the move endpoint.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from bots import connected
from gameplay import lobby
from gameplay.errors import BadRequest
from gameplay.forms import BotSeatForm
from gameplay.models import MatchStatus
from gameplay.rules import get_game
from tests.bots.test_bot_api import (  # the bot API tests' stream helpers
    bot_client,
    lines,
    short_streams,  # noqa: F401 (an autouse fixture: streams end quickly)
)
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


@pytest.fixture
def issued(owner):
    return connected.bot_account_create(owner=owner, name="Crane", game="duelo")


def choices(form) -> list[str]:
    flat = []
    for value, label in form.fields["bot"].choices:
        if isinstance(label, list | tuple):
            flat += [v for v, _ in label]
        else:
            flat.append(value)
    return flat


def test_only_online_connected_bots_of_the_game_are_offered(owner, issued) -> None:
    account = issued.token.account
    assert "connected:Crane" not in choices(BotSeatForm(game="duelo"))
    connected.bot_account_seen(account_id=account.pk)
    assert "connected:Crane" in choices(BotSeatForm(game="duelo"))
    assert "heuristic" in choices(BotSeatForm(game="duelo"))
    assert "connected:Crane" not in choices(BotSeatForm(game="kungfu2013"))
    listed = APIClient().get("/api/bots/online/", {"game": "duelo"}).json()
    assert listed["results"] == [
        {"username": "Crane", "game": "duelo", "seat": "connected:Crane"}
    ]
    bad = APIClient().get("/api/bots/online/", {"game": "chess"})
    assert bad.status_code == 400 and bad.json()["code"] == "bot_error"
    connected.bot_account_gone(account_id=account.pk)
    assert "connected:Crane" not in choices(BotSeatForm(game="duelo"))


def test_host_seats_a_connected_bot_through_the_api_and_it_plays(issued) -> None:
    account = issued.token.account
    bot = bot_client(issued.key)
    # The bot's event stream is open: it is online (and says so).
    assert lines(bot.get(reverse("api-bot-event-stream")))[0]["online"] is True
    host = UserFactory()
    api = APIClient()
    api.force_authenticate(host)
    made = api.post(
        "/api/tables/",
        {"game": "duelo", "players": 2, "time_control": {"per_move": 60}},
        format="json",
    )
    assert made.status_code == 201, made.json()
    public_id = made.json()["id"]
    seated = api.post(
        f"/api/tables/{public_id}/bot/", {"bot": "connected:Crane"}, format="json"
    )
    assert seated.status_code == 200, seated.json()
    table = account.user.seats.get().match
    assert table.status == MatchStatus.ACTIVE, "a full table starts by itself"
    seat = table.seats.get(user=account.user)
    assert seat.number == 1 and seat.agent == ""
    # The same clocks as a person at this table.
    assert table.time_control == {"per_move": 60}

    # Its event stream tells it the game; the game stream is its seat's view.
    events = lines(bot.get(reverse("api-bot-event-stream")))
    [start] = [e for e in events if e["type"] == "gameStart"]
    assert start["match"] == str(table.public_id) and start["seat"] == 1
    engine = get_game("duelo")
    got = lines(bot.get(reverse("api-bot-game-stream", args=[table.public_id])))
    state = got[1]
    assert state["view"] == json.loads(json.dumps(engine.observe(table.state, 1)))
    assert state["view"] != json.loads(json.dumps(engine.observe(table.state, 0)))
    # It moves when its seat is to act; the host's seat is not its to move.
    act = reverse("api-bot-game-act", args=[table.public_id])
    # The deal decides who opens and a turn is several steps: the host plays
    # its own steps (each accepted) until the bot's seat is to act.
    for _ in range(60):
        table.refresh_from_db()
        actors = engine.actors(table.state)
        if 1 in actors:
            legal = engine.legal_actions(table.state, 1)
            answer = bot.post(act, {"action": legal[0]["id"], "version": table.version})
            assert answer.status_code == 200, answer.json()
            break
        legal = engine.legal_actions(table.state, actors[0])
        moved = api.post(
            f"/api/matches/{table.public_id}/act/",
            {"action": legal[0]["id"], "version": table.version},
            format="json",
        )
        assert moved.status_code == 200, moved.json()
    else:
        raise AssertionError("the bot's seat never came to act")
    assert table.actions.filter(seat=1, kind="move").exists()


def test_refusals_change_nothing(owner, issued) -> None:
    account = issued.token.account
    host = UserFactory()
    table = lobby.table_create(host=host, game="duelo", players=3)
    # Offline, unknown, of another game, empty: refused with a clear reason.
    other = connected.bot_account_create(owner=owner, name="Stork", game="kungfu2013")
    connected.bot_account_seen(account_id=other.token.account_id)
    for value in (
        "connected:Crane",
        "connected:Nobody",
        "connected:Stork",
        "connected:",
    ):
        with pytest.raises(BadRequest, match="not online"):
            lobby.table_fill_with_bot(match_id=table.pk, user=host, bot=value)
    connected.bot_account_seen(account_id=account.pk)
    # Only the host seats bots.
    guest = UserFactory()
    with pytest.raises(lobby.Forbidden):
        lobby.table_fill_with_bot(match_id=table.pk, user=guest, bot="connected:Crane")
    assert all(s.is_open for s in table.seats.exclude(number=0))
    lobby.table_fill_with_bot(match_id=table.pk, user=host, bot="connected:Crane")
    # One seat per bot, as one seat per person.
    with pytest.raises(BadRequest, match="has a seat"):
        lobby.table_fill_with_bot(match_id=table.pk, user=host, bot="connected:Crane")
    assert table.seats.filter(user=account.user).count() == 1
    table.refresh_from_db()
    assert table.status == MatchStatus.WAITING
