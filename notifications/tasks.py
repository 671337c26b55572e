"""Notification e-mails, sent by workers: slow mail servers never hold a page."""

from __future__ import annotations

from celery import shared_task

from notifications import reminders, services


@shared_task(
    name="notifications.notification_email",
    autoretry_for=(OSError,),
    retry_backoff=30,
    max_retries=5,
    soft_time_limit=50,
    time_limit=60,
)
def notification_email(notification_id: int) -> bool:
    """Idempotent: the notification is claimed before sending (see the service)."""
    return services.notification_send_email(notification_id=notification_id)


@shared_task(
    name="notifications.turn_reminder",
    autoretry_for=(OSError,),
    retry_backoff=30,
    max_retries=5,
    soft_time_limit=50,
    time_limit=60,
)
def turn_reminder(reminder_id: int) -> None:
    """Push a "your move" reminder and e-mail it if due; each channel is
    claimed before it is used, so a redelivered task sends nothing again."""
    reminders.turn_reminder_deliver(reminder_id=reminder_id)


@shared_task(
    name="notifications.turn_reminders_sweep", soft_time_limit=50, time_limit=60
)
def turn_reminders_sweep() -> dict[str, int]:
    """Beat: e-mails and digests that came due, pushes whose task was lost."""
    return reminders.turn_reminders_sweep()
