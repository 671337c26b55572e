"""Tournaments from the pages: the nav link, every format's form with its
defaults, organisers adding and removing entrants, and game pages that say
which tournament, round and deadline they belong to."""

from __future__ import annotations

import pytest
from django.urls import reverse

from bots.models import BotStatus
from gameplay.models import Match
from league import services
from league.forms import TournamentForm
from league.models import Entrant, Tournament, TournamentFormat
from league.tournaments import services as ts
from league.tournaments.formats import default_swiss_rounds
from tests.factories import (
    BotFactory,
    BotVersionFactory,
    SeasonFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def default_post(name: str, format: str) -> dict:
    """What the create form posts when only name and format are filled in."""
    form = TournamentForm()
    data = {"name": name, "format": format, "game": "duelo"}
    for field_name, field in form.fields.items():
        if field_name in data:
            continue
        initial = form.get_initial_for_field(field, field_name)
        choices = getattr(field, "choices", None)  # a choice field's only
        if initial is None and choices:
            initial = next(iter(choices))[0]
        if initial is True:
            data[field_name] = "on"
        elif initial not in (None, False):
            data[field_name] = str(initial)
    return data


@pytest.fixture
def organiser(db):
    return UserFactory(username="boss")


def test_tournaments_are_in_the_navigation(client) -> None:
    page = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("league:tournaments")}"' in page


@pytest.mark.parametrize("format", TournamentFormat.values)
def test_every_format_works_from_the_page_with_its_defaults(
    client, organiser, format, django_capture_on_commit_callbacks
) -> None:
    client.force_login(organiser)
    created = client.post(
        reverse("league:tournaments"), default_post(f"Cup {format}", format)
    )
    assert created.status_code == 302, created.content.decode()[:2000]
    tournament = Tournament.objects.get()
    assert created.url == reverse("league:tournament", args=[tournament.slug])
    action = reverse("league:tournament_action", args=[tournament.slug, "add-entrant"])
    people = [UserFactory(username=f"p{i}") for i in range(4)]
    for person in people:
        assert client.post(action, {"username": person.username}).status_code == 302
    client.post(action, {"builtin": "random"})
    assert tournament.entrants.count() == 5
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(
            reverse("league:tournament_action", args=[tournament.slug, "start"])
        )
    assert started.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == "running", format
    assert tournament.rounds.exists() and Match.objects.exists()
    if format in ("swiss", "swiss_tables"):
        assert tournament.swiss_rounds == default_swiss_rounds(
            entrants=5, tables=format == "swiss_tables"
        )
    page = client.get(reverse("league:tournament", args=[tournament.slug]))
    body = page.content.decode()
    assert "Round 1" in body
    if tournament.is_elimination:
        assert "Bracket" in body


def test_default_swiss_rounds() -> None:
    assert [default_swiss_rounds(entrants=n) for n in (2, 3, 4, 5, 8, 9, 16)] == [
        1,
        2,
        2,
        3,
        3,
        4,
        4,
    ]
    assert default_swiss_rounds(entrants=9, tables=True) == 3
    assert default_swiss_rounds(entrants=3, tables=True) == 2


def test_organisers_add_and_remove_people_and_bots_on_the_page(
    client, organiser
) -> None:
    tournament = ts.tournament_create(
        by=organiser, name="Open", game="duelo", format="round_robin"
    )
    bot = BotFactory(status=BotStatus.ACTIVE, name="Mantis")
    bot.active_version = BotVersionFactory(bot=bot, status="active")
    bot.save()
    page_url = reverse("league:tournament", args=[tournament.slug])
    add = reverse("league:tournament_action", args=[tournament.slug, "add-entrant"])
    remove = reverse(
        "league:tournament_action", args=[tournament.slug, "remove-entrant"]
    )
    client.force_login(organiser)
    page = client.get(page_url).content.decode()
    assert "Add player" in page and f'value="{bot.pk}"' in page
    client.post(add, {"username": UserFactory(username="kim").username})
    client.post(add, {"bot_id": str(bot.pk)})
    client.post(add, {"builtin": "heuristic"})
    names = sorted(e.participant.name for e in tournament.entrants.all())
    assert len(names) == 3 and "Mantis" in names
    assert {e.participant.type for e in tournament.entrants.all()} == {
        "user",
        "bot",
        "builtin",
    }
    refused = client.post(add, {"username": "nobody-here"}, follow=True)
    assert "no player called" in refused.content.decode()
    assert tournament.entrants.count() == 3
    twice = client.post(add, {"builtin": "heuristic"}, follow=True)
    assert "already entered" in twice.content.decode()
    entrant = tournament.entrants.get(participant__type="bot")
    page = client.get(page_url).content.decode()
    assert f'id="remove-entrant-{entrant.pk}"' in page
    client.post(remove, {"entrant": str(entrant.pk)})
    assert not Entrant.objects.filter(pk=entrant.pk).exists()
    client.force_login(UserFactory())
    client.post(add, {"builtin": "random"})
    other = tournament.entrants.first()
    assert other is not None
    client.post(remove, {"entrant": str(other.pk)})
    assert tournament.entrants.count() == 2, "only organisers change the field"


