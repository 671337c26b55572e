"""Notification writes: create once per subject, mark read, e-mail once.

Creating is keyed on (user, ``key``): the announcements that cause
notifications may be repeated (a redelivered task, a presence change
rebroadcasting a match) and the player still sees each piece of news once.
New notifications reach the player's open pages after the commit.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from languages.text import in_language_of
from notifications import enqueue, live, unsubscribe
from notifications.models import Notification, NotificationKind

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Draft:
    """A notification to create: who, what kind, about what, and its words."""

    user_id: int
    kind: str
    key: str
    title: str
    body: str = ""
    url: str = ""
    email: bool = False


def notification_frame(*, notification: Notification, unread: int) -> dict:
    return {
        "type": "notification",
        "id": notification.pk,
        "kind": notification.kind,
        "title": notification.title,
        "body": notification.body,
        "url": notification.url,
        "created_at": notification.created_at.isoformat(),
        "unread": unread,
    }


def unread_count(*, user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def notifications_create(
    *, drafts: list[Draft], push: bool = True
) -> list[Notification]:
    """Store the drafts not stored before; push and e-mail the new ones.

    Returns the notifications created now (already known subjects are skipped).
    The pushes (and e-mail tasks) go out after the surrounding commit;
    ``push=False`` leaves the pushing to a caller that is itself sending
    (the broadcast listener adds them to the match's own trip).
    """
    created = []
    for draft in drafts:
        if draft.kind not in NotificationKind.values:
            raise ValueError(f"unknown notification kind {draft.kind!r}")
        try:
            with transaction.atomic():
                notification, is_new = Notification.objects.get_or_create(
                    user_id=draft.user_id,
                    key=draft.key,
                    defaults={
                        "kind": draft.kind,
                        "title": draft.title[:140],
                        "body": draft.body[:300],
                        "url": draft.url[:200],
                    },
                )
        except IntegrityError:  # a concurrent writer stored the same subject
            continue
        if is_new:
            created.append(notification)
            if draft.email:
                email = partial(enqueue.notification_email, notification.pk)
                transaction.on_commit(email)
    if created and push:
        pks = [n.pk for n in created]
        transaction.on_commit(lambda: live.push(new_notification_messages(pks)))
    return created


def new_notification_messages(notification_ids: list[int]) -> live.Messages:
    """Frames announcing these notifications to their players' open pages."""
    messages = []
    for notification in Notification.objects.filter(pk__in=notification_ids):
        unread = unread_count(user_id=notification.user_id)
        frame = notification_frame(notification=notification, unread=unread)
        messages.append(live.message(notification.user_id, frame))
    return messages


def notifications_mark_read(*, user: User, ids: list[int] | None = None) -> int:
    """Mark some (``ids``) or all of the user's notifications read.

    Other people's ids are ignored, not an error: they simply match nothing.
    The player's other open pages get the new unread count.
    """
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    changed = unread.update(read_at=timezone.now())
    count = unread_count(user_id=user.pk)
    user_id = user.pk
    frame = {"type": "unread", "count": count}
    transaction.on_commit(lambda: live.push([live.message(user_id, frame)]))
    return changed


def notifications_resolve(
    *, user_ids: list[int], keys: tuple[str, ...] = (), prefix: str = ""
) -> int:
    """Mark read the unread notifications about a subject that no longer waits
    for these players (``keys`` exactly, or every key starting ``prefix``).

    The bell counts what needs attention (docs/notifications.md): news of a
    game stops asking once its player is at the table or the game is over, a
    challenge once it is answered. Each affected player's open pages get the
    new unread count after the commit. Idempotent: a second call finds
    nothing unread.
    """
    if not user_ids or not (keys or prefix):
        return 0
    if len(user_ids) == 1:
        # One player (a socket connecting): one UPDATE, nothing read first.
        touched = list(user_ids)
        changed = _resolve_one(user_ids[0], keys=keys, prefix=prefix)
    else:
        from django.db.models import Q

        about = Q(key__in=keys) if keys else Q()
        if prefix:
            about |= Q(key__startswith=prefix)
        unread = Notification.objects.filter(
            about, user_id__in=user_ids, read_at__isnull=True
        )
        touched = sorted(set(unread.values_list("user_id", flat=True)))
        if not touched:
            return 0
        changed = unread.update(read_at=timezone.now())
    if not changed:
        return 0

    def push() -> None:
        counts = {uid: unread_count(user_id=uid) for uid in touched}
        live.push(
            [
                live.message(uid, {"type": "unread", "count": count})
                for uid, count in counts.items()
            ]
        )

    transaction.on_commit(push)
    return changed


def _resolve_one(user_id: int, *, keys: tuple[str, ...], prefix: str) -> int:
    """``notifications_resolve``'s UPDATE for one player, written as SQL: every
    live socket's connect runs it (``on_match_opened``), and the ORM building
    it (a ``Q`` of ``IN`` or ``LIKE``) was about 1,000 Python calls of a
    connect that finds nothing to mark. The statement the ORM made: the
    prefix escaped for ``LIKE`` as ``startswith`` does."""
    from django.db.models import Field

    ops = connection.ops
    meta = Notification._meta

    def column(name: str) -> str:
        field = meta.get_field(name)
        assert isinstance(field, Field) and field.column  # a concrete column
        return ops.quote_name(field.column)

    table = ops.quote_name(meta.db_table)
    key, read_at, user = column("key"), column("read_at"), column("user")
    about = []
    params: list[Any] = [ops.adapt_datetimefield_value(timezone.now()), user_id]
    if keys:
        about.append(f"{key} IN ({', '.join(['%s'] * len(keys))})")
        params.extend(keys)
    if prefix:
        about.append(f"{key} LIKE %s ESCAPE '\\'")
        params.append(ops.prep_for_like_query(prefix) + "%")
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {read_at} = %s WHERE {user} = %s "
            f"AND {read_at} IS NULL AND ({' OR '.join(about)})",
            params,
        )
        return cursor.rowcount


