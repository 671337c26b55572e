"""Room on the rating events' pages for a recompute to rewrite them in place.

A recompute rewrites ``rating_before``, ``rating_after`` and ``delta`` of the
events that changed; after a correction early in a pool's history that is
nearly all of them. None of the three is indexed, so PostgreSQL can update a
row on its own page without touching the four indexes (a HOT update), but
only where the page has room for the new version: at the default fill factor
of 100 it has none. At 45 every row of a page fits its new version: on the
2-core VM at load 12, rewriting 800,000 events took 14.4 s instead of 68.1 s
(all 800,000 updates HOT), for about twice the table's size. Pages written
before this migration keep their old fill until a ``VACUUM FULL``. Other
databases ignore it.
"""

from django.db import migrations


def tune(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE league_ratingevent SET (fillfactor = 45)")


def untune(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE league_ratingevent RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [("league", "0012_time_control_vacation")]

    operations = [migrations.RunPython(tune, untune)]
