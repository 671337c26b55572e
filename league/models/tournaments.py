"""Tournaments: formats, entrants, rounds, pairings and table seats."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from gameplay.rules import GameError, game_meta
from league.models.participants import Participant, ParticipantKind
from league.models.seasons import League, Season


class TournamentFormat(models.TextChoices):
    ROUND_ROBIN = "round_robin", gettext_lazy("Round robin")
    DOUBLE_ROUND_ROBIN = "double_round_robin", gettext_lazy("Double round robin")
    SWISS = "swiss", gettext_lazy("Swiss")
    # Table sizes are the game's (GameMeta.tables): Tournament.format_label.
    SWISS_TABLES = "swiss_tables", gettext_lazy("Swiss, multiplayer tables")
    SINGLE_ELIM = "single_elim", gettext_lazy("Single elimination")
    DOUBLE_ELIM = "double_elim", gettext_lazy("Double elimination")


def swiss_tables_label(game: str, *, generic: bool = True) -> str:
    """The label "Swiss, tables of <smallest>-<largest>" for ``game``.

    A game with no multiplayer tables (two players only, or unknown) gets the
    generic label, or "" with ``generic=False`` (the format is not offered).
    """
    try:
        sizes = game_meta(game).tables
    except GameError:
        sizes = None
    if sizes is None:
        return str(TournamentFormat.SWISS_TABLES.label) if generic else ""
    low, high, _size = sizes
    return (
        gettext("Swiss, tables of %(low)s-%(high)s") % {"low": low, "high": high}
        if low != high
        else gettext("Swiss, tables of %(size)s") % {"size": low}
    )


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", gettext_lazy("Registration open")
    RUNNING = "running", gettext_lazy("Running")
    FINISHED = "finished", gettext_lazy("Finished")


class SeedingMethod(models.TextChoices):
    RATING = "rating", gettext_lazy("By rating")
    MANUAL = "manual", gettext_lazy("By hand")


class Tournament(models.Model):
    """A tournament of two-player games; optional league and season."""

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=100)
    game = models.CharField(max_length=20, db_index=True)
    league = models.ForeignKey(
        League,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="tournaments",
    )
    season = models.ForeignKey(
        Season,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="tournaments",
    )
    format = models.CharField(max_length=20, choices=TournamentFormat.choices)
    participants = models.CharField(
        max_length=10, choices=ParticipantKind.choices, default=ParticipantKind.MIXED
    )
    status = models.CharField(
        max_length=15,
        choices=TournamentStatus.choices,
        default=TournamentStatus.REGISTRATION,
    )
    seeding = models.CharField(
        max_length=10, choices=SeedingMethod.choices, default=SeedingMethod.RATING
    )
    rated = models.BooleanField(default=True)
    swiss_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    third_place = models.BooleanField(default=False)
    options = models.JSONField(default=dict, blank=True)
    time_control = models.JSONField(default=dict, blank=True)
    # Whether a player's vacation pauses the clocks of this tournament's
    # correspondence games (docs/time-controls.md).
    vacation_allowed = models.BooleanField(default=True)
    round_hours = models.FloatField(
        default=24.0,
        help_text=gettext_lazy("Each round's deadline, counted from its start."),
    )
    starts_at = models.DateTimeField(default=timezone.now)
    # Check-in (league.tournaments.services.checkin): entrants confirm in the
    # last ``checkin_minutes`` before ``starts_at``; None = no check-in.
    checkin_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    # When the tick told the entrants that check-in is open (once).
    checkin_opened_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="created_tournaments",
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_tournaments"
    )
    # Elimination formats keep the bracket here (formats.elimination to_dict()),
    # None in other formats: typed Any, which includes None (as Match.state).
    bracket: models.JSONField[Any, Any] = models.JSONField(null=True, blank=True)
    champion = models.ForeignKey(
        "Entrant", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def checkin_opens_at(self) -> datetime | None:
        if not self.checkin_minutes:
            return None
        return self.starts_at - timedelta(minutes=self.checkin_minutes)

    @property
    def round_deadline_label(self) -> str:
        """ "7 days" for a whole number of days (correspondence), "36 h" else."""
        hours = float(self.round_hours)
        if hours >= 24 and hours % 24 == 0:
            days = int(hours // 24)
            return f"{days} day{'s' if days > 1 else ''}"
        return f"{hours:g} h"

    @property
    def is_elimination(self) -> bool:
        return self.format in (
            TournamentFormat.SINGLE_ELIM,
            TournamentFormat.DOUBLE_ELIM,
        )

    @property
    def is_tables(self) -> bool:
        """Multiplayer Swiss: tables of the game's sizes instead of pairs."""
        return self.format == TournamentFormat.SWISS_TABLES

    @property
    def format_label(self) -> str:
        """The format as pages show it, multiplayer Swiss with the game's own
        table sizes ("Swiss, tables of 4-8" for a game that seats 4-8)."""
        if self.is_tables:
            return swiss_tables_label(self.game)
        return self.get_format_display()


