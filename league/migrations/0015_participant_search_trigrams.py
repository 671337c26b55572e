"""Trigram indexes for the rankings' name search on PostgreSQL.

The search (``league.ratings.selectors.ranking_page``) matches a
participant's name or its user's username anywhere (``icontains``, which
Django writes ``UPPER(col::text) LIKE UPPER(...)``). Without an index that
is a scan of every participant; these GIN indexes on the same expressions
(``pg_trgm``) find the matches of a needle of three or more characters
directly. The index on ``accounts_user.username`` is the league's: it serves
this search only, so it lives with it.

``pg_trgm`` is a trusted extension (PostgreSQL 13+): the database's owner may
create it. Where it cannot be created the migration logs why and creates no
index; the search still works, only slower. Other databases ignore this.
"""

import logging

from django.db import migrations

logger = logging.getLogger(__name__)

INDEXES = (
    ("league_participant_name_trgm", "league_participant", "name"),
    ("league_user_username_trgm", "accounts_user", "username"),
)


def install(apps, schema_editor) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    from django.db import DatabaseError, transaction

    try:
        with transaction.atomic(using=connection.alias):
            schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except DatabaseError as exc:
        logger.warning("pg_trgm not available, no search indexes: %s", exc)
        return
    for name, table, column in INDEXES:
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON {table}"
            f" USING gin ((UPPER({column}::text)) gin_trgm_ops)"
        )


def uninstall(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _, _ in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0014_correspondence_pools"),
        ("accounts", "0001_initial"),
    ]

    operations = [migrations.RunPython(install, uninstall)]
