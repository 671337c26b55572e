"""The bot directory league uses to rate and enter uploaded bots.

League cannot import the bots app, so it asks a registered directory (see
``league.participants``): which bot owns seat agent ``bot:<version id>`` (all
versions of a bot share one rating), and which version a tournament seats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bots.models import Bot, BotVersion

if TYPE_CHECKING:
    from league.participants import BotInfo


def _info(bot: Bot) -> BotInfo:
    from league.participants import BotInfo

    return BotInfo(
        bot_id=bot.pk,
        name=bot.name,
        owner_id=bot.owner_id,
        game=bot.game,
        version_id=bot.active_version_id if bot.plays else None,
    )


class BotDirectory:
    """Answers league's questions from the bots app's models."""

    def bot_for_version(self, version_id: int) -> BotInfo | None:
        version = BotVersion.objects.select_related("bot").filter(pk=version_id).first()
        return _info(version.bot) if version is not None else None

    def bot(self, bot_id: int) -> BotInfo | None:
        bot = Bot.objects.filter(pk=bot_id).first()
        return _info(bot) if bot is not None else None


def register() -> bool:
    """Register with league when league offers the hook; True when registered."""
    try:
        from league.participants import register_bot_directory
    except ImportError:
        return False
    register_bot_directory(BotDirectory())
    return True
