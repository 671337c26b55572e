"""Check-in: entrants confirm they will play in the last minutes before the start.

A tournament with ``checkin_minutes`` opens check-in at ``starts_at`` minus
that many minutes and closes it at ``starts_at`` (or when an organiser starts
it, whichever is first). Starting removes every entrant who did not check in
and builds the bracket or pairing from the rest (Challonge's and start.gg's
model). Built-in bots are always there and count as checked in; a person
checks themselves in, an owner their uploaded bot. Beat's tick tells the
entrants once, when check-in opens (``league.signals.checkin_opened``).
"""

from __future__ import annotations

from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from league.errors import Conflict, Invalid, PermissionDenied
from league.models import (
    Entrant,
    Participant,
    ParticipantType,
    Tournament,
    TournamentStatus,
)
from league.participants import can_manage
from league.signals import checkin_opened
from league.tournaments.services.locking import locked_tournament

#: The longest check-in window: a day before the start.
MAX_CHECKIN_MINUTES = 24 * 60


def validate_checkin_minutes(value: object) -> int | None:
    """A creation form's check-in setting: empty (none) or 1 to a day."""
    if value in (None, "", 0):
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(_("check-in minutes must be a whole number"))
    if not 1 <= value <= MAX_CHECKIN_MINUTES:
        raise Invalid(
            _(
                "check-in lasts between 1 and %(max_checkin_minutes)s minutes "
                "before the start"
            )
            % {"max_checkin_minutes": MAX_CHECKIN_MINUTES}
        )
    return value


def checkin_is_open(tournament: Tournament, now: datetime | None = None) -> bool:
    opens = tournament.checkin_opens_at
    if opens is None or tournament.status != TournamentStatus.REGISTRATION:
        return False
    now = now or timezone.now()
    return opens <= now < tournament.starts_at


def tournament_check_in(
    *,
    tournament: Tournament,
    user: User,
    bot_id: int | None = None,
    now: datetime | None = None,
) -> Entrant:
    """Check in the user's entry (or their bot's); checking in twice is harmless."""
    now = now or timezone.now()
    key = (
        Participant.bot_key(bot_id)
        if bot_id is not None
        else Participant.user_key(user.pk)
    )
    with transaction.atomic():
        tournament = locked_tournament(tournament.pk)
        if not tournament.checkin_minutes:
            raise Conflict(_("this tournament has no check-in"))
        if tournament.status != TournamentStatus.REGISTRATION:
            raise Conflict(_("check-in is over: the tournament has started"))
        entrant = (
            Entrant.objects.select_for_update(of=("self",))
            .filter(tournament=tournament, participant__key=key)
            .select_related("participant")
            .first()
        )
        if entrant is None:
            raise Conflict(_("not entered in this tournament"))
        if not can_manage(user, entrant.participant):
            raise PermissionDenied(_("only the bot's owner may check it in"))
        opens = tournament.checkin_opens_at
        assert opens is not None  # checkin_minutes is set
        if now < opens:
            raise Conflict(
                _("check-in opens %(checkin_minutes)s minutes before the start")
                % {"checkin_minutes": tournament.checkin_minutes}
            )
        if now >= tournament.starts_at:
            raise Conflict(_("check-in closed at the start time"))
        if entrant.checked_in_at is None:
            entrant.checked_in_at = now
            entrant.save(update_fields=["checked_in_at"])
    return entrant


def checkin_remove_no_shows(tournament: Tournament) -> list[str]:
    """Remove the entrants who did not check in; returns their names.

    Called by ``tournament_start`` with the tournament locked, in its
    transaction: a start that fails afterwards removes nobody.
    """
    if not tournament.checkin_minutes:
        return []
    missing = Entrant.objects.filter(
        tournament=tournament, checked_in_at__isnull=True
    ).exclude(participant__type=ParticipantType.BUILTIN)
    names = [str(e.participant) for e in missing.select_related("participant")]
    missing.delete()
    return names


def tournaments_open_checkin(*, now: datetime | None = None) -> int:
    """Beat: mark the tournaments whose check-in has just opened and announce
    each once, after the commit; returns how many opened."""
    now = now or timezone.now()
    opened = 0
    candidates = Tournament.objects.filter(
        status=TournamentStatus.REGISTRATION,
        checkin_minutes__isnull=False,
        checkin_opened_at__isnull=True,
        starts_at__gt=now,
    ).only("pk", "starts_at", "checkin_minutes")
    for tournament in candidates:
        opens = tournament.checkin_opens_at
        if opens is None or opens > now:
            continue
        with transaction.atomic():
            marked = Tournament.objects.filter(
                pk=tournament.pk, checkin_opened_at__isnull=True
            ).update(checkin_opened_at=now)
            if marked:
                opened += 1
                transaction.on_commit(
                    partial(
                        checkin_opened.send,
                        sender=Tournament,
                        tournament_id=tournament.pk,
                    )
                )
    return opened
