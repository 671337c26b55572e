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
ORM applies), so the instances are the ones the ORM would build.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, TypeVar

from django.contrib.auth import get_user_model
from django.db import connection, models

from gameplay.models import Match, Seat

M = TypeVar("M", bound=models.Model)


@dataclass(frozen=True)
class _Columns(Generic[M]):
    """How one model's rows are selected and turned into instances."""

    model: type[M]
    sql: str  # the quoted table.column list
    attnames: list[str]
    converters: list[tuple[int, list[Callable[..., Any]], Any]]

    def build(self, values: list[Any]) -> M:
        for index, converters, expression in self.converters:
            value = values[index]
            for convert in converters:
                value = convert(value, expression, connection)
            values[index] = value
        return self.model.from_db(connection.alias, self.attnames, values)


def _columns_of(model: type[M], skip: tuple[str, ...] = ()) -> _Columns[M]:
    """``skip``: fields left out (deferred in the instance, as ``defer``)."""
    quote = connection.ops.quote_name
    table = model._meta.db_table
    fields = [f for f in model._meta.concrete_fields if f.attname not in skip]
    converters = []
    for index, field in enumerate(fields):
        expression = field.get_col(table)
        # Field.get_db_converters exists (the ORM calls it); the stubs omit it.
        found = connection.ops.get_db_converters(expression) + field.get_db_converters(  # type: ignore[attr-defined]
            connection
        )
        if found:
            converters.append((index, found, expression))
    return _Columns(
        model=model,
        sql=", ".join(f"{quote(table)}.{quote(f.column)}" for f in fields),
        attnames=[f.attname for f in fields],
        converters=converters,
    )


@cache
def _read_plan(
    vendor: str, with_state: bool
) -> tuple[_Columns[Match], _Columns[Seat], _Columns[Any], str, str]:
    """The columns and the two SELECTs, per database vendor and with or
    without the state column (built once per process; the converters do not
    depend on the connection they were found on)."""
    skip = () if with_state else ("state",)
    match = _columns_of(Match, skip)
    seat, user = _columns_of(Seat), _columns_of(get_user_model())
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
