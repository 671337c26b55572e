"""The durable half of a live step: append it to the log if the match is still
where its owner believes it is.

The owner decides its steps against its copy (``gameplay.moverule``); this
writes them, and only checks that the copy was the committed match. One
writer per match is kept by the database, not by trust in the cache: the
write (``append``) is a compare-and-set on ``Match.version`` (and
``status``), taken under the match row's lock; a person's move also checks
the mover's seat in a fresh snapshot after that lock. A writer whose copy is
behind (another process moved, a resignation or a bot takeover committed)
writes nothing and is told so; it re-reads and decides again. The steps are
durable when this returns True: on PostgreSQL the lock, the compare-and-set,
the log rows (and the snapshots every ``SNAPSHOT_EVERY`` versions) go as one
message in one implicit transaction, committed before the server answers, so
a move costs one round trip.

The move that ends the match is the same compare-and-set carrying the finish
(``Finish``): result, status, the seats' placements, in the same round trip.
The finished row is its own announcement outbox entry
(``finish_announced_at`` null, ``services.match_announce_finished``), so a
process that dies right after that commit leaves the rating and tournament
announcement to beat's sweep: it is never lost and made once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction

from gameplay import broadcast
from gameplay.live import pgasync
from gameplay.models import Match, MatchAction, MatchSnapshot, MatchStatus, Seat


def _dumps(value: Any) -> str:
    """Compact JSON for the jsonb columns: the frames' encoder (orjson), since
    the whole state is written with every move. Integer keys become text, as
    ``json.dumps`` (and a round trip through jsonb) makes them."""
    return broadcast.encode(value)


@dataclass(frozen=True)
class Logged:
    """One step's log row: a person's move, a seat's timeout (an unanswered
    offer declined, a draft dropped) or the table's own step (seat None)."""

    seat: int | None
    action_id: str
    kind: str
    events: list[dict[str, Any]]


@dataclass(frozen=True)
class Mover:
    """The person whose move is written: the write checks, after the row
    lock, that the seat is still theirs to play (not resigned, not taken
    over by a bot)."""

    seat: int
    user_id: int


@dataclass(frozen=True)
class Finish:
    """What the finishing move writes besides the step (the fields of
    ``services.finish.finish_match``): the result with its placements,
    computed from the owner's copy of the seats, whose forfeits
    (``forfeited``, seat numbers) the write checks against the committed
    seats, so a result is never built from stale ones."""

    result: dict[str, Any]
    placements: list[int]
    forfeited: list[int]
    reason: str
    finished_at: datetime


def append(
    *,
    match_id: int,
    from_version: int,
    steps: list[Logged],
    state: dict[str, Any],
    now: datetime,
    snapshots: dict[int, dict[str, Any]],
    timers: dict[str, Any] | None = None,
    mover: Mover | None = None,
    finish: Finish | None = None,
) -> bool:
    """Commit ``steps`` taking the match from ``from_version`` on, one version
    each, in one round trip. False (and nothing written) when the match is
    not at ``from_version`` and active any more; with ``mover`` (a person's
    move), also when the seat is no longer that user's to play; with
    ``finish`` (the move that ends the match: status, result, end reason,
    finish time, timers cleared, each seat's placement), also when the
    committed seats' forfeits are not ``finish``'s.

    ``state``: after the last step; ``snapshots``: version -> state for the
    versions among them that keep one. ``timers``: the match's server timers
    after the steps (``clocks.timers_after``), written by the same
    compare-and-set, so a committed step never leaves its timers behind
    (beat's sweep finds them even if the process dies before they fire);
    None leaves the column as it is.
    """
    write = _append_postgresql if connection.vendor == "postgresql" else _append_orm
    return write(
        match_id=match_id,
        from_version=from_version,
        steps=steps,
        state=state,
        now=now,
        snapshots=snapshots,
        timers=timers,
        mover=mover,
        finish=finish,
    )


