"""Arena tournaments: a fixed time, players join and leave, free players are
paired at once (docs/tournaments.md, "Arena")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from league.models import Participant, ParticipantKind


class ArenaStatus(models.TextChoices):
    UPCOMING = "upcoming", gettext_lazy("Starting soon")
    RUNNING = "running", gettext_lazy("Running")
    FINISHED = "finished", gettext_lazy("Finished")


class Arena(models.Model):
    """One Arena tournament of one game, from ``starts_at`` to ``ends_at``."""

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=100)
    game = models.CharField(max_length=20, db_index=True)
    participants = models.CharField(
        max_length=10, choices=ParticipantKind.choices, default=ParticipantKind.MIXED
    )
    rated = models.BooleanField(default=True)
    berserk = models.BooleanField(
        default=True,
        help_text=gettext_lazy("Players may halve their clock for a bonus point."),
    )
    options = models.JSONField(default=dict, blank=True)
    time_control = models.JSONField(default=dict, blank=True)
    minutes = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(db_index=True)
    status = models.CharField(
        max_length=10, choices=ArenaStatus.choices, default=ArenaStatus.UPCOMING
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="created_arenas",
    )
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return self.name


class ArenaPlayer(models.Model):
    """A participant in an arena with their running score.

    ``paused``: stepped out, not paired until they come back; ``withdrawn``:
    left (their score stays on the standings; joining again resumes).
    ``freed_at``: when they last became free (who waited longest).
    """

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players")
    participant = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="arena_entries"
    )
    score = models.PositiveIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    berserk = models.BooleanField(
        default=False,
        help_text=gettext_lazy("Halve this player's clock in each new game."),
    )
    paused = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    joined_at = models.DateTimeField(default=timezone.now)
    freed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["arena", "-score", "joined_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["arena", "participant"], name="one_arena_entry"
            ),
        ]

    def __str__(self) -> str:
        return str(self.participant)


class ArenaGameStatus(models.TextChoices):
    PLAYING = "playing", gettext_lazy("In play")
    DONE = "done", gettext_lazy("Finished")
    ABORTED = "aborted", gettext_lazy("Called off")


class ArenaGame(models.Model):
    """One game of an arena: a gameplay match with context ``arena:<id>:<pk>``."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="games")
    match = models.ForeignKey(
        "gameplay.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="arena_games",
    )
    status = models.CharField(
        max_length=10, choices=ArenaGameStatus.choices, default=ArenaGameStatus.PLAYING
    )
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["arena", "-started_at", "-pk"]
        indexes = [models.Index(fields=["arena", "status"])]

    def __str__(self) -> str:
        return f"game {self.pk} of {self.arena}"

    @property
    def context(self) -> str:
        return f"arena:{self.arena_id}:{self.pk}"


class ArenaSeat(models.Model):
    """One player at an arena game: berserk or not, and what the game scored."""

    game = models.ForeignKey(ArenaGame, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        ArenaPlayer, on_delete=models.CASCADE, related_name="seats"
    )
    seat = models.PositiveSmallIntegerField()
    berserk = models.BooleanField(default=False)
    outcome = models.CharField(max_length=5, blank=True)  # win, draw, loss
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    doubled = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_arena_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at seat {self.seat} of {self.game}"
