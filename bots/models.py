"""Uploaded bots, their immutable versions, per-match logs and ladder rounds.

A :class:`Bot` is the identity people see and ratings follow (owner, game, name);
its code lives in :class:`BotVersion` rows that never change once stored, so a
replay or a rating event always refers to exactly the code that played. Match
seats name a version as ``"bot:<version id>"``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from gameplay.agents import uploaded_agent


class BotStatus(models.TextChoices):
    #: No version has passed validation yet (the first one may still be running).
    PENDING = "pending", gettext_lazy("Waiting for a valid version")
    ACTIVE = "active", gettext_lazy("Active")
    #: The owner retired the bot: it keeps its history but plays no more.
    RETIRED = "retired", gettext_lazy("Retired")


class Bot(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    game = models.CharField(max_length=20, db_index=True)
    name = models.CharField(max_length=40)
    description = models.CharField(max_length=200, blank=True)
    #: Public source: anyone may read the code of its versions on the bot page.
    source_public = models.BooleanField(default=False)
    status = models.CharField(
        max_length=10, choices=BotStatus.choices, default=BotStatus.PENDING
    )
    #: The version that plays scheduled matches (the newest one that validated).
    active_version = models.ForeignKey(
        "BotVersion",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    #: Set by staff (abuse, resource hogging); a disabled bot plays nothing.
    disabled = models.BooleanField(default=False)
    disabled_reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "game", "name"], name="unique_bot_name_per_owner"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.game})"

    @property
    def plays(self) -> bool:
        """True when scheduled matches may pick this bot."""
        return (
            self.status == BotStatus.ACTIVE
            and not self.disabled
            and self.active_version_id is not None
        )


class VersionStatus(models.TextChoices):
    VALIDATING = "validating", gettext_lazy("Validating")
    ACTIVE = "active", gettext_lazy("Active")
    FAILED = "failed", gettext_lazy("Failed validation")
    RETIRED = "retired", gettext_lazy("Retired")


class BotVersion(models.Model):
    """One immutable upload: a single ``main.py`` or a zip with ``main.py``.

    The files live read-only under ``MEDIA_ROOT/bots/<id>/``; ``sha256`` is the
    checksum of the upload as received, so an author can check what runs.
    """

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    filename = models.CharField(max_length=120)
    upload_bytes = models.PositiveIntegerField()
    unpacked_bytes = models.PositiveIntegerField()
    file_count = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=10,
        choices=VersionStatus.choices,
        default=VersionStatus.VALIDATING,
        db_index=True,
    )
    #: Why the version has its status, in words for the owner.
    status_detail = models.CharField(max_length=300, blank=True)
    #: Validation games: per game the seat, placement, decisions and any fault.
    validation_report = models.JSONField(default=dict, blank=True)
    #: Bounded tail of the bot's stderr during validation (owner only).
    validation_stderr = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    validated_at = models.DateTimeField(null=True, blank=True)
    #: Keep the bot's data directory when this version becomes active (by
    #: default a new version starts with an empty one).
    keep_data = models.BooleanField(default=False)

    class Meta:
        ordering = ["bot", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["bot", "number"], name="unique_bot_version_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"

    @property
    def agent(self) -> str:
        """What a match seat played by this version stores."""
        return uploaded_agent(self.pk)


class BotMatchLog(models.Model):
    """What one version did in one match: decisions, time, and how it ended.

    Kept for the owner (stderr is theirs alone) and for the crash and timeout
    counts on the bot page.
    """

    version = models.ForeignKey(
        BotVersion, on_delete=models.CASCADE, related_name="match_logs"
    )
    match = models.ForeignKey(
        "gameplay.Match", on_delete=models.CASCADE, related_name="bot_logs"
    )
    seat = models.PositiveSmallIntegerField()
    decisions = models.PositiveIntegerField(default=0)
    think_ms = models.PositiveIntegerField(default=0)
    #: "" for a clean match, otherwise the transport's fault reason.
    fault = models.CharField(max_length=20, blank=True, db_index=True)
    fault_detail = models.CharField(max_length=300, blank=True)
    stderr = models.TextField(blank=True)
    #: Real-time games: how many of the bot's intents the engine refused (gone
    #: stale at their turn in the tick), and the first ones as
    #: [tick, action id, reason] (``bots.protocol.seat_log.REFUSED_KEPT``).
    refused_count = models.PositiveIntegerField(default=0)
    refused = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "seat"], name="unique_bot_log_per_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.version} in match {self.match_id} seat {self.seat}"


class LadderRound(models.Model):
    """One scheduled round of ladder matches for a game.

    ``slot`` numbers the beat period the round belongs to; the unique
    constraint makes scheduling idempotent (a repeated or duplicated beat tick
    finds the round already there and creates nothing).
    """

    game = models.CharField(max_length=20)
    slot = models.BigIntegerField()
    duplicate = models.BooleanField(
        default=False,
        help_text=gettext_lazy("Each pairing replays one deal with seats rotated."),
    )
    match_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "slot"], name="unique_round_slot"),
        ]

    def __str__(self) -> str:
        return f"{self.game} ladder round {self.slot}"

    @property
    def context(self) -> str:
        """The prefix of ``Match.context`` for this round's matches."""
        return f"bots:ladder:{self.pk}"


