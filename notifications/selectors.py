"""Notification reads for pages."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import User
from notifications.models import Notification


@dataclass(frozen=True)
class Latest:
    items: list[Notification]
    unread: int


def latest(*, user: User, limit: int) -> Latest:
    items = list(Notification.objects.filter(user=user)[:limit])
    unread = Notification.objects.filter(user=user, read_at__isnull=True).count()
    return Latest(items=items, unread=unread)


def page(*, user: User, limit: int = 100) -> list[Notification]:
    return list(Notification.objects.filter(user=user)[:limit])
