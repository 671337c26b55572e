"""Small wording helpers that follow the active language, and the language
(and time zone) to write to a person in outside their own request."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import formats, translation
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


def recipient_language(user: object) -> str:
    """The language to write to ``user`` in when they are not the one asking
    (a worker's e-mail, a notification another person's action causes): the
    language of their profile, else the site's default (English). A request's
    own answers follow the request's language instead (the middleware)."""
    code = getattr(user, "language", "") or ""
    return code if code in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def in_language_of(user: object) -> translation.override:
    """``with in_language_of(user):`` words written for ``user``."""
    return translation.override(recipient_language(user))


def recipient_datetime(value: datetime, user: object) -> str:
    """``value`` as ``user`` reads it: in their time zone (UTC if unset), in
    the active language's date format, with the zone's abbreviation."""
    zone = ZoneInfo(getattr(user, "time_zone", "") or "UTC")
    local = value.astimezone(zone)
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} {local.tzname()}"
