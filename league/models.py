"""Leagues and seasons: who plays what, when, and under which rules."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone


class ParticipantKind(models.TextChoices):
    HUMANS = "humans", "Humans only"
    BOTS = "bots", "Bots only"
    MIXED = "mixed", "Humans and bots"


class League(models.Model):
    """A standing competition for one game, run over successive seasons."""

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=80)
    game = models.CharField(max_length=20, db_index=True)
    description = models.TextField(blank=True)
    participants = models.CharField(
        max_length=10, choices=ParticipantKind.choices, default=ParticipantKind.MIXED
    )
    invite_only = models.BooleanField(default=False)
    options = models.JSONField(
        default=dict, blank=True, help_text="Game options every league match uses."
    )
    carry_ratings_over = models.BooleanField(
        default=True,
        help_text="On season rollover, keep ratings (True) or reset them (False).",
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_leagues"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "name"]

    def __str__(self) -> str:
        return self.name


class SeasonStatus(models.TextChoices):
    UPCOMING = "upcoming", "Upcoming"
    OPEN = "open", "Registration open"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    name = models.CharField(max_length=80, blank=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    registration_opens_at = models.DateTimeField()
    registration_closes_at = models.DateTimeField()
    status = models.CharField(
        max_length=10, choices=SeasonStatus.choices, default=SeasonStatus.UPCOMING
    )

    class Meta:
        ordering = ["league", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "number"], name="unique_season_number"
            ),
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="season_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.league.name} season {self.number}"
