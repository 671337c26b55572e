"""Rating reads: rankings pages, a player's history and head-to-head records."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import QuerySet
from django.urls import NoReverseMatch, reverse

from accounts.models import User
from gameplay.models import Match, MatchStatus, Seat
from league.models import (
    Participant,
    PoolScope,
    Rating,
    RatingBucket,
    RatingEvent,
    RatingPool,
)
from league.ratings.anchors import anchors_among
from league.ratings.elo import display_rating, is_provisional
from league.ratings.services import may_feed_pools

#: The results panel's words for a rated match the ratings could not apply.
REPEATED_BOT_NOTE = (
    "This game was not rated: two seats were the same bot, which the ratings "
    "count as one player. A rated table seats each bot once."
)


def match_rating_changes(match: Match) -> dict[str, object]:
    """The rating change of each rated player of a finished match, per pool.

    Added to the match's frames (gameplay.frames.add_result_extra), so the
    results panel shows them; empty until the rating task has run, which then
    broadcasts the match again. Empty, without a read, while the writer that
    just committed the finish builds its frames (``Match.just_finished``):
    the rating task has not even been queued then.
    """
    # A season (or league tournament) game feeds its league's pools even when
    # it is not rated on the global ladder: its players see those changes.
    if not may_feed_pools(rated=match.rated, context=match.context):
        return {}
    if match.just_finished:
        return {"rating_changes": [], "rated": True}
    seats_by_key: dict[str, list[int]] = {}
    for seat in match.seats.all():
        if seat.user_id is not None:
            seats_by_key.setdefault(Participant.user_key(seat.user_id), []).append(
                seat.number
            )
        elif seat.agent:
            seats_by_key.setdefault(seat.agent, []).append(seat.number)
    events = RatingEvent.objects.filter(match=match).select_related(
        "participant", "pool", "pool__league", "pool__season__league"
    )
    if not events.exists():
        repeated = [seats for seats in seats_by_key.values() if len(seats) > 1]
        if repeated:
            # Never rated (rating_apply_match finds one player in two seats):
            # say so instead of promising changes that never come.
            return {"rating_changes": [], "rating_note": REPEATED_BOT_NOTE}
    changes = [
        {
            "name": event.participant.name,
            "seats": seats_by_key.get(event.participant.key, []),
            "pool": str(event.pool),
            "before": round(event.rating_before),
            "after": round(event.rating_after),
            "delta": round(event.delta, 1),
        }
        for event in events.order_by("pool__scope", "pool_id", "placement")
    ]
    # ``rated``: the panel promises changes that come (the frame's own flag
    # is the global ladder's).
    return {"rating_changes": changes, "rated": True}


def pools(*, game: str | None = None) -> QuerySet[RatingPool]:
    qs = RatingPool.objects.select_related("league", "season__league")
    if game:
        qs = qs.filter(game=game)
    return qs.order_by("game", "scope", "pk")


def default_pool(*, game: str) -> RatingPool | None:
    return RatingPool.objects.filter(scope=PoolScope.GLOBAL, game=game).first()


@dataclass(frozen=True)
class RankingRow:
    rank: int
    participant: Participant
    rating: int
    exact: float
    games: int
    played: int
    wins: int
    points: float
    peak: int
    provisional: bool
    last_played_at: datetime | None
    # Where the row links ("" for none) and the fixed rating of an anchor.
    url: str = ""
    anchor: float | None = None


def participant_link(participant: Participant | None) -> str:
    """Where a rankings row links: a person's profile, an uploaded bot's page
    (when the bots app is installed), nothing for a built-in bot."""
    if participant is None:
        return ""
    if participant.user_id is not None and participant.user is not None:
        return reverse("accounts:profile", args=[participant.user.username])
    if participant.bot_id is not None:
        try:
            return reverse("bots:detail", args=[participant.bot_id])
        except NoReverseMatch:  # league runs without the bots app too
            return ""
    return ""


class _CountedPaginator(Paginator):
    """A paginator told its count: the pool keeps it, so no COUNT(*) per page."""

    def __init__(
        self, object_list: QuerySet[Rating], per_page: int, *, count: int
    ) -> None:
        super().__init__(object_list, per_page)
        self._known_count = count

    @property
    def count(self) -> int:
        return self._known_count


def ranking_page(
    *, pool: RatingPool, page: int | str = 1, search: str = "", per_page: int = 50
) -> tuple[Page, list[RankingRow]]:
    """One page of a pool's ranking, best first; ranks are pool-wide.

    Without a search the rank is the row's position (page offset + index), read
    from the (pool, -rating, id) index. With a search each shown row's rank is
    counted separately (one indexed COUNT per row, at most ``per_page``).
    """
    config = pool.elo_config
    qs = (
        Rating.objects.filter(pool=pool)
        .select_related("participant__user")
        .order_by("-rating", "id")
    )
    search = search.strip()
    if search:
        # The participants first, each name on its own (a union, not an OR
        # across two joined tables, so each side can use its trigram index on
        # PostgreSQL, migration league 0014), then their ratings in the pool
        # through the (participant, pool) index: the OR over the join walked
        # every rating of the pool, 12-42 s at a million players.
        people = Participant.objects.order_by()
        by_name = people.filter(name__icontains=search).values("pk")
        by_username = people.filter(user__username__icontains=search).values("pk")
        matching = by_name.union(by_username)
        qs = qs.filter(participant_id__in=matching)
        paginator = Paginator(qs, per_page)
    else:
        paginator = _CountedPaginator(qs, per_page, count=pool.rating_count)
    page_obj = paginator.get_page(page)
    offset = (page_obj.number - 1) * per_page
    if not search:
        # Deferred join: find the page's ids on the (pool, -rating, id) index
        # alone, then load just those rows with their participants. Joining
        # before the OFFSET would touch every skipped row too.
        ids = page_rating_ids(pool=pool, offset=offset, limit=per_page)
        loaded = Rating.objects.filter(pk__in=ids).select_related("participant__user")
        page_obj.object_list = sorted(loaded, key=lambda r: (-r.rating, r.pk))
    rows = []
    shown = list(page_obj.object_list)
    found_ranks = (
        ranks_of(pool=pool, ratings=[(r.pk, r.rating) for r in shown]) if search else {}
    )
    # The page's anchors in one pass (the template asked once per row).
    anchors = anchors_among(pool, [r.participant for r in shown])
    for index, r in enumerate(shown):
        rank = found_ranks[r.pk] if search else offset + index + 1
        rows.append(
            RankingRow(
                rank=rank,
                participant=r.participant,
                rating=display_rating(r.rating),
                exact=r.rating,
                games=r.games,
                played=r.played,
                wins=r.wins,
                points=r.points,
                peak=display_rating(r.peak),
                provisional=is_provisional(games=r.games, config=config),
                last_played_at=r.last_played_at,
                url=participant_link(r.participant),
                anchor=anchors.get(r.participant_id),
            )
        )
    return page_obj, rows


def _bucket_of(pool_id: int, offset: int) -> tuple[int, int] | None:
    """(bucket, ratings above it) of the bucket that holds the pool's row at
    0-based position ``offset`` in ranking order, or None past the end."""
    table = RatingBucket._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT bucket, above FROM (SELECT bucket, count, SUM(count) OVER"
            f" (ORDER BY bucket DESC) - count AS above FROM {table}"
            " WHERE pool_id = %s AND count > 0) AS b WHERE above + count > %s"
            " ORDER BY bucket DESC LIMIT 1",
            [pool_id, offset],
        )
        row = cursor.fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


def page_rating_ids(*, pool: RatingPool, offset: int, limit: int) -> list[int]:
    """Ids of the pool's ratings at positions ``offset`` to ``offset + limit``
    (0-based) in ranking order (rating descending, then id).

    The rating buckets (``RatingBucket``) say in which whole point the
    position falls and how many ratings lie above that point; the index
    (pool, -rating, id) is then walked from that point with the small rest of
    the offset. A plain OFFSET walks every row above the page: deep pages of
    a pool of a million cost tens of milliseconds.
    """
    start = _bucket_of(pool.pk, offset)
    if start is None:
        return []
    bucket, above = start
    return list(
        Rating.objects.filter(pool=pool, rating__lt=bucket + 1)
        .order_by("-rating", "id")
        .values_list("id", flat=True)[offset - above : offset - above + limit]
    )


def ranks_of(*, pool: RatingPool, ratings: list[tuple[int, float]]) -> dict[int, int]:
    """Pool-wide ranks of a few rating rows, given as (id, rating), in one
    statement: 1 + the ratings in the buckets above the row's bucket + those
    ahead of it inside its own bucket (an index range scan of one point)."""
    if not ratings:
        return {}
    bucket_table = RatingBucket._meta.db_table
    table = Rating._meta.db_table
    parts = []
    params: list[int | float] = []
    for rating_id, rating in ratings:
        bucket = math.floor(rating)
        parts.append(
            "SELECT CAST(%s AS BIGINT), 1 + (SELECT COALESCE(SUM(count), 0)"
            f" FROM {bucket_table} WHERE pool_id = %s AND bucket > %s)"
            f" + (SELECT COUNT(*) FROM {table} WHERE pool_id = %s"
            " AND rating >= %s AND rating < %s"
            " AND (rating > %s OR id < %s))"
        )
        params += [rating_id, pool.pk, bucket, pool.pk]
        params += [rating, bucket + 1, rating, rating_id]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        return {int(rid): int(rank) for rid, rank in cursor.fetchall()}


def rating_for_user(*, user: User, game: str) -> float | None:
    """The lobby's rating provider: the user's global-ladder rating, if any."""
    return (
        Rating.objects.filter(
            pool__scope=PoolScope.GLOBAL,
            pool__game=game,
            participant__key=Participant.user_key(user.pk),
        )
        .values_list("rating", flat=True)
        .first()
    )


def participant_ratings(*, participant: Participant) -> QuerySet[Rating]:
    return (
        Rating.objects.filter(participant=participant)
        .select_related("pool", "pool__league", "pool__season__league")
        .order_by("pool__game", "pool__scope", "pool_id")
    )


@dataclass(frozen=True)
class HistoryPoint:
    seq: int
    when: datetime
    rating: float
    delta: float
    placement: int
    players: int
    match_public_id: str


def rating_history(
    *, participant: Participant, pool: RatingPool, limit: int = 500
) -> list[HistoryPoint]:
    """The participant's last ``limit`` rating events in the pool, oldest first."""
    events = list(
        RatingEvent.objects.filter(participant=participant, pool=pool)
        .select_related("match")
        .order_by("-seq")[:limit]
    )
    events.reverse()
    return [
        HistoryPoint(
            seq=e.seq,
            when=e.created,
            rating=e.rating_after,
            delta=e.delta,
            placement=e.placement,
            players=e.players,
            match_public_id=str(e.match.public_id),
        )
        for e in events
    ]


