"""Bots-only live matches move at BOTS_ONLY_MOVE_DELAY so spectators can follow."""

from __future__ import annotations

import time

import pytest

from gameplay import enqueue, services, tasks
from gameplay.models import Match
from gameplay.services import SeatSpec
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BOTS = [SeatSpec(agent="builtin:random"), SeatSpec(agent="builtin:heuristic")]


@pytest.fixture
def started(django_capture_on_commit_callbacks):
    """Start a match and run what its commit schedules (the bots' turns)."""

    def start(seats, **options) -> Match:
        match = services.match_create(game="duelo", seats=seats, **options)
        with django_capture_on_commit_callbacks(execute=True):
            services.match_start(match_id=match.pk)
        return Match.objects.get(pk=match.pk)

    return start


@pytest.fixture
def queued(not_eager, monkeypatch, settings, started):
    """Record what would be queued for the worker."""
    settings.BOTS_ONLY_MOVE_DELAY = 2.0
    calls = []
    monkeypatch.setattr(
        tasks.play_builtin_bots,
        "apply_async",
        lambda args, countdown=None: calls.append(("later", args, countdown)),
    )
    monkeypatch.setattr(
        tasks.play_builtin_bots, "delay", lambda *args: calls.append(("now", args))
    )
    return calls


def test_a_bots_only_match_queues_one_move_after_the_delay(queued, started) -> None:
    match = started(BOTS)
    assert queued == [("later", (match.pk, 1), 2.0)]


def test_a_match_with_a_person_is_not_slowed(queued, started, settings) -> None:
    settings.BOT_MOVE_DELAY = 0  # its own pace (below) is off here
    person = UserFactory()
    match = started(
        [SeatSpec(agent="builtin:random"), SeatSpec(user=person)],
        config={"start": 0},
        private_options=True,
    )
    assert queued == [("now", (match.pk,))]


def test_no_delay_configured_plays_at_once(queued, settings, started) -> None:
    settings.BOTS_ONLY_MOVE_DELAY = 0
    match = started(BOTS)
    assert queued == [("now", (match.pk,))]


def test_one_paced_step_makes_exactly_one_move(
    not_eager, monkeypatch, settings, started
):
    settings.BOTS_ONLY_MOVE_DELAY = 2.0
    monkeypatch.setattr(tasks.play_builtin_bots, "apply_async", lambda *a, **k: None)
    match = started(BOTS)
    assert tasks.play_builtin_bots(match.pk, 1) == 1
    match.refresh_from_db()
    assert match.version == 1 and not match.is_over


def test_eager_mode_never_paces(settings, started) -> None:
    """Tests and the demo seeding run tasks in-process: the match just finishes."""
    settings.BOTS_ONLY_MOVE_DELAY = 2.0
    match = started(BOTS)
    match.refresh_from_db()
    assert match.is_over


# --- Tables with people: bots paced so a person can follow (H3) ---------------


@pytest.fixture
def paced(not_eager, monkeypatch, settings):
    settings.BOTS_ONLY_MOVE_DELAY = 0
    settings.BOT_MOVE_DELAY = 1.0
    calls = []
    monkeypatch.setattr(
        tasks.play_builtin_bots,
        "apply_async",
        lambda args, countdown=None: calls.append(("later", args, countdown)),
    )
    monkeypatch.setattr(
        tasks.play_builtin_bots, "delay", lambda *args: calls.append(("now", args))
    )
    return calls


def test_with_a_person_seated_bots_move_one_step_at_the_pace(paced, started) -> None:
    person = UserFactory()
    before = time.monotonic()
    match = started(
        [SeatSpec(agent="builtin:random"), SeatSpec(user=person)],
        config={"start": 0},
        private_options=True,
    )
    took = time.monotonic() - before
    # The start counts as the previous move: one bot move, a second after the
    # start (less the time the start itself took, long on a busy machine).
    assert len(paced) == 1
    kind, args, countdown = paced[0]
    assert (kind, args) == ("later", (match.pk, 1))
    assert max(0.0, 1.0 - took) - 0.01 <= countdown <= 1.0


def test_time_the_person_spent_counts_towards_the_pace(paced) -> None:
    from datetime import timedelta

    from django.utils import timezone

    person = UserFactory()
    match = services.match_create(
        game="duelo", seats=[SeatSpec(agent="builtin:random"), SeatSpec(user=person)]
    )
    match = services.match_start(match_id=match.pk)
    Match.objects.filter(pk=match.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=5)
    )
    match.refresh_from_db()
    assert enqueue.bot_move_pace(match) == 0.0


def test_no_pace_without_people_or_when_off(paced, settings) -> None:
    match = services.match_create(game="duelo", seats=list(BOTS))
    assert enqueue.bot_move_pace(match) is None
    settings.BOT_MOVE_DELAY = 0
    person = UserFactory()
    other = services.match_create(
        game="duelo", seats=[SeatSpec(agent="builtin:random"), SeatSpec(user=person)]
    )
    assert enqueue.bot_move_pace(other) is None
