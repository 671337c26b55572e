"""Chat messages, personal filters (mute, chat off, block), reports, sanctions."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy


class Channel(models.TextChoices):
    TABLE = "table", gettext_lazy("Players")
    SPECTATORS = "spectators", gettext_lazy("Spectators")
    PRIVATE = "private", gettext_lazy("Private")
    LOBBY = "lobby", gettext_lazy("Lobby")


class ChatMessage(models.Model):
    """One line of chat, kept with its match (or a game's lobby).

    ``author`` null means a system message (a join, a resignation, the end),
    shown apart from people's words.
    """

    match = models.ForeignKey(
        "gameplay.Match",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="chat_messages",
    )
    game = models.CharField(max_length=20, blank=True, db_index=True)
    channel = models.CharField(max_length=12, choices=Channel.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chat_messages",
    )
    # The author's seat, and the other seat of a private message.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    to_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.CharField(max_length=500)
    # Taken down by a moderator: kept as evidence, shown to nobody.
    removed = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["match", "created_at"])]

    def __str__(self) -> str:
        return f"{self.channel}: {self.body[:40]}"

    @property
    def is_system(self) -> bool:
        return self.author_id is None


class Mute(models.Model):
    """``muter`` no longer sees ``muted``'s messages, earlier ones too."""

    muter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes"
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="one_mute_per_pair")
        ]

    def __str__(self) -> str:
        return f"{self.muter_id} mutes {self.muted_id}"


class Block(models.Model):
    """``blocked`` cannot challenge, message or join a table of ``blocker``.

    Never shown to the blocked user: they only meet "not available".
    """

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["blocker", "blocked"], name="one_block_per_pair"
            )
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Follow(models.Model):
    """``follower`` follows ``followed`` (one way): their friends list."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["follower", "followed"], name="one_follow_per_pair"
            )
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class ChatSetting(models.Model):
    """A person's own chat switch: off everywhere, or off at some tables."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_setting"
    )
    chat_off = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"chat {'off' if self.chat_off else 'on'} for {self.user_id}"


class TableChatOff(models.Model):
    """Chat switched off by ``user`` at one match only."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    match = models.ForeignKey("gameplay.Match", on_delete=models.CASCADE)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="one_chat_off")
        ]

    def __str__(self) -> str:
        return f"chat off for {self.user_id} at {self.match_id}"


class ReportReason(models.TextChoices):
    ABUSE = "abuse", gettext_lazy("Insults or harassment")
    SPAM = "spam", gettext_lazy("Spam or flooding")
    CHEATING = "cheating", gettext_lazy("Cheating or outside help")
    STALLING = "stalling", gettext_lazy("Stalling or leaving games")
    OTHER = "other", gettext_lazy("Something else")


class Report(models.Model):
    """A person's report of a message, a user or a match, with its evidence.

    ``evidence`` is copied at report time (the messages around a reported one,
    the match's seats and result), so deleting or editing later changes
    nothing a moderator reads.
    """

    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Open")
        CLOSED = "closed", gettext_lazy("Closed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="reports_made",
    )
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reports_about",
    )
    message = models.ForeignKey(
        ChatMessage, null=True, blank=True, on_delete=models.SET_NULL
    )
    match = models.ForeignKey(
        "gameplay.Match", null=True, blank=True, on_delete=models.SET_NULL
    )
    reason = models.CharField(max_length=12, choices=ReportReason.choices)
    note = models.CharField(max_length=500, blank=True)
    evidence = models.JSONField(default=dict)
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    created_at = models.DateTimeField(default=timezone.now)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        permissions = [("moderate", "Can read reports and act on them")]

    def __str__(self) -> str:
        return f"report {self.pk} ({self.reason})"


class SanctionKind(models.TextChoices):
    WARN = "warn", gettext_lazy("Warning")
    MUTE = "mute", gettext_lazy("Muted in chat")
    SUSPEND = "suspend", gettext_lazy("Suspended from rated play")
    BAN = "ban", gettext_lazy("Banned")
    # One chat line taken down (``Sanction.message``): logged like the rest.
    REMOVE = "remove", gettext_lazy("Chat line removed")


class Sanction(models.Model):
    """A moderator's action on a user: who, when, why; shown to that user."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions"
    )
    kind = models.CharField(max_length=8, choices=SanctionKind.choices)
    reason = models.CharField(max_length=500)
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="sanctions_given",
    )
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.SET_NULL)
    # The line a ``remove`` took down (kept, marked removed, as evidence).
    message = models.ForeignKey(
        ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # None: no end (a warning, a ban, a removed line).
    ends_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"

    def is_in_force(self, now: datetime | None = None) -> bool:
        return self.ends_at is None or self.ends_at > (now or timezone.now())

    @property
    def lasts(self) -> bool:
        """A state the user is in (mute, suspension, ban), not a single act."""
        return self.kind in (SanctionKind.MUTE, SanctionKind.SUSPEND, SanctionKind.BAN)
