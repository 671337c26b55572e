"""The rating update's statements, written by hand (``services.rating_apply_match``).

Why by hand: an update is a handful of small statements, and the ORM's query
compiler cost more CPU than the database spends on a match's rows. Why
pipelined: on a busy server most of an update's wall time is the database's
process and this one waiting for a core at every round trip, so on PostgreSQL
the statements go out in as few round trips as the reads allow
(``pipelined_transaction``): two for a whole update.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg
from django.conf import settings
from django.db import connection, transaction
from psycopg.pq import TransactionStatus

from accounts.models import User
from gameplay.models import Match, Seat
from league.models import MatchVoid, Participant, Rating, RatingEvent, RatingPool

#: (match, its seat numbers in order, the seats' participants or [] when the
#: general path must name them), or None for no such match.
MatchRead = tuple[Match, list[int], list[Participant | None]]

MATCH_FIELDS = (
    "id",
    "status",
    "result",
    "rated",
    "game",
    "context",
    "time_control",
    "finished_at",
)
PARTICIPANT_FIELDS = ("id", "key", "type", "name", "user", "bot_id", "owner")
POOL_FIELDS = (
    "id",
    "game",
    "scope",
    "participants",
    "config",
    "seeded_from",
    "last_seq",
)


def from_row(model: type[Any], names: tuple[str, ...], values: Sequence[Any]) -> Any:
    """A model instance from a raw row of the columns ``names`` (the other
    fields deferred), through the same converters the ORM applies (JSON,
    SQLite's dates and booleans): an instance without compiling a query."""
    meta = model._meta
    loaded = {}
    for name, value in zip(names, values, strict=True):
        field = meta.get_field(name)
        if value is not None:
            col = field.get_col(meta.db_table)
            converters = connection.ops.get_db_converters(col)
            for convert in converters + col.get_db_converters(connection):
                value = convert(value, col, connection)
        loaded[field.attname] = value
    # from_db takes the loaded fields in the model's order.
    order = [f.attname for f in meta.concrete_fields if f.attname in loaded]
    return model.from_db(connection.alias, order, [loaded[a] for a in order])


def columns(model: type[Any], alias: str, names: tuple[str, ...]) -> str:
    return ", ".join(f"{alias}.{model._meta.get_field(n).column}" for n in names)


def _seats_participants(match_param: str) -> str:
    """The ids of the participants of the people seated in a match."""
    return (
        f"SELECT sp.id FROM {Seat._meta.db_table} AS ss"
        f" JOIN {Participant._meta.db_table} AS sp ON sp.user_id = ss.user_id"
        f" WHERE ss.match_id = {match_param}"
    )


_ONLY_WHEN_ASKED = 2**31 - 1


class _Prepared:
    """A cursor whose statements PostgreSQL prepares once per connection
    (server-side binding, ``prepare=True``): the update's statements are the
    same every time, and planning them cost the server about as much CPU as
    running them. Errors come out as Django's, as from ``connection.cursor()``;
    the statements are not in Django's query log."""

    def __init__(self) -> None:
        raw = connection.connection
        if raw.prepare_threshold is None:
            # Django turns preparing off (threshold None), which psycopg
            # applies to prepare=True as well. A threshold no statement
            # reaches prepares only what is asked for; the ORM's cursors
            # bind on the client and never prepare anyway.
            raw.prepare_threshold = _ONLY_WHEN_ASKED
        self._cursor: psycopg.Cursor = psycopg.Cursor(raw)

    def execute(self, sql: str, params: Sequence[Any]) -> None:
        with connection.wrap_database_errors:
            self._cursor.execute(sql, params, prepare=True)

    def fetchone(self) -> Any:
        with connection.wrap_database_errors:
            return self._cursor.fetchone()

    def fetchall(self) -> list[Any]:
        with connection.wrap_database_errors:
            return self._cursor.fetchall()

    def __enter__(self) -> _Prepared:
        return self

    def __exit__(self, *exc: object) -> None:
        self._cursor.close()


def cursor() -> Any:
    """A cursor for the update's statements: prepared on PostgreSQL while
    ``RATING_PREPARED_STATEMENTS`` (``_Prepared``), Django's otherwise."""
    if connection.vendor == "postgresql" and settings.RATING_PREPARED_STATEMENTS:
        connection.ensure_connection()
        return _Prepared()
    return connection.cursor()


# --- Reads ------------------------------------------------------------------------


def send_match_read(cursor: Any, match_id: int) -> None:
    """The match, its seats, their people and those people's participants, in
    one statement (``match_read`` makes them objects)."""
    seat, user, part = Seat._meta, User._meta, Participant._meta
    match_columns = columns(Match, "m", MATCH_FIELDS)
    participant_columns = columns(Participant, "p", PARTICIPANT_FIELDS)
    cursor.execute(
        f"SELECT {match_columns}, s.number, s.user_id, u.username,"
        f" u.display_name, {participant_columns}"
        f" FROM {Match._meta.db_table} AS m"
        f" LEFT JOIN {seat.db_table} AS s ON s.match_id = m.id"
        f" LEFT JOIN {user.db_table} AS u ON u.id = s.user_id"
        f" LEFT JOIN {part.db_table} AS p ON p.user_id = s.user_id"
        " WHERE m.id = %s ORDER BY s.number",
        [match_id],
    )


def match_read(rows: list[tuple]) -> MatchRead | None:
    """The rows of ``send_match_read`` as objects. The participants are given
    only when every seat is a person whose participant exists under their
    current name (nearly every match); otherwise they are [] and the caller
    takes the general path (``services.match_placements``)."""
    if not rows:
        return None
    width = len(MATCH_FIELDS)
    match = from_row(Match, MATCH_FIELDS, rows[0][:width])
    seated = [row[width:] for row in rows if row[width] is not None]
    numbers = [row[0] for row in seated]
    participants: list[Participant | None] = []
    for _number, user_id, username, display_name, *fields in seated:
        # A seat without a person, a person without a participant, or one
        # renamed since: the general path (directory, creation, rename).
        if (
            user_id is None
            or fields[0] is None
            or fields[3] != (display_name or username)
        ):
            return match, numbers, []
        participants.append(from_row(Participant, PARTICIPANT_FIELDS, fields))
    return match, numbers, participants


def read_match(match_id: int) -> MatchRead | None:
    with connection.cursor() as cursor:
        send_match_read(cursor, match_id)
        return match_read(cursor.fetchall())


def pool_lock_sql() -> str:
    """The pool's row by id, locked (where the database has row locks)."""
    sql = (
        f"SELECT {columns(RatingPool, 'p', POOL_FIELDS)}"
        f" FROM {RatingPool._meta.db_table} AS p WHERE p.id = %s"
    )
    return sql + (" FOR UPDATE" if connection.features.has_select_for_update else "")


def send_ladder_lock(cursor: Any, match_id: int, scope: str) -> None:
    """Lock the ladder of ``scope`` for a rated match's game, named through the
    match (sent before the match has been read): no row when the match is not
    rated or the ladder does not exist yet. PostgreSQL only (``FOR UPDATE OF``)."""
    cursor.execute(
        f"SELECT {columns(RatingPool, 'p', POOL_FIELDS)}"
        f" FROM {RatingPool._meta.db_table} AS p"
        f" JOIN {Match._meta.db_table} AS m ON m.game = p.game"
        " WHERE m.id = %s AND m.rated AND p.scope = %s FOR UPDATE OF p",
        [match_id, scope],
    )


# The pool-state reads below go in a statement of their own, sent after the
# lock: under READ COMMITTED a subquery of the locking statement itself would
# still see the snapshot from before the wait, and miss the events a
# concurrent application of this match just committed.

_STATE_COLUMNS = (
    "SELECT f.already, f.voided, r.participant_id, r.id, r.rating, r.games,"
    " r.reached_elite, r.peak"
)


def send_pool_state_read(
    cursor: Any, pool_id: int, match_id: int, participant_ids: list[int]
) -> None:
    """(already applied, voided, participant, rating id, rating, games,
    reached_elite, peak) rows: one per rated participant, at least one."""
    marks = ", ".join(["%s"] * len(participant_ids))
    cursor.execute(
        f"{_STATE_COLUMNS} FROM (SELECT EXISTS (SELECT 1 FROM"
        f" {RatingEvent._meta.db_table} WHERE pool_id = %s AND match_id = %s)"
        f" AS already, EXISTS (SELECT 1 FROM {MatchVoid._meta.db_table}"
        " WHERE match_id = %s) AS voided) AS f"
        f" LEFT JOIN {Rating._meta.db_table} AS r ON r.pool_id = %s"
        f" AND r.participant_id IN ({marks})",
        [pool_id, match_id, match_id, pool_id, *participant_ids],
    )


def send_ladder_state_read(cursor: Any, match_id: int, scope: str) -> None:
    """``send_pool_state_read`` for the ladder ``send_ladder_lock`` locks and
    the participants of the people seated in the match, named through the
    match (sent before it has been read): no row when the match is gone."""
    cursor.execute(
        f"{_STATE_COLUMNS} FROM (SELECT l.id AS pool_id, EXISTS (SELECT 1 FROM"
        f" {RatingEvent._meta.db_table} AS e WHERE e.pool_id = l.id"
        " AND e.match_id = m.id) AS already, EXISTS (SELECT 1 FROM"
        f" {MatchVoid._meta.db_table} AS v WHERE v.match_id = m.id) AS voided"
        f" FROM {Match._meta.db_table} AS m"
        f" LEFT JOIN {RatingPool._meta.db_table} AS l ON l.game = m.game"
        " AND l.scope = %s WHERE m.id = %s) AS f"
        f" LEFT JOIN {Rating._meta.db_table} AS r ON r.pool_id = f.pool_id"
        f" AND r.participant_id IN ({_seats_participants('%s')})",
        [scope, match_id, match_id],
    )


def pool_state(rows: list[tuple]) -> tuple[bool, bool, dict[int, tuple]]:
    """(already applied, voided, {participant: (rating id, rating, games,
    reached_elite, peak)})."""
    current = {row[2]: row[3:] for row in rows if row[2] is not None}
    return bool(rows[0][0]), bool(rows[0][1]), current


# --- Writes -----------------------------------------------------------------------


def _values(rows: list[tuple[Any, ...]]) -> tuple[str, list[Any]]:
    """A multi-row VALUES list and its parameters."""
    row = "(" + ", ".join(["%s"] * len(rows[0])) + ")"
    return ", ".join([row] * len(rows)), [x for r in rows for x in r]


def _unnest(rows: list[tuple[Any, ...]], types: tuple[str, ...]) -> tuple[str, list]:
    """``unnest`` of one array parameter per column, and those arrays.

    PostgreSQL's form of ``_values``: psycopg caches the parsing of a
    statement's placeholders only up to 50 parameters, and an eight-player
    match's rows as VALUES have 64 to 88, whose parsing was a third of an
    update's CPU. As arrays they are a handful whatever the table's size.
    """
    marks = ", ".join(f"%s::{t}[]" for t in types)
    return f"unnest({marks})", [list(column) for column in zip(*rows, strict=True)]


#: (participant, placement, score, rating before, rating after, delta)
EventRow = tuple[int, int, float, float, float, float]
#: (rating id for an update or participant for an insert, rating, games,
#: reached_elite, peak, won (0 or 1), score)
RatingRow = tuple[int, float, int, bool, float, int, float]
_RATING_TYPES = ("bigint", "float8", "int", "bool", "float8", "int", "float8")


def write_application(
    *,
    pool_id: int,
    match_id: int,
    seq: int,
    players: int,
    stamp: Any,
    events: list[EventRow],
    inserts: list[RatingRow],
    updates: list[RatingRow],
) -> None:
    """All writes of one application: at most four statements, one per table
    and kind (one multi-row statement each; PostgreSQL's bucket triggers run
    once per statement, so once here, not once per player). ``stamp`` is the
    match's end as the database takes it (the events' ``created``, the
    ratings' ``last_played_at``)."""
    event_table = RatingEvent._meta.db_table
    rating_table = Rating._meta.db_table
    postgres = connection.vendor == "postgresql"
    with cursor() as writes:
        if postgres:
            rows, params = _unnest(
                events, ("bigint", "int", "float8", "float8", "float8", "float8")
            )
            source = f"SELECT %s, %s, %s, %s, v.*, %s FROM {rows} AS v"
            params = [pool_id, match_id, seq, players, stamp, *params]
        else:
            source, params = _values(
                [(pool_id, match_id, seq, players, *e, stamp) for e in events]
            )
            source = f"VALUES {source}"
        writes.execute(
            f"INSERT INTO {event_table} (pool_id, match_id, seq, players,"
            " participant_id, placement, score, rating_before, rating_after,"
            f" delta, created) {source}",
            params,
        )
        if inserts:
            if postgres:
                rows, params = _unnest(inserts, _RATING_TYPES)
                source = f"SELECT %s, v.*, 1, %s FROM {rows} AS v"
                params = [pool_id, stamp, *params]
            else:
                source, params = _values([(pool_id, *r, 1, stamp) for r in inserts])
                source = f"VALUES {source}"
            writes.execute(
                f"INSERT INTO {rating_table} (pool_id, participant_id, rating,"
                " games, reached_elite, peak, wins, points, played,"
                f" last_played_at) {source}",
                params,
            )
        if updates:
            if postgres:
                rows, params = _unnest(updates, _RATING_TYPES)
                source = f"SELECT * FROM {rows}"
            else:
                source, params = _values(updates)
                source = f"VALUES {source}"
            writes.execute(
                "WITH v (rid, new_rating, new_games, new_elite, new_peak, won,"
                f" score) AS ({source}) UPDATE {rating_table}"
                " SET rating = v.new_rating, games = v.new_games,"
                " reached_elite = v.new_elite, peak = v.new_peak,"
                " played = played + 1, wins = wins + v.won,"
                " points = points + v.score, last_played_at = CASE"
                " WHEN last_played_at IS NULL OR last_played_at < %s"
                f" THEN %s ELSE last_played_at END FROM v"
                f" WHERE {rating_table}.id = v.rid",
                [*params, stamp, stamp],
            )
        writes.execute(
            f"UPDATE {RatingPool._meta.db_table} SET last_seq = %s,"
            " rated_matches = rated_matches + 1,"
            " rating_count = rating_count + %s WHERE id = %s",
            [seq, len(inserts), pool_id],
        )


# --- Transactions -----------------------------------------------------------------


def can_pipeline() -> bool:
    """Whether this connection can run a transaction of its own in pipeline
    mode: PostgreSQL, and not inside a caller's transaction."""
    return (
        connection.vendor == "postgresql"
        and not connection.in_atomic_block
        and connection.get_autocommit()
    )


class Ending:
    """How a ``pipelined_transaction`` ends: ``COMMIT`` unless ``rollback()``
    was called (nothing to keep: the statement then shares the last round
    trip like ``COMMIT`` would)."""

    statement = "COMMIT"

    def rollback(self) -> None:
        self.statement = "ROLLBACK"


@contextlib.contextmanager
def pipelined_transaction() -> Iterator[Ending]:
    """A transaction whose ``BEGIN`` goes out in one pipeline with the
    statements sent inside the block, and whose ``COMMIT`` with the writes.

    What is sent before the first fetch shares one round trip: each statement
    is still its own, so one sent after a lock starts once the lock is granted
    and sees what the previous holder committed. An error rolls everything
    back and leaves the connection usable. Only where ``can_pipeline()``.
    """
    connection.ensure_connection()
    raw = connection.connection
    ending = Ending()
    try:
        with raw.pipeline(), connection.cursor() as cursor:
            cursor.execute("BEGIN")
            yield ending
            cursor.execute(ending.statement)
    except BaseException:
        if raw.info.transaction_status != TransactionStatus.IDLE:
            raw.rollback()
        raise


@contextlib.contextmanager
def pool_transaction() -> Iterator[Any]:
    """The transaction of one pool's application, in as few round trips as can
    be: ``pipelined_transaction`` where it can, two round trips (the lock with
    the read, the writes with ``COMMIT``). Elsewhere (SQLite, or inside a
    caller's atomic block) an ordinary atomic block; on PostgreSQL the writes
    still share one pipeline. Yields the context manager that batches the
    writes."""
    if can_pipeline():
        with pipelined_transaction():
            yield contextlib.nullcontext
        return
    postgres = connection.vendor == "postgresql"
    with transaction.atomic():
        yield (connection.connection.pipeline if postgres else contextlib.nullcontext)
