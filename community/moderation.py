"""Moderation: reports with their evidence, and staff actions on users.

Staff roles are Django groups (``moderator``, ``admin``, made by a data
migration) holding ``community.moderate``; every action is a ``Sanction`` row
(who, when, why), shown to the user concerned on their standing page.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from community.models import Sanction, SanctionKind


def chat_silenced(user: User) -> bool:
    """A moderator's mute or a ban in force keeps the user out of chat."""
    now = timezone.now()
    return Sanction.objects.filter(
        Q(ends_at__isnull=True) | Q(ends_at__gt=now),
        user=user,
        kind__in=(SanctionKind.MUTE, SanctionKind.BAN),
    ).exists()


MUTE_DEFAULT = timedelta(hours=24)
