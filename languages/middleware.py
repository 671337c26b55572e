"""Which language a request is answered in.

The signed-in user's own setting (``User.language``) wins; without one, the
language the switcher stored in a cookie, then the browser's Accept-Language
(Django's ``LocaleMiddleware`` does those two), else English.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


def user_language(user: object) -> str:
    """The language a user chose in the profile, or "" when none (or unknown)."""
    code = getattr(user, "language", "") or ""
    return code if code in dict(settings.LANGUAGES) else ""


class UserLocaleMiddleware(LocaleMiddleware):
    """``LocaleMiddleware`` that first asks the signed-in user's setting.

    Placed after ``AuthenticationMiddleware`` (it reads ``request.user``); the
    site uses no language prefix in its URLs, so nothing before it needs the
    language.
    """

    def process_request(self, request: HttpRequest) -> None:
        user = getattr(request, "user", None)
        code = user_language(user) if user and user.is_authenticated else ""
        if not code:
            super().process_request(request)
            return
        translation.activate(code)
        request.LANGUAGE_CODE = translation.get_language()
