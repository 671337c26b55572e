"""One stored analysis per match and analysis version (docs/analysis.md)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from gameplay.models import Match


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", gettext_lazy("Queued")
    RUNNING = "running", gettext_lazy("Running")
    DONE = "done", gettext_lazy("Done")
    FAILED = "failed", gettext_lazy("Failed")


class MatchAnalysis(models.Model):
    """The search's verdict on every decision of a finished match.

    ``version`` is ``gameplay.rules.analysis.ANALYSIS_VERSION``: a new method
    or budget is a new row, never an overwrite of what players have read.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="analyses")
    version = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=10, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED
    )
    done_steps = models.PositiveIntegerField(default=0)
    total_steps = models.PositiveIntegerField(default=0)
    iterations = models.PositiveIntegerField()
    result = models.JSONField(null=True, blank=True)
    error = models.CharField(max_length=200, blank=True)
    cpu_seconds = models.FloatField(null=True, blank=True)
    requested_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match", "version"], name="unique_analysis_version"
            ),
        ]

    def __str__(self) -> str:
        return f"analysis v{self.version} of match {self.match_id}: {self.status}"
