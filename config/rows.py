"""Model instances from rows read by hand, as the ORM would build them.

Reads made on every socket's connect and close (the live match, the socket's
session and user) are written as SQL once per process instead of being built
by the ORM each time: building and compiling a query is most of what a small
ORM read costs in Python calls. ``Columns`` turns such a row into the instance
the ORM would return: the database's own value converters applied (what the
ORM applies), then ``Model.from_db``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connection, models

M = TypeVar("M", bound=models.Model)


@dataclass(frozen=True)
class Columns(Generic[M]):
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


def columns_of(model: type[M], skip: tuple[str, ...] = ()) -> Columns[M]:
    """``skip``: fields left out (deferred in the instance, as ``defer``).

    The converters do not depend on the connection they were found on, so a
    caller may keep the result for the process (per database vendor)."""
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
    return Columns(
        model=model,
        sql=", ".join(f"{quote(table)}.{quote(f.column)}" for f in fields),
        attnames=[f.attname for f in fields],
        converters=converters,
    )
