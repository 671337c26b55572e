"""Tasks: thin wrappers that re-queue, retry and give up the way they should."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from bots import services, tasks
from bots.models import BotVersion
from bots.sandbox import SandboxStatus, SandboxUnavailable
from gameplay.models import Match, MatchStatus
from gameplay.services import match_start
from tests.bots.botsrc import FIRST_LEGAL
from tests.bots.helpers import bot_match, stored_version

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch):
    calls = {"validate": [], "play": []}
    monkeypatch.setattr(
        tasks.validate_version, "delay", lambda pk: calls["validate"].append(pk)
    )
    monkeypatch.setattr(tasks.play_match, "delay", lambda pk: calls["play"].append(pk))
    return calls


def sandbox(monkeypatch, ok: bool) -> None:
    monkeypatch.setattr(
        tasks,
        "sandbox_available",
        lambda config: SandboxStatus(ok=ok, reason="ok" if ok else "no bwrap"),
    )


def test_heartbeat_requeues_stuck_validations_and_reports(owner, queued, monkeypatch):
    sandbox(monkeypatch, True)
    version = stored_version(owner, FIRST_LEGAL, name="slow", active=False)
    stored_version(owner, FIRST_LEGAL + b"\n", name="fresh", active=False)
    BotVersion.objects.filter(pk=version.pk).update(
        created_at=timezone.now() - timedelta(hours=1)
    )
    assert tasks.sandbox_heartbeat() is True
    assert queued == {"validate": [version.pk], "play": []}
    assert services.sandbox_gate() == (True, "ok")


def test_all_bot_matches_in_play_are_picked_up_once(owner, queued, monkeypatch):
    from django.core.cache import cache

    from gameplay.services import SeatSpec, match_create
    from tests.factories import UserFactory

    sandbox(monkeypatch, True)
    version = stored_version(owner, FIRST_LEGAL, name="b")
    tournament = bot_match(version.agent, version.agent, context="tournament:3")
    match_start(match_id=tournament.pk)
    mixed = bot_match(version.agent, "builtin:random")
    match_start(match_id=mixed.pk)
    bot_match(version.agent, version.agent)  # waiting: its creator starts it
    builtins_only = bot_match("builtin:random", "builtin:heuristic")
    match_start(match_id=builtins_only.pk)  # gameplay's own bots play it
    with_person = match_create(
        game="duelo",
        seats=[SeatSpec(user=UserFactory()), SeatSpec(agent=version.agent)],
        config={},
    )
    match_start(match_id=with_person.pk)
    cache.set(f"{tasks.MATCH_LOCK_PREFIX}{mixed.pk}", "worker-1", 60)
    try:
        assert tasks.pick_up_matches() == 1
    finally:
        cache.delete(f"{tasks.MATCH_LOCK_PREFIX}{mixed.pk}")
    assert queued["play"] == [tournament.pk]
    sandbox(monkeypatch, False)
    assert tasks.pick_up_matches() == 0


def test_a_match_being_played_is_not_played_twice(owner):
    from django.core.cache import cache

    version = stored_version(owner, FIRST_LEGAL, name="b")
    match = bot_match(version.agent, version.agent)
    cache.set(f"{tasks.MATCH_LOCK_PREFIX}{match.pk}", "worker-1", 60)
    try:
        result = tasks.play_match.apply(args=(match.pk,)).get()
    finally:
        cache.delete(f"{tasks.MATCH_LOCK_PREFIX}{match.pk}")
    assert result == "already being played"
    assert Match.objects.get(pk=match.pk).status == MatchStatus.WAITING


def test_heartbeat_without_sandbox_only_reports(owner, queued, monkeypatch):
    sandbox(monkeypatch, False)
    version = stored_version(owner, FIRST_LEGAL, name="slow", active=False)
    BotVersion.objects.filter(pk=version.pk).update(
        created_at=timezone.now() - timedelta(hours=1)
    )
    assert tasks.sandbox_heartbeat() is False
    assert queued == {"validate": [], "play": []}
    assert services.sandbox_gate() == (False, "no bwrap")


def test_the_heartbeat_logs_the_self_test_verdict_once_and_on_change(
    queued, monkeypatch, caplog
):
    """The README's start-up self-test line: which bubblewrap was verified,
    once per worker process (the heartbeat runs every minute), again when the
    verdict changes."""
    import logging

    monkeypatch.setattr(tasks, "_logged_verdict", None)
    caplog.set_level(logging.INFO, logger="bots.tasks")
    verified = "sandbox verified with bubblewrap 0.11.0 (system: /usr/bin/bwrap)"
    monkeypatch.setattr(
        tasks, "sandbox_available", lambda config: SandboxStatus(True, verified)
    )
    tasks.sandbox_heartbeat()
    tasks.sandbox_heartbeat()
    sandbox(monkeypatch, False)
    tasks.sandbox_heartbeat()
    lines = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert lines == [
        ("INFO", f"bot sandbox self-test passed: {verified}"),
        ("WARNING", "bot sandbox self-test failed: no bwrap"),
    ]


def test_play_match_gives_up_on_a_missing_sandbox(owner, monkeypatch):
    version = stored_version(owner, FIRST_LEGAL, name="b")
    ladder = bot_match(version.agent, version.agent, context="bots:ladder:9:0:0")
    league = bot_match(version.agent, version.agent, context="tournament:1")

    def refuse(*, match_id):
        raise SandboxUnavailable("no sandbox here")

    monkeypatch.setattr(services, "bot_match_play", refuse)
    monkeypatch.setattr(tasks.play_match, "max_retries", 0)
    assert tasks.play_match.apply(args=(ladder.pk,)).get() == "not played"
    assert tasks.play_match.apply(args=(league.pk,)).get() == "not played"
    assert Match.objects.get(pk=ladder.pk).status == MatchStatus.ABORTED
    # A tournament's match is the tournament's to settle; it is left as it was.
    assert Match.objects.get(pk=league.pk).status == MatchStatus.WAITING


@pytest.mark.sandbox
def test_play_match_task_plays_and_is_idempotent(owner):
    version = stored_version(owner, FIRST_LEGAL, name="b")
    match = bot_match(version.agent, version.agent)
    assert "completed" in tasks.play_match.apply(args=(match.pk,)).get()
    assert tasks.play_match.apply(args=(match.pk,)).get() == "nothing to play"


def test_services_queue_the_tasks_by_their_registered_names(monkeypatch):
    """``bots.enqueue`` reaches each task by name, never importing bots.tasks:
    a renamed task must fail here, not leave uploads waiting for ever."""
    from celery import current_app

    from bots import enqueue

    queued: list[tuple[str, int]] = []
    for name in enqueue.TASK_NAMES:
        task = current_app.tasks[name]
        assert task.__module__ == tasks.__name__
        monkeypatch.setattr(task, "delay", lambda pk, n=name: queued.append((n, pk)))
    enqueue.validation(1)
    enqueue.debut_games(2)
    enqueue.play_matches([3, 4])
    assert queued == [
        (enqueue.VALIDATE_VERSION, 1),
        (enqueue.DEBUT_GAMES, 2),
        (enqueue.PLAY_MATCH, 3),
        (enqueue.PLAY_MATCH, 4),
    ]
