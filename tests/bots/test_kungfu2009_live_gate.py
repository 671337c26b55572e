"""Uploaded bots of a real-time game play bot matches only, never live tables.

At a table with people an uploaded bot is run one sandboxed process per
decision (bots.live); in a real-time game every seat may act at every moment,
so that would start a process after every change, for ever. Until a tick
driver for uploaded bots at live tables exists, the gates refuse them there.
"""

from __future__ import annotations

import pytest

from bots import services, tasks
from bots.directory import SeatableBots
from bots.errors import BotError
from bots.models import BotStatus
from gameplay.services import SeatSpec, match_create
from tests.factories import BotFactory, BotVersionFactory, UserFactory

pytestmark = pytest.mark.django_db


def active_bot(game: str):
    bot = BotFactory(game=game, status=BotStatus.ACTIVE)
    bot.active_version = BotVersionFactory(bot=bot, status="active")
    bot.save()
    return bot


def test_a_real_time_bot_is_offered_to_no_table_and_no_challenge():
    realtime, turns = active_bot("kungfu2009"), active_bot("duelo")
    assert services.live_seat(bot=realtime) is None
    assert services.live_seat(bot=turns) is not None
    assert SeatableBots().seatable("kungfu2009") == []
    assert SeatableBots().seatable("duelo")
    with pytest.raises(BotError, match="real-time game play bot matches only"):
        services.bot_challenge(user=UserFactory(), bot_id=realtime.pk)


def test_no_live_move_is_queued_for_a_real_time_match(monkeypatch):
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
    queued: list[int] = []
    monkeypatch.setattr(tasks.live_move, "delay", queued.append)
    tasks.on_uploaded_bot_turn(match_id=match.pk)
    assert queued == []
    # The control: were the game turn-based, the move would be queued.
    monkeypatch.setattr(services, "plays_only_bot_matches", lambda game: False)
    tasks.on_uploaded_bot_turn(match_id=match.pk)
    assert queued == [match.pk]
