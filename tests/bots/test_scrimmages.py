"""Scrimmages: unrated games on demand, on duplicate deals, within a daily budget."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from bots import enqueue, scrimmages, services
from bots.errors import BotError, BotForbidden, SandboxRefused
from bots.models import BotVersion, Scrimmage, VersionStatus
from gameplay.models import Match, MatchStatus
from tests.bots import botsrc
from tests.bots.helpers import stored_version
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch):
    calls: list[list[int]] = []
    monkeypatch.setattr(enqueue, "play_matches", calls.append)
    return calls


@pytest.fixture
def version(owner):
    return stored_version(owner, botsrc.FIRST_LEGAL, name="Tiger")


def games_of(scrimmage):
    return list(
        Match.objects.filter(context__startswith=f"{scrimmage.context}:").order_by("pk")
    )


def test_games_are_unrated_duplicate_deals_played_by_the_workers(
    owner, version, queued, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        scrimmage = scrimmages.scrimmage_create(
            user=owner, bot_id=version.bot_id, opponent="builtin:random", games=5
        )
    # Rounded up to whole deals: three deals, each with both seat orders.
    assert scrimmage.games == 6
    matches = games_of(scrimmage)
    assert queued == [[m.pk for m in matches]]
    assert len(matches) == 6
    for first, second in zip(matches[::2], matches[1::2], strict=True):
        assert first.seed == second.seed  # one deal, the seats rotated
        agents = [s.agent for s in first.seats.order_by("number")]
        assert [s.agent for s in second.seats.order_by("number")] == agents[::-1]
        assert version.agent in agents and "builtin:random" in agents
    assert all(not m.rated and m.status == MatchStatus.ACTIVE for m in matches)
    assert len({m.seed for m in matches}) == 3


def test_results_count_the_versions_seat(owner, version, queued) -> None:
    scrimmage = scrimmages.scrimmage_create(
        user=owner, bot_id=version.bot_id, opponent="builtin:random", games=4
    )
    matches = games_of(scrimmage)
    # Deal 0: won in seat 0, drawn in seat 1; deal 1: lost, then still in play.
    results = [(1, 2), (1, 1), (2, 1), None]
    for match, placements in zip(matches, results, strict=True):
        if placements is None:
            continue
        match.status = MatchStatus.FINISHED
        match.save(update_fields=["status"])
        for seat in match.seats.all():
            seat.placement = placements[seat.number]
            seat.save(update_fields=["placement"])
    games = scrimmages.scrimmage_games(scrimmage=scrimmage)
    assert [g.seat for g in games] == [0, 1, 0, 1]
    assert [g.outcome for g in games] == ["won", "drawn", "lost", ""]
    assert scrimmages.scrimmage_summary(games) == {
        "games": 4,
        "won": 1,
        "drawn": 1,
        "lost": 1,
        "pending": 1,
        "faults": 0,
    }


def test_opponents_are_built_ins_other_bots_and_own_versions(
    owner, version, queued
) -> None:
    rival = stored_version(UserFactory(), botsrc.FIRST_LEGAL, name="Crane")
    failed = stored_version(UserFactory(), botsrc.FIRST_LEGAL, name="Broken")
    BotVersion.objects.filter(pk=failed.pk).update(status=VersionStatus.FAILED)
    agents = {o.agent for o in scrimmages.scrimmage_opponents(bot=version.bot)}
    assert {"builtin:random", rival.agent, version.agent} <= agents
    assert failed.agent not in agents
    scrimmage = scrimmages.scrimmage_create(
        user=owner, bot_id=version.bot_id, opponent=rival.agent, games=2
    )
    assert scrimmage.opponent_label.startswith("Crane v1")
    # Against itself: both seats are the version.
    mirror = scrimmages.scrimmage_create(
        user=owner, bot_id=version.bot_id, opponent=version.agent, games=2
    )
    assert {s.agent for s in games_of(mirror)[0].seats.all()} == {version.agent}


@pytest.mark.parametrize(
    ("opponent", "games", "message"),
    [
        ("builtin:random", 0, "1 to 50"),
        ("builtin:random", 51, "1 to 50"),
        ("builtin:nobody", 2, "No built-in bot"),
        ("bot:999999", 2, "cannot play"),
        ("somebody", 2, "Choose an opponent"),
    ],
)
def test_bad_requests_are_refused_and_start_nothing(
    owner, version, queued, opponent, games, message
) -> None:
    with pytest.raises(BotError, match=message):
        scrimmages.scrimmage_create(
            user=owner, bot_id=version.bot_id, opponent=opponent, games=games
        )
    assert not Scrimmage.objects.exists() and not Match.objects.exists()


def test_only_the_owner_and_only_with_a_sandbox(owner, version, queued) -> None:
    with pytest.raises(BotForbidden):
        scrimmages.scrimmage_create(
            user=UserFactory(),
            bot_id=version.bot_id,
            opponent="builtin:random",
            games=2,
        )
    services.sandbox_report(ok=False, reason="no sandbox on the workers")
    with pytest.raises(SandboxRefused):
        scrimmages.scrimmage_create(
            user=owner, bot_id=version.bot_id, opponent="builtin:random", games=2
        )
    assert not Match.objects.exists()


def test_the_daily_budget_per_owner(settings, owner, version, queued) -> None:
    settings.BOT_SCRIMMAGE_DAILY_GAMES = 10
    bot_id = version.bot_id
    scrimmages.scrimmage_create(
        user=owner, bot_id=bot_id, opponent="builtin:random", games=6
    )
    with pytest.raises(BotError, match="limit is 10 \\(4 left\\)"):
        scrimmages.scrimmage_create(
            user=owner, bot_id=bot_id, opponent="builtin:random", games=6
        )
    assert Scrimmage.objects.count() == 1 and Match.objects.count() == 6
    scrimmages.scrimmage_create(
        user=owner, bot_id=bot_id, opponent="builtin:random", games=4
    )


def test_api_and_pages(client, owner, version, queued) -> None:
    api = APIClient()
    api.force_authenticate(owner)
    url = reverse("api-bot-scrimmages", args=[version.bot_id])
    made = api.post(url, {"opponent": "builtin:random", "games": 2}, format="json")
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["summary"]["pending"] == 2 and len(body["results"]) == 2
    listed = api.get(url).json()
    assert listed["results"][0]["id"] == body["id"]
    assert any(o["agent"] == "builtin:random" for o in listed["opponents"])
    bad = api.post(url, {"opponent": "builtin:random", "games": 99}, format="json")
    assert bad.status_code == 400
    other = APIClient()
    other.force_authenticate(UserFactory())
    detail = reverse("api-bot-scrimmage", args=[version.bot_id, body["id"]])
    assert other.get(detail).status_code == 403
    assert api.get(detail).json()["id"] == body["id"]

    client.force_login(owner)
    page = client.get(reverse("bots:detail", args=[version.bot_id]))
    assert b"Start the scrimmage" in page.content
    started = client.post(
        reverse("bots:scrimmage_new", args=[version.bot_id]),
        {"opponent": "builtin:heuristic", "games": 2, "version": version.number},
    )
    scrimmage = Scrimmage.objects.get(opponent="builtin:heuristic")
    assert started.url == reverse("bots:scrimmage", args=[version.bot_id, scrimmage.pk])
    shown = client.get(started.url).content.decode()
    for match in games_of(scrimmage):
        assert f'data-match="{match.public_id}"' in shown
    refused = client.post(
        reverse("bots:scrimmage_new", args=[version.bot_id]),
        {"opponent": "builtin:heuristic", "games": 0, "version": version.number},
        follow=True,
    )
    assert b"Scrimmage: games" in refused.content
    client.force_login(UserFactory())
    assert client.get(started.url).status_code == 403
