"""Reaction to gameplay's ``match_finished``: the operator's automatic analysis.

With ``ANALYSIS_AUTO_TOURNAMENTS`` on, a finished *rated tournament* game
(its context claimed by a tournament kind: ``gameplay.contexts``) is queued for
analysis. The receiver only enqueues, at once and not after a commit, letting a
broker error raise (gameplay's outbox then announces the match again); the task
decides, and is idempotent: one analysis per match and analysis version.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from gameplay.contexts import context_is_tournament


def on_match_finished(
    sender: Any,
    match_id: int,
    rated: bool | None = None,
    context: str | None = None,
    **kwargs: Any,
) -> None:
    """Enqueue the automatic analysis of a rated tournament game (switch on);
    when ``rated``/``context`` are not given, the task reads them."""
    if not settings.ANALYSIS_AUTO_TOURNAMENTS:
        return
    if rated is False or (context is not None and not context_is_tournament(context)):
        return
    from analysis import tasks

    tasks.auto_analyse_match.delay(match_id)
