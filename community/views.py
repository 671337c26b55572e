"""Community pages and the chat panel's small JSON endpoints (thin: parse,
authorize, call a service or selector)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.http import SignedInRequest
from accounts.models import User
from community import moderation, selectors, services
from community.errors import CommunityError
from gameplay.models import Match
from gameplay.rules import game_meta


def _answer(
    request: HttpRequest, payload: dict[str, Any], *, status: int = 200, said: str = ""
) -> HttpResponse:
    """JSON for the chat panel's fetches; a redirect back with a message for
    the profile's plain forms."""
    if request.content_type == "application/json":
        return JsonResponse(payload, status=status)
    if status >= 400:
        messages.error(request, str(payload.get("detail", _("That was refused."))))
    elif said:
        messages.success(request, said)
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    return redirect(target)


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


def lobby_chat(request: HttpRequest, game_id: str) -> HttpResponse:
    """GET: the lobby's last lines (``?after=<id>``: only newer ones, the
    page's poll). POST (signed in): a new line."""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return JsonResponse(
                {"code": "chat_refused", "detail": _("sign in")}, status=403
            )
        try:
            services.lobby_chat_post(
                user=request.user, game=game_id, text=_body(request).get("text")
            )
        except CommunityError as exc:
            return JsonResponse({"code": exc.code, "detail": exc.message}, status=400)
        return JsonResponse({"ok": True}, status=201)
    if request.method != "GET":
        return JsonResponse({"code": "method", "detail": _("GET or POST")}, status=405)
    user = request.user if request.user.is_authenticated else None
    after = _int_or_none(request.GET.get("after"))
    return JsonResponse(
        {"messages": selectors.lobby_chat(game=game_id, user=user, after_id=after)}
    )


def _target(username: str) -> User:
    return get_object_or_404(User, username=username, is_active=True)


def _flag(data: dict[str, Any], name: str) -> bool | None:
    value = data.get(name)
    if value in (True, "1", "true", "on"):
        return True
    if value in (False, "0", "false", "off"):
        return False
    return None


def _malformed(request: HttpRequest, detail: str) -> HttpResponse:
    return _answer(request, {"code": "malformed", "detail": detail}, status=400)


def _relation(
    request: SignedInRequest,
    username: str,
    *,
    flag: str,
    apply: Callable[[User, User, bool], None],
    words: tuple[str, str],
) -> HttpResponse:
    """One on/off relation to another player (mute, block, follow): the body's
    ``flag`` is true or false, the service applies it, the answer says what
    changed in ``words`` (on, off)."""
    value = _flag(_body(request), flag)
    if value is None:
        return _malformed(request, f"{flag}: true or false")
    target = _target(username)
    try:
        apply(request.user, target, value)
    except CommunityError as exc:
        return _answer(request, {"code": exc.code, "detail": exc.message}, status=400)
    said = f"{words[0] if value else words[1]} {target.public_name}."
    return _answer(request, {flag: value}, said=said)


@login_required
@require_POST
def mute(request: SignedInRequest, username: str) -> HttpResponse:
    return _relation(
        request,
        username,
        flag="muted",
        apply=lambda user, target, on: services.mute_set(
            user=user, target=target, muted=on
        ),
        words=("Muted", "Unmuted"),
    )


@login_required
@require_POST
def block(request: SignedInRequest, username: str) -> HttpResponse:
    return _relation(
        request,
        username,
        flag="blocked",
        apply=lambda user, target, on: services.block_set(
            user=user, target=target, blocked=on
        ),
        words=("Blocked", "Unblocked"),
    )


@login_required
@require_POST
def follow(request: SignedInRequest, username: str) -> HttpResponse:
    return _relation(
        request,
        username,
        flag="following",
        apply=lambda user, target, on: services.follow_set(
            user=user, target=target, following=on
        ),
        words=("Following", "No longer following"),
    )


