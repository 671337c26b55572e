"""Rating buckets on PostgreSQL: one trigger call per statement, not per row.

0009's row triggers upsert a bucket once per rating row. A bulk write (a
recompute's ``bulk_update``, a COPY of many ratings) then updates the same
few hundred bucket rows thousands of times in one transaction, and each
update walks the row's growing chain of versions: a million-row COPY took
minutes. These statement triggers read the statement's transition tables,
count the rows per bucket and apply one change per bucket. The apply path
(one UPDATE per player) costs the same as before. SQLite keeps 0009's row
triggers (it has no statement triggers; its pools are small).

Transition tables cannot be combined with a column list (``UPDATE OF``), so
the update trigger runs for every UPDATE of ratings and moves only the rows
whose bucket or pool changed.
"""

from django.db import migrations

INSTALL = """
DROP TRIGGER IF EXISTS league_rating_bucket_update ON league_rating;
DROP TRIGGER IF EXISTS league_rating_bucket_insert_delete ON league_rating;
DROP FUNCTION IF EXISTS league_rating_bucket_move();

CREATE FUNCTION league_rating_buckets_add() RETURNS trigger AS $$
BEGIN
    INSERT INTO league_ratingbucket (pool_id, bucket, count)
    SELECT pool_id, floor(rating)::integer, COUNT(*) FROM new_rows
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (pool_id, bucket)
    DO UPDATE SET count = league_ratingbucket.count + EXCLUDED.count;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE FUNCTION league_rating_buckets_remove() RETURNS trigger AS $$
BEGIN
    UPDATE league_ratingbucket AS b SET count = b.count - o.n
    FROM (SELECT pool_id, floor(rating)::integer AS bucket, COUNT(*) AS n
          FROM old_rows GROUP BY 1, 2) AS o
    WHERE b.pool_id = o.pool_id AND b.bucket = o.bucket;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE FUNCTION league_rating_buckets_move() RETURNS trigger AS $$
BEGIN
    -- Rows that left a bucket (old side) and entered one (new side), matched
    -- by id; one change per bucket, in (pool, bucket) order on both sides.
    WITH moved AS (
        SELECT o.pool_id AS old_pool, floor(o.rating)::integer AS old_bucket,
               n.pool_id AS new_pool, floor(n.rating)::integer AS new_bucket
        FROM old_rows AS o JOIN new_rows AS n ON n.id = o.id
        WHERE o.pool_id <> n.pool_id OR floor(o.rating) <> floor(n.rating)
    ), delta AS (
        SELECT pool_id, bucket, SUM(n) AS n FROM (
            SELECT old_pool AS pool_id, old_bucket AS bucket, -1 AS n FROM moved
            UNION ALL
            SELECT new_pool, new_bucket, 1 FROM moved
        ) AS d GROUP BY 1, 2 HAVING SUM(n) <> 0
    )
    INSERT INTO league_ratingbucket (pool_id, bucket, count)
    SELECT pool_id, bucket, n FROM delta ORDER BY 1, 2
    ON CONFLICT (pool_id, bucket)
    DO UPDATE SET count = league_ratingbucket.count + EXCLUDED.count;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER league_rating_buckets_insert AFTER INSERT ON league_rating
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION league_rating_buckets_add();
CREATE TRIGGER league_rating_buckets_delete AFTER DELETE ON league_rating
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION league_rating_buckets_remove();
CREATE TRIGGER league_rating_buckets_update AFTER UPDATE ON league_rating
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION league_rating_buckets_move();
"""

REMOVE = """
DROP TRIGGER IF EXISTS league_rating_buckets_update ON league_rating;
DROP TRIGGER IF EXISTS league_rating_buckets_delete ON league_rating;
DROP TRIGGER IF EXISTS league_rating_buckets_insert ON league_rating;
DROP FUNCTION IF EXISTS league_rating_buckets_move();
DROP FUNCTION IF EXISTS league_rating_buckets_remove();
DROP FUNCTION IF EXISTS league_rating_buckets_add();
"""


def install(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(INSTALL)


def uninstall(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    from importlib import import_module

    schema_editor.execute(REMOVE)
    row_triggers = import_module("league.migrations.0009_rating_buckets")
    schema_editor.execute(row_triggers.PG_INSTALL)


class Migration(migrations.Migration):
    dependencies = [("league", "0010_divisions_checkin")]

    operations = [migrations.RunPython(install, uninstall)]