class Entrant(models.Model):
    """A participant entered in a tournament; ``seed`` is the pairing number."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entrants"
    )
    participant = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="entries"
    )
    seed = models.PositiveIntegerField(null=True, blank=True)
    withdrawn = models.BooleanField(default=False)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "seed", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "participant"], name="one_entry_per_tournament"
            ),
        ]

    def __str__(self) -> str:
        return str(self.participant)


class RoundStatus(models.TextChoices):
    SCHEDULED = "scheduled", gettext_lazy("Scheduled")
    RUNNING = "running", gettext_lazy("In play")
    COMPLETE = "complete", gettext_lazy("Complete")


class Round(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=10, choices=RoundStatus.choices, default=RoundStatus.SCHEDULED
    )
    starts_at = models.DateTimeField()
    deadline = models.DateTimeField()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="unique_round_number"
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament}"


class PairingStatus(models.TextChoices):
    PENDING = "pending", gettext_lazy("Waiting for its round")
    PLAYING = "playing", gettext_lazy("In play")
    DONE = "done", gettext_lazy("Decided")
    BYE = "bye", gettext_lazy("Bye")
    CANCELLED = "cancelled", gettext_lazy("Cancelled")


class PairingOutcome(models.TextChoices):
    PLAYED = "played", gettext_lazy("Played")
    FORFEIT = "forfeit", gettext_lazy("Forfeit (no-show)")
    DOUBLE_FORFEIT = "double_forfeit", gettext_lazy("Both no-shows")
    BYE = "bye", gettext_lazy("Bye")


class Pairing(models.Model):
    """One game of a round: ``first`` takes seat 0; no ``second`` is a bye."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pairings"
    )
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    table = models.PositiveSmallIntegerField()
    bracket_match = models.CharField(max_length=12, blank=True)
    first = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=PairingStatus.choices, default=PairingStatus.PENDING
    )
    match = models.ForeignKey(
        "gameplay.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_pairings",
    )
    first_points = models.FloatField(null=True, blank=True)
    second_points = models.FloatField(null=True, blank=True)
    winner = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    outcome = models.CharField(
        max_length=15, choices=PairingOutcome.choices, blank=True
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "table"]

    def __str__(self) -> str:
        return f"{self.first} v {self.second or 'bye'} ({self.round})"

    @property
    def context(self) -> str:
        return f"tournament:{self.tournament_id}:{self.pk}"


class TableSeat(models.Model):
    """One seat at a multiplayer Swiss table (format ``swiss_tables``).

    A two-player pairing needs only ``first`` and ``second``; a table of 3-5
    lists its players here in seat order, with their placement and placement
    points once the game is over.
    """

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="seats")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    placement = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["pairing", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["pairing", "seat"], name="unique_table_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entrant} at seat {self.seat} of pairing {self.pairing_id}"
