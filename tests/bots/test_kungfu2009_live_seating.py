"""Where uploaded bots of a real-time game sit: at live tables with people
(held by a bots worker for the match, ``bots.realtime_tables``; it plays there:
tests/bots/test_kungfu2009_live_realtime.py), and in bot matches, which the
runner plays on its virtual clock with nothing else moving them.
"""

from __future__ import annotations

import pytest

from bots import services, tasks
from bots.directory import SeatableBots
from bots.models import BotStatus
from gameplay.services import SeatSpec, match_create
from tests.factories import BotFactory, BotVersionFactory, UserFactory

# Lease and queue keys are named by match pk, which a rolled-back test database
# hands out again: a key left by an earlier test must not reach this one.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


def active_bot(game: str):
    bot = BotFactory(game=game, status=BotStatus.ACTIVE)
    bot.active_version = BotVersionFactory(bot=bot, status="active")
    bot.save()
    return bot


def _uploaded_bot_table(bot):
    """A 3-seat Kung Fu (2009) match: the uploaded bot and two built-ins."""
    return match_create(
        game="kungfu2009",
        seats=[
            SeatSpec(agent=bot.active_version.agent, label="b"),
            SeatSpec(agent="builtin:heuristic"),
            SeatSpec(agent="builtin:random"),
        ],
        config={},
    )


def test_a_real_time_bot_is_offered_to_tables_and_challenges_like_others():
    realtime, turns = active_bot("kungfu2009"), active_bot("duelo")
    assert services.live_seat(bot=realtime) is not None
    assert services.live_seat(bot=turns) is not None
    assert SeatableBots().seatable("kungfu2009")
    assert SeatableBots().seatable("duelo")


def test_a_real_time_table_queues_the_driver_not_a_move_per_decision(
    monkeypatch, settings
):
    from django.core.cache import cache

    bot = active_bot("kungfu2009")
    person = UserFactory()
    match = match_create(
        game="kungfu2009",
        seats=[
            SeatSpec(user=person),
            SeatSpec(agent=bot.active_version.agent, label="b"),
            SeatSpec(agent="builtin:heuristic"),
        ],
        config={},
    )
    moves: list[int] = []
    drivers: list[int] = []
    monkeypatch.setattr(tasks.live_move, "delay", moves.append)
    monkeypatch.setattr(tasks.live_realtime, "delay", drivers.append)
    tasks.on_uploaded_bot_turn(match_id=match.pk)
    assert moves == [] and drivers == []  # eager (tests): nothing is queued
    settings.CELERY_TASK_ALWAYS_EAGER = False
    tasks.on_uploaded_bot_turn(match_id=match.pk)
    tasks.on_uploaded_bot_turn(match_id=match.pk)  # one queued is enough
    assert moves == [] and drivers == [match.pk]
    cache.delete(f"{tasks.LIVE_RT_QUEUED_PREFIX}{match.pk}")
    cache.set(f"{tasks.LIVE_RT_LOCK_PREFIX}{match.pk}", "held", timeout=30)
    tasks.on_uploaded_bot_turn(match_id=match.pk)  # a driver holds it
    assert drivers == [match.pk]


def test_an_all_bot_match_with_an_uploaded_bot_is_left_to_the_runner():
    """No wall-clock bot ticks and no server timers move a match the bots
    runner plays on its virtual clock (they would race its writes); a match
    of built-in bots only still ticks."""
    from datetime import timedelta

    from django.utils import timezone

    from gameplay import agents
    from gameplay import services as gs

    bot = active_bot("kungfu2009")
    runner = _uploaded_bot_table(bot)
    builtin = match_create(
        game="kungfu2009",
        seats=[SeatSpec(agent="builtin:heuristic") for _ in range(3)],
        config={},
    )
    for match in (runner, builtin):
        gs.match_start(match_id=match.pk)
        match.refresh_from_db()
        assert match.timers  # the time limit at least
    assert agents.played_by_bots_runner(list(runner.seats.all()))
    assert not agents.played_by_bots_runner(list(builtin.seats.all()))
    assert gs.match_realtime_bots_tick(match_id=runner.pk, tick=0) is False
    later = timezone.now() + timedelta(hours=3)
    assert gs.match_apply_timers(match_id=runner.pk, now=later) == []
    runner.refresh_from_db()
    assert runner.version == 0 and not runner.is_over
    # The control: built-in bots alone tick, and the time limit ends them.
    assert gs.match_realtime_bots_tick(match_id=builtin.pk, tick=0) is True
    for minute in range(20):
        gs.match_apply_timers(
            match_id=builtin.pk, now=later + timedelta(minutes=minute)
        )
        builtin.refresh_from_db()
        if builtin.is_over:
            break
    assert builtin.is_over


def test_the_owner_sees_the_refused_intents_on_the_logs_page_and_api(client):
    from django.urls import reverse
    from rest_framework.test import APIClient

    from bots.models import BotMatchLog

    bot = active_bot("kungfu2009")
    match = _uploaded_bot_table(bot)
    reason = "offer 1 is not open (accepted by seat 2)"
    BotMatchLog.objects.create(
        version=bot.active_version,
        match=match,
        seat=0,
        refused_count=3,
        # A row from before the code was kept, then one with its code.
        refused=[[7, "accept:1", reason], [8, "accept:2", reason, "offer_accepted"]],
    )
    client.force_login(bot.owner)
    page = client.get(reverse("bots:logs", args=[bot.pk])).content.decode()
    assert f"tick 7: accept:1: {reason}" in page and "the first 2 of 3 shown" in page
    assert f"tick 8: accept:2: {reason}" in page
    api = APIClient()
    api.force_authenticate(bot.owner)
    [log] = api.get(f"/api/bots/{bot.pk}/logs/").json()["matches"]
    assert log["refused_count"] == 3
    assert log["refused"] == [
        {"tick": 7, "action": "accept:1", "code": None, "params": {}, "reason": reason},
        {
            "tick": 8,
            "action": "accept:2",
            "code": "offer_accepted",
            "params": {},
            "reason": reason,
        },
    ]