def test_the_field_is_fixed_once_started(organiser) -> None:
    tournament = ts.tournament_create(
        by=organiser, name="Fixed", game="duelo", format="single_elim"
    )
    for name in ("random", "heuristic"):
        ts.tournament_add_named_entrant(
            tournament=tournament, by=organiser, builtin=name
        )
    ts.tournament_start(tournament=tournament, by=organiser)
    from league.errors import Conflict, Invalid

    with pytest.raises(Conflict):
        ts.tournament_add_named_entrant(
            tournament=tournament, by=organiser, username=organiser.username
        )
    first = tournament.entrants.first()
    assert first is not None
    with pytest.raises(Conflict):
        ts.tournament_remove_entrant(
            tournament=tournament, by=organiser, entrant_id=first.pk
        )
    with pytest.raises(Invalid):
        ts.tournament_add_named_entrant(tournament=tournament, by=organiser)


def test_tournament_game_page_names_tournament_round_and_deadline(
    client, organiser, django_capture_on_commit_callbacks
) -> None:
    tournament = ts.tournament_create(
        by=organiser, name="Spring Cup", game="duelo", format="round_robin"
    )
    ts.tournament_add_named_entrant(
        tournament=tournament, by=organiser, username=organiser.username
    )
    ts.tournament_add_named_entrant(
        tournament=tournament, by=organiser, builtin="random"
    )
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=tournament, by=organiser)
    pairing = tournament.pairings.exclude(match=None).first()
    assert pairing is not None and pairing.match is not None
    page = client.get(reverse("gameplay:match", args=[pairing.match.public_id]))
    body = page.content.decode()
    assert "Spring Cup" in body
    assert reverse("league:tournament", args=[tournament.slug]) in body
    assert "round 1" in body
    assert pairing.round.deadline.strftime("%Y-%m-%dT%H:%M") in body


def test_season_game_page_names_the_season(client) -> None:
    season = SeasonFactory(status="running")
    a, b = UserFactory(), UserFactory()
    for u in (a, b):
        services.season_register(season=season, user=u)
    services.season_queue_join(season=season, user=a)
    match = services.season_queue_join(season=season, user=b)
    assert match is not None, "the second player makes a pair"
    body = client.get(reverse("gameplay:match", args=[match.public_id])).content
    assert str(season).encode() in body and b"season game" in body


def test_organiser_entrant_api(organiser) -> None:
    from rest_framework.test import APIClient

    tournament = ts.tournament_create(
        by=organiser, name="Api cup", game="duelo", format="round_robin"
    )
    url = f"/api/tournaments/{tournament.slug}/entrants/"
    api = APIClient()
    api.force_authenticate(UserFactory())
    assert api.post(url, {"builtin": "random"}, format="json").status_code == 403
    api.force_authenticate(organiser)
    made = api.post(url, {"builtin": "random"}, format="json")
    assert made.status_code == 201
    assert made.json()["participant"]["key"] == "builtin:random"
    assert api.post(url, {}, format="json").status_code == 400
    assert api.post(url, {"bot_id": 10**20}, format="json").status_code == 400
    assert api.post(url, {"username": "ghost"}, format="json").status_code == 404
    gone = api.delete(url, {"entrant": made.json()["id"]}, format="json")
    assert gone.status_code == 204 and not tournament.entrants.exists()
    assert api.delete(url, {"entrant": 999}, format="json").status_code == 404


def test_a_bot_owner_enters_their_bots_from_the_pages(client, organiser) -> None:
    """The owner is offered their own playing bots of the tournament's and the
    league's game (not another game's, a retired one, or someone else's), and
    the offered bot enters."""
    owner = UserFactory(username="owner")
    mine, other_game, retired, theirs = (
        BotFactory(owner=owner, status=BotStatus.ACTIVE, name="Mantis"),
        BotFactory(
            owner=owner, status=BotStatus.ACTIVE, name="Heron", game="kungfu2013"
        ),
        BotFactory(owner=owner, status=BotStatus.RETIRED, name="Old Ox"),
        BotFactory(status=BotStatus.ACTIVE, name="Viper"),
    )
    for bot in (mine, other_game, retired, theirs):
        bot.active_version = BotVersionFactory(bot=bot, status="active")
        bot.save()
    season = SeasonFactory(league__game="duelo")
    tournament = ts.tournament_create(
        by=organiser, name="Open", game="duelo", format="round_robin"
    )
    client.force_login(owner)
    pages = [
        client.get(reverse("league:tournament", args=[tournament.slug])),
        client.get(reverse("league:detail", args=[season.league.slug])),
        client.get(reverse("league:season", args=[season.league.slug, season.number])),
    ]
    for page in pages:
        html = page.content.decode()
        assert f'<option value="{mine.pk}">Mantis</option>' in html
        for name in ("Heron", "Old Ox", "Viper"):
            assert name not in html
    entered = client.post(
        reverse("league:tournament_enter", args=[tournament.slug]),
        {"bot_id": mine.pk},
    )
    assert entered.status_code == 302
    assert tournament.entrants.get().participant.bot_id == mine.pk
