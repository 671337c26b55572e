"""Uploaded Kung Fu (2013) bots: the example validates in the sandbox against the
random bot, and the ladder pairs the game's bots (no game-specific bot code)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bots import enqueue, ladder, services
from bots.models import BotStatus, VersionStatus
from gameplay.models import Match
from tests.bots.helpers import assert_validates_to
from tests.factories import BotFactory, BotVersionFactory

pytestmark = pytest.mark.django_db
EXAMPLE = Path(__file__).resolve().parents[2] / "bots/examples/kungfu2013_heuristic.py"


@pytest.mark.sandbox
def test_the_example_bot_validates_and_becomes_active(owner, fast_time, monkeypatch):
    monkeypatch.setattr(enqueue, "validation", lambda pk: None)
    version = services.bot_create(
        owner=owner,
        game="kungfu2013",
        name="kf13",
        filename="kf13.py",
        data=EXAMPLE.read_bytes(),
    )
    assert_validates_to(version.pk, "active")
    version.refresh_from_db()
    assert version.status == VersionStatus.ACTIVE
    games = version.validation_report["games"]
    assert len(games) == 2 and all(g["decisions"] > 0 and not g["fault"] for g in games)


def test_a_duelo_bot_is_refused_for_kungfu2013(owner) -> None:
    source = Path(__file__).resolve().parents[2] / "bots/examples/duelo_random.py"
    with pytest.raises(Exception, match="duelo"):
        services.bot_create(
            owner=owner,
            game="kungfu2013",
            name="wrong",
            filename="wrong.py",
            data=source.read_bytes(),
        )


def test_ladder_round_pairs_the_games_bots(settings, monkeypatch) -> None:
    settings.BOT_LADDER_ANCHORS = ()
    monkeypatch.setattr(enqueue, "play_matches", lambda ids: None)
    for _ in range(4):
        bot = BotFactory(game="kungfu2013", status=BotStatus.ACTIVE)
        bot.active_version = BotVersionFactory(bot=bot, status="active")
        bot.save()
    duelo = BotFactory(game="duelo", status=BotStatus.ACTIVE)
    duelo.active_version = BotVersionFactory(bot=duelo, status="active")
    duelo.save()
    when = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    ladder.ladder_round_schedule(game="kungfu2013", when=when, duplicate=False)
    matches = list(Match.objects.all())
    assert matches and all(m.game == "kungfu2013" for m in matches)
    assert all(m.seats.count() == 2 for m in matches)
