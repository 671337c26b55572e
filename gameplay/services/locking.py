"""The row lock every match write starts from, and the seat look-up under it.

One writer per match: a service that changes a match first locks its row
(``locked_match``) and reads seats through the locked match.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop as N_

from gameplay.errors import BadRequest, MatchNotFound
from gameplay.models import Match, Seat


def locked_match(match_id: int) -> Match:
    """The match, its row locked until the transaction ends."""
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist as exc:
        raise MatchNotFound(N_("no such match")) from exc


def seat_numbered(match: Match, number: int) -> Seat:
    """Seat ``number`` of ``match``; a number it lacks is a bad request."""
    try:
        return match.seats.get(number=number)
    except Seat.DoesNotExist as exc:
        raise BadRequest(
            N_("seat %(seat)s does not exist at this match"), params={"seat": number}
        ) from exc