@dataclass
class HeadToHead:
    opponent_key: str
    opponent_name: str
    opponent_username: str | None
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses


def head_to_head(
    *, user: User, game: str | None = None, limit: int = 1000
) -> list[HeadToHead]:
    """Wins, draws and losses against each opponent over finished matches.

    Multiplayer matches count pairwise (finishing ahead of someone is a win
    against them), like the ratings do. Looks at the last ``limit`` matches.
    """
    my_seats = Seat.objects.filter(
        user=user, match__status=MatchStatus.FINISHED, placement__isnull=False
    )
    if game:
        my_seats = my_seats.filter(match__game=game)
    mine = dict(
        my_seats.order_by("-match__finished_at").values_list("match_id", "placement")[
            :limit
        ]
    )
    if not mine:
        return []
    records: dict[str, HeadToHead] = {}
    others = (
        Seat.objects.filter(match_id__in=list(mine), placement__isnull=False)
        .exclude(user=user)
        .select_related("user")
    )
    for seat in others:
        if seat.user is not None:
            key, name, username = (
                Participant.user_key(seat.user.pk),
                seat.user.public_name,
                seat.user.username,
            )
        else:
            key, name, username = f"agent:{seat.agent}", seat.display_name, None
        rec = records.setdefault(key, HeadToHead(key, name, username))
        my_place, place = mine[seat.match_id], seat.placement
        # Both queries keep placed seats only (placement__isnull=False).
        assert my_place is not None and place is not None
        if my_place < place:
            rec.wins += 1
        elif my_place == place:
            rec.draws += 1
        else:
            rec.losses += 1
    return sorted(records.values(), key=lambda r: (-r.played, r.opponent_name))


def recent_rated_matches(*, pool: RatingPool, limit: int = 10) -> list[Match]:
    ids = list(
        RatingEvent.objects.filter(pool=pool)
        .order_by("-seq")
        .values_list("match_id", flat=True)
        .distinct()[: limit * 8]
    )
    seen: list[int] = []
    for mid in ids:
        if mid not in seen:
            seen.append(mid)
    return list(
        Match.objects.filter(pk__in=seen[:limit])
        .prefetch_related("seats__user")
        .order_by("-finished_at")
    )
