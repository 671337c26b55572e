"""Duplicate events react to gameplay's ``match_finished`` (league/receivers.py
explains the contract: enqueue at once, let a broker error raise)."""

from __future__ import annotations


def on_match_finished(
    sender, match_id: int, context: str | None = None, **kwargs
) -> None:
    from league.duplicate import selectors, tasks

    if context is None or context.startswith(selectors.CONTEXT_PREFIX):
        tasks.duplicate_game_finished.delay(match_id)
