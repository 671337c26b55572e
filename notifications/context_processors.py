"""Navigation badges on every page: games waiting for your move, unread news.

Rendered with the page (so they are right before any script runs); the
player's socket keeps them live afterwards. Evaluated lazily: a page whose
template never shows them (an error page, an anonymous visitor) costs nothing.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from gameplay import turns
from notifications.selectors import latest

DROPDOWN_SIZE = 8


def player_badges(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {
        "nav_your_move": SimpleLazyObject(
            lambda: [str(m.public_id) for m in turns.awaiting_move(user=user)]
        ),
        "nav_notifications": SimpleLazyObject(
            lambda: latest(user=user, limit=DROPDOWN_SIZE)
        ),
    }
