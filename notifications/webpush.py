"""Browser push (the Web Push standard) for "your move" away from the site.

A browser that turned push on (the profile's button, ``static/js/push.js``)
gives its push service's endpoint and keys; the server signs each request
with its VAPID key pair (``VAPID_PUBLIC_KEY`` / ``VAPID_PRIVATE_KEY`` in the
settings) and pywebpush encrypts the payload for that browser alone. The
push service answers 404 or 410 for a subscription it dropped (the player
cleared the site's data, revoked the permission): the row is deleted then.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import logging
import os
from datetime import timedelta
from functools import cache
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from pywebpush import WebPushException, webpush

from accounts.models import User
from notifications.models import PushSubscription

logger = logging.getLogger(__name__)

#: Browsers one player keeps push on in at once; the oldest is dropped past it.
MAX_DEVICES = 20
#: Push services keep an undelivered message at most four weeks.
MAX_TTL = timedelta(days=28)
TIMEOUT_S = 10  # one push service's answer (a worker's task waits for it)

SENT, GONE, FAILED = "sent", "gone", "failed"


class SubscriptionError(ValueError):
    """A subscription the server cannot push to; the message says why."""


@cache
def _generated_keys() -> tuple[str, str]:
    """A development key pair, made once and kept in ``var/`` (never in
    production: ``VAPID_GENERATE`` is off there, and push stays off until the
    keys are configured)."""
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid01, b64urlencode

    path = settings.VAR_DIR / "vapid.json"
    try:
        data = json.loads(path.read_text())
        return data["private"], data["public"]
    except (OSError, ValueError, KeyError):
        pass
    vapid = Vapid01()
    vapid.generate_keys()
    private = b64urlencode(
        vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    )
    public = b64urlencode(
        vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"vapid.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"private": private, "public": public}))
    try:
        os.link(tmp, path)  # the first process to write wins; others read it
    except FileExistsError:
        tmp.unlink()
        data = json.loads(path.read_text())
        return data["private"], data["public"]
    tmp.unlink()
    return private, public


def vapid_keys() -> tuple[str, str] | None:
    """(private, public) in base64url, or None: push is not set up."""
    private = settings.VAPID_PRIVATE_KEY
    public = settings.VAPID_PUBLIC_KEY
    if private and public:
        return private, public
    if settings.VAPID_GENERATE:
        return _generated_keys()
    return None


def push_configured() -> bool:
    return vapid_keys() is not None


def public_key() -> str:
    """The application server key a browser subscribes with ("" if none)."""
    keys = vapid_keys()
    return keys[1] if keys else ""


def _b64url_bytes(value: object, name: str) -> bytes:
    if not isinstance(value, str) or not value or len(value) > 200:
        raise SubscriptionError(f"keys.{name} must be a base64url string")
    try:
        padded = value + "=" * (-len(value) % 4)
        return base64.b64decode(padded, altchars=b"-_", validate=True)
    except (binascii.Error, ValueError) as exc:
        raise SubscriptionError(f"keys.{name} must be a base64url string") from exc


def _check_endpoint(endpoint: object) -> str:
    """An https URL of a push service: never an address of our own network
    (the server posts to it, so it must not be a way to reach internal hosts)."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > 500:
        raise SubscriptionError(
            "endpoint must be an https URL of 500 characters at most"
        )
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    if parts.scheme != "https" or not host or parts.username or parts.password:
        raise SubscriptionError("endpoint must be an https URL of a push service")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        raise SubscriptionError("endpoint must name a push service, not an address")
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        raise SubscriptionError("endpoint must be a push service on the internet")
    return endpoint


def push_subscription_save(
    *, user: User, endpoint: object, keys: object, device: str = ""
) -> PushSubscription:
    """Store (or take over) one browser's subscription for ``user``.

    The endpoint names one browser profile: subscribing again updates its
    keys, and a browser another player used before now pushes to this one.
    ``SubscriptionError`` for anything a push service would not accept.
    """
    endpoint = _check_endpoint(endpoint)
    if not isinstance(keys, dict):
        raise SubscriptionError("keys must be an object with p256dh and auth")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if len(_b64url_bytes(p256dh, "p256dh")) != 65:
        raise SubscriptionError("keys.p256dh must be an uncompressed P-256 point")
    if len(_b64url_bytes(auth, "auth")) != 16:
        raise SubscriptionError("keys.auth must be 16 bytes")
    assert isinstance(p256dh, str) and isinstance(auth, str)
    defaults = {"user": user, "p256dh": p256dh, "auth": auth}
    name = " ".join(str(device).split())[:120]
    if name:  # a browser that subscribes again without a name keeps its own
        defaults["device"] = name
    with transaction.atomic():
        subscription, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults=defaults
        )
        extra = PushSubscription.objects.filter(user=user).values_list("pk", flat=True)
        PushSubscription.objects.filter(pk__in=list(extra[MAX_DEVICES:])).delete()
    return subscription


def push_subscription_delete(
    *, user: User, endpoint: str | None = None, subscription_id: int | None = None
) -> int:
    """Forget one of the user's browsers (by endpoint or id); other people's
    subscriptions match nothing."""
    rows = PushSubscription.objects.filter(user=user)
    if endpoint is not None:
        rows = rows.filter(endpoint=endpoint)
    elif subscription_id is not None:
        rows = rows.filter(pk=subscription_id)
    else:
        return 0
    deleted, _ = rows.delete()
    return deleted


def push_send(*, subscription: PushSubscription, payload: dict, ttl: timedelta) -> str:
    """Push ``payload`` to one browser: SENT, GONE (404/410: the row is
    deleted) or FAILED (logged; the push service is down, or refused)."""
    keys = vapid_keys()
    if keys is None:
        return FAILED
    seconds = int(min(max(ttl, timedelta(minutes=1)), MAX_TTL).total_seconds())
    try:
        webpush(
            subscription_info=subscription.subscription_info(),
            data=json.dumps(payload),
            vapid_private_key=keys[0],
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=seconds,
            timeout=TIMEOUT_S,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            subscription.delete()
            return GONE
        logger.warning("push to %s failed: %s", subscription.pk, status or exc)
        return FAILED
    except OSError as exc:  # unreachable (requests' errors are OSErrors)
        logger.warning("push to %s failed: %r", subscription.pk, exc)
        return FAILED
    PushSubscription.objects.filter(pk=subscription.pk).update(
        last_sent_at=timezone.now()
    )
    return SENT
