"""One-click unsubscribe links: signed, so they work without signing in.

A link carries the player's id and the list it leaves, signed with the
site's secret (``django.core.signing``): nobody can make one for another
player, and the link in an old e-mail keeps working. Opening it (or a mail
client's RFC 8058 one-click POST) turns that e-mail off; the page it shows
can turn it back on.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts.models import User, YourMoveEmail

SALT = "notifications.unsubscribe"
YOUR_MOVE = "your_move"
ROUNDS = "rounds"
#: What each list is called on the page.
TOPICS = {
    YOUR_MOVE: _('"your move" e-mails for correspondence games'),
    ROUNDS: _("e-mails when a tournament round is paired"),
}


class BadLink(ValueError):
    """A link that was not made here, or was changed."""


def unsubscribe_token(*, user: User, topic: str) -> str:
    if topic not in TOPICS:
        raise ValueError(f"unknown e-mail list {topic!r}")
    return signing.dumps([user.pk, topic], salt=SALT)


def unsubscribe_url(*, user: User, topic: str) -> str:
    token = unsubscribe_token(user=user, topic=topic)
    path = reverse("notifications:unsubscribe", args=[token])
    return settings.SITE_URL.rstrip("/") + path


def _read(token: str) -> tuple[User, str]:
    try:
        user_id, topic = signing.loads(token, salt=SALT)
    except (signing.BadSignature, TypeError, ValueError) as exc:
        raise BadLink(_("This unsubscribe link is not valid.")) from exc
    user = User.objects.filter(pk=user_id).first()
    if user is None or topic not in TOPICS:
        raise BadLink(_("This unsubscribe link is not valid."))
    return user, topic


def email_unsubscribe(*, token: str) -> tuple[User, str]:
    """Turn off the list the link names; (user, topic). Idempotent."""
    user, topic = _read(token)
    if topic == YOUR_MOVE:
        user.your_move_email = YourMoveEmail.OFF
        user.save(update_fields=["your_move_email"])
    else:
        user.email_tournament_rounds = False
        user.save(update_fields=["email_tournament_rounds"])
    return user, topic


def email_resubscribe(*, token: str) -> tuple[User, str]:
    """Undo: the list is on again (one e-mail per game for "your move")."""
    user, topic = _read(token)
    if topic == YOUR_MOVE:
        user.your_move_email = YourMoveEmail.EACH
        user.save(update_fields=["your_move_email"])
    else:
        user.email_tournament_rounds = True
        user.save(update_fields=["email_tournament_rounds"])
    return user, topic


def list_headers(*, url: str) -> dict[str, str]:
    """RFC 2369 / RFC 8058 headers: mail clients show their own button."""
    return {
        "List-Unsubscribe": f"<{url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
