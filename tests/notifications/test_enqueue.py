"""Services queue the e-mail task by its registered name (no import of the
task module from services): the name must exist, and a stored e-mail
notification reaches the task."""

from __future__ import annotations

import pytest
from celery import current_app

from notifications import enqueue, services, tasks
from notifications.models import NotificationKind
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_every_queued_name_is_a_registered_task() -> None:
    for name in enqueue.TASK_NAMES:
        assert name in current_app.tasks, name
    assert tasks.notification_email.name == enqueue.NOTIFICATION_EMAIL


def test_an_email_notification_queues_its_task(
    monkeypatch, django_capture_on_commit_callbacks
) -> None:
    queued: list[int] = []
    monkeypatch.setattr(tasks.notification_email, "delay", queued.append)
    user = UserFactory()
    draft = services.Draft(
        user_id=user.pk,
        key="test:1",
        kind=NotificationKind.ROUND_PAIRED,
        title="t",
        body="b",
        url="/",
        email=True,
    )
    with django_capture_on_commit_callbacks(execute=True):
        [note] = services.notifications_create(drafts=[draft], push=False)
    assert queued == [note.pk]
