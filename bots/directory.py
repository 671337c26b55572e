"""The bot directory league uses to rate and enter uploaded bots.

League cannot import the bots app, so it asks a registered directory (see
``league.participants``): which bot owns seat agent ``bot:<version id>`` (all
versions of a bot share one rating), and which version a tournament seats.
"""

from __future__ import annotations

from accounts.models import User
from bots.connected import online_accounts
from bots.models import Bot, BotVersion
from bots.services import live_seat, sandbox_gate
from gameplay.agents import (
    connected_choice,
    connected_choice_username,
    upload_choice,
    upload_choice_bot_id,
)
from gameplay.lobby import set_connected_bot_provider, set_uploaded_bot_provider
from gameplay.services import set_uploaded_bot_identity
from league.participants import BotInfo, register_bot_directory


def _info(bot: Bot) -> BotInfo:
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

    def bots_for_game(self, game: str) -> list[BotInfo]:
        """Bots an organiser may enter in a competition of ``game`` (they play)."""
        bots = Bot.objects.filter(
            game=game, status="active", disabled=False, active_version__isnull=False
        ).order_by("name", "pk")[:200]
        return [_info(bot) for bot in bots]

    def bots_owned_by(self, owner_id: int, game: str) -> list[BotInfo]:
        """The owner's bots of ``game`` that play, which the owner may enter or
        register (a bot that cannot be seated would only forfeit)."""
        bots = Bot.objects.filter(
            owner_id=owner_id,
            game=game,
            status="active",
            disabled=False,
            active_version__isnull=False,
        ).order_by("name", "pk")
        return [_info(bot) for bot in bots]


class SeatableBots:
    """Tells gameplay's lobby which uploaded bots a host may seat at a table.

    Only bots that play (validated, active, not disabled) and only while the
    sandbox gate is open: a bot seated where no worker can run it would never
    move.
    """

    LIMIT = 100

    def seatable(self, game: str) -> list[tuple[str, str]]:
        if not sandbox_gate()[0]:
            return []
        bots = (
            Bot.objects.filter(
                game=game,
                status="active",
                disabled=False,
                active_version__isnull=False,
            )
            .select_related("owner")
            .order_by("name", "pk")[: self.LIMIT]
        )
        return [
            (upload_choice(bot.pk), f"{bot.name} (by {bot.owner.public_name})")
            for bot in bots
        ]

    def resolve(self, game: str, value: str) -> tuple[str, str] | None:
        bot_id = upload_choice_bot_id(value)
        if bot_id is None or bot_id >= 2**63:
            return None
        bot = Bot.objects.select_related("active_version").filter(pk=bot_id).first()
        if bot is None or bot.game != game:
            return None
        return live_seat(bot=bot)


class SeatableConnectedBots:
    """Tells gameplay's lobby which connected bots a host may seat: the
    game's bot accounts whose event stream is open now (``online_accounts``).
    A bot that is not online would only let its clock run out."""

    LIMIT = 100

    def seatable(self, game: str) -> list[tuple[str, str]]:
        accounts = sorted(
            online_accounts(game=game), key=lambda a: a.user.username.lower()
        )[: self.LIMIT]
        owners = {
            user.pk: user.public_name
            for user in User.objects.filter(pk__in={a.owner_id for a in accounts})
        }
        return [
            (
                connected_choice(account.user.username),
                f"{account.user.username} (by {owners.get(account.owner_id, '?')})",
            )
            for account in accounts
        ]

    def resolve(self, game: str, value: str) -> User | None:
        username = connected_choice_username(value)
        if username is None:
            return None
        for account in online_accounts(game=game):
            if account.user.username == username:
                return account.user
        return None


def uploaded_bot_of(version_id: int) -> tuple[int, str] | None:
    """(bot id, bot name) of version ``version_id``, for gameplay's check that
    a rated table seats each bot once (its versions are one player)."""
    if version_id >= 2**63:
        return None
    version = BotVersion.objects.select_related("bot").filter(pk=version_id).first()
    return (version.bot_id, version.bot.name) if version is not None else None


def register() -> None:
    """Answer gameplay's lobby and league through their hooks.

    Plain imports: both apps are always installed, and a hook that went
    missing must fail at start-up, not leave bot seats and ratings empty.
    """
    set_uploaded_bot_provider(SeatableBots())
    set_connected_bot_provider(SeatableConnectedBots())
    set_uploaded_bot_identity(uploaded_bot_of)
    register_bot_directory(BotDirectory())
