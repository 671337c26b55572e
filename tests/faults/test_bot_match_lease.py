"""A bot match whose worker dies resumes within a minute (bots.tasks.MatchLease).

The lease is held in the shared cache (the test session's Redis); the "worker"
that dies is a separate process, killed with SIGKILL while it holds the lease.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache

from bots import tasks
from bots.sandbox import SandboxStatus
from gameplay.models import Match, MatchStatus
from tests.bots.botsrc import FIRST_LEGAL
from tests.bots.conftest import owner  # noqa: F401
from tests.bots.helpers import bot_match, stored_version
from tests.faults.processes import ROOT
from tests.waiting import wait_until

pytestmark = pytest.mark.django_db

HOLDER = """
import sys, time, django
django.setup()
from bots.tasks import MatchLease
lease = MatchLease(int(sys.argv[1]), "dying-worker", seconds=float(sys.argv[2]))
assert lease.acquire()
print("held", flush=True)
time.sleep(600)
"""


def _holder(match_id: int, seconds: float) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        # This session's Redis, not the shared one.
        "REDIS_URL": django_settings.REDIS_URL,
    }
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(match_id), str(seconds)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "held"
    return process


def test_the_lease_is_renewed_while_held_and_released_after():
    lease = tasks.MatchLease(987654, "me", seconds=1.2)
    assert lease.acquire()
    try:
        time.sleep(2.5)  # twice its lifetime: only renewals keep it
        assert cache.get(lease.key) == "me"
        assert not tasks.MatchLease(987654, "other", seconds=1.2).acquire()
    finally:
        lease.release()
    assert cache.get(lease.key) is None


def test_a_killed_workers_match_is_picked_up_and_finished_once(
    owner,  # noqa: F811
    monkeypatch,
    settings,
    django_capture_on_commit_callbacks,
):
    settings.BOT_SANDBOX_ALLOW_UNSANDBOXED = True
    monkeypatch.setattr(
        tasks, "sandbox_available", lambda config: SandboxStatus(ok=True, reason="ok")
    )
    version = stored_version(owner, FIRST_LEGAL, name="lease")
    match = bot_match(version.agent, version.agent, context="tournament:9")
    from gameplay.services import match_start

    match_start(match_id=match.pk)
    queued: list[int] = []
    monkeypatch.setattr(tasks.play_match, "delay", queued.append)
    holder = _holder(match.pk, seconds=2.0)
    try:
        time.sleep(3)  # beyond the lease: the holder's renewals keep it alive
        assert cache.get(f"{tasks.MATCH_LOCK_PREFIX}{match.pk}") == "dying-worker"
        assert tasks.pick_up_matches() == 0  # being played
        os.kill(holder.pid, signal.SIGKILL)  # the worker dies mid-match
        holder.wait(timeout=10)
        wait_until(
            lambda: tasks.pick_up_matches(),
            timeout=10,
            message="the lease to lapse",
        )
        assert queued == [match.pk]
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        result = tasks.play_match.apply(args=(match.pk,)).get()
    assert "steps" in result, result
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    announced = match.finish_announced_at
    assert announced is not None
    # A redelivered copy of the dead worker's task finds nothing to play.
    assert tasks.play_match.apply(args=(match.pk,)).get() == "nothing to play"
    assert Match.objects.get(pk=match.pk).finish_announced_at == announced
