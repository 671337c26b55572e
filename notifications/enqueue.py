"""The one door from the notifications services to their Celery tasks.

Tasks import services; services queue tasks only through this module, which
looks the task up by its registered name (``NotificationsConfig.ready``
imports :mod:`notifications.tasks`, which registers it) instead of importing
the task module, so no import runs back from services to tasks.
"""

from __future__ import annotations

from celery import current_app

NOTIFICATION_EMAIL = "notifications.notification_email"
TURN_REMINDER = "notifications.turn_reminder"

#: Every task queued from here (a test checks that each is registered).
TASK_NAMES = (NOTIFICATION_EMAIL, TURN_REMINDER)


def notification_email(notification_id: int) -> None:
    """Queue the e-mail of a stored notification (the task claims it first)."""
    current_app.tasks[NOTIFICATION_EMAIL].delay(notification_id)


def turn_reminder(reminder_id: int) -> None:
    """Queue the delivery of a "your move" reminder (push now, e-mail if due)."""
    current_app.tasks[TURN_REMINDER].delay(reminder_id)
