"""Reactions to gameplay's one announcement, ``match_finished``.

The receiver only enqueues (after the surrounding commit, if any): the work
runs in idempotent tasks, so a redelivered or duplicated announcement is
harmless.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction


def on_match_finished(sender, match_id: int, **kwargs) -> None:
    from league import tasks

    transaction.on_commit(partial(tasks.ratings_apply_match.delay, match_id))
    transaction.on_commit(partial(tasks.tournament_match_finished.delay, match_id))
