"""Built-in anchors on the ladder; a new bot's first games right after validation."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bots import enqueue, ladder, tasks
from bots.models import BotStatus
from gameplay.models import Match, MatchStatus
from tests.bots import botsrc
from tests.bots.helpers import assert_validates_to, stored_version
from tests.factories import BotFactory, BotVersionFactory

pytestmark = pytest.mark.django_db

WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture
def queued(monkeypatch):
    calls: list[list[int]] = []
    monkeypatch.setattr(enqueue, "play_matches", calls.append)
    return calls


def active_bot(game="duelo"):
    bot = BotFactory(game=game, status=BotStatus.ACTIVE)
    bot.active_version = BotVersionFactory(bot=bot, status="active")
    bot.save()
    return bot


def seat_agents(match):
    return [s.agent for s in match.seats.order_by("number")]


def test_a_lone_bot_meets_an_anchor_and_anchors_never_meet(queued) -> None:
    bot = active_bot()
    ladder.ladder_round_schedule(game="duelo", when=WHEN, duplicate=False)
    matches = list(Match.objects.all())
    assert matches, "one uploaded bot is enough for a round: the anchors stand"
    for match in matches:
        agents = seat_agents(match)
        assert bot.active_version.agent in agents
        assert any(a.startswith("builtin:") for a in agents)
        assert match.rated and match.status == MatchStatus.ACTIVE


def test_every_round_pairs_bots_with_anchors_and_no_anchor_pairs(queued) -> None:
    bots = [active_bot() for _ in range(5)]
    ladder.ladder_round_schedule(game="duelo", when=WHEN, duplicate=False)
    seen = set()
    for match in Match.objects.all():
        agents = seat_agents(match)
        assert not all(a.startswith("builtin:") for a in agents)
        seen |= set(agents)
    assert {b.active_version.agent for b in bots} <= seen


def test_no_uploaded_bots_no_games(queued) -> None:
    round_ = ladder.ladder_round_schedule(game="duelo", when=WHEN)
    assert round_ is not None
    assert round_.match_count == 0 and not Match.objects.exists()


def test_debut_games_against_every_anchor_once(queued) -> None:
    bot = active_bot()
    ids = ladder.bot_debut_schedule(version_id=bot.active_version_id)
    assert len(ids) == 4, "two anchors, each deal with both seat orders"
    matches = Match.objects.filter(pk__in=ids)
    assert {a for m in matches for a in seat_agents(m)} == {
        bot.active_version.agent,
        "builtin:random",
        "builtin:heuristic",
    }
    assert all(m.rated and m.context.startswith("bots:debut:") for m in matches)
    assert all(m.status == MatchStatus.ACTIVE for m in matches)
    assert ladder.bot_debut_schedule(version_id=bot.active_version_id) == []
    assert Match.objects.count() == 4


def test_no_debut_for_versions_that_do_not_play(queued) -> None:
    bot = active_bot()
    bot.disabled = True
    bot.save()
    assert ladder.bot_debut_schedule(version_id=bot.active_version_id) == []
    old = BotVersionFactory(bot=active_bot(), status="retired")
    assert ladder.bot_debut_schedule(version_id=old.pk) == []


def test_activation_queues_the_debut(
    settings, owner, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    settings.BOT_SANDBOX_ALLOW_UNSANDBOXED = True
    settings.BOT_VALIDATION_GAMES = 2
    debuts: list[int] = []
    monkeypatch.setattr(tasks.debut_games, "delay", debuts.append)
    version = stored_version(owner, botsrc.FIRST_LEGAL, name="fresh", active=False)
    with django_capture_on_commit_callbacks(execute=True):
        assert_validates_to(version.pk, "active")
    assert debuts == [version.pk]


def test_debut_task_plays_nothing_twice(queued) -> None:
    bot = active_bot()
    assert tasks.debut_games(bot.active_version_id) == 4
    assert tasks.debut_games(bot.active_version_id) == 0
