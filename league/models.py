"""Leagues and seasons: who plays what, when, and under which rules."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone

from gameplay.agents import builtin_agent
from gameplay.rules import GameError, game_meta
from league.ratings.elo import EloConfig, elo_config_from, is_provisional


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
    correspondence_pool = models.BooleanField(
        default=False,
        help_text="Correspondence games feed a league ladder of their own, "
        "apart from the live games' (the organiser's choice).",
    )
    # Divisions (league/divisions): None = one table for the whole season.
    division_size = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(2)],
        help_text="Players per division; empty: no divisions.",
    )
    promotion_count = models.PositiveSmallIntegerField(
        default=2, help_text="How many of each division go up at the season's end."
    )
    relegation_count = models.PositiveSmallIntegerField(
        default=2, help_text="How many of each division go down at the season's end."
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


# --- Participants: a person or a bot, one identity for ratings and entries --------


class ParticipantType(models.TextChoices):
    USER = "user", "Person"
    BOT = "bot", "Uploaded bot"
    BUILTIN = "builtin", "Built-in bot"


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


# --- Ratings ---------------------------------------------------------------------


class PoolScope(models.TextChoices):
    GLOBAL = "global", "Global ladder"
    LEAGUE = "league", "League"
    SEASON = "season", "Season"
    # Correspondence games kept apart from live ones (docs/time-controls.md):
    # the game's correspondence ladder, a league's correspondence ladder.
    CORRESPONDENCE = "corr", "Correspondence ladder"
    LEAGUE_CORRESPONDENCE = "leaguecorr", "League correspondence ladder"


class RatingPool(models.Model):
    """One Elo table: a game plus a scope (global ladder, a league, a season).

    The pool row is also the lock that serialises rating updates: every writer
    takes ``select_for_update`` on it first, so two matches finishing at once are
    applied one after the other, in the order of ``last_seq``.
    """

    game = models.CharField(max_length=20, db_index=True)
    scope = models.CharField(max_length=10, choices=PoolScope.choices)
    league = models.ForeignKey(
        League,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating_pools",
    )
    season = models.OneToOneField(
        Season,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating_pool",
    )
    participants = models.CharField(
        max_length=10, choices=ParticipantKind.choices, default=ParticipantKind.MIXED
    )
    # Overrides of league.ratings.elo.EloConfig fields (initial_rating, ...).
    config = models.JSONField(default=dict, blank=True)
    # Ratings carried over from another pool (a previous season) start here.
    seeded_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    last_seq = models.PositiveBigIntegerField(default=0)
    rated_matches = models.PositiveIntegerField(default=0)
    rating_count = models.PositiveIntegerField(default=0)
    recomputed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "scope", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(scope="global"),
                name="one_global_pool_per_game",
            ),
            models.UniqueConstraint(
                fields=["league"],
                condition=models.Q(scope="league"),
                name="one_pool_per_league",
            ),
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(scope="corr"),
                name="one_corr_pool_per_game",
            ),
            models.UniqueConstraint(
                fields=["league"],
                condition=models.Q(scope="leaguecorr"),
                name="one_corr_pool_per_league",
            ),
        ]

    def __str__(self) -> str:
        # Shown on pages: the game's name, never its id ("duelo global ladder").
        from gameplay.catalog import game_name

        name = game_name(self.game)
        if self.scope == PoolScope.SEASON and self.season_id:
            return f"{self.season} ({name})"
        if self.scope == PoolScope.LEAGUE and self.league_id:
            return f"{self.league} ({name})"
        if self.scope == PoolScope.LEAGUE_CORRESPONDENCE and self.league_id:
            return f"{self.league} correspondence ({name})"
        if self.scope == PoolScope.CORRESPONDENCE:
            return f"{name} correspondence ladder"
        return f"{name} global ladder"

    @property
    def elo_config(self) -> EloConfig:
        """The Elo parameters of this pool: the defaults plus ``config``."""
        return elo_config_from(self.config)


class Rating(models.Model):
    """A participant's current state in one pool (replayable from the events)."""

    pool = models.ForeignKey(
        RatingPool, on_delete=models.CASCADE, related_name="ratings"
    )
    participant = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="ratings"
    )
    # Full float precision: rounding before storing would let incremental and
    # recomputed ratings drift apart (see league/ratings/elo.py).
    rating = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    reached_elite = models.BooleanField(
        default=False, help_text="Ever reached the elite threshold (2400): K=10."
    )
    peak = models.FloatField()
    # Counters over this pool's own matches (carried-over games excluded).
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    points = models.FloatField(default=0.0)
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pool", "-rating"]
        constraints = [
            # Participant first: the apply path looks up a match's few players
            # (participant IN (...) AND pool = x) and must not scan the pool.
            models.UniqueConstraint(
                fields=["participant", "pool"], name="one_rating_per_participant_pool"
            ),
        ]
        indexes = [
            models.Index(fields=["pool", "-rating", "id"], name="rating_rank_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.participant_id} in pool {self.pool_id}: {self.rating:.0f}"

    @property
    def provisional(self) -> bool:
        return is_provisional(games=self.games, config=self.pool.elo_config)


class RatingBucket(models.Model):
    """How many of a pool's ratings lie in ``[bucket, bucket + 1)``.

    A histogram kept by database triggers on ``league_rating`` (migration
    ``0009_rating_buckets``): every insert, delete and change of a rating moves
    its count, whoever writes the row. It turns "the row at position N" and
    "the rank of this row" into a sum over a few thousand buckets plus an
    index scan inside one bucket, where an OFFSET or a ROW_NUMBER over the
    whole pool would read every row above (docs/ratings.md, "Rankings at
    scale").
    """

    pool = models.ForeignKey(
        RatingPool, on_delete=models.CASCADE, related_name="buckets"
    )
    bucket = models.IntegerField(help_text="floor(rating)")
    count = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["pool", "bucket"], name="one_bucket_per_pool_point"
            ),
        ]

    def __str__(self) -> str:
        return f"pool {self.pool_id} [{self.bucket}, +1): {self.count}"


