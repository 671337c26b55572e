"""Reactions to gameplay's one announcement, ``match_finished``.

The receiver only enqueues, at once and not after a commit: gameplay sends the
announcement inside its outbox transaction and marks it done only if every
receiver returned, so a broker that refuses the task must make this raise (the
announcement is then retried by beat). The work runs in idempotent tasks, so a
retried or duplicated announcement is harmless: a match is rated once.
"""

from __future__ import annotations


def on_match_finished(sender, match_id: int, **kwargs) -> None:
    from league import tasks

    tasks.ratings_apply_match.delay(match_id)
    tasks.tournament_match_finished.delay(match_id)
