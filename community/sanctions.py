"""Sanctions in force: who may not chat, who may not play rated.

Read by the chat services (every line asks ``chat_silenced``) and by the
lobby's rated guard (``may_play_rated``); the moderators' actions that make
and lift sanctions are in ``community.moderation``.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from community.models import Sanction, SanctionKind


def _in_force(user: User, kinds: tuple[str, ...]) -> bool:
    return Sanction.objects.filter(
        Q(ends_at__isnull=True) | Q(ends_at__gt=timezone.now()),
        user=user,
        kind__in=kinds,
    ).exists()


def chat_silenced(user: User) -> bool:
    """A moderator's mute or a ban in force keeps the user out of chat."""
    return _in_force(user, (SanctionKind.MUTE, SanctionKind.BAN))


def may_play_rated(user: User) -> bool:
    """The lobby's rated guard: no suspension or ban in force."""
    return not _in_force(user, (SanctionKind.SUSPEND, SanctionKind.BAN))
