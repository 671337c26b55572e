"""Duplicate events: an event, its players, its rounds and each game played.

A round's deal seeds are secret until the round is over: ``DuplicateRound.seeds``
is read only by the services that start games and by the selectors once the
round has finished; what anyone sees before is ``commitments``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy


class EventStatus(models.TextChoices):
    OPEN = "open", gettext_lazy("Open for players")
    RUNNING = "running", gettext_lazy("In play")
    FINISHED = "finished", gettext_lazy("Finished")


class RoundStatus(models.TextChoices):
    PLAYING = "playing", gettext_lazy("In play")
    FINISHED = "finished", gettext_lazy("Finished")


class DuplicateEvent(models.Model):
    slug = models.SlugField(max_length=60, unique=True)
    name = models.CharField(max_length=100)
    game = models.CharField(max_length=20)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organised_duplicate_events",
    )
    rounds = models.PositiveSmallIntegerField(default=1)
    deals = models.PositiveSmallIntegerField(
        help_text=gettext_lazy("Deals each table plays per round.")
    )
    table_size = models.PositiveSmallIntegerField()
    par_bot = models.CharField(max_length=40)
    per_move = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=gettext_lazy("Seconds per move at the tables (turn-based games)."),
    )
    status = models.CharField(
        max_length=10, choices=EventStatus.choices, default=EventStatus.OPEN
    )
    current_round = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class DuplicatePlayer(models.Model):
    event = models.ForeignKey(
        DuplicateEvent, on_delete=models.CASCADE, related_name="players"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="duplicate_entries",
    )
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["event", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user"], name="one_duplicate_entry"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.event}"


class DuplicateRound(models.Model):
    event = models.ForeignKey(
        DuplicateEvent, on_delete=models.CASCADE, related_name="round_set"
    )
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=10, choices=RoundStatus.choices, default=RoundStatus.PLAYING
    )
    # Secret until the round is over (one per deal, as decimal strings).
    seeds = models.JSONField(default=list)
    # sha256("<event slug>:<round>:<deal>:<seed>") per deal, published at once.
    commitments = models.JSONField(default=list)
    # The tables: lists of user ids in table order; None = a built-in bot
    # filling a seat the field could not.
    tables = models.JSONField(default=list)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The organiser ended the round early: games still in play were called
    # off and deals not yet dealt are skipped (no result for those tables).
    closed_early = models.BooleanField(default=False)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"], name="one_duplicate_round_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"

    @property
    def is_over(self) -> bool:
        return self.status == RoundStatus.FINISHED


class DuplicateGame(models.Model):
    """One deal played at one table (``table`` 0: par, all built-in bots)."""

    round = models.ForeignKey(
        DuplicateRound, on_delete=models.CASCADE, related_name="games"
    )
    deal = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    attempt = models.PositiveSmallIntegerField(default=1)
    match = models.OneToOneField(
        "gameplay.Match", on_delete=models.PROTECT, related_name="duplicate_game"
    )
    # User ids by seat number (None: a built-in bot's seat).
    seat_users = models.JSONField(default=list)

    class Meta:
        ordering = ["round", "deal", "table", "attempt"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "deal", "table", "attempt"],
                name="one_duplicate_game",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} deal {self.deal + 1} table {self.table}"

    @property
    def is_par(self) -> bool:
        return self.table == 0
