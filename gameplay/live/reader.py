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


@cache
def _read_plan(
    vendor: str, with_state: bool
) -> tuple[Columns[Match], Columns[Seat], Columns[Any], str, str]:
    """The columns and the two SELECTs, per database vendor and with or
    without the state column (built once per process; the converters do not
    depend on the connection they were found on)."""
    skip = () if with_state else ("state",)
    match = columns_of(Match, skip)
    seat, user = columns_of(Seat), columns_of(get_user_model())
    quote = connection.ops.quote_name
    m, s = quote(Match._meta.db_table), quote(Seat._meta.db_table)
    u = quote(get_user_model()._meta.db_table)
    match_sql = f"SELECT {match.sql} FROM {m} WHERE {m}.id = %s"
    seats_sql = (
        f"SELECT {seat.sql}, {user.sql} FROM {s} LEFT OUTER JOIN {u} "
        f"ON {u}.id = {s}.user_id WHERE {s}.match_id = %s ORDER BY {s}.number"
    )
    return match, seat, user, match_sql, seats_sql


def match_pk_of(public_id: str) -> int | None:
    """The primary key of the match with ``public_id`` (canonical UUID text),
    or None: one SELECT without building a queryset (every connect asks)."""
    field = Match._meta.get_field("public_id")
    value = field.get_db_prep_value(uuid.UUID(public_id), connection)
    quote = connection.ops.quote_name
    table = quote(Match._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id FROM {table} WHERE public_id = %s", [value])
        row = cursor.fetchone()
    return None if row is None else row[0]


def read_match(match_id: int, *, with_state: bool = True) -> Match | None:
    """The match with its seats (in seat order) and their users, as
    ``Match.objects.prefetch_related(Prefetch("seats",
    queryset=Seat.objects.select_related("user")))`` returns it: the seats in
    the prefetch cache (``selectors.seats_of``, ``match.seats.all()``), each
    seat's match and user cached. ``with_state=False``: the state column (the
    largest) is not read, as ``defer("state")``. None: no such match. Two
    queries."""
    match_columns, seat_columns, user_columns, match_sql, seats_sql = _read_plan(
        connection.vendor, with_state
    )
    with connection.cursor() as cursor:
        cursor.execute(match_sql, [match_id])
        row = cursor.fetchone()
        if row is None:
            return None
        cursor.execute(seats_sql, [match_id])
        seat_rows = cursor.fetchall()
    match = match_columns.build(list(row))
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