def _ints(values: list[int]) -> str:
    return ",".join(str(int(v)) for v in values)


def _append_postgresql(**kwargs: Any) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(*postgresql_append(**kwargs))
        if not cursor.nextset():  # the first result is the lock's row
            return False
        (written,) = cursor.fetchone()
    return written == len(kwargs["steps"])


async def append_async(conn: Any, **kwargs: Any) -> bool:
    """``append`` on PostgreSQL through ``conn``, a psycopg ``AsyncConnection``
    in autocommit (``gameplay.live.pgasync``): the same statement, bound
    client-side (``pgasync.Statement``: each value a literal, as Django's
    cursor binds it), the same one round trip, awaited on the event loop
    instead of a thread's."""
    sql, params = postgresql_append(**kwargs)
    query = pgasync.statement(sql).bind(conn, params)
    results = await pgasync.execute_simple(conn, query)
    if len(results) < 2:  # the first result is the lock's row
        return False
    counted = results[1]
    written = counted.get_value(0, 0) if counted.ntuples else None
    return written is not None and int(written) == len(kwargs["steps"])


def postgresql_append(
    *,
    match_id: int,
    from_version: int,
    steps: list[Logged],
    state: dict[str, Any],
    now: datetime,
    snapshots: dict[int, dict[str, Any]],
    timers: dict[str, Any] | None = None,
    mover: Mover | None = None,
    finish: Finish | None = None,
) -> tuple[str, dict[str, Any]]:
    """The statement of ``append`` on PostgreSQL and its parameters, bound
    client-side (so its two statements go as one simple-query message)."""
    params: dict[str, Any] = {
        "id": match_id,
        "old": from_version,
        "new": from_version + len(steps),
        "active": MatchStatus.ACTIVE.value,
        "state": _dumps(state),
        "now": now,
    }
    if timers is not None:
        params["timers"] = _dumps(timers)
    if mover is not None:
        params.update(seat=mover.seat, user=mover.user_id)
    if finish is not None:
        params.update(
            finished=MatchStatus.FINISHED.value,
            result=_dumps(finish.result),
            reason=finish.reason,
            finished_at=finish.finished_at,
            forfeited=_ints(finish.forfeited),
            placements=_ints(finish.placements),
        )
    for i, step in enumerate(steps):
        params[f"v{i}"] = from_version + 1 + i
        params[f"s{i}"] = step.seat
        params[f"a{i}"] = step.action_id
        params[f"k{i}"] = str(step.kind)
        params[f"e{i}"] = _dumps(step.events)
    for j, (version, snapped) in enumerate(sorted(snapshots.items())):
        params[f"sv{j}"], params[f"ss{j}"] = version, _dumps(snapped)
    sql = _append_sql(
        steps=len(steps),
        snapshots=len(snapshots),
        timers=timers is not None,
        mover=mover is not None,
        finish=finish is not None,
    )
    return sql, params


