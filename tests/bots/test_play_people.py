"""Uploaded bots meet people: seated at a lobby table or challenged, like built-ins."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from bots import services
from gameplay import lobby
from gameplay.errors import BadRequest
from gameplay.forms import BotSeatForm
from gameplay.models import Match, MatchStatus
from tests.bots import botsrc
from tests.bots.helpers import stored_version
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_driving(monkeypatch):
    """These tests are about seating; the live driver is tested in test_live."""
    from bots import tasks

    monkeypatch.setattr(tasks.live_move, "delay", lambda pk: None)


@pytest.fixture
def version(owner):
    return stored_version(owner, botsrc.FIRST_LEGAL, name="Tiger")


def choices(form):
    flat = []
    for value, label in form.fields["bot"].choices:
        if isinstance(label, list | tuple):
            flat += [v for v, _ in label]
        else:
            flat.append(value)
    return flat


def test_uploaded_bots_are_offered_at_tables_of_their_game(version) -> None:
    assert f"upload:{version.bot_id}" in choices(BotSeatForm(game="duelo"))
    assert "heuristic" in choices(BotSeatForm(game="duelo"))
    assert f"upload:{version.bot_id}" not in choices(BotSeatForm())
    services.sandbox_report(ok=False, reason="no sandbox on the workers")
    assert f"upload:{version.bot_id}" not in choices(BotSeatForm(game="duelo"))


def test_host_seats_an_uploaded_bot_from_the_table_page(
    client, version, no_driving
) -> None:
    host = UserFactory()
    table = lobby.table_create(host=host, game="duelo", players=2)
    client.force_login(host)
    url = reverse("gameplay:table_action", args=[table.public_id, "bot"])
    page = client.get(reverse("gameplay:match", args=[table.public_id])).content
    assert f'value="upload:{version.bot_id}"'.encode() in page
    response = client.post(url, {"bot": f"upload:{version.bot_id}"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == MatchStatus.ACTIVE, "a full table starts by itself"
    seat = table.seats.get(number=1)
    assert seat.agent == version.agent and seat.display_name == "Tiger v1"


def test_unplayable_or_foreign_bots_cannot_be_seated(owner, version) -> None:
    host = UserFactory()
    table = lobby.table_create(host=host, game="duelo", players=2)
    pending = stored_version(owner, botsrc.FIRST_LEGAL, name="Pending", active=False)
    for value in (f"upload:{pending.bot_id}", "upload:999999", "upload:x"):
        with pytest.raises(BadRequest, match="cannot play"):
            lobby.table_fill_with_bot(match_id=table.pk, user=host, bot=value)
    version.bot.disabled = True
    version.bot.save()
    with pytest.raises(BadRequest):
        lobby.table_fill_with_bot(
            match_id=table.pk, user=host, bot=f"upload:{version.bot_id}"
        )
    assert all(s.is_open for s in table.seats.exclude(number=0))


def test_challenge_an_uploaded_bot_from_its_page(client, version, no_driving) -> None:
    player = UserFactory()
    detail = reverse("bots:detail", args=[version.bot_id])
    assert b"Sign in to play this bot" in client.get(detail).content
    client.force_login(player)
    assert b"Challenge this bot" in client.get(detail).content
    response = client.post(
        reverse("bots:challenge", args=[version.bot_id]), {"per_move": "30"}
    )
    match = Match.objects.get()
    assert response.url == reverse("gameplay:match", args=[match.public_id])
    assert match.status == MatchStatus.ACTIVE and match.time_control == {"per_move": 30}
    assert [(s.user, s.agent) for s in match.seats.order_by("number")] == [
        (player, ""),
        (None, version.agent),
    ]
    bad = client.post(
        reverse("bots:challenge", args=[version.bot_id]), {"per_move": "1"}
    )
    assert bad.status_code == 302 and Match.objects.count() == 1


def test_challenge_api(version, owner, no_driving) -> None:
    api = APIClient()
    url = f"/api/bots/{version.bot_id}/challenge/"
    assert api.post(url, {}, format="json").status_code in (401, 403)
    api.force_authenticate(UserFactory())
    made = api.post(url, {"rated": True}, format="json")
    assert made.status_code == 201 and made.json()["status"] == "active"
    assert Match.objects.get(public_id=made.json()["match"]).rated
    assert api.post("/api/bots/999999/challenge/", {}, format="json").status_code == 404
    pending = stored_version(owner, botsrc.FIRST_LEGAL, name="Later", active=False)
    refused = api.post(f"/api/bots/{pending.bot_id}/challenge/", {}, format="json")
    assert refused.status_code == 400 and "cannot play now" in refused.json()["detail"]
    assert Match.objects.count() == 1