@login_required
@require_POST
def chat_switch(request: SignedInRequest) -> HttpResponse:
    data = _body(request)
    off = _flag(data, "off")
    if off is None:
        return _malformed(request, "off: true or false")
    match_id = None
    public_id = data.get("match") or ""
    if public_id:
        try:
            public_id = str(uuid.UUID(str(public_id)))
        except ValueError:
            return _malformed(request, "match: a match id")
        match_id = get_object_or_404(Match, public_id=public_id).pk
    services.chat_switch(user=request.user, off=off, match_id=match_id)
    return _answer(request, {"off": off}, said=f"Chat {'off' if off else 'on'}.")


# --- Reports and moderation --------------------------------------------------


def _body(request: HttpRequest) -> dict[str, Any]:
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body or b"{}")
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}
    return request.POST.dict()


def _int_or_none(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 12:
        return int(value)
    return None


@login_required
@require_POST
def report(request: SignedInRequest) -> HttpResponse:
    """Report a chat line (``message``), a player (``username``) or a match."""
    data = _body(request)
    try:
        made = moderation.report_create(
            reporter=request.user,
            reason=str(data.get("reason", "")),
            note=str(data.get("note", "")),
            message_id=_int_or_none(data.get("message")),
            username=str(data.get("username") or "") or None,
            match_public_id=str(data.get("match") or "") or None,
        )
    except CommunityError as exc:
        return _answer(request, {"code": exc.code, "detail": exc.message}, status=400)
    return _answer(
        request,
        {"report": made.pk},
        status=201,
        said="Thank you: your report went to the moderators.",
    )


def _moderator(view: Any) -> Any:
    return permission_required(moderation.PERMISSION, raise_exception=True)(
        login_required(view)
    )


@_moderator
@require_GET
def moderation_queue(request: SignedInRequest) -> HttpResponse:
    return render(
        request,
        "community/moderation.html",
        {
            "reports": moderation.open_reports(),
            "kinds": moderation.action_choices(),
        },
    )


@_moderator
@require_POST
def moderation_act(request: SignedInRequest) -> HttpResponse:
    data = request.POST
    user = get_object_or_404(User, username=data.get("username", ""))
    report_id = _int_or_none(data.get("report"))
    try:
        if data.get("kind") == "dismiss" and report_id is not None:
            moderation.report_close(moderator=request.user, report_id=report_id)
            messages.success(request, _("Report closed without action."))
        else:
            moderation.sanction_apply(
                moderator=request.user,
                user=user,
                kind=str(data.get("kind", "")),
                reason=str(data.get("reason", "")),
                minutes=_int_or_none(data.get("minutes")),
                report_id=report_id,
            )
            messages.success(
                request,
                _("Action on %(username)s logged.") % {"username": user.username},
            )
    except CommunityError as exc:
        messages.error(request, exc.message)
    return redirect("community:moderation")


@_moderator
@require_POST
def moderation_remove_line(request: SignedInRequest, message_id: int) -> HttpResponse:
    """Take one chat line down (JSON, or the moderation page's form), with a
    reason; ``report`` links the action to the report it answers."""
    data = _body(request)
    try:
        moderation.line_remove(
            moderator=request.user,
            message_id=message_id,
            reason=str(data.get("reason", "")),
            report_id=_int_or_none(data.get("report")),
        )
    except CommunityError as exc:
        return _answer(request, {"code": exc.code, "detail": exc.message}, status=400)
    return _answer(
        request,
        {"removed": message_id},
        said="The line is removed for everyone; the action is logged.",
    )


@_moderator
@require_GET
def moderation_user(request: SignedInRequest, username: str) -> HttpResponse:
    user = get_object_or_404(User, username=username)
    return render(
        request,
        "community/moderation_user.html",
        {
            "subject": user,
            "sanctions": user.sanctions.select_related("moderator", "message"),
            "reports": user.reports_about.select_related("reporter").order_by(
                "-created_at"
            ),
            "kinds": moderation.action_choices(),
        },
    )


@login_required
@require_GET
def standing(request: SignedInRequest) -> HttpResponse:
    """The moderators' actions on the signed-in user, with their reasons."""
    return render(
        request,
        "community/standing.html",
        {"sanctions": request.user.sanctions.select_related("message")},
    )
