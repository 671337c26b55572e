"""Leagues and seasons, and who enters them (registrations, queue, invitations)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from league.models.participants import Participant, ParticipantKind


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
        default=dict,
        blank=True,
        help_text=gettext_lazy("Game options every league match uses."),
    )
    carry_ratings_over = models.BooleanField(
        default=True,
        help_text=gettext_lazy(
            "On season rollover, keep ratings (True) or reset them (False)."
        ),
    )
    correspondence_pool = models.BooleanField(
        default=False,
        help_text=gettext_lazy(
            "Correspondence games feed a league ladder of their own, "
            "apart from the live games' (the organiser's choice)."
        ),
    )
    # Divisions (league/divisions): None = one table for the whole season.
    division_size = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(2)],
        help_text=gettext_lazy("Players per division; empty: no divisions."),
    )
    promotion_count = models.PositiveSmallIntegerField(
        default=2,
        help_text=gettext_lazy("How many of each division go up at the season's end."),
    )
    relegation_count = models.PositiveSmallIntegerField(
        default=2,
        help_text=gettext_lazy(
            "How many of each division go down at the season's end."
        ),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_leagues"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def has_divisions(self) -> bool:
        return bool(self.division_size)


class SeasonStatus(models.TextChoices):
    UPCOMING = "upcoming", gettext_lazy("Upcoming")
    OPEN = "open", gettext_lazy("Registration open")
    RUNNING = "running", gettext_lazy("Running")
    FINISHED = "finished", gettext_lazy("Finished")


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
    # The season's games' time control (``gameplay.timecontrol``; {} untimed)
    # and whether a player's vacation pauses their clocks (docs/time-controls.md).
    time_control = models.JSONField(default=dict, blank=True)
    vacation_allowed = models.BooleanField(default=True)

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


class RegistrationStatus(models.TextChoices):
    PENDING = "pending", gettext_lazy("Awaiting organiser approval")
    APPROVED = "approved", gettext_lazy("Registered")
    REJECTED = "rejected", gettext_lazy("Rejected")
    WITHDRAWN = "withdrawn", gettext_lazy("Withdrawn")


class Registration(models.Model):
    """A participant's entry in a season."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="registrations"
    )
    participant = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="registrations"
    )
    status = models.CharField(
        max_length=10,
        choices=RegistrationStatus.choices,
        default=RegistrationStatus.APPROVED,
    )
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["season", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "participant"], name="one_registration_per_season"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participant} in {self.season}"


class SeasonQueueEntry(models.Model):
    """A registered participant waiting for a season game (the season's quick play).

    Entries are paired oldest first into games of ``players`` seats; a person
    queues themselves, an owner may queue their registered bot. The row is
    deleted when its game starts (or when its participant leaves the queue).
    """

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="queue_entries"
    )
    participant = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="season_queue_entries"
    )
    players = models.PositiveSmallIntegerField(default=2)
    queued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["season", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "participant"], name="one_queue_entry_per_season"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participant} waiting in {self.season}"


class Invitation(models.Model):
    """An organiser's invitation to an invite-only league (used on registration)."""

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="invitations"
    )
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["league", "participant"], name="one_invitation_per_league"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participant} invited to {self.league}"
