"""Divisions: a season's tables by level, their members and ladder rounds."""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from league.models.participants import Participant
from league.models.seasons import Season


class Division(models.Model):
    """One table of a season in a league with divisions; level 1 is the top."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="divisions"
    )
    level = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])

    class Meta:
        ordering = ["season", "level"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "level"], name="unique_division_level"
            ),
        ]

    def __str__(self) -> str:
        return f"Division {self.level}"


class DivisionEntry(models.TextChoices):
    """How a member came to their division this season."""

    NEW = "new", gettext_lazy("New: placed by rating")
    STAYED = "stayed", gettext_lazy("Stayed")
    PROMOTED = "promoted", gettext_lazy("Promoted")
    RELEGATED = "relegated", gettext_lazy("Relegated")


class DivisionMove(models.TextChoices):
    """Where a member goes next season, fixed when their season is closed."""

    UP = "up", gettext_lazy("Promoted")
    STAY = "stay", gettext_lazy("Stays")
    DOWN = "down", gettext_lazy("Relegated")


class DivisionMember(models.Model):
    """A participant's place in one division of one season."""

    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, related_name="members"
    )
    # The division's season again: one place per participant and season.
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    participant = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="division_places"
    )
    entry = models.CharField(
        max_length=10, choices=DivisionEntry.choices, default=DivisionEntry.NEW
    )
    # Frozen when the season is closed (league.divisions.services).
    final_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    move = models.CharField(max_length=5, choices=DivisionMove.choices, blank=True)

    class Meta:
        ordering = ["division", "final_rank", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "participant"], name="one_division_per_season"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participant} in {self.division}"


class DivisionRound(models.Model):
    """One ladder period's games of a bot league's season (idempotency key)."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="division_rounds"
    )
    slot = models.BigIntegerField()
    match_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["season", "slot"], name="one_division_round_per_slot"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} ladder period {self.slot}"
