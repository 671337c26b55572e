"""Reading a live match whole: row, seats and their users, without the ORM's
query building.

A live match is read whole (row, seats, their users) at every socket's
connect and close and whenever a copy is dropped. Through the ORM
(``prefetch_related`` of the seats with ``select_related`` of the users) that
was about 4,600 Python calls of a connect's 8,500, nearly all of it building
and compiling the same two queries again; at 400 games the connects of new
matches queued behind each other for longer than clients wait. Here the two
SELECTs are written once per process and their rows become model instances
through ``Model.from_db`` with the database's own value converters (what the
ORM applies: ``config.rows``), so the instances are the ones the ORM would
build.
"""

from __future__ import annotations

import uuid
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from config.rows import Columns, columns_of
from gameplay.models import Match, Seat

# An SQL statement and the values bound to its ``%s`` markers.
Statement = tuple[str, list[Any]]


@cache
def _read_plan(
    vendor: str, with_state: bool, by_public_id: bool = False
) -> tuple[Columns[Match], Columns[Seat], Columns[Any], str, str]:
    """The columns and the two SELECTs, per database vendor, with or without
    the state column, the match named by its id or its public id (built once
    per process; the converters do not depend on the connection they were
    found on)."""
    skip = () if with_state else ("state",)
    match = columns_of(Match, skip)
    seat, user = columns_of(Seat), columns_of(get_user_model())
    quote = connection.ops.quote_name
    m, s = quote(Match._meta.db_table), quote(Seat._meta.db_table)
    u = quote(get_user_model()._meta.db_table)
    key = "public_id" if by_public_id else "id"
    match_sql = f"SELECT {match.sql} FROM {m} WHERE {m}.{key} = %s"
    of_match = match_id_sql() if by_public_id else "%s"
    seats_sql = (
        f"SELECT {seat.sql}, {user.sql} FROM {s} LEFT OUTER JOIN {u} "
        f"ON {u}.id = {s}.user_id WHERE {s}.match_id = {of_match} "
        f"ORDER BY {s}.number"
    )
    return match, seat, user, match_sql, seats_sql


def match_id_sql() -> str:
    """SQL for the id of the match whose public id is the one parameter
    (``public_id_param``): for statements sent before the match is known."""
    table = connection.ops.quote_name(Match._meta.db_table)
    return f"(SELECT id FROM {table} WHERE public_id = %s)"


def public_id_param(public_id: str) -> Any:
    """``public_id`` (canonical UUID text) as the database takes it."""
    field = Match._meta.get_field("public_id")
    return field.get_db_prep_value(uuid.UUID(public_id), connection)


def _results(statements: list[Statement], *, write_first: bool) -> list[Any]:
    """Each statement's rows, in order; ``write_first``: the first statement
    is a write, its result the number of rows it changed. On PostgreSQL all
    in one message, one round trip (Django's cursor binds client-side, as
    ``store.append`` relies on), run as one implicit transaction: each
    statement sees the writes before it, and an error undoes them all.
    Elsewhere one execute each."""
    out: list[Any] = []
    with connection.cursor() as wrapper:
        if connection.vendor != "postgresql":
            for index, (sql, params) in enumerate(statements):
                wrapper.execute(sql, params)
                write = write_first and index == 0
                out.append(wrapper.rowcount if write else wrapper.fetchall())
            return out
        wrapper.execute(
            "; ".join(sql for sql, _params in statements),
            [param for _sql, params in statements for param in params],
        )
        # psycopg's own cursor: each attribute read through Django's wrapper
        # is a Python call more (and ``description``, which would tell a
        # write's result from a read's, builds every column's description).
        cursor = wrapper.cursor
        out.append(cursor.rowcount if write_first else cursor.fetchall())
        while cursor.nextset():
            out.append(cursor.fetchall())
    return out


