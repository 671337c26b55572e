"""The bot ladder schedules Kung Fu (2019) like any launched game: no code names it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bots import enqueue, ladder
from bots.models import BotStatus
from gameplay.models import Match
from gameplay.rules import get_game
from tests.factories import BotFactory, BotVersionFactory

pytestmark = pytest.mark.django_db
WHEN = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def no_anchors(settings):
    settings.BOT_LADDER_ANCHORS = ()


def test_a_ladder_round_of_the_dice_game_makes_playable_matches(
    monkeypatch, django_capture_on_commit_callbacks
) -> None:
    calls: list[list[int]] = []
    monkeypatch.setattr(enqueue, "play_matches", calls.append)
    for _ in range(2):
        bot = BotFactory(game="kungfu2019", status=BotStatus.ACTIVE)
        bot.active_version = BotVersionFactory(bot=bot, status="active")
        bot.save()
    with django_capture_on_commit_callbacks(execute=True):
        ladder.ladder_round_schedule(game="kungfu2019", when=WHEN, duplicate=True)
    matches = list(Match.objects.filter(game="kungfu2019"))
    assert matches and calls
    engine = get_game("kungfu2019")
    for match in matches:
        players = match.seats.count()
        assert 2 <= players <= 5
        state = engine.setup({**match.config, "players": players}, 1)
        assert engine.actors(state)
