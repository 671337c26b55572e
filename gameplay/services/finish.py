"""How a match ends: the result, forfeits and resignations, the one announcement.

``finish_match`` writes the result and the finish in the closing transaction;
after the commit a worker runs ``match_announce_finished``
(``enqueue.announce_match_finished`` queues it), which sends ``match_finished``,
and beat runs it again until every receiver succeeded (a transactional outbox).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from accounts.models import User
from gameplay import broadcast, enqueue
from gameplay.errors import Forbidden, NotActive
from gameplay.models import Match, MatchStatus, Seat
from gameplay.rules import get_game
from gameplay.selectors import user_seat
from gameplay.services.hooks import after_change, after_commit
from gameplay.services.locking import locked_match, seat_numbered
from gameplay.signals import match_finished, seat_changed

logger = logging.getLogger(__name__)


def _final_result(match: Match, engine_result: dict[str, Any] | None) -> dict[str, Any]:
    """The engine's result, with forfeited seats placed last (a leaver loses)."""
    seats = list(match.seats.all())
    n = len(seats)
    forfeited = sorted(seat.number for seat in seats if seat.forfeited)
    if engine_result and engine_result.get("placements"):
        placements = list(engine_result["placements"])
    else:
        placements = [1] * n
    if forfeited:
        survivors = [s for s in range(n) if s not in forfeited]
        order = sorted(survivors, key=lambda s: placements[s])
        ranked: list[int] = [0] * n
        for s in survivors:
            # Rank among survivors keeps their ties: 1 + number strictly better.
            ranked[s] = 1 + sum(1 for o in order if placements[o] < placements[s])
        worst = len(survivors) + 1
        for s in forfeited:
            ranked[s] = worst
        placements = ranked
    winners = [s for s in range(n) if placements[s] == 1]
    result = {
        "placements": placements,
        "winners": winners,
        "forfeited": forfeited,
        "engine": engine_result,
    }
    return result


def final_result(*, match: Match, state: dict[str, Any] | None) -> dict[str, Any]:
    """The result ``match`` ends with at ``state``, from its seats as held
    (``match.seats.all()``: a prefetched copy needs no read). The live owner
    finishes a match from its copy with it (``gameplay.live.owner``)."""
    engine = get_game(match.game)
    return _final_result(match, engine.result(state) if state else None)


def finish_match(match: Match, *, reason: str) -> None:
    """Close a locked match: store the result, reveal the seed, announce once."""
    match.result = final_result(match=match, state=match.state)
    match.status = MatchStatus.FINISHED
    match.end_reason = reason
    match.finished_at = timezone.now()
    match.timers = {}
    match.save()
    for number, place in enumerate(match.result["placements"]):
        Seat.objects.filter(match=match, number=number).update(placement=place)
    match_pk = match.pk
    after_commit(lambda: enqueue.announce_match_finished(match_id=match_pk))


def match_announce_finished(*, match_id: int) -> bool:
    """Send ``match_finished``, and mark it sent only once every receiver succeeded.

    A finished match whose ``finish_announced_at`` is null is an outbox entry,
    written by the finishing transaction itself. A worker runs this after that
    commit (the task ``gameplay.announce_match_finished``: the receivers cost
    several ordinary moves, which the web process taking the last move does
    not pay) and beat again (``announce_finished_matches``) until it succeeds:
    receivers enqueue their work (rating, tournament pairing) inside this
    transaction and raise if the broker refuses, which leaves the entry for the
    next sweep. A receiver may thus run more than once for a match; the tasks it
    queues are idempotent, so the match is still rated exactly once. The row
    lock (skipped when held) keeps two sweeps from announcing at the same time.

    Its two statements are written as SQL: every finished match runs them
    right after its last move, and the ORM building them was about 1,300
    Python calls, most of what the finish costs beyond an ordinary move.
    """
    table = Match._meta.db_table
    # The ORM drops the lock where the database has none (SQLite: one writer).
    lock = (
        " FOR UPDATE SKIP LOCKED"
        if connection.features.has_select_for_update_skip_locked
        else ""
    )
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"SELECT rated, context FROM {table} WHERE id = %s AND status = %s "
            f"AND finish_announced_at IS NULL{lock}",
            [match_id, MatchStatus.FINISHED.value],
        )
        row = cursor.fetchone()
        if row is None:
            return False
        rated, context = bool(row[0]), row[1]
        failed = [
            (receiver, outcome)
            for receiver, outcome in match_finished.send_robust(
                sender=Match, match_id=match_id, rated=rated, context=context
            )
            if isinstance(outcome, Exception)
        ]
        for receiver, outcome in failed:
            logger.warning(
                "match_finished receiver %r failed for match %s; beat retries",
                receiver,
                match_id,
                exc_info=outcome,
            )
        if failed:
            return False
        cursor.execute(
            f"UPDATE {table} SET finish_announced_at = %s WHERE id = %s",
            [connection.ops.adapt_datetimefield_value(timezone.now()), match_id],
        )
    return True


def announce_finished_matches(*, older_than: float = 10.0, limit: int = 200) -> int:
    """Beat: announce finished matches whose announcement has not gone through.

    ``older_than`` seconds leaves fresh matches to their own after-commit hook.
    """
    cutoff = timezone.now() - timedelta(seconds=older_than)
    pending = Match.objects.filter(
        status=MatchStatus.FINISHED,
        finish_announced_at__isnull=True,
        finished_at__lte=cutoff,
    ).order_by("finished_at")
    return sum(
        match_announce_finished(match_id=pk)
        for pk in list(pending.values_list("pk", flat=True)[:limit])
    )


def forfeit_seat(match: Match, seat: Seat, *, reason: str) -> None:
    """A seat gives up: two players end the match; more let a bot play on."""
    active_people = [
        s for s in match.seats.all() if not s.forfeited and s.number != seat.number
    ]
    seat.forfeited = True
    seat.forfeit_reason = reason
    if len(match.seats.all()) <= 2 or len(active_people) <= 1:
        seat.save(update_fields=["forfeited", "forfeit_reason"])
        finish_match(match, reason=reason)
    else:
        seat.replaced_by_bot = True
        seat.save(update_fields=["forfeited", "forfeit_reason", "replaced_by_bot"])
        match.save(update_fields=["state"])
        announced = {
            "match_id": match.pk,
            "seat_number": seat.number,
            "user_id": seat.user_id,
            "change": "forfeited",
            "reason": reason,
        }
        transaction.on_commit(
            lambda: seat_changed.send_robust(sender=Match, **announced)
        )
    match_pk, state = match.pk, match.state
    transaction.on_commit(
        lambda: broadcast.match_changed(match_id=match_pk, state=state)
    )
    after_commit(lambda: after_change(match_pk))


@transaction.atomic
def match_resign(*, match_id: int, user: User) -> Match:
    match = locked_match(match_id)
    if match.status != MatchStatus.ACTIVE:
        raise NotActive(N_("this match is not in play"))
    seat = user_seat(match=match, user=user)
    if seat is None or seat.forfeited:
        raise Forbidden(N_("you have no seat to resign at this match"))
    forfeit_seat(match, seat, reason="resigned")
    return match


@transaction.atomic
def match_forfeit(*, match_id: int, seat_number: int, reason: str) -> Match:
    """The server forfeits a seat (clock exhausted, bot fault, no-show)."""
    match = locked_match(match_id)
    if match.status != MatchStatus.ACTIVE:
        raise NotActive(N_("this match is not in play"))
    seat = seat_numbered(match, seat_number)
    if seat.forfeited:
        return match
    forfeit_seat(match, seat, reason=reason)
    return match
