"""The clock check re-arms itself for a deadline still ahead, but never when it
runs eagerly: there the countdown is ignored, and the check used to call itself
until the deadline really passed (a recursion as deep as the stack, ~40 s of a
test that only meant to turn the enqueue off in Django's settings)."""

from __future__ import annotations

from unittest import mock

from gameplay import enqueue, services, tasks
from tests.gameplay.conftest import start_match


def test_an_early_eager_clock_check_does_not_call_itself(players, settings):
    match = start_match(players[:2], time_control={"per_move": 30})
    # Django's setting says "enqueue" (so scheduling goes ahead) while the
    # Celery app still runs tasks eagerly, as in tests that switch it off.
    settings.CELERY_TASK_ALWAYS_EAGER = False
    conf = tasks.expire_clock.app.conf
    saved = conf.task_always_eager
    conf.task_always_eager = True
    try:
        with mock.patch.object(
            services, "match_expire_clocks", wraps=services.match_expire_clocks
        ) as checks:
            enqueue.schedule_clock_check(match_id=match.pk)
    finally:
        conf.task_always_eager = saved
    assert checks.call_count == 1  # the deadline is 30 s away: nothing expired
    match.refresh_from_db()
    assert match.version == 0
