"""Matches: who sits where, the engine state, and the ordered log of everything done.

A match row is the single writer's lock: every change goes through
``gameplay.services`` which locks it, re-validates through the rules engine,
applies, bumps ``version`` and appends to the log, all in one transaction.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from gameplay.agents import builtin_name, is_builtin


class MatchStatus(models.TextChoices):
    WAITING = "waiting", "Waiting for players"
    ACTIVE = "active", "In play"
    FINISHED = "finished", "Finished"
    ABORTED = "aborted", "Aborted"


class Match(models.Model):
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    game = models.CharField(max_length=20, db_index=True)
    config = models.JSONField(default=dict, help_text="Validated engine options.")
    rated = models.BooleanField(default=False)
    status = models.CharField(
        max_length=10,
        choices=MatchStatus.choices,
        default=MatchStatus.WAITING,
        db_index=True,
    )
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_matches",
    )
    # Secret until the end; the hash is published at the start so anyone can
    # check afterwards that the deal was fixed before the first move.
    seed = models.BigIntegerField(null=True, blank=True)
    seed_hash = models.CharField(max_length=64, blank=True)
    # The engine's state (None until the match starts). A JSON value is Any, and
    # None is one already: typed so, reads need no `is None` check to satisfy
    # mypy where the code knows the match has started.
    state: models.JSONField[Any, Any] = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    # Time control: {"per_move": seconds or null, "total": seconds or null}.
    time_control = models.JSONField(default=dict, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # The engine's server-side timers now running (games whose engine has
    # ``timers``): {key: {"due": ISO time, "seat": int or None, "action": id}}.
    # A timer's due time is fixed when its key first appears and kept while
    # the engine keeps listing it (``services.track_timers``).
    timers = models.JSONField(default=dict, blank=True)
    spectator_delay = models.PositiveSmallIntegerField(
        default=0, help_text="Spectators see the game this many moves behind."
    )
    # Generic hook for leagues, tournaments and ladders: gameplay never reads it.
    context = models.CharField(max_length=80, blank=True, db_index=True)
    result = models.JSONField(null=True, blank=True)
    end_reason = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # Null on a finished match: "match finished" is still owed to the apps that
    # react to it (ratings, tournaments). The finishing transaction leaves it
    # null, so the match row itself is the outbox entry; beat's
    # ``gameplay.announce_finished`` sweep sets it once every receiver has
    # queued its work (docs/operations.md).
    finish_announced_at = models.DateTimeField(null=True, blank=True)
    # The match this one is a rematch of: its results panel links here.
    rematch_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematches",
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "matches"
        indexes = [
            # The outbox sweep reads only the few finished, unannounced matches.
            models.Index(
                fields=["finished_at"],
                name="match_finish_outbox",
                condition=models.Q(status="finished", finish_announced_at__isnull=True),
            ),
        ]

    # Not a column. True on the in-memory match whose finish its holder has
    # just committed, while it builds the finishing frames (the live owner):
    # nothing can hang off the finish yet (a rematch is asked for only of a
    # match already over, under its row lock; ratings are written by the task
    # the announcement queues after those frames), so result extras skip
    # their reads. Their later writers broadcast the match again, afresh.
    just_finished = False
    # Not a column. Whether the match has an open rematch, on an in-memory
    # match read together with that answer in one round trip (a live socket's
    # close: ``gameplay.live.owner``), so its frames do not ask again; None:
    # not known, asked when a frame needs it (``selectors.rematch_info``).
    open_rematch: bool | None = None

    def __str__(self) -> str:
        return f"{self.game} match {self.public_id}"

    @property
    def is_over(self) -> bool:
        return self.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)

    @property
    def public_version(self) -> int:
        """The version anyone may know: held back by the spectator delay in play.

        Lists, pages and the public API show this, never ``version`` itself, so
        a delayed table's live progress cannot be read off its move count.
        """
        if self.status == MatchStatus.ACTIVE and self.spectator_delay:
            return max(0, self.version - self.spectator_delay)
        return self.version


class Seat(models.Model):
    """One place at a match: a person, a built-in bot, or an uploaded bot."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    # "" for a person; "builtin:<name>" for a built-in bot; "bot:<version id>"
    # for an uploaded bot driven by the bots app.
    agent = models.CharField(max_length=40, blank=True)
    label = models.CharField(max_length=60, blank=True)
    clock_ms = models.BigIntegerField(
        null=True, blank=True, help_text="Total time left, when the match has one."
    )
    # When this seat's current decision began, if not at the match's last
    # change (``turn_started_at``): several seats may act at once (simultaneous
    # commits), and one seat's move must not restart the others' clocks. Set
    # only for a seat still choosing when another moved (clocks.clock_start).
    acting_since = models.DateTimeField(null=True, blank=True)
    # Open sockets of the seat's player (tabs), and when a web process last
    # vouched for one of them. The count alone cannot be trusted: a web process
    # that dies never lowers it. Presence is ``connected > 0`` *and* ``seen_at``
    # younger than PRESENCE_TTL (``clocks.seat_is_present``); each web
    # process refreshes ``seen_at`` for its sockets (``gameplay.presence``).
    connected = models.PositiveSmallIntegerField(default=0)
    seen_at = models.DateTimeField(null=True, blank=True)
    disconnected_at = models.DateTimeField(null=True, blank=True)
    # A person who left a table of three or more: a bot plays on, they still lose.
    replaced_by_bot = models.BooleanField(default=False)
    forfeited = models.BooleanField(default=False)
    # Why the seat forfeited ("time forfeit", "resigned", "left", "abandoned"):
    # the live log and the results say it in words.
    forfeit_reason = models.CharField(max_length=40, blank=True)
    placement = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_seat"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of {self.match_id}"

    @property
    def is_bot(self) -> bool:
        return bool(self.agent) or self.replaced_by_bot

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.agent

    @property
    def display_name(self) -> str:
        if self.label:
            return self.label
        if self.user is not None:
            return self.user.public_name
        if is_builtin(self.agent):
            from gameplay.rules.bots import bot_display_name

            return bot_display_name(builtin_name(self.agent))
        if self.agent:
            return "Uploaded bot"
        return "Open seat"