class BotAccount(models.Model):
    """A bot that plays from its author's own machine through the bot API.

    It sits in matches as a user of its own (``user``: no password, never
    signs in), so every rule that holds for a person's seat holds for it:
    clocks, the grace period, claims, takeover, and the seat's view. The
    owner is the person who made it and holds its tokens.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="bot_accounts",
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="bot_account",
    )
    #: The game it plays: the ladder and the challenges it is offered.
    game = models.CharField(max_length=20, db_index=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "user__username"]

    def __str__(self) -> str:
        return f"{self.user.username} ({self.game}, connected)"


class BotTokenScope(models.TextChoices):
    #: Read the event stream and the seat's game streams.
    READ = "read", gettext_lazy("Read its games")
    #: Move, resign, accept and decline challenges; be seated while online.
    PLAY = "play", gettext_lazy("Play")


class BotToken(models.Model):
    """A bot account's API key. Only its SHA-256 is kept: the key is shown once."""

    account = models.ForeignKey(
        BotAccount, on_delete=models.CASCADE, related_name="tokens"
    )
    key_sha256 = models.CharField(max_length=64, unique=True)
    #: The key's first characters, so the owner can tell tokens apart.
    prefix = models.CharField(max_length=12)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.account})"

    def allows(self, scope: str) -> bool:
        return self.revoked_at is None and scope in self.scopes


class Scrimmage(models.Model):
    """Unrated games the owner asked for: one version against a chosen opponent.

    Played on the bots queue like ladder games, on duplicate deals (each deal
    once per rotation of the seats). Its matches' context is ``context``.
    """

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="scrimmages")
    version = models.ForeignKey(
        BotVersion, on_delete=models.CASCADE, related_name="scrimmages"
    )
    #: ``builtin:<name>`` or ``bot:<version id>``: fills every other seat.
    opponent = models.CharField(max_length=40)
    opponent_label = models.CharField(max_length=60)
    games = models.PositiveSmallIntegerField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.version} vs {self.opponent_label} ({self.games} games)"

    @property
    def context(self) -> str:
        return f"bots:scrim:{self.pk}"


class VersionRating(models.Model):
    """One version's own Elo, next to the bot's (which league keeps).

    A new version starts from its predecessor's rating (the newest earlier
    version with one; else the bot's league rating; else the scale's start)
    and is provisional until it has played its own games (league's
    ``is_provisional``): its K is the newcomer's, so it finds its level fast.
    Updated by ``bots.rate_versions`` after every rated match it plays.
    """

    version = models.OneToOneField(
        BotVersion, on_delete=models.CASCADE, related_name="rating_row"
    )
    rating = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    reached_elite = models.BooleanField(default=False)
    #: What it started from: the predecessor version (None: the bot's or 1500).
    seeded_from = models.ForeignKey(
        BotVersion,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    seed_rating = models.FloatField()
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.version}: {self.rating:.0f} ({self.games} games)"


class VersionRatingEvent(models.Model):
    """One rated match's change to a version's rating: its history."""

    version = models.ForeignKey(
        BotVersion, on_delete=models.CASCADE, related_name="rating_events"
    )
    match = models.ForeignKey(
        "gameplay.Match", on_delete=models.CASCADE, related_name="+"
    )
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    games_after = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["version", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["version", "match"], name="unique_version_rating_event"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.version} in match {self.match_id}: {self.delta:+.1f}"

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before
