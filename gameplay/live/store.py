"""The durable half of a live move: append it to the log if the match is still
where its owner believes it is.

One writer per match is kept by the database, not by trust in the cache: the
write is a compare-and-set on ``Match.version`` (and ``status``), taken under
the match row's lock, and it checks the mover's seat in a fresh snapshot after
that lock. A writer whose copy is behind (another process moved, a resignation
or a bot takeover committed) writes nothing and is told so; it re-reads and
decides again. The move is durable when this returns True: on PostgreSQL the
lock, the compare-and-set, the log row (and a snapshot every
``SNAPSHOT_EVERY`` versions) go as one message in one implicit transaction,
committed before the server answers, so a move costs one round trip.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.db import connection, transaction

from gameplay.models import Match, MatchAction, MatchSnapshot, MatchStatus, Seat


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def append_move(
    *,
    match_id: int,
    from_version: int,
    seat: int,
    user_id: int,
    action_id: str,
    kind: str,
    state: dict[str, Any],
    events: list[dict[str, Any]],
    now: datetime,
    snapshot: bool,
    timers: dict[str, Any] | None = None,
) -> bool:
    """Commit the move that takes the match from ``from_version`` to the next.

    False (and nothing written) when the match is not at ``from_version`` and
    active any more, or the seat is no longer ``user_id``'s to play (it
    resigned, a bot took it over). ``timers``: the match's server timers after
    the move (``services.track_timers``), written by the same compare-and-set,
    so a committed move never leaves its timers behind (beat's sweep finds
    them even if the process dies before it arms their check); None leaves
    the column as it is.
    """
    if connection.vendor == "postgresql":
        return _append_postgresql(
            match_id=match_id,
            from_version=from_version,
            seat=seat,
            user_id=user_id,
            action_id=action_id,
            kind=kind,
            state=state,
            events=events,
            now=now,
            snapshot=snapshot,
            timers=timers,
        )
    return _append_generic(
        match_id=match_id,
        from_version=from_version,
        seat=seat,
        user_id=user_id,
        action_id=action_id,
        kind=kind,
        state=state,
        events=events,
        now=now,
        snapshot=snapshot,
        timers=timers,
    )


def _append_postgresql(
    *,
    match_id: int,
    from_version: int,
    seat: int,
    user_id: int,
    action_id: str,
    kind: str,
    state: dict[str, Any],
    events: list[dict[str, Any]],
    now: datetime,
    snapshot: bool,
    timers: dict[str, Any] | None,
) -> bool:
    # Statement 1 takes the row lock (waiting for any writer holding it).
    # Statement 2 runs in a snapshot taken after that, so it sees every
    # committed resignation or takeover of the seat, and writes only if the
    # match is still at from_version. Both are one simple-query message (the
    # ClientCursor Django uses binds client-side), run as one implicit
    # transaction that commits before the reply: one round trip per move.
    m, a, s, n = (
        Match._meta.db_table,
        MatchAction._meta.db_table,
        Seat._meta.db_table,
        MatchSnapshot._meta.db_table,
    )
    snap = (
        f", snap AS (INSERT INTO {n} (match_id, version, state) "
        f"SELECT id, %(new)s, %(state)s::jsonb FROM moved)"
        if snapshot
        else ""
    )
    set_timers = ", timers = %(timers)s::jsonb" if timers is not None else ""
    sql = (
        f"SELECT 1 FROM {m} WHERE id = %(id)s FOR UPDATE; "
        f"WITH moved AS ("
        f"UPDATE {m} SET state = %(state)s::jsonb, version = %(new)s, "
        f"turn_started_at = %(now)s{set_timers} "
        f"WHERE id = %(id)s AND version = %(old)s AND status = %(active)s "
        f"AND EXISTS (SELECT 1 FROM {s} WHERE match_id = %(id)s "
        f"AND number = %(seat)s AND user_id = %(user)s "
        f"AND NOT forfeited AND NOT replaced_by_bot) "
        f"RETURNING id), "
        f"logged AS (INSERT INTO {a} "
        f"(match_id, version, seat, action_id, kind, events, created_at) "
        f"SELECT id, %(new)s, %(seat)s, %(action)s, %(kind)s, %(events)s::jsonb, "
        f"%(now)s FROM moved RETURNING id){snap} "
        f"SELECT count(*) FROM logged"
    )
    params = {
        "id": match_id,
        "old": from_version,
        "new": from_version + 1,
        "active": MatchStatus.ACTIVE.value,
        "seat": seat,
        "user": user_id,
        "action": action_id,
        "kind": str(kind),
        "state": _dumps(state),
        "events": _dumps(events),
        "now": now,
    }
    if timers is not None:
        params["timers"] = _dumps(timers)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if not cursor.nextset():  # the first result is the lock's row
            return False
        (written,) = cursor.fetchone()
    return written == 1


def _append_generic(
    *,
    match_id: int,
    from_version: int,
    seat: int,
    user_id: int,
    action_id: str,
    kind: str,
    state: dict[str, Any],
    events: list[dict[str, Any]],
    now: datetime,
    snapshot: bool,
    timers: dict[str, Any] | None,
) -> bool:
    """The same through the ORM (SQLite: IMMEDIATE transactions serialise writers)."""
    fields: dict[str, Any] = {
        "state": state,
        "version": from_version + 1,
        "turn_started_at": now,
    }
    if timers is not None:
        fields["timers"] = timers
    with transaction.atomic():
        moved = Match.objects.filter(
            pk=match_id, version=from_version, status=MatchStatus.ACTIVE
        ).update(**fields)
        if moved != 1:
            return False
        playable = Seat.objects.filter(
            match_id=match_id,
            number=seat,
            user_id=user_id,
            forfeited=False,
            replaced_by_bot=False,
        ).exists()
        if not playable:
            transaction.set_rollback(True)
            return False
        MatchAction.objects.create(
            match_id=match_id,
            version=from_version + 1,
            seat=seat,
            action_id=action_id,
            kind=kind,
            events=events,
            created_at=now,
        )
        if snapshot:
            MatchSnapshot.objects.create(
                match_id=match_id, version=from_version + 1, state=state
            )
    return True