def wants_round_emails(user: User) -> bool:
    return bool(user.email) and user.is_active and user.email_tournament_rounds


def notification_send_email(
    *, notification_id: int, now: datetime | None = None
) -> bool:
    """E-mail one notification through the configured backend, at most once.

    The row is claimed (``emailed_at`` set where it was empty) before sending,
    so a redelivered or duplicated task sends nothing; if the backend fails the
    claim is released and the error raised for the task to retry.
    """
    now = now or timezone.now()
    claimed = Notification.objects.filter(
        pk=notification_id, emailed_at__isnull=True
    ).update(emailed_at=now)
    if not claimed:
        return False
    notification = Notification.objects.select_related("user").get(pk=notification_id)
    user = notification.user
    if not wants_round_emails(user):
        # Opted out (or no address) since it was queued: nothing is sent, and
        # the claim stays so that a retry sends nothing either.
        return False
    link = settings.SITE_URL.rstrip("/") + notification.url if notification.url else ""
    # The notification's words were written in the recipient's language when
    # it was stored; the letter around them is written in it now (a worker).
    with in_language_of(user):
        lines = [_("Hello %(name)s,") % {"name": user.public_name}, ""]
        lines.append(notification.title + ".")
        if notification.body:
            lines.append(notification.body)
        if link:
            lines += ["", link]
        lines += [
            "",
            _(
                "You get these e-mails because you play in tournaments "
                "on Kung Fu Arena."
            ),
            _("Stop them (one click, no sign-in): %(link)s")
            % {
                "link": unsubscribe.unsubscribe_url(user=user, topic=unsubscribe.ROUNDS)
            },
            _("Or choose your e-mails on your profile: %(link)s")
            % {
                "link": settings.SITE_URL.rstrip("/") + reverse("accounts:profile_edit")
            },
        ]
        subject = _("Kung Fu Arena: %(title)s") % {"title": notification.title}
    try:
        send_mail(
            subject=subject,
            message="\n".join(lines),
            from_email=settings.DEFAULT_FROM_EMAIL,
            recipient_list=[user.email],
        )
    except Exception:
        Notification.objects.filter(pk=notification_id).update(emailed_at=None)
        raise
    return True
