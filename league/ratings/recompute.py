"""A pool's full recompute: replay its events in ``seq`` order and rewrite what
differs (``rating_recompute_pool``).

The replay is ``elo.replay_events`` over the events' columns (the same kernel
as ``elo.rate_match``, so it reproduces the incremental ratings exactly); the
changed values go back in one binary ``COPY`` on PostgreSQL (rows on other
databases). It lives apart from the match-by-match writes of
``league.ratings.services`` (which call it after a void or a correction)
because it reads and writes a whole pool at once, with its own costs:
docs/ratings.md, "Rankings at scale", and docs/performance.md, "Ratings".
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import itemgetter, ne
from typing import Any

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from league.models import (
    Rating,
    RatingEvent,
    RatingPool,
    RatingSeed,
)
from league.ratings import elo
from league.ratings.anchors import pool_anchors


@dataclass(frozen=True)
class RecomputeResult:
    pool_id: int
    matches: int
    events_changed: int
    ratings: int


def _match_bounds(seqs: Sequence[int]) -> list[tuple[int, int]]:
    """The (start, end) slice of each match in events sorted by ``seq``."""
    if not seqs:
        return []
    cuts = list(compress(range(1, len(seqs)), map(ne, seqs, seqs[1:])))
    return list(zip([0, *cuts], [*cuts, len(seqs)], strict=True))


def _event_columns(pool_id: int) -> list[list[Any]]:
    """The pool's events in ``seq`` order as eight columns: seq, id,
    participant, placement, rating before, after, delta, score."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT seq, id, participant_id, placement, rating_before,"
            f" rating_after, delta, score FROM {RatingEvent._meta.db_table}"
            " WHERE pool_id = %s ORDER BY seq, participant_id",
            [pool_id],
        )
        rows = cursor.fetchall()
    return [list(map(itemgetter(i), rows)) for i in range(8)]


def rating_recompute_pool(
    *,
    pool_id: int,
    progress: Callable[[Iterable[Any], int], Iterable[Any]] | None = None,
) -> RecomputeResult:
    """Replay the pool from its events (in ``seq`` order) and rewrite what differs.

    ``progress(iterable, total)`` may wrap the stream of matches (the
    management command passes a tqdm bar). The pool stays locked for the whole
    replay so no update lands in between. The events are read as columns and
    replayed by ``elo.replay_events`` (no object per event or match).
    """
    with transaction.atomic():
        pool = RatingPool.objects.select_for_update().get(pk=pool_id)
        config = pool.elo_config
        initial = {
            s.participant_id: elo.PlayerState(s.rating, s.games, s.reached_elite)
            for s in RatingSeed.objects.filter(pool=pool)
        }
        seqs, event_ids, pids, ranks, befores, afters, deltas, scores = _event_columns(
            pool.pk
        )
        bounds = _match_bounds(seqs)
        matches_total = len(bounds)
        stream: Iterable[tuple[int, int]] = bounds
        if progress is not None:
            stream = progress(stream, matches_total)
        replay = elo.replay_events(
            pids,
            ranks,
            stream,
            config=config,
            initial=initial,
            fixed=pool_anchors(pool),
        )
        # delta is after - before, as the update stores it.
        changed = [
            (event_id, new_before, new_after, new_after - new_before)
            for event_id, new_before, new_after, before, after, delta in zip(
                event_ids,
                replay.befores,
                replay.afters,
                befores,
                afters,
                deltas,
                strict=True,
            )
            if new_before != before
            or new_after != after
            or new_after - new_before != delta
        ]
        # Per participant: [peak, played, wins, points, last played]. Points
        # add up in seq order, as the updates added them.
        stats: dict[int, list] = {}
        for pid, rank, score, new_before, new_after in zip(
            pids, ranks, scores, replay.befores, replay.afters, strict=True
        ):
            st = stats.get(pid)
            if st is None:
                stats[pid] = [
                    max(new_before, new_after),
                    1,
                    int(rank == 1),
                    0.0 + score,
                    None,
                ]
            else:
                if new_after > st[0]:
                    st[0] = new_after
                st[1] += 1
                st[2] += rank == 1
                st[3] += score
        last_played = dict(
            RatingEvent.objects.filter(pool=pool)
            .values("participant_id")
            .annotate(last=Max("created"))
            .values_list("participant_id", "last")
        )
        for pid, st in stats.items():
            st[4] = last_played.get(pid)
        _write_event_values(changed)
        _write_ratings(pool, replay.states, stats)
        RatingPool.objects.filter(pk=pool.pk).update(
            rated_matches=matches_total,
            rating_count=len(stats),
            recomputed_at=timezone.now(),
        )
    return RecomputeResult(pool.pk, matches_total, len(changed), len(stats))


