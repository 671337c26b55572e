"""Bot owners enter their bots in tournaments and seasons, from the page and
the API, in every format and pool kind (issue 26, 1.4)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league.models import Entrant, Registration, RegistrationStatus
from league.tournaments import services as ts
from tests.bots import botsrc
from tests.bots.helpers import stored_version
from tests.factories import LeagueFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db

FORMATS = ["round_robin", "swiss", "swiss_tables", "single_elim", "double_elim"]


@pytest.fixture
def owner():
    return UserFactory(username="owner")


@pytest.fixture
def bots(owner):
    return [
        stored_version(owner, botsrc.FIRST_LEGAL, name=name).bot
        for name in ("Tiger", "Crane")
    ]


def _tournament(fmt: str, kind: str):
    return ts.tournament_create(
        by=UserFactory(),
        name=f"{fmt} {kind}",
        game="duelo",
        format=fmt,
        participants=kind,
    )


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", ["bots", "mixed"])
def test_an_owner_enters_and_withdraws_a_bot_on_the_page_and_the_api(
    client, owner, bots, fmt, kind
) -> None:
    t = _tournament(fmt, kind)
    client.force_login(owner)
    url = reverse("league:tournament", args=[t.slug])
    page = client.get(url).content.decode()
    assert "Enter bot" in page and "Tiger" in page and "Crane" in page
    # A person's own "Enter" only where people take part.
    assert (">Enter</button>" in page) == (kind == "mixed")
    response = client.post(
        reverse("league:tournament_enter", args=[t.slug]),
        {"bot_id": bots[0].pk},
        follow=True,
    )
    assert "Tiger entered" in response.content.decode()
    entrant = Entrant.objects.get(tournament=t)
    assert entrant.participant.bot_id == bots[0].pk
    page = client.get(url).content.decode()
    assert "Withdraw Tiger" in page
    # Only the bot not yet entered is offered.
    assert f'<option value="{bots[0].pk}">' not in page
    assert f'<option value="{bots[1].pk}">' in page
    # The API enters the other one, and withdraws the first.
    api = APIClient()
    api.force_authenticate(owner)
    entry = reverse("api-tournament-entry", args=[t.slug])
    assert api.post(entry, {"bot_id": bots[1].pk}, format="json").status_code == 201
    assert api.delete(entry, {"bot_id": bots[0].pk}, format="json").status_code == 204
    assert [e.participant.bot_id for e in Entrant.objects.filter(tournament=t)] == [
        bots[1].pk
    ]
    client.post(
        reverse("league:tournament_withdraw", args=[t.slug]), {"bot_id": bots[1].pk}
    )
    assert not Entrant.objects.filter(tournament=t).exists()


def test_a_humans_only_tournament_offers_no_bot_entry(client, owner, bots) -> None:
    t = _tournament("swiss", "humans")
    client.force_login(owner)
    page = client.get(reverse("league:tournament", args=[t.slug])).content.decode()
    assert "Enter bot" not in page and ">Enter</button>" in page
    api = APIClient()
    api.force_authenticate(owner)
    response = api.post(
        reverse("api-tournament-entry", args=[t.slug]),
        {"bot_id": bots[0].pk},
        format="json",
    )
    assert response.status_code == 400
    assert "bots cannot take part" in str(response.json())
    assert not Entrant.objects.exists()


def test_someone_elses_bot_and_a_huge_id_are_refused(client, owner, bots) -> None:
    t = _tournament("swiss", "mixed")
    other = UserFactory()
    client.force_login(other)
    page = client.get(reverse("league:tournament", args=[t.slug])).content.decode()
    assert "Enter bot" not in page
    enter = reverse("league:tournament_enter", args=[t.slug])
    response = client.post(enter, {"bot_id": bots[0].pk}, follow=True)
    assert "only the bot&#x27;s owner may enter it" in response.content.decode()
    response = client.post(enter, {"bot_id": "9" * 30}, follow=True)
    assert response.status_code == 200
    assert "no such bot" in response.content.decode()
    api = APIClient()
    api.force_authenticate(owner)
    response = api.post(
        reverse("api-tournament-entry", args=[t.slug]),
        {"bot_id": 2**70},
        format="json",
    )
    assert response.status_code == 400
    assert not Entrant.objects.exists()


@pytest.mark.parametrize("kind", ["bots", "mixed"])
def test_an_owner_registers_a_bot_for_a_season_and_enters_its_tournament(
    client, owner, bots, kind
) -> None:
    season = SeasonFactory(league=LeagueFactory(participants=kind))
    client.force_login(owner)
    url = reverse("league:season", args=[season.league.slug, season.number])
    page = client.get(url).content.decode()
    assert "Register bot" in page
    assert (">Register</button>" in page) == (kind == "mixed")
    league_page = client.get(
        reverse("league:detail", args=[season.league.slug])
    ).content.decode()
    assert "Register bot" in league_page
    response = client.post(
        reverse("league:season_register", args=[season.league.slug, season.number]),
        {"bot_id": bots[0].pk},
        follow=True,
    )
    assert "Tiger is registered" in response.content.decode()
    registration = Registration.objects.get(participant__bot_id=bots[0].pk)
    assert registration.status == RegistrationStatus.APPROVED
    page = client.get(url).content.decode()
    assert "Withdraw Tiger" in page and "Queue Tiger" not in page  # not running
    # A tournament of the season takes the registered bot, from the page.
    organiser = UserFactory()
    season.league.organisers.add(organiser)
    t = ts.tournament_create(
        by=organiser,
        name="season cup",
        game="duelo",
        format="swiss_tables",
        participants=kind,
        league=season.league,
        season=season,
    )
    client.post(
        reverse("league:tournament_enter", args=[t.slug]), {"bot_id": bots[0].pk}
    )
    assert Entrant.objects.filter(tournament=t, participant__bot_id=bots[0].pk).exists()
    # An unregistered bot is told to register first.
    api = APIClient()
    api.force_authenticate(owner)
    response = api.post(
        reverse("api-tournament-entry", args=[t.slug]),
        {"bot_id": bots[1].pk},
        format="json",
    )
    assert response.status_code == 409
    assert "register for the season first" in str(response.json())
    # The API registers the second bot; the page withdraws the first.
    registration_url = reverse("api-season-registration", args=[season.pk])
    created = api.post(registration_url, {"bot_id": bots[1].pk}, format="json")
    assert created.status_code == 201
    client.post(
        reverse("league:season_withdraw", args=[season.league.slug, season.number]),
        {"bot_id": bots[0].pk},
    )
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.WITHDRAWN


def test_a_humans_only_league_offers_no_bot_registration(client, owner, bots) -> None:
    season = SeasonFactory(league=LeagueFactory(participants="humans"))
    client.force_login(owner)
    url = reverse("league:season", args=[season.league.slug, season.number])
    page = client.get(url).content.decode()
    assert "Register bot" not in page and ">Register</button>" in page
