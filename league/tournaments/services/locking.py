"""The tournament row lock and the organiser check every change starts with.

Locking: every change to a tournament's rounds, pairings or bracket first
locks the tournament row, so a result arriving while beat checks deadlines, or
two results finishing the same round at once, are handled one after the other
and a round is never paired twice.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import User
from league.errors import NotFound, PermissionDenied
from league.models import Tournament
from league.tournaments.selectors import can_organise


def require_organiser(tournament: Tournament, user: User | None) -> None:
    if not can_organise(tournament=tournament, user=user):
        raise PermissionDenied(_("only this tournament's organisers may do that"))


def locked_tournament(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(_("no such tournament"))
    return tournament
