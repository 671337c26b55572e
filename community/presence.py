"""Who is online: a signed-in user seen by the site in the last minutes.

Kept in the cache only (no database write per request): the middleware adds a
key that lives ``ONLINE_SECONDS``; ``cache.add`` is a no-op while the key is
there, so an active user costs one cache round trip per request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

ONLINE_SECONDS = 300


def _key(user_id: int) -> str:
    return f"community-seen:{user_id}"


def mark_seen(*, user_id: int) -> None:
    cache.add(_key(user_id), 1, ONLINE_SECONDS)


def online_ids(*, user_ids: Iterable[int]) -> set[int]:
    ids = list(user_ids)
    if not ids:
        return set()
    found = cache.get_many([_key(pk) for pk in ids])
    return {pk for pk in ids if _key(pk) in found}


class SeenMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            mark_seen(user_id=user.pk)
        return self.get_response(request)
