"""Moderation: reports with their evidence, and staff actions on users.

Staff roles are Django groups (``moderator``, ``admin``, made by a data
migration) holding ``community.moderate``; every action is a ``Sanction`` row
(who, when, why), shown to the user concerned on their standing page.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from community import selectors
from community.errors import CommunityError
from community.models import (
    ChatMessage,
    Report,
    ReportReason,
    Sanction,
    SanctionKind,
)
from community.services import message_json, send_removal_live
from gameplay.models import Match

PERMISSION = "community.moderate"
# Lines kept on each side of a reported one.
EVIDENCE_AROUND = 10
# A mute or suspension lasts at most this long (a ban has no end).
LONGEST = timedelta(days=365)


class NotAllowed(CommunityError):
    code = "forbidden"


def _match_record(match: Match) -> dict[str, Any]:
    return {
        "match": str(match.public_id),
        "game": match.game,
        "rated": match.rated,
        "status": match.status,
        "version": match.version,
        "result": match.result,
        "end_reason": match.end_reason,
        "seats": [
            {"number": s.number, "name": s.display_name, "user_id": s.user_id}
            for s in match.seats.order_by("number")
        ],
    }


def report_create(
    *,
    reporter: User,
    reason: str,
    note: str = "",
    message_id: int | None = None,
    username: str | None = None,
    match_public_id: str | None = None,
) -> Report:
    """A report of one line, one user or one match, with a copy of its
    evidence. A line can be reported only by someone who could read it."""
    if reason not in ReportReason.values:
        raise CommunityError(_("choose a reason from the list"))
    note = " ".join(str(note or "").split())[:500]
    report = Report(reporter=reporter, reason=reason, note=note)
    if message_id is not None:
        line = ChatMessage.objects.filter(pk=message_id, removed=False).first()
        if line is not None and line.match_id is None and line.author is not None:
            return _report_lobby_line(report, line)
        match = line.match if line is not None else None
        readable = (
            line is not None
            and match is not None
            and any(
                m["id"] == line.pk
                for m in selectors.match_chat(match=match, user=reporter)
            )
        )
        if line is None or match is None or not readable or line.author is None:
            raise CommunityError(_("no such message"))
        around = list(
            ChatMessage.objects.filter(
                match=match, created_at__lte=line.created_at
            ).order_by("-created_at", "-pk")[: EVIDENCE_AROUND + 1]
        )[::-1] + list(
            ChatMessage.objects.filter(
                match=match, created_at__gt=line.created_at
            ).order_by("created_at", "pk")[:EVIDENCE_AROUND]
        )
        report.message, report.target, report.match = line, line.author, match
        report.evidence = {
            "reported": message_json(line),
            "lines": [message_json(m) for m in around],
            "match": _match_record(match),
        }
    elif username:
        target = User.objects.filter(username=username).first()
        if target is None or target.pk == reporter.pk:
            raise CommunityError(_("no such player"))
        report.target = target
        report.evidence = {
            "lines": [
                message_json(m)
                for m in ChatMessage.objects.filter(author=target).order_by(
                    "-created_at"
                )[:20]
            ][::-1]
        }
    elif match_public_id:
        try:
            match = Match.objects.get(public_id=match_public_id)
        except (Match.DoesNotExist, ValueError) as exc:
            raise CommunityError(_("no such match")) from exc
        report.match = match
        report.evidence = {"match": _match_record(match)}
    else:
        raise CommunityError(_("report a message, a player or a match"))
    report.save()
    return report


def _report_lobby_line(report: Report, line: ChatMessage) -> Report:
    """A lobby line: anyone signed in could read it; the evidence is the
    lobby's lines around it."""
    lobby = ChatMessage.objects.filter(
        game=line.game, channel=line.channel, match__isnull=True
    )
    around = list(lobby.filter(pk__lte=line.pk).order_by("-pk")[: EVIDENCE_AROUND + 1])[
        ::-1
    ] + list(lobby.filter(pk__gt=line.pk).order_by("pk")[:EVIDENCE_AROUND])
    report.message, report.target = line, line.author
    report.evidence = {
        "reported": message_json(line),
        "lines": [message_json(m) for m in around],
    }
    report.save()
    return report