# PostgreSQL's binary COPY: the signature (with no flags and no extension),
# one row of (bigint, three float8) as four length-prefixed fields, the end.
_COPY_BINARY_SIGNATURE = b"PGCOPY\n\xff\r\n\0" + bytes(8)
_COPY_VALUES_ROW = struct.Struct("!hiqididid")
_COPY_BINARY_TRAILER = b"\xff\xff"


def _write_event_values(changed: list[tuple[int, float, float, float]]) -> None:
    """Rewrite (before, after, delta) of the changed events in bulk.

    PostgreSQL: COPY the new values into a temporary table and run one
    UPDATE ... FROM join (a VALUES list per chunk made the planner scan the
    whole event table once per chunk). Elsewhere: UPDATE ... FROM a VALUES
    CTE, a few thousand rows per statement.
    """
    if not changed:
        return
    table = RatingEvent._meta.db_table
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "CREATE TEMPORARY TABLE league_recompute_values (id bigint,"
                " b double precision, a double precision, d double precision)"
                " ON COMMIT DROP"
            )
            with cursor.cursor.copy(
                "COPY league_recompute_values (id, b, a, d) FROM STDIN (FORMAT BINARY)"
            ) as copy:
                # COPY's binary format packed here: exact floats, and one
                # ``struct`` call per row where ``write_row`` dumps each value
                # in Python (6.8 s of a profiled 62 s full recompute).
                pack = _COPY_VALUES_ROW.pack
                copy.write(_COPY_BINARY_SIGNATURE)
                for start in range(0, len(changed), 10_000):
                    copy.write(
                        b"".join(
                            pack(4, 8, i, 8, b, 8, a, 8, d)
                            for i, b, a, d in changed[start : start + 10_000]
                        )
                    )
                copy.write(_COPY_BINARY_TRAILER)
            cursor.execute("ANALYZE league_recompute_values")
            cursor.execute(
                f"UPDATE {table} AS e SET rating_before = v.b, rating_after = v.a,"
                " delta = v.d FROM league_recompute_values AS v WHERE e.id = v.id"
            )
            cursor.execute("DROP TABLE league_recompute_values")
        return
    chunk = 5000
    with connection.cursor() as cursor:
        for start in range(0, len(changed), chunk):
            part = changed[start : start + chunk]
            values = ", ".join(["(%s, %s, %s, %s)"] * len(part))
            cursor.execute(
                f"WITH v(id, b, a, d) AS (VALUES {values}) UPDATE {table}"
                " SET rating_before = v.b, rating_after = v.a, delta = v.d"
                f" FROM v WHERE {table}.id = v.id",
                [x for row in part for x in row],
            )


def _write_ratings(
    pool: RatingPool, states: dict[int, elo.PlayerState], stats: dict[int, list]
) -> None:
    """Make the pool's Rating rows equal to the replay (only differing rows written)."""
    existing = {r.participant_id: r for r in Rating.objects.filter(pool=pool)}
    stale = [r.pk for pid, r in existing.items() if pid not in stats]
    if stale:
        Rating.objects.filter(pk__in=stale).delete()
    fields = [
        "rating",
        "games",
        "reached_elite",
        "peak",
        "played",
        "wins",
        "points",
        "last_played_at",
    ]
    create, update = [], []
    for pid, (peak, played, wins, points, last) in stats.items():
        state = states[pid]
        values = {
            "rating": state.rating,
            "games": state.games,
            "reached_elite": state.reached_elite,
            "peak": peak,
            "played": played,
            "wins": wins,
            "points": points,
            "last_played_at": last,
        }
        row = existing.get(pid)
        if row is None:
            create.append(Rating(pool=pool, participant_id=pid, **values))
        elif any(getattr(row, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(row, k, v)
            update.append(row)
    Rating.objects.bulk_create(create, batch_size=2000)
    Rating.objects.bulk_update(update, fields, batch_size=1000)
