"""Bot ratings come from league's pools: the bot page's number and chart."""

from __future__ import annotations

import pytest
from django.urls import reverse

from bots import ratings
from bots.models import BotStatus
from tests.factories import BotFactory, BotVersionFactory, finished_match

pytestmark = pytest.mark.django_db

league_ratings = pytest.importorskip("league.ratings.services")


def active_bot():
    bot = BotFactory(status=BotStatus.ACTIVE)
    bot.active_version = BotVersionFactory(bot=bot, status="active")
    bot.save()
    return bot


def test_rated_bot_matches_give_ratings_and_a_chart(client):
    winner, loser = active_bot(), active_bot()
    assert ratings.bot_rating(bot=winner) is None
    for _ in range(3):
        match = finished_match(
            [winner.active_version.agent, loser.active_version.agent], [1, 2]
        )
        league_ratings.rating_apply_match(match_id=match.pk)
    high, low = ratings.bot_rating(bot=winner), ratings.bot_rating(bot=loser)
    assert high is not None and low is not None and high > low
    assert ratings.pairing_strength(bot=winner) == high
    chart = ratings.bot_rating_chart(bot=winner)
    assert chart is not None and len(chart.points) == 3
    page = client.get(reverse("bots:detail", args=[winner.pk])).content.decode()
    assert 'class="rating-chart"' in page
    assert f"rating <strong>{high:.0f}</strong>" in page


def test_unrated_bots_pair_by_recent_placements():
    winner, loser, fresh = active_bot(), active_bot(), active_bot()
    finished_match(
        [winner.active_version.agent, loser.active_version.agent], [1, 2], rated=False
    )
    assert ratings.ladder_score(bot=winner) == 1700
    assert ratings.ladder_score(bot=loser) == 1300
    assert ratings.ladder_score(bot=fresh) == 1500
