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
from django.utils.translation import gettext_lazy as _


class NotificationKind(models.TextChoices):
    YOUR_MOVE = "your_move", _("Your move")
    GAME_STARTED = "game_started", _("A game started")
    ROUND_PAIRED = "round_paired", _("A tournament round is paired")
    CHALLENGE = "challenge", _("A challenge for you")
    CHECK_IN = "check_in", _("Tournament check-in is open")


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


class PushSubscription(models.Model):
    """One browser (device) that asked for Web Push notices for its player.

    Stored as the browser's ``PushSubscription.toJSON()`` gives it: the push
    service's ``endpoint`` (unique: one row per browser profile) and the keys
    the payload is encrypted for. A push service that answers 404 or 410 has
    dropped the subscription, and the row is deleted (``webpush.push_send``).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
    )
    endpoint = models.URLField(max_length=500, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    # What the player sees in their list of browsers ("Firefox on Linux").
    device = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.user}: {self.device or self.endpoint[:40]}"

    def subscription_info(self) -> dict:
        """The argument pywebpush's ``webpush`` takes."""
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": self.p256dh, "auth": self.auth},
        }


class TurnReminder(models.Model):
    """One move a player was away for, in a correspondence game: told by
    e-mail and push at most once each.

    ``turn_started`` is when the seat's current decision began (its clock's
    start, ``gameplay.clocks.clock_start``), so a row names one move: the
    broadcasts repeated while the player stays away find it and send nothing
    more. The e-mail waits until ``email_due_at`` (one e-mail per game per
    period; the player's digest hour), and is claimed (``emailed_at``) before
    it is sent; ``email_sent`` says whether it went (a move already made, or
    an e-mail turned off, sends nothing).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    match = models.ForeignKey(
        "gameplay.Match", on_delete=models.CASCADE, related_name="+"
    )
    turn_started = models.DateTimeField()
    created_at = models.DateTimeField(default=timezone.now)
    email_due_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    email_sent = models.BooleanField(default=False)
    pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "match", "turn_started"], name="one_reminder_per_move"
            ),
        ]
        indexes = [
            models.Index(fields=["emailed_at", "email_due_at"], name="reminder_due"),
            models.Index(fields=["user", "match", "-emailed_at"], name="reminder_last"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: match {self.match_id} from {self.turn_started}"
