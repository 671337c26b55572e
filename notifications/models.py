"""What the site tells a player outside the game table.

A notification is one line in the player's list ("Your move against Mei",
"Round 2 of the Spring Open is paired"), pushed to their open pages over their
own socket and, for tournament rounds, also e-mailed. ``key`` names the thing
it is about (a match, a challenge, a round) so that the same news is stored
once per player however often the announcement that caused it is repeated.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class NotificationKind(models.TextChoices):
    YOUR_MOVE = "your_move", "Your move"
    GAME_STARTED = "game_started", "A game started"
    ROUND_PAIRED = "round_paired", "A tournament round is paired"
    CHALLENGE = "challenge", "A challenge for you"
    CHECK_IN = "check_in", "Tournament check-in is open"


class Notification(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    kind = models.CharField(max_length=20, choices=NotificationKind.choices)
    key = models.CharField(max_length=100, help_text="What it is about, once each.")
    title = models.CharField(max_length=140)
    body = models.CharField(max_length=300, blank=True)
    url = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    # Set when the e-mail task claims the message: a redelivered task sends none.
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key"], name="one_notification_per_subject"
            ),
        ]
        indexes = [
            models.Index(fields=["user", "read_at"], name="notification_unread"),
            models.Index(fields=["user", "-created_at"], name="notification_latest"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.title}"

    @property
    def is_read(self) -> bool:
        return self.read_at is not None
