"""Reactions to gameplay's one announcement, ``match_finished``.

The receiver only enqueues, at once and not after a commit: gameplay sends the
announcement inside its outbox transaction and marks it done only if every
receiver returned, so a broker that refuses the task must make this raise (the
announcement is then retried by beat). The work runs in idempotent tasks, so a
retried or duplicated announcement is harmless: a match is rated once.
"""

from __future__ import annotations


def on_match_finished(
    sender,
    match_id: int,
    rated: bool | None = None,
    context: str | None = None,
    **kwargs,
) -> None:
    """Enqueue the rating and the tournament pairing, each only when the match
    can have one (``rated``/``context`` given: a casual match's finish then
    sends no task, where each would only have read the match and found no
    pool and no pairing; a sender that does not say enqueues both)."""
    from league import tasks
    from league.ratings.services import may_feed_pools
    from league.tournaments.selectors import is_tournament_context

    if rated is None or context is None:  # not known: both may apply
        tasks.ratings_apply_match.delay(match_id)
        tasks.tournament_match_finished.delay(match_id)
        return
    if may_feed_pools(rated=rated, context=context):
        tasks.ratings_apply_match.delay(match_id)
    if is_tournament_context(context):
        tasks.tournament_match_finished.delay(match_id)
