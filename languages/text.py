"""Small wording helpers that follow the active language."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext


def and_list(items: Sequence[str]) -> str:
    """ "A, B and C" in the active language ("A, B e C", "A, B und C")."""
    items = [str(item) for item in items]
    if len(items) <= 1:
        return "".join(items)
    return gettext("%(items)s and %(last)s") % {
        "items": gettext(", ").join(items[:-1]),
        "last": items[-1],
    }