class RatingSeed(models.Model):
    """A carried-over starting state: what a recompute starts this pool from."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="seeds")
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE)
    rating = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    reached_elite = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["pool", "participant"], name="one_seed_per_pool"
            ),
        ]

    def __str__(self) -> str:
        return f"seed of {self.participant_id} in pool {self.pool_id}"


class RatingEvent(models.Model):
    """One participant's rating change from one match in one pool.

    Unique per (pool, match, participant): applying a result twice finds the
    rows and does nothing. ``seq`` numbers the pool's matches in the order they
    were applied; a recompute replays in that order, which is what makes it
    reproduce the incremental ratings exactly. The rows are the chart history.
    """

    pool = models.ForeignKey(
        RatingPool, on_delete=models.CASCADE, related_name="events"
    )
    match = models.ForeignKey(
        "gameplay.Match", on_delete=models.CASCADE, related_name="rating_events"
    )
    participant = models.ForeignKey(
        Participant, on_delete=models.CASCADE, related_name="rating_events"
    )
    seq = models.PositiveBigIntegerField()
    placement = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    # Pairwise points against the other players divided by (players - 1): 1 for
    # a win, 0.5 for a draw in a two-player game.
    score = models.FloatField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    delta = models.FloatField()
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pool", "seq"]
        constraints = [
            models.UniqueConstraint(
                fields=["pool", "match", "participant"], name="one_event_per_match"
            ),
        ]
        indexes = [
            models.Index(fields=["pool", "seq"], name="event_seq_idx"),
            models.Index(fields=["participant", "pool", "seq"], name="event_hist_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.participant_id} {self.delta:+.1f} (match {self.match_id})"


class MatchVoid(models.Model):
    """A match whose result an organiser voided: it feeds no pool any more."""

    match = models.OneToOneField(
        "gameplay.Match", on_delete=models.CASCADE, related_name="league_void"
    )
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"void of match {self.match_id}"


# --- Registrations ---------------------------------------------------------------


class RegistrationStatus(models.TextChoices):
    PENDING = "pending", "Awaiting organiser approval"
    APPROVED = "approved", "Registered"
    REJECTED = "rejected", "Rejected"
    WITHDRAWN = "withdrawn", "Withdrawn"


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


# --- Divisions -------------------------------------------------------------------


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

    NEW = "new", "New: placed by rating"
    STAYED = "stayed", "Stayed"
    PROMOTED = "promoted", "Promoted"
    RELEGATED = "relegated", "Relegated"


class DivisionMove(models.TextChoices):
    """Where a member goes next season, fixed when their season is closed."""

    UP = "up", "Promoted"
    STAY = "stay", "Stays"
    DOWN = "down", "Relegated"


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


# --- Tournaments -----------------------------------------------------------------


class TournamentFormat(models.TextChoices):
    ROUND_ROBIN = "round_robin", "Round robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin", "Double round robin"
    SWISS = "swiss", "Swiss"
    # Table sizes are the game's (GameMeta.tables): Tournament.format_label.
    SWISS_TABLES = "swiss_tables", "Swiss, multiplayer tables"
    SINGLE_ELIM = "single_elim", "Single elimination"
    DOUBLE_ELIM = "double_elim", "Double elimination"


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
        return TournamentFormat.SWISS_TABLES.label if generic else ""
    low, high, _ = sizes
    return (
        f"Swiss, tables of {low}-{high}" if low != high else f"Swiss, tables of {low}"
    )


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", "Registration open"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class SeedingMethod(models.TextChoices):
    RATING = "rating", "By rating"
    MANUAL = "manual", "By hand"


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
        default=24.0, help_text="Each round's deadline, counted from its start."
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
    SCHEDULED = "scheduled", "Scheduled"
    RUNNING = "running", "In play"
    COMPLETE = "complete", "Complete"


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
    PENDING = "pending", "Waiting for its round"
    PLAYING = "playing", "In play"
    DONE = "done", "Decided"
    BYE = "bye", "Bye"
    CANCELLED = "cancelled", "Cancelled"


class PairingOutcome(models.TextChoices):
    PLAYED = "played", "Played"
    FORFEIT = "forfeit", "Forfeit (no-show)"
    DOUBLE_FORFEIT = "double_forfeit", "Both no-shows"
    BYE = "bye", "Bye"


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