def match_pk_of(public_id: str) -> int | None:
    """The primary key of the match with ``public_id`` (canonical UUID text),
    or None: one SELECT without building a queryset."""
    quote = connection.ops.quote_name
    table = quote(Match._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id FROM {table} WHERE public_id = %s", [public_id_param(public_id)]
        )
        row = cursor.fetchone()
    return None if row is None else row[0]


def read_match(match_id: int, *, with_state: bool = True) -> Match | None:
    """The match with its seats (in seat order) and their users, as
    ``Match.objects.prefetch_related(Prefetch("seats",
    queryset=Seat.objects.select_related("user")))`` returns it: the seats in
    the prefetch cache (``selectors.seats_of``, ``match.seats.all()``), each
    seat's match and user cached. ``with_state=False``: the state column (the
    largest) is not read, as ``defer("state")``. None: no such match. Two
    SELECTs, one round trip on PostgreSQL."""
    plan = _read_plan(connection.vendor, with_state)
    _match, _seat, _user, match_sql, seats_sql = plan
    if connection.vendor == "postgresql":
        found, seat_rows = _results(
            [(match_sql, [match_id]), (seats_sql, [match_id])], write_first=False
        )
    else:
        with connection.cursor() as cursor:
            cursor.execute(match_sql, [match_id])
            found = cursor.fetchall()
            if not found:
                return None  # the seats are not asked for
            cursor.execute(seats_sql, [match_id])
            seat_rows = cursor.fetchall()
    return _built(plan, found, seat_rows)


def read_match_after(
    statement: Statement | None,
    *,
    match_id: int | None = None,
    public_id: str | None = None,
    also: Statement | None = None,
) -> tuple[int, Match | None, list[Any] | None]:
    """``statement`` (a write, or None), then the match (by ``match_id``, or
    by its public id, canonical UUID text) read as ``read_match`` reads it,
    seeing that write, then ``also`` (a SELECT, or None): one round trip on
    PostgreSQL (a socket's connect counts its seat in and reads the match;
    its close counts it out, reads, and asks for a rematch). Returns the rows
    the statement changed (0 without one), the match (None: no such match)
    and the rows of ``also`` (None without one)."""
    plan = _read_plan(connection.vendor, True, public_id is not None)
    _match, _seat, _user, match_sql, seats_sql = plan
    key = match_id if public_id is None else public_id_param(public_id)
    statements: list[Statement] = [(match_sql, [key]), (seats_sql, [key])]
    if statement is not None:
        statements.insert(0, statement)
    if also is not None:
        statements.append(also)
    results = _results(statements, write_first=statement is not None)
    changed = 0 if statement is None else results.pop(0)
    also_rows = None if also is None else results.pop()
    return changed, _built(plan, *results), also_rows


def _built(
    plan: tuple[Columns[Match], Columns[Seat], Columns[Any], str, str],
    found: list[Any],
    seat_rows: list[Any],
) -> Match | None:
    """The match of ``found`` (its row, or none) with ``seat_rows``."""
    if not found:
        return None
    match_columns, seat_columns, user_columns, _match_sql, _seats_sql = plan
    match = match_columns.build(list(found[0]))
    width = len(seat_columns.attnames)
    match_field, user_field = Seat.match.field, Seat.user.field
    seats = []
    for seat_row in seat_rows:
        seat = seat_columns.build(list(seat_row[:width]))
        match_field.set_cached_value(seat, match)
        user = None
        if seat.user_id is not None:
            user = user_columns.build(list(seat_row[width:]))
        user_field.set_cached_value(seat, user)
        seats.append(seat)
    # The prefetch cache as ``prefetch_related`` leaves it: a queryset of the
    # match's seats whose rows are already here. These are the ORM's private
    # attributes, which the stubs do not all declare.
    queryset = match.seats.all()
    queryset._result_cache = seats
    queryset._prefetch_done = True  # type: ignore[attr-defined]
    match._prefetched_objects_cache = {"seats": queryset}  # type: ignore[attr-defined]
    return match
