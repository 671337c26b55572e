"""Which language a request is answered in.

The signed-in user's own setting (``User.language``) wins; without one, the
language the switcher stored in a cookie, then the browser's Accept-Language
(Django's ``LocaleMiddleware`` does those two), else English.
"""

from __future__ import annotations

from collections.abc import Iterable
from http.cookies import CookieError, SimpleCookie

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.translation import trans_real


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


def _supported(code: str) -> str:
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return ""


def connection_language(*, user: object, headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The language a socket answers in, chosen as a page's is (a socket has
    no middleware): the signed-in user's setting, the switcher's cookie, the
    handshake's Accept-Language, else English. ``headers``: the ASGI scope's."""
    if getattr(user, "is_authenticated", False):
        code = user_language(user)
        if code:
            return code
    cookie = accept = ""
    for name, value in headers:
        if name == b"cookie":
            cookie = value.decode("latin-1")
        elif name == b"accept-language":
            accept = value.decode("latin-1")
    if cookie:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(cookie)
        except CookieError:
            jar.clear()
        chosen = jar.get(settings.LANGUAGE_COOKIE_NAME)
        if chosen is not None and chosen.value:
            code = _supported(chosen.value)
            if code:
                return code
    for tag, _quality in trans_real.parse_accept_lang_header(accept[:255]):
        if tag == "*":
            break
        code = _supported(tag)
        if code:
            return code
    return str(settings.LANGUAGE_CODE)
