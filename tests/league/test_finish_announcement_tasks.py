"""The finish announcement queues only the tasks a match can have work for.

A casual match (not rated, no league or tournament context) feeds no pool and
no pairing: its finish sends no task at all; a rated one sends the rating
only; a tournament match both. Every one is still marked announced once.
"""

from __future__ import annotations

import pytest
from celery.app.task import Task

from gameplay import services
from gameplay.models import Match, MatchStatus
from league.receivers import on_match_finished
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RATE = "league.ratings_apply_match"
PAIR = "league.tournament_match_finished"


def _finished(*, rated: bool, context: str) -> Match:
    users = [UserFactory(username=f"t{i}-{rated}-{context}") for i in range(2)]
    match = services.match_create(
        game="duelo",
        seats=[services.SeatSpec(user=u) for u in users],
        rated=rated,
        context=context,
    )
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    return match


@pytest.fixture
def queued(monkeypatch) -> list[str]:
    names: list[str] = []

    def record(self, *args, **kwargs):
        names.append(self.name)

    monkeypatch.setattr(Task, "apply_async", record)
    return names


@pytest.mark.parametrize(
    ("rated", "context", "tasks"),
    [
        (False, "", []),
        (True, "", [RATE]),
        (False, "league:4", [RATE]),
        (False, "tournament:3:9", [RATE, PAIR]),
        (True, "tournament:3:9", [RATE, PAIR]),
    ],
)
def test_only_the_tasks_a_match_can_need_are_queued(queued, rated, context, tasks):
    match = _finished(rated=rated, context=context)
    assert services.match_announce_finished(match_id=match.pk) is True
    assert queued == tasks
    assert Match.objects.get(pk=match.pk).finish_announced_at is not None
    assert services.match_announce_finished(match_id=match.pk) is False
    assert queued == tasks  # announced once


def test_a_sender_that_does_not_say_gets_both_tasks(queued):
    on_match_finished(sender=Match, match_id=1)
    assert queued == [RATE, PAIR]