class ActionKind(models.TextChoices):
    MOVE = "move", "Move"
    TIMEOUT = "timeout", "Clock expired: default action"
    BOT_TAKEOVER = "takeover", "Move by the bot that replaced a leaver"
    TABLE = "table", "Step of the table (a server timer, no seat)"


class MatchAction(models.Model):
    """One applied action; ``version`` is the match version it produced."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField()
    # None: a step of the table itself (real-time games' server timers).
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    action_id = models.CharField(max_length=80)
    kind = models.CharField(
        max_length=10, choices=ActionKind.choices, default=ActionKind.MOVE
    )
    # Engine events with public and per-seat private parts (chance outcomes
    # included). Served only through ``gameplay.rules.view_events``.
    events = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "version"], name="unique_action_version"
            ),
        ]

    def __str__(self) -> str:
        return f"v{self.version} seat {self.seat}: {self.action_id}"


class MatchSnapshot(models.Model):
    """The engine state every few versions, so replays need not start at zero."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    state = models.JSONField()

    class Meta:
        ordering = ["match", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "version"], name="unique_snapshot_version"
            ),
        ]

    def __str__(self) -> str:
        return f"snapshot v{self.version} of {self.match_id}"


class ChallengeStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    CANCELLED = "cancelled", "Cancelled"


class Challenge(models.Model):
    """A direct invitation from one player to another."""

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_sent",
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_received",
    )
    game = models.CharField(max_length=20)
    config = models.JSONField(default=dict)
    rated = models.BooleanField(default=False)
    time_control = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=10, choices=ChallengeStatus.choices, default=ChallengeStatus.PENDING
    )
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.challenger} challenges {self.challenged} to {self.game}"


class QueueEntry(models.Model):
    """A player waiting in the quick-play queue of one game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    game = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField(default=2)
    rated = models.BooleanField(default=False)
    # The time control asked for (``gameplay.timecontrol``): only the same pair.
    time_control = models.JSONField(default=dict, blank=True)
    rating = models.FloatField(null=True, blank=True)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="one_queue_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.user} queued for {self.game}"


class Vacation(models.Model):
    """A stretch of days a player is away: their correspondence clocks stand
    still (``gameplay.vacation``). Taken from a yearly allowance of days
    (``settings.VACATION_DAYS_PER_YEAR``); ``ends_at`` moves to the moment a
    player comes back early, and only the days begun are charged."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["user", "-starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"], name="vacation_user_end")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="vacation_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        span = f"{self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"
        return f"{self.user_id} away {span}"
