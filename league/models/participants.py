"""Participants: a person or a bot, one identity for ratings and entries.

Also ``ParticipantKind``: who a league, pool or tournament admits.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy

from gameplay.agents import builtin_agent


class ParticipantKind(models.TextChoices):
    """Who a competition admits: people, bots or both."""

    HUMANS = "humans", gettext_lazy("Humans only")
    BOTS = "bots", gettext_lazy("Bots only")
    MIXED = "mixed", gettext_lazy("Humans and bots")


class ParticipantType(models.TextChoices):
    USER = "user", gettext_lazy("Person")
    BOT = "bot", gettext_lazy("Uploaded bot")
    BUILTIN = "builtin", gettext_lazy("Built-in bot")


class Participant(models.Model):
    """Whoever can hold a rating or enter a competition: a person or a bot.

    One row per identity, keyed ``user:<id>``, ``bot:<bot id>`` or
    ``builtin:<name>``. Bots are referred to by id only (no foreign key), so
    league neither imports nor migrates against the bots app; the bots app tells
    league about its bots through ``league.participants.register_bot_directory``.
    """

    key = models.CharField(max_length=60, unique=True)
    type = models.CharField(max_length=10, choices=ParticipantType.choices)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="participant",
    )
    bot_id = models.PositiveBigIntegerField(null=True, blank=True, unique=True)
    # Who may register or withdraw a bot; refreshed from the bot directory.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_participants",
    )
    name = models.CharField(max_length=80, db_index=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_bot(self) -> bool:
        return self.type != ParticipantType.USER

    @staticmethod
    def user_key(user_id: int) -> str:
        """A person's key."""
        return f"user:{user_id}"

    @staticmethod
    def bot_key(bot_id: int) -> str:
        """An uploaded bot's key: the bot, whichever of its versions plays (a
        seat's agent ``bot:<version id>`` names one version: not a key)."""
        return f"bot:{bot_id}"

    @staticmethod
    def builtin_key(name: str) -> str:
        """A built-in bot's key: its seat agent name (``gameplay.agents``)."""
        return builtin_agent(name)
