"""The profile's "browser push" box: accounts' page shows it without knowing
this app (the template loads the tag)."""

from __future__ import annotations

from typing import Any

from django import template

from notifications import webpush
from notifications.models import PushSubscription

register = template.Library()


@register.inclusion_tag("notifications/_push_devices.html", takes_context=True)
def push_devices(context: dict[str, Any]) -> dict[str, Any]:
    user = context["request"].user
    return {
        "configured": webpush.push_configured(),
        "public_key": webpush.public_key(),
        "devices": list(PushSubscription.objects.filter(user=user)),
        "csrf_token": context.get("csrf_token"),
    }
