"""Who may not chat right now, told by apps that run competitions.

A competition whose tables play the same deals one after another (a duplicate
event) must keep a player who has finished a deal from talking to one who has
not: it registers a guard, and every chat line (at a table and in a lobby)
asks the guards first. community never imports those apps.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.utils.translation import gettext

from accounts.models import User
from gameplay.models import Match

logger = logging.getLogger(__name__)

# guard(user, match or None for the lobby) -> why the line is refused, or None.
ChatGuard = Callable[[User, Match | None], str | None]
_guards: list[ChatGuard] = []


def register_chat_guard(guard: ChatGuard) -> None:
    if guard not in _guards:
        _guards.append(guard)


def chat_refusal(*, user: User, match: Match | None) -> str | None:
    """The first guard's reason to refuse ``user``'s line, or None.

    A guard that fails refuses: chat can wait, a leaked deal cannot.
    """
    for guard in _guards:
        try:
            reason = guard(user, match)
        except Exception:
            logger.exception("chat guard %r failed", guard)
            return gettext("chat is unavailable right now")
        if reason:
            return reason
    return None
