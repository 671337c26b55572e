"""Notification pages: the list, mark read, open one. Thin: services do the work."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts.http import SignedInRequest
from notifications import selectors, services, unsubscribe, webpush
from notifications.models import Notification


@login_required
def notification_list(request: SignedInRequest) -> HttpResponse:
    return render(
        request,
        "notifications/list.html",
        {"notifications": selectors.page(user=request.user)},
    )


@login_required
@require_POST
def mark_read(request: SignedInRequest) -> HttpResponse:
    """Mark the posted ``id`` values read, or all with ``all=1``.

    Answers JSON to scripts (the dropdown), otherwise goes back to ``next``.
    """
    if request.POST.get("all"):
        ids = None
    else:
        raw = request.POST.getlist("id")
        if not raw or not all(value.isdigit() for value in raw):
            return _answer(request, {"detail": "give id=<number> or all=1"}, 400)
        ids = [int(value) for value in raw]
    changed = services.notifications_mark_read(user=request.user, ids=ids)
    unread = services.unread_count(user_id=request.user.pk)
    return _answer(request, {"marked": changed, "unread": unread}, 200)


def _answer(request: HttpRequest, data: dict, status: int) -> HttpResponse:
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse(data, status=status)
    if status != 200:
        return HttpResponse(data["detail"], status=status, content_type="text/plain")
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "notifications:list"
    return redirect(target)


@login_required
def notification_open(request: SignedInRequest, notification_id: int) -> HttpResponse:
    """Follow a notification's link, marking it read on the way."""
    notification = get_object_or_404(
        Notification, pk=notification_id, user=request.user
    )
    if not notification.is_read:
        services.notifications_mark_read(user=request.user, ids=[notification.pk])
    return redirect(notification.url or "notifications:list")


@csrf_exempt  # the signed link is the authority; mail clients POST without a page
@require_http_methods(["GET", "POST"])
def email_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """One-click unsubscribe, no sign-in: opening the link (or a mail
    client's RFC 8058 POST) turns that e-mail off; the page can undo it."""
    resubscribe = (
        request.method == "POST" and request.POST.get("action") == "resubscribe"
    )
    try:
        if resubscribe:
            user, topic = unsubscribe.email_resubscribe(token=token)
        else:
            user, topic = unsubscribe.email_unsubscribe(token=token)
    except unsubscribe.BadLink as exc:
        return render(
            request, "notifications/unsubscribe.html", {"error": str(exc)}, status=400
        )
    return render(
        request,
        "notifications/unsubscribe.html",
        {
            "subscribed": resubscribe,
            "topic": unsubscribe.TOPICS[topic],
            "name": user.public_name,
        },
    )


@login_required
@require_POST
def push_device_remove(request: SignedInRequest, subscription_id: int) -> HttpResponse:
    """The profile's "Remove" beside one of the player's browsers."""
    webpush.push_subscription_delete(user=request.user, subscription_id=subscription_id)
    return redirect("accounts:profile_edit")
