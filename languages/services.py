"""Writes: a user's language setting."""

from __future__ import annotations

from typing import Any

from django.conf import settings


def user_set_language(*, user: Any, language: str) -> None:
    """Store the user's language ("" = follow the browser); unknown codes are
    refused with ``ValueError``."""
    if language and language not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language {language!r}")
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])
