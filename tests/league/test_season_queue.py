"""Season games: players enter through the season queue; forced matches are refused.

``POST /api/seasons/<id>/matches/`` used to let any registered player start a
rated game between any registered participants without their consent. Only
organisers (and the pairing services) create league matches now.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from bots.models import BotStatus
from gameplay.models import Match, MatchStatus
from league import services
from league.errors import Conflict, Invalid, PermissionDenied
from league.models import SeasonQueueEntry
from tests.factories import (
    BotFactory,
    BotVersionFactory,
    LeagueFactory,
    SeasonFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def season():
    return SeasonFactory(status="running")


def register(season, *users):
    return [services.season_register(season=season, user=u) for u in users]


def playable_bot(owner, game="duelo"):
    bot = BotFactory(owner=owner, game=game, status=BotStatus.ACTIVE)
    bot.active_version = BotVersionFactory(bot=bot, status="active")
    bot.save()
    return bot


# --- Forced matches ------------------------------------------------------------


def test_player_cannot_force_a_league_match_through_the_api(api, season) -> None:
    alice, bob = UserFactory(), UserFactory()
    ids = [r.participant_id for r in register(season, alice, bob)]
    api.force_authenticate(alice)
    before = Match.objects.count()
    answer = api.post(
        f"/api/seasons/{season.pk}/matches/", {"participants": ids}, format="json"
    )
    assert answer.status_code == 403
    assert answer.json()["code"] == "forbidden"
    assert "queue" in answer.json()["detail"]
    assert Match.objects.count() == before


def test_organiser_creates_league_matches(api, season) -> None:
    organiser = UserFactory()
    season.league.organisers.add(organiser)
    ids = [r.participant_id for r in register(season, UserFactory(), UserFactory())]
    api.force_authenticate(organiser)
    made = api.post(
        f"/api/seasons/{season.pk}/matches/", {"participants": ids}, format="json"
    )
    assert made.status_code == 201
    match = Match.objects.get(public_id=made.json()["match"])
    assert match.status == MatchStatus.ACTIVE
    assert match.context == f"league:{season.league_id}:season:{season.pk}"


def test_service_refuses_players_and_accepts_the_pairing_services(season) -> None:
    alice, bob = UserFactory(), UserFactory()
    ids = [r.participant_id for r in register(season, alice, bob)]
    with pytest.raises(PermissionDenied):
        services.league_match_create(season=season, by=alice, participant_ids=ids)
    assert not Match.objects.exists()
    match = services.league_match_create(season=season, by=None, participant_ids=ids)
    assert match.status == MatchStatus.ACTIVE


# --- The season queue ------------------------------------------------------------


def test_two_registered_players_are_paired_from_the_queue(season) -> None:
    alice, bob = UserFactory(), UserFactory()
    register(season, alice, bob)
    assert services.season_queue_join(season=season, user=alice) is None
    assert [e.participant.user for e in SeasonQueueEntry.objects.all()] == [alice]
    match = services.season_queue_join(season=season, user=bob)
    assert match is not None and match.status == MatchStatus.ACTIVE
    assert [s.user for s in match.seats.order_by("number")] == [alice, bob]
    assert match.context == f"league:{season.league_id}:season:{season.pk}"
    assert match.host is None, "nobody forced it: the queue paired it"
    assert not SeasonQueueEntry.objects.exists()


def test_queue_refuses_the_unregistered_twice_queued_and_wrong_sizes(season) -> None:
    alice = UserFactory()
    with pytest.raises(Conflict, match="not registered"):
        services.season_queue_join(season=season, user=alice)
    register(season, alice)
    with pytest.raises(Invalid):
        services.season_queue_join(season=season, user=alice, players=9)
    services.season_queue_join(season=season, user=alice)
    with pytest.raises(Conflict, match="already waiting"):
        services.season_queue_join(season=season, user=alice)
    assert services.season_queue_leave(season=season, user=alice)
    assert not services.season_queue_leave(season=season, user=alice)


def test_queue_only_while_the_season_runs() -> None:
    season = SeasonFactory(status="open")
    alice = UserFactory()
    register(season, alice)
    with pytest.raises(Conflict, match="running"):
        services.season_queue_join(season=season, user=alice)


def test_table_sizes_are_kept_apart(season) -> None:
    users = [UserFactory() for _ in range(4)]
    register(season, *users)
    assert services.season_queue_join(season=season, user=users[0], players=3) is None
    assert services.season_queue_join(season=season, user=users[1]) is None
    assert services.season_queue_join(season=season, user=users[2], players=3) is None
    match = services.season_queue_join(season=season, user=users[3], players=3)
    assert match is not None
    assert [s.user for s in match.seats.order_by("number")] == [
        users[0],
        users[2],
        users[3],
    ]
    assert [e.participant.user for e in SeasonQueueEntry.objects.all()] == [users[1]]


def test_withdrawn_players_are_dropped_from_the_queue(season) -> None:
    alice, bob = UserFactory(), UserFactory()
    register(season, alice, bob)
    services.season_queue_join(season=season, user=alice)
    services.season_withdraw(season=season, user=alice)
    assert services.season_queue_join(season=season, user=bob) is None
    assert [e.participant.user for e in SeasonQueueEntry.objects.all()] == [bob]


def test_a_queued_bot_waits_for_a_person_in_a_mixed_league(season) -> None:
    owner, other, person = UserFactory(), UserFactory(), UserFactory()
    bots = [playable_bot(owner), playable_bot(other)]
    for bot, who in zip(bots, (owner, other), strict=True):
        services.season_register(season=season, user=who, bot_id=bot.pk)
        assert (
            services.season_queue_join(season=season, user=who, bot_id=bot.pk) is None
        )
    assert SeasonQueueEntry.objects.count() == 2, "bots do not pair among themselves"
    register(season, person)
    match = services.season_queue_join(season=season, user=person)
    assert match is not None
    agents = [s.agent for s in match.seats.order_by("number")]
    assert agents == ["", f"bot:{bots[0].active_version_id}"]


def test_bots_only_league_pairs_bots() -> None:
    season = SeasonFactory(status="running", league=LeagueFactory(participants="bots"))
    a, b = UserFactory(), UserFactory()
    bots = [playable_bot(a), playable_bot(b)]
    for bot, who in zip(bots, (a, b), strict=True):
        services.season_register(season=season, user=who, bot_id=bot.pk)
    services.season_queue_join(season=season, user=a, bot_id=bots[0].pk)
    match = services.season_queue_join(season=season, user=b, bot_id=bots[1].pk)
    assert match is not None and all(s.agent for s in match.seats.all())


def test_only_the_owner_queues_a_bot_and_only_a_playable_one(season) -> None:
    owner = UserFactory()
    bot = playable_bot(owner)
    services.season_register(season=season, user=owner, bot_id=bot.pk)
    with pytest.raises(PermissionDenied):
        services.season_queue_join(season=season, user=UserFactory(), bot_id=bot.pk)
    bot.active_version = None
    bot.save()
    with pytest.raises(Invalid, match="no playable version"):
        services.season_queue_join(season=season, user=owner, bot_id=bot.pk)
    assert not SeasonQueueEntry.objects.exists()


def test_queue_api(api, season) -> None:
    alice, bob = UserFactory(), UserFactory()
    register(season, alice, bob)
    url = f"/api/seasons/{season.pk}/queue/"
    assert api.post(url, {}, format="json").status_code in (401, 403)
    api.force_authenticate(alice)
    assert api.post(url, {"players": 2}, format="json").status_code == 202
    waiting = api.get(url).json()
    assert [e["participant"]["username"] for e in waiting] == [alice.username]
    assert api.post(url, {"players": "x"}, format="json").status_code == 400
    api.force_authenticate(bob)
    made = api.post(url, {}, format="json")
    assert made.status_code == 201 and made.json()["match"]
    assert api.get(url).json() == []
    assert api.delete(url, {}, format="json").json() == {"left": False}


def test_season_page_shows_who_waits_and_joins_from_the_page(client, season) -> None:
    alice, bob = UserFactory(), UserFactory()
    register(season, alice, bob)
    page_url = reverse("league:season", args=[season.league.slug, season.number])
    queue_url = reverse("league:season_queue", args=[season.league.slug, season.number])
    client.force_login(alice)
    page = client.get(page_url).content.decode()
    assert "Find a season game" in page and "Nobody is waiting." in page
    joined = client.post(queue_url, {"players": "2"})
    assert joined.status_code == 302 and joined.url == page_url
    client.force_login(bob)
    page = client.get(page_url).content.decode()
    assert alice.public_name in page.split("Waiting now")[1]
    paired = client.post(queue_url, {"players": "2"})
    match = Match.objects.get()
    assert paired.url == reverse("gameplay:match", args=[match.public_id])
    client.force_login(UserFactory())
    outsider = client.get(page_url).content.decode()
    assert "Register for this season to play" in outsider
