"""The footer's language switcher."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from languages.services import user_set_language


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (cookie, then back to ``next``), and for a
    signed-in user the profile setting too, which wins over the cookie on
    every device the user signs in on."""
    response = django_set_language(request)
    code = request.POST.get("language", "")
    if request.user.is_authenticated and code in dict(settings.LANGUAGES):
        user_set_language(user=request.user, language=code)
    return response
