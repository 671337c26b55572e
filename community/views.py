"""Community pages and the chat panel's small JSON endpoints (thin: parse,
authorize, call a service or selector)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET, require_POST

from accounts.http import SignedInRequest
from accounts.models import User
from community import selectors, services
from community.errors import CommunityError
from gameplay.models import Match
from gameplay.rules import game_meta


def _refused(exc: CommunityError, status: int = 400) -> JsonResponse:
    return JsonResponse({"code": exc.code, "detail": exc.message}, status=status)


@require_GET
def match_chat(request: HttpRequest, public_id: str) -> JsonResponse:
    """The lines of a match's chat this reader may see now (the panel's load,
    and its reload when the match ends and hidden lines open up)."""
    match = get_object_or_404(Match, public_id=public_id)
    user = request.user if request.user.is_authenticated else None
    return JsonResponse(
        {
            "messages": selectors.match_chat(match=match, user=user),
            "chat_off": user is not None
            and selectors.chat_is_off(user_id=user.pk, match_pk=match.pk),
            "private": game_meta(match.game).private_messages,
            "over": match.is_over,
        }
    )


def _target(username: str) -> User:
    return get_object_or_404(User, username=username, is_active=True)


def _flag(request: HttpRequest, name: str) -> bool | None:
    try:
        data: Any = json.loads(request.body or b"{}")
    except ValueError:
        data = {}
    value = data.get(name) if isinstance(data, dict) else None
    if value is None:
        value = request.POST.get(name)
    if value in (True, "1", "true", "on"):
        return True
    if value in (False, "0", "false", "off"):
        return False
    return None


@login_required
@require_POST
def mute(request: SignedInRequest, username: str) -> JsonResponse:
    muted = _flag(request, "muted")
    if muted is None:
        return JsonResponse(
            {"code": "malformed", "detail": "muted: true or false"}, status=400
        )
    try:
        services.mute_set(user=request.user, target=_target(username), muted=muted)
    except CommunityError as exc:
        return _refused(exc)
    return JsonResponse({"muted": muted})


@login_required
@require_POST
def block(request: SignedInRequest, username: str) -> HttpResponse:
    blocked = _flag(request, "blocked")
    if blocked is None:
        return JsonResponse(
            {"code": "malformed", "detail": "blocked: true or false"}, status=400
        )
    try:
        services.block_set(user=request.user, target=_target(username), blocked=blocked)
    except CommunityError as exc:
        return _refused(exc)
    return JsonResponse({"blocked": blocked})


@login_required
@require_POST
def chat_switch(request: SignedInRequest) -> JsonResponse:
    off = _flag(request, "off")
    if off is None:
        return JsonResponse(
            {"code": "malformed", "detail": "off: true or false"}, status=400
        )
    match_id = None
    public_id = request.POST.get("match") or ""
    try:
        data = json.loads(request.body or b"{}")
        if isinstance(data, dict) and isinstance(data.get("match"), str):
            public_id = data["match"]
    except ValueError:
        pass
    if public_id:
        try:
            public_id = str(uuid.UUID(public_id))
        except ValueError:
            return JsonResponse(
                {"code": "malformed", "detail": "match: a match id"}, status=400
            )
        match_id = get_object_or_404(Match, public_id=public_id).pk
    services.chat_switch(user=request.user, off=off, match_id=match_id)
    return JsonResponse({"off": off})