def open_reports() -> list[Report]:
    return list(
        Report.objects.filter(status=Report.Status.OPEN)
        .select_related("reporter", "target", "match", "message")
        .order_by("created_at")
    )


def _check_moderator(moderator: User) -> None:
    if not (moderator.is_active and moderator.has_perm(PERMISSION)):
        raise NotAllowed(_("only moderators may do that"))


# What the moderation forms offer on a user (a line's removal is its own act).
ACTIONS_ON_USERS = (
    SanctionKind.WARN,
    SanctionKind.MUTE,
    SanctionKind.SUSPEND,
    SanctionKind.BAN,
)


def action_choices() -> list[tuple[str, str]]:
    return [(kind.value, str(kind.label)) for kind in ACTIONS_ON_USERS]


def _reason(reason: object) -> str:
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise CommunityError(_("give a reason: the user reads it"))
    return reason


@transaction.atomic
def line_remove(
    *,
    moderator: User,
    message_id: int,
    reason: str,
    report_id: int | None = None,
) -> Sanction:
    """Take one chat line down: gone for everyone (live and in every history),
    kept marked ``removed`` as evidence, logged as a ``remove`` action on its
    author (who, when, why, which line) and shown to the author."""
    _check_moderator(moderator)
    reason = _reason(reason)
    line = (
        ChatMessage.objects.select_for_update(of=("self",))
        .filter(pk=message_id)
        .select_related("author")
        .first()
    )
    if line is None:
        raise CommunityError(_("no such message"))
    if line.author is None:
        raise CommunityError(_("system lines are not removed"))
    if line.removed:
        raise CommunityError(_("that line is already removed"))
    report = None
    if report_id is not None:
        report = Report.objects.filter(pk=report_id).first()
        if report is None:
            raise CommunityError(_("no such report"))
    line.removed = True
    line.save(update_fields=["removed"])
    sanction = Sanction.objects.create(
        user=line.author,
        kind=SanctionKind.REMOVE,
        reason=reason[:500],
        moderator=moderator,
        report=report,
        message=line,
    )
    send_removal_live(line)
    return sanction


@transaction.atomic
def sanction_apply(
    *,
    moderator: User,
    user: User,
    kind: str,
    reason: str,
    minutes: int | None = None,
    report_id: int | None = None,
) -> Sanction:
    """Warn, mute, suspend from rated play or ban ``user``, with a reason;
    logged, shown to the user, and the report it answers closed."""
    _check_moderator(moderator)
    if kind not in ACTIONS_ON_USERS:
        raise CommunityError(_("choose warn, mute, suspend or ban"))
    reason = _reason(reason)
    if user.pk == moderator.pk:
        raise CommunityError(_("you cannot act on yourself"))
    ends_at = None
    if kind in (SanctionKind.MUTE, SanctionKind.SUSPEND):
        if not isinstance(minutes, int) or minutes <= 0:
            raise CommunityError(_("a mute or suspension needs a length in minutes"))
        ends_at = timezone.now() + min(timedelta(minutes=minutes), LONGEST)
    report = None
    if report_id is not None:
        report = Report.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise CommunityError(_("no such report"))
    sanction = Sanction.objects.create(
        user=user,
        kind=kind,
        reason=reason[:500],
        moderator=moderator,
        report=report,
        ends_at=ends_at,
    )
    if kind == SanctionKind.BAN:
        user.is_active = False
        user.save(update_fields=["is_active"])
    if report is not None:
        report_close(moderator=moderator, report_id=report.pk)
    return sanction


def report_close(*, moderator: User, report_id: int) -> Report:
    _check_moderator(moderator)
    report = Report.objects.filter(pk=report_id).first()
    if report is None:
        raise CommunityError(_("no such report"))
    report.status = Report.Status.CLOSED
    report.closed_by = moderator
    report.closed_at = timezone.now()
    report.save(update_fields=["status", "closed_by", "closed_at"])
    return report
