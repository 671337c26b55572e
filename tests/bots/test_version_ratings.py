"""A rating per version: its own row and history, seeded from its predecessor."""

from __future__ import annotations

import pytest
from django.urls import reverse

from bots import enqueue, tasks, version_ratings
from bots.models import BotStatus, VersionRating, VersionRatingEvent
from bots.ratings import anchor_strength
from tests.factories import BotFactory, BotVersionFactory, UserFactory, finished_match

pytestmark = pytest.mark.django_db


def playing_bot(name: str):
    bot = BotFactory(name=name, status=BotStatus.ACTIVE)
    version = BotVersionFactory(bot=bot, number=1, status="active")
    bot.active_version = version
    bot.save()
    return bot, version


def test_versions_are_rated_against_their_opponents(client) -> None:
    _, t1 = playing_bot("Tiger")
    _, c1 = playing_bot("Crane")
    match = finished_match([t1.agent, c1.agent], [1, 2])
    assert version_ratings.versions_rate_match(match_id=match.pk) == 2
    winner = VersionRating.objects.get(version=t1)
    loser = VersionRating.objects.get(version=c1)
    assert winner.rating > 1500 > loser.rating and winner.games == loser.games == 1
    event = VersionRatingEvent.objects.get(version=t1)
    assert (event.rating_before, event.rating_after) == (1500, winner.rating)
    # Idempotent: the same match rates nobody twice.
    assert version_ratings.versions_rate_match(match_id=match.pk) == 0
    assert VersionRatingEvent.objects.count() == 2
    # An anchor is held where it is; the version moves against it.
    anchored = finished_match(["builtin:random", t1.agent], [1, 2])
    version_ratings.versions_rate_match(match_id=anchored.pk)
    winner.refresh_from_db()
    assert winner.games == 2
    event = VersionRatingEvent.objects.get(version=t1, match=anchored)
    assert event.rating_after < event.rating_before
    assert anchor_strength(game="duelo", name="random") > 0
    # Unrated matches (scrimmages, casual tables) move nothing.
    casual = finished_match([t1.agent, c1.agent], [2, 1], rated=False)
    assert version_ratings.versions_rate_match(match_id=casual.pk) == 0


def test_a_new_version_starts_from_its_predecessor_as_provisional() -> None:
    tiger, t1 = playing_bot("Tiger")
    for _ in range(3):
        version_ratings.versions_rate_match(
            match_id=finished_match([t1.agent, "builtin:random"], [1, 2]).pk
        )
    v1 = VersionRating.objects.get(version=t1)
    t2 = BotVersionFactory(bot=tiger, number=2, status="active")
    row = version_ratings.version_rating_row(version=t2)
    assert row.rating == row.seed_rating == v1.rating
    assert row.seeded_from == t1 and row.games == 0
    assert version_ratings.is_provisional(row)
    # Its own history starts with its own games; v1's row is left as it was.
    version_ratings.versions_rate_match(
        match_id=finished_match([t2.agent, "builtin:random"], [2, 1]).pk
    )
    row.refresh_from_db()
    assert row.games == 1 and row.rating < v1.rating
    assert VersionRating.objects.get(version=t1).rating == v1.rating


def test_the_ladder_ranks_current_versions_and_pages_show_them(client) -> None:
    tiger, t1 = playing_bot("Tiger")
    crane, c1 = playing_bot("Crane")
    playing_bot("Heron")  # not rated yet: listed last
    version_ratings.versions_rate_match(
        match_id=finished_match([c1.agent, t1.agent], [1, 2]).pk
    )
    # Tiger's new version is current: it is ranked, not its old one.
    t2 = BotVersionFactory(bot=tiger, number=2, status="active")
    tiger.active_version = t2
    tiger.save()
    version_ratings.versions_rate_match(
        match_id=finished_match([t2.agent, "builtin:random"], [1, 2]).pk
    )
    ranking = version_ratings.current_versions_ranking(game="duelo")
    assert {(s.bot.name, s.version.number) for s in ranking[:2]} == {
        ("Crane", 1),
        ("Tiger", 2),
    }
    first, second = ranking[0].rating, ranking[1].rating
    assert first is not None and second is not None and first >= second
    assert (ranking[2].bot.name, ranking[2].rating) == ("Heron", None)
    assert ranking[0].bot in (crane, tiger)
    assert all(s.provisional for s in ranking)
    body = client.get(reverse("api-bots-ladder"), {"game": "duelo"}).json()
    assert [r["name"] for r in body["results"]] == [s.bot.name for s in ranking]
    assert client.get(reverse("api-bots-ladder"), {"game": "x"}).status_code == 400
    page = client.get(reverse("bots:list")).content.decode()
    assert 'data-ladder="duelo"' in page
    detail = client.get(reverse("api-bot", args=[tiger.pk])).json()
    by_number = {v["number"]: v["rating"] for v in detail["versions"]}
    assert by_number[2]["seeded_from"] == 1 and by_number[2]["games"] == 1
    assert len(by_number[2]["history"]) == 1
    shown = client.get(reverse("bots:detail", args=[tiger.pk])).content.decode()
    assert "(1 rated)" in shown
    # Each version's history, with the match's replay.
    [event] = VersionRatingEvent.objects.filter(version=t2)
    assert "data-rating-history" in shown
    assert reverse("gameplay:replay", args=[event.match.public_id]) in shown


def test_rated_matches_with_an_uploaded_seat_queue_the_task(monkeypatch) -> None:
    queued: list[int] = []
    monkeypatch.setattr(enqueue, "rate_versions", queued.append)
    _, t1 = playing_bot("Tiger")
    person = UserFactory()
    with_bot = finished_match([t1.agent, person], [1, 2])
    people = finished_match([person, UserFactory()], [1, 2])
    tasks.on_match_finished(None, match_id=with_bot.pk, rated=True)
    tasks.on_match_finished(None, match_id=with_bot.pk, rated=False)
    tasks.on_match_finished(None, match_id=people.pk, rated=True)
    assert queued == [with_bot.pk]
    # The task rates it; a person's seat counts at their league rating.
    assert tasks.rate_versions(with_bot.pk) == 1


def test_ladder_pairing_sorts_by_the_current_versions_rating() -> None:
    from bots.ladder import _entrant_strengths, ladder_entrants

    tiger, t1 = playing_bot("Tiger")
    crane, _ = playing_bot("Crane")
    VersionRating.objects.create(version=t1, rating=1900, seed_rating=1500, games=4)
    strengths = _entrant_strengths("duelo", ladder_entrants(game="duelo"))
    assert strengths[f"bot:{tiger.pk}"] == 1900
    # Without a rated game of its own the bot's strength is used.
    assert strengths[f"bot:{crane.pk}"] == 1500
