"""The one button: ask for a finished match's analysis, then read it in the replay."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from analysis import services
from gameplay.errors import MatchError
from gameplay.selectors import match_by_public_id


@require_POST
@login_required
def request_analysis(request: HttpRequest, public_id: str) -> HttpResponse:
    match = match_by_public_id(public_id=str(public_id))
    try:
        services.analysis_request(match=match)
    except MatchError as exc:
        messages.error(request, str(exc))
        return redirect("gameplay:match", public_id=match.public_id)
    return redirect(reverse("gameplay:replay", args=[match.public_id]))