@functools.lru_cache(maxsize=64)
def _append_sql(
    *, steps: int, snapshots: int, timers: bool, mover: bool, finish: bool
) -> str:
    """The text of ``postgresql_append``'s statement for one shape (how many
    steps and snapshots, which optional parts): the same few texts for every
    move, so each is written once (and ``pgasync.statement`` splits it once)."""
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
    set_more = guard = placed = ""
    if timers:
        set_more = ", timers = %(timers)s::jsonb"
    if mover:
        guard = (
            f"AND EXISTS (SELECT 1 FROM {s} WHERE match_id = %(id)s "
            f"AND number = %(seat)s AND user_id = %(user)s "
            f"AND NOT forfeited AND NOT replaced_by_bot) "
        )
    if finish:
        # The finish: the row's end, and only if the committed forfeits are
        # the copy's (the result placed those seats last).
        set_more = (
            ", status = %(finished)s, result = %(result)s::jsonb, "
            "end_reason = %(reason)s, finished_at = %(finished_at)s, "
            "timers = '{}'::jsonb"
        )
        guard += (
            f"AND NOT EXISTS (SELECT 1 FROM {s} WHERE match_id = %(id)s "
            f"AND forfeited <> (number = ANY(string_to_array(%(forfeited)s, ',')"
            f"::int[]))) "
        )
        placed = (
            f", placed AS (UPDATE {s} SET placement = "
            f"(string_to_array(%(placements)s, ',')::int[])[number + 1] "
            f"WHERE match_id = (SELECT id FROM moved))"
        )
    rows = ", ".join(
        f"(%(v{i})s::int, %(s{i})s::int, %(a{i})s, %(k{i})s, %(e{i})s::jsonb)"
        for i in range(steps)
    )
    snaps = "".join(
        f", snap{j} AS (INSERT INTO {n} (match_id, version, state) "
        f"SELECT id, %(sv{j})s, %(ss{j})s::jsonb FROM moved)"
        for j in range(snapshots)
    )
    return (
        f"SELECT 1 FROM {m} WHERE id = %(id)s FOR UPDATE; "
        f"WITH moved AS ("
        f"UPDATE {m} SET state = %(state)s::jsonb, version = %(new)s, "
        f"turn_started_at = %(now)s{set_more} "
        f"WHERE id = %(id)s AND version = %(old)s AND status = %(active)s "
        f"{guard}RETURNING id), "
        f"logged AS (INSERT INTO {a} "
        f"(match_id, version, seat, action_id, kind, events, created_at) "
        f"SELECT moved.id, v.version, v.seat, v.action, v.kind, v.events, %(now)s "
        f"FROM moved, (VALUES {rows}) "
        f"AS v(version, seat, action, kind, events) RETURNING id){snaps}{placed} "
        f"SELECT count(*) FROM logged"
    )


def _append_orm(
    *,
    match_id: int,
    from_version: int,
    steps: list[Logged],
    state: dict[str, Any],
    now: datetime,
    snapshots: dict[int, dict[str, Any]],
    timers: dict[str, Any] | None,
    mover: Mover | None,
    finish: Finish | None,
) -> bool:
    """The same through the ORM (SQLite: IMMEDIATE transactions serialise writers)."""
    fields: dict[str, Any] = {
        "state": state,
        "version": from_version + len(steps),
        "turn_started_at": now,
    }
    if timers is not None:
        fields["timers"] = timers
    if finish is not None:
        fields.update(
            status=MatchStatus.FINISHED,
            result=finish.result,
            end_reason=finish.reason,
            finished_at=finish.finished_at,
            timers={},
        )
    with transaction.atomic():
        moved = Match.objects.filter(
            pk=match_id, version=from_version, status=MatchStatus.ACTIVE
        ).update(**fields)
        if moved != 1:
            return False
        playable = mover is None or (
            Seat.objects.filter(
                match_id=match_id,
                number=mover.seat,
                user_id=mover.user_id,
                forfeited=False,
                replaced_by_bot=False,
            ).exists()
        )
        if finish is not None and playable:
            forfeited = Seat.objects.filter(match_id=match_id, forfeited=True)
            playable = sorted(forfeited.values_list("number", flat=True)) == sorted(
                finish.forfeited
            )
        if not playable:
            transaction.set_rollback(True)
            return False
        MatchAction.objects.bulk_create(
            MatchAction(
                match_id=match_id,
                version=from_version + 1 + i,
                seat=step.seat,
                action_id=step.action_id,
                kind=step.kind,
                events=step.events,
                created_at=now,
            )
            for i, step in enumerate(steps)
        )
        MatchSnapshot.objects.bulk_create(
            MatchSnapshot(match_id=match_id, version=version, state=snapped)
            for version, snapped in sorted(snapshots.items())
        )
        if finish is not None:
            for number, place in enumerate(finish.placements):
                Seat.objects.filter(match_id=match_id, number=number).update(
                    placement=place
                )
    return True
