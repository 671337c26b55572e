"""Claims: ending a match whose every opponent is gone past the grace period
(in a competition game, also past the competition's deadline for it)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from accounts.models import User
from gameplay import broadcast
from gameplay.clocks import GRACE_SECONDS, absent_past_grace, clock_start
from gameplay.contexts import context_keeps_absent_seats, describe_match_context
from gameplay.errors import BadRequest, Forbidden, NotActive
from gameplay.models import Match, MatchStatus, Seat
from gameplay.selectors import uploaded_bot_seats_to_act, user_seat
from gameplay.services.finish import finish_match
from gameplay.services.locking import locked_match


def _stalled_uploaded_bots(match: Match, now: datetime) -> list[Seat]:
    """Uploaded-bot seats to move that have not moved for the grace period.

    Such a bot counts as gone (no worker runs it, or its runs keep failing
    before they can forfeit it), so the people at the table may claim.
    """
    return [
        seat
        for seat in uploaded_bot_seats_to_act(match=match)
        if (start := clock_start(match=match, seat=seat)) is not None
        and now - start >= timedelta(seconds=GRACE_SECONDS)
    ]


def _not_yet(match: Match, others: list[Seat]) -> tuple[str, dict[str, object]]:
    """Why the claim is refused (a text and its params): the grace period, or
    a competition's deadline."""
    info = (
        describe_match_context(match)
        if context_keeps_absent_seats(match.context)
        else None
    )
    if info is not None and info.deadline is not None:
        when = info.deadline.strftime("%d %b %Y %H:%M UTC")
        text = N_(
            "this is a %(title)s game: an absent opponent keeps the seat "
            "until the deadline (%(when)s); you can claim only after it"
        )
        return text, {"title": str(info.title), "when": when}
    text = N_(
        "you can claim only when your opponent has been away for %(seconds)s seconds"
    )
    return text, {"seconds": GRACE_SECONDS}


@transaction.atomic
def match_claim(*, match_id: int, user: User, claim: object) -> Match:
    """Claim the win (or abort) when every opponent is gone past the grace period.

    ``claim`` is the client's word as sent (checked here first)."""
    if claim not in ("win", "abort"):
        raise BadRequest(N_("claim must be 'win' or 'abort'"))
    match = locked_match(match_id)
    if match.status != MatchStatus.ACTIVE:
        raise NotActive(N_("this match is not in play"))
    seat = user_seat(match=match, user=user)
    if seat is None or seat.forfeited:
        raise Forbidden(N_("you have no seat at this match"))
    now = timezone.now()
    stalled = {s.number for s in _stalled_uploaded_bots(match, now)}
    absent = [
        s
        for s in match.seats.all()
        if s.number != seat.number
        and not s.forfeited
        and (absent_past_grace(s, now) or s.number in stalled)
    ]
    others = [
        s for s in match.seats.all() if s.number != seat.number and not s.forfeited
    ]
    if not absent or len(absent) != len(others):
        text, params = _not_yet(match, others)
        raise Forbidden(text, params=params)
    if claim == "abort":
        match.status = MatchStatus.ABORTED
        match.end_reason = "abandoned"
        match.finished_at = now
        match.save()
        transaction.on_commit(lambda: broadcast.match_changed(match_id=match_id))
        return match
    for other in absent:
        other.forfeited = True
        other.forfeit_reason = "abandoned"
        other.save(update_fields=["forfeited", "forfeit_reason"])
    finish_match(match, reason="abandoned")
    transaction.on_commit(lambda: broadcast.match_changed(match_id=match_id))
    return match
