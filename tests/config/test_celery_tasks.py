"""Every task can actually be sent: its time limits agree with the defaults."""

from __future__ import annotations

from django.conf import settings

from config.celery import app


def test_every_project_task_has_a_soft_limit_within_its_hard_limit() -> None:
    app.loader.import_default_modules()
    tasks = {
        name: task for name, task in app.tasks.items() if not name.startswith("celery.")
    }
    assert {"gameplay.sweep_expired_clocks", "gameplay.play_builtin_bots"} <= set(tasks)
    for name, task in tasks.items():
        hard = task.time_limit or settings.CELERY_TASK_TIME_LIMIT
        soft = task.soft_time_limit or settings.CELERY_TASK_SOFT_TIME_LIMIT
        assert soft <= hard, f"{name}: soft limit {soft} s exceeds hard limit {hard} s"


def test_every_beat_entry_names_a_registered_task() -> None:
    app.loader.import_default_modules()
    for entry, spec in settings.CELERY_BEAT_SCHEDULE.items():
        assert spec["task"] in app.tasks, entry


def test_what_a_task_prints_is_logged_at_info() -> None:
    """The console e-mail backend prints each e-mail from the worker: at
    Celery's default level (WARNING) every tournament e-mail was a WARNING in
    `make run`'s log."""
    assert app.conf.worker_redirect_stdouts_level == "INFO"
