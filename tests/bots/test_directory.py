"""The bot directory league uses: seat agents map to bots, entrants to versions."""

from __future__ import annotations

import pytest

from bots.directory import BotDirectory
from bots.models import BotStatus
from tests.factories import BotFactory, BotVersionFactory

pytestmark = pytest.mark.django_db

participants = pytest.importorskip("league.participants")


def test_registered_at_startup():
    directory = participants.bot_directory()
    assert isinstance(directory, BotDirectory)
    # Every question league asks is answered: a missing method fails here,
    # not as an empty list on a page.
    assert isinstance(directory, participants.BotDirectory)


def test_owners_are_offered_their_playing_bots_of_the_game():
    bot = BotFactory(status=BotStatus.ACTIVE)
    bot.active_version = BotVersionFactory(bot=bot, status="active")
    bot.save()
    BotFactory(owner=bot.owner, status=BotStatus.PENDING)  # no valid version yet
    BotFactory(status=BotStatus.ACTIVE)  # someone else's
    directory = BotDirectory()
    assert [i.bot_id for i in directory.bots_owned_by(bot.owner_id, "duelo")] == [
        bot.pk
    ]
    assert directory.bots_owned_by(bot.owner_id, "kungfu2013") == []


def test_every_version_maps_to_its_bot_and_the_active_version_plays():
    bot = BotFactory(status=BotStatus.ACTIVE)
    old = BotVersionFactory(bot=bot, status="retired")
    new = BotVersionFactory(bot=bot, status="active")
    bot.active_version = new
    bot.save()
    directory = BotDirectory()
    for version in (old, new):
        info = directory.bot_for_version(version.pk)
        assert (info.bot_id, info.name, info.owner_id, info.game) == (
            bot.pk,
            bot.name,
            bot.owner_id,
            "duelo",
        )
        assert info.version_id == new.pk
    assert directory.bot_for_version(10_000) is None
    assert directory.bot(bot.pk).version_id == new.pk
    bot.disabled = True
    bot.save()
    assert directory.bot(bot.pk).version_id is None, "disabled bots are not seated"


def test_seat_of_a_bot_version_is_rated_as_its_bot():
    from gameplay.models import Seat
    from tests.bots.helpers import bot_match

    bot = BotFactory(status=BotStatus.ACTIVE)
    version = BotVersionFactory(bot=bot, status="active")
    match = bot_match(f"bot:{version.pk}", "builtin:random")
    participant = participants.participant_for_seat(
        Seat.objects.get(match=match, number=0)
    )
    assert participant.key == f"bot:{bot.pk}"
