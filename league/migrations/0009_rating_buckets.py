"""Rating buckets: a per-pool histogram of ratings kept by triggers.

``league_ratingbucket`` counts each pool's ratings per whole point
(``floor(rating)``). Triggers on ``league_rating`` move the counts on every
insert, delete and change of a rating or its pool, so the histogram holds
whoever writes the rows: the apply path's raw SQL, a recompute's bulk writes,
a cascade from a deleted pool or participant, a bulk load. The rankings page
and a player's rank read it (league/ratings/selectors.py); docs/ratings.md,
"Rankings at scale", says why. The existing ratings are counted here once.

PostgreSQL: one PL/pgSQL function, an AFTER ... FOR EACH ROW trigger; an
update that keeps the rating in its bucket fires nothing (``WHEN``). SQLite:
three triggers with the same effect (``floor`` spelled with CAST, which
truncates toward zero).
"""

from django.db import migrations, models

PG_INSTALL = """
CREATE FUNCTION league_rating_bucket_move() RETURNS trigger AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE league_ratingbucket SET count = count - 1
        WHERE pool_id = OLD.pool_id AND bucket = floor(OLD.rating)::integer;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO league_ratingbucket (pool_id, bucket, count)
        VALUES (NEW.pool_id, floor(NEW.rating)::integer, 1)
        ON CONFLICT (pool_id, bucket)
        DO UPDATE SET count = league_ratingbucket.count + 1;
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER league_rating_bucket_insert_delete
    AFTER INSERT OR DELETE ON league_rating
    FOR EACH ROW EXECUTE FUNCTION league_rating_bucket_move();
CREATE TRIGGER league_rating_bucket_update
    AFTER UPDATE OF rating, pool_id ON league_rating
    FOR EACH ROW
    WHEN (OLD.pool_id <> NEW.pool_id OR floor(OLD.rating) <> floor(NEW.rating))
    EXECUTE FUNCTION league_rating_bucket_move();
"""

PG_REMOVE = """
DROP TRIGGER IF EXISTS league_rating_bucket_update ON league_rating;
DROP TRIGGER IF EXISTS league_rating_bucket_insert_delete ON league_rating;
DROP FUNCTION IF EXISTS league_rating_bucket_move();
"""


def _floor(value: str) -> str:
    """floor() in SQLite without its optional math functions."""
    return f"(CAST({value} AS INTEGER) - ({value} < CAST({value} AS INTEGER)))"


SQLITE_ADD = f"""
    INSERT INTO league_ratingbucket (pool_id, bucket, count)
    VALUES (NEW.pool_id, {_floor("NEW.rating")}, 1)
    ON CONFLICT (pool_id, bucket) DO UPDATE SET count = count + 1;"""
SQLITE_REMOVE = f"""
    UPDATE league_ratingbucket SET count = count - 1
    WHERE pool_id = OLD.pool_id AND bucket = {_floor("OLD.rating")};"""

SQLITE_INSTALL = [
    "CREATE TRIGGER league_rating_bucket_insert AFTER INSERT ON league_rating"
    f" BEGIN {SQLITE_ADD} END",
    "CREATE TRIGGER league_rating_bucket_delete AFTER DELETE ON league_rating"
    f" BEGIN {SQLITE_REMOVE} END",
    "CREATE TRIGGER league_rating_bucket_update"
    " AFTER UPDATE OF rating, pool_id ON league_rating FOR EACH ROW"
    " WHEN OLD.pool_id <> NEW.pool_id OR"
    f" {_floor('OLD.rating')} <> {_floor('NEW.rating')}"
    f" BEGIN {SQLITE_REMOVE} {SQLITE_ADD} END",
]

SQLITE_UNINSTALL = [
    "DROP TRIGGER IF EXISTS league_rating_bucket_insert",
    "DROP TRIGGER IF EXISTS league_rating_bucket_delete",
    "DROP TRIGGER IF EXISTS league_rating_bucket_update",
]


def install(apps, schema_editor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_INSTALL)
        floor = "floor(rating)::integer"
    elif vendor == "sqlite":
        for sql in SQLITE_INSTALL:
            schema_editor.execute(sql)
        floor = _floor("rating")
    else:
        raise RuntimeError(f"rating buckets: no triggers for {vendor}")
    schema_editor.execute(
        "INSERT INTO league_ratingbucket (pool_id, bucket, count)"
        f" SELECT pool_id, {floor}, COUNT(*) FROM league_rating"
        f" GROUP BY pool_id, {floor}"
    )


def uninstall(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_REMOVE)
    else:
        for sql in SQLITE_UNINSTALL:
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("league", "0008_tournament_format_label")]

    operations = [
        migrations.CreateModel(
            name="RatingBucket",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True,
                        primary_key=True,
                        serialize=False,
                        verbose_name="ID",
                    ),
                ),
                ("bucket", models.IntegerField(help_text="floor(rating)")),
                ("count", models.IntegerField(default=0)),
                (
                    "pool",
                    models.ForeignKey(
                        on_delete=models.deletion.CASCADE,
                        related_name="buckets",
                        to="league.ratingpool",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("pool", "bucket"), name="one_bucket_per_pool_point"
                    )
                ],
            },
        ),
        migrations.RunPython(install, uninstall),
    ]
