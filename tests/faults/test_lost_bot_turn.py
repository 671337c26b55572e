"""A built-in bot's move whose task was lost (broker away) is queued by beat."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from gameplay import selectors, services, tasks
from gameplay.models import Match
from gameplay.rules import get_game
from gameplay.services import SeatSpec


def test_a_bot_turn_nobody_queued_is_played_by_the_sweep(players):
    match = services.match_create(
        game="duelo",
        seats=[SeatSpec(user=players[0]), SeatSpec(agent="builtin:random")],
        config={},
    )
    # The test transaction never commits, so no after-commit hook queues the
    # bot: exactly what a refused enqueue leaves behind.
    match = services.match_start(match_id=match.pk)
    engine = get_game(match.game)
    for _ in range(20):  # the person's turn may take several decisions
        if 0 not in engine.actors(match.state):
            break
        action = engine.legal_action_ids(match.state, 0)[0]
        services.match_act(match_id=match.pk, user=players[0], action_id=action)
        match.refresh_from_db()
    assert selectors.builtin_bot_seats_to_act(match=match)
    assert tasks.sweep_bot_turns() == 0  # not stalled yet
    Match.objects.filter(pk=match.pk).update(
        turn_started_at=timezone.now() - timedelta(minutes=1)
    )
    before = match.version
    assert tasks.sweep_bot_turns() == 1
    match.refresh_from_db()
    assert match.version > before
    assert not selectors.builtin_bot_seats_to_act(match=match) or match.is_over
