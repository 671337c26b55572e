"""Notification e-mails, sent by workers: slow mail servers never hold a page."""

from __future__ import annotations

from celery import shared_task

from notifications import services


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
