"""Ratings: Elo pools, each participant's rating, its events and seeds, voids."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from league.models.participants import Participant, ParticipantKind
from league.models.seasons import League, Season
from league.ratings.elo import EloConfig, elo_config_from, is_provisional


class PoolScope(models.TextChoices):
    GLOBAL = "global", gettext_lazy("Global ladder")
    LEAGUE = "league", gettext_lazy("League")
    SEASON = "season", gettext_lazy("Season")
    # Correspondence games kept apart from live ones (docs/time-controls.md):
    # the game's correspondence ladder, a league's correspondence ladder.
    CORRESPONDENCE = "corr", gettext_lazy("Correspondence ladder")
    LEAGUE_CORRESPONDENCE = "leaguecorr", gettext_lazy("League correspondence ladder")


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
        default=False,
        help_text=gettext_lazy("Ever reached the elite threshold (2400): K=10."),
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
