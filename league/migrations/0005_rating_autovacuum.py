"""Vacuum the ratings tables often on PostgreSQL.

Rankings pages walk the (pool, -rating, id) index with an OFFSET; that stays an
index-only scan only while the visibility map is current. Every finished match
updates rating rows, so the default autovacuum threshold (20% of a 100,000-row
table) would leave most pages unvacuumed for long stretches. 1% keeps the map
fresh at a negligible cost. Other databases ignore this migration.
"""

from django.db import migrations

TABLES = ("league_rating", "league_ratingevent")


def tune(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(
            f"ALTER TABLE {table} SET (autovacuum_vacuum_scale_factor = 0.01,"
            " autovacuum_vacuum_insert_scale_factor = 0.01,"
            " autovacuum_analyze_scale_factor = 0.02)"
        )


def untune(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(
            f"ALTER TABLE {table} RESET (autovacuum_vacuum_scale_factor,"
            " autovacuum_vacuum_insert_scale_factor, autovacuum_analyze_scale_factor)"
        )


class Migration(migrations.Migration):
    dependencies = [("league", "0004_multiplayer_swiss_tables")]

    operations = [migrations.RunPython(tune, untune)]
