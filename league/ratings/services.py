"""Rating writes: apply a finished match to every pool it feeds, void, correct
(the full recompute a void or a correction ends with: ``recompute.py``).

Concurrency: a pool's row is locked (``select_for_update``) before anything in
the pool is read, so two matches finishing at the same moment are applied one
after the other, each seeing the other's result. A match feeding several pools
is applied pool by pool, each in its own short transaction, always in ascending
pool id, so two writers can never wait on each other in a cycle.

Idempotency: one ``RatingEvent`` per (pool, match, participant). A second
application finds the events under the lock and does nothing; the unique
constraint backs that up.

Order: every application takes the pool's next ``seq``; a recompute replays the
matches in ``seq`` order through ``elo.replay_pool`` (the same kernel as
``elo.rate_match``), which is why it reproduces the incremental ratings exactly.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from gameplay.models import Match, MatchStatus, Seat
from gameplay.timecontrol import TimeControl
from league.errors import Conflict, Invalid, NotFound
from league.models import (
    League,
    MatchVoid,
    Participant,
    PoolScope,
    Rating,
    RatingEvent,
    RatingPool,
    RatingSeed,
    Season,
)
from league.participants import kind_allows, participants_for_seats
from league.ratings import elo, statements
from league.ratings.anchors import anchors_among
from league.ratings.recompute import rating_recompute_pool

logger = logging.getLogger(__name__)


# --- Pools -----------------------------------------------------------------------


def pool_global(*, game: str) -> RatingPool:
    """The game's global ladder (created on first use, open to people and bots)."""
    pool, _created = RatingPool.objects.get_or_create(
        scope=PoolScope.GLOBAL, game=game, defaults={"league": None}
    )
    return pool


def pool_correspondence(*, game: str) -> RatingPool:
    """The game's correspondence ladder: rated correspondence games feed it
    instead of the global ladder while ``SEPARATE_CORRESPONDENCE_LADDER``."""
    pool, _created = RatingPool.objects.get_or_create(
        scope=PoolScope.CORRESPONDENCE, game=game, defaults={"league": None}
    )
    return pool


def pool_for_league_correspondence(*, league: League) -> RatingPool:
    """A league's correspondence ladder (``League.correspondence_pool``)."""
    pool, _created = RatingPool.objects.get_or_create(
        scope=PoolScope.LEAGUE_CORRESPONDENCE,
        league=league,
        defaults={
            "game": league.game,
            "participants": league.participants,
            "config": league.options.get("elo", {}),
        },
    )
    return pool


def pool_for_league(*, league: League) -> RatingPool:
    pool, _created = RatingPool.objects.get_or_create(
        scope=PoolScope.LEAGUE,
        league=league,
        defaults={
            "game": league.game,
            "participants": league.participants,
            "config": league.options.get("elo", {}),
        },
    )
    return pool


def pool_for_season(*, season: Season) -> RatingPool:
    """The season's pool; a new one starts from the previous season's if carried."""
    existing = RatingPool.objects.filter(season=season).first()
    if existing is not None:
        return existing
    league = season.league
    previous = (
        RatingPool.objects.filter(
            scope=PoolScope.SEASON,
            season__league=league,
            season__number__lt=season.number,
        )
        .order_by("-season__number")
        .first()
    )
    with transaction.atomic():
        pool, created = RatingPool.objects.get_or_create(
            scope=PoolScope.SEASON,
            season=season,
            defaults={
                "game": league.game,
                "league": league,
                "participants": league.participants,
                "config": league.options.get("elo", {}),
                "seeded_from": previous if league.carry_ratings_over else None,
            },
        )
        if created and pool.seeded_from_id:
            RatingSeed.objects.bulk_create(
                RatingSeed(
                    pool=pool,
                    participant_id=r.participant_id,
                    rating=r.rating,
                    games=r.games,
                    reached_elite=r.reached_elite,
                )
                for r in Rating.objects.filter(pool=previous)
            )
    return pool


def _parse_context(context: str) -> tuple[int | None, int | None, int | None]:
    """(league id, season id, tournament id) named by a match context."""
    parts = context.split(":")
    try:
        if parts[0] == "league" and len(parts) >= 2:
            league_id = int(parts[1])
            season_id = (
                int(parts[3]) if len(parts) >= 4 and parts[2] == "season" else None
            )
            return league_id, season_id, None
        if parts[0] == "tournament" and len(parts) >= 2:
            return None, None, int(parts[1])
    except ValueError:
        pass
    return None, None, None


def may_feed_pools(*, rated: bool, context: str) -> bool:
    """Whether a match with this ``rated`` flag and ``context`` can feed any
    pool (``pools_for_match`` finds none otherwise, without a read)."""
    return rated or _parse_context(context or "") != (None, None, None)


class PoolTarget(NamedTuple):
    """A pool a match feeds: its id, and the scope and game it must still have
    under the lock (a cached ladder id is checked there, not trusted)."""

    pk: int
    scope: str
    game: str


#: (scope, game) -> id of that ladder pool, per process: every rated match of a
#: game feeds its global ladder, and looking it up cost a round trip an update.
_LADDER_IDS: dict[tuple[str, str], int] = {}
_LADDER_SCOPES = (PoolScope.GLOBAL, PoolScope.CORRESPONDENCE)


def _ladder_target(*, scope: str, game: str) -> PoolTarget:
    pk = _LADDER_IDS.get((scope, game))
    if pk is None:
        pool = (
            pool_correspondence(game=game)
            if scope == PoolScope.CORRESPONDENCE
            else pool_global(game=game)
        )
        pk = _LADDER_IDS[(scope, game)] = pool.pk
    return PoolTarget(pk, scope, game)


def _target(pool: RatingPool) -> PoolTarget:
    return PoolTarget(pool.pk, pool.scope, pool.game)


def _ladder_scope(match: Match) -> str | None:
    """The scope of the game's ladder a match feeds: none unless rated; the
    correspondence ladder for a correspondence game while the site keeps them
    apart (``SEPARATE_CORRESPONDENCE_LADDER``), the global one otherwise."""
    if not match.rated:
        return None
    if (
        settings.SEPARATE_CORRESPONDENCE_LADDER
        and TimeControl.from_json(match.time_control).is_correspondence
    ):
        return PoolScope.CORRESPONDENCE
    return PoolScope.GLOBAL


def pools_for_match(match: Match) -> list[PoolTarget]:
    """Every pool a finished match feeds, in ascending id (the lock order).

    The game's global ladder when the match is rated; the league's and the
    season's pools when its context puts it in a league (directly or through a
    tournament of that league). A correspondence game feeds the game's
    correspondence ladder instead of the global one (the site's choice,
    ``SEPARATE_CORRESPONDENCE_LADDER``) and the league's correspondence ladder
    instead of the league's when its organisers keep them apart
    (``League.correspondence_pool``). A voided match feeds nothing: the check is
    made under each pool's lock (``_apply_to_pool``), where it cannot
    race with ``rating_void_match``. The ladders' ids come from a per-process
    cache (``_LADDER_IDS``), checked under the lock.
    """
    pools: list[PoolTarget] = []
    correspondence = TimeControl.from_json(match.time_control).is_correspondence
    ladder = _ladder_scope(match)
    if ladder is not None:
        pools.append(_ladder_target(scope=ladder, game=match.game))
    league_id, season_id, tournament_id = _parse_context(match.context or "")
    if tournament_id is not None:
        from league.models import Tournament

        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is not None and tournament.rated:
            league_id, season_id = tournament.league_id, tournament.season_id
    if league_id is not None:
        league = League.objects.filter(pk=league_id).first()
        if league is not None and league.game == match.game:
            if correspondence and league.correspondence_pool:
                pools.append(_target(pool_for_league_correspondence(league=league)))
            else:
                pools.append(_target(pool_for_league(league=league)))
            season = (
                Season.objects.filter(pk=season_id, league=league).first()
                if season_id
                else None
            )
            if season is not None:
                pools.append(_target(pool_for_season(season=season)))
    return sorted(pools)


# --- Applying a match -----------------------------------------------------------------


def _pairwise_score(rank: int, ranks: list[int]) -> float:
    """Points against the other players divided by their number (1 = beat all)."""
    total = sum(1.0 if rank < r else 0.5 if rank == r else 0.0 for r in ranks)
    return (total - 0.5) / (len(ranks) - 1)  # the player's own draw with itself


def _ranks_of(match: Match, seats: int) -> list[Any] | None:
    """The result's placements by seat number, or None if the match cannot be
    rated whoever sits in its ``seats`` seats."""
    if match.status != MatchStatus.FINISHED or not match.result:
        return None
    ranks = match.result.get("placements") or []
    if seats < 2 or len(ranks) != seats:
        return None
    return ranks


def _placements(
    ranks: list[Any], numbers: list[int], participants: list[Participant | None]
) -> dict[Participant, int] | None:
    placements: dict[Participant, int] = {}
    for number, participant in zip(numbers, participants, strict=True):
        if participant is None or participant in placements:
            return None
        placements[participant] = int(ranks[number])
    return placements


def match_placements(
    match: Match, seats: list[Seat] | None = None
) -> dict[Participant, int] | None:
    """Each participant's rank in a finished match, or None if it cannot be rated.

    ``seats`` (in seat order, with ``user__participant``) may be passed when
    the caller already loaded them.
    """
    if match.status != MatchStatus.FINISHED or not match.result:
        return None
    if seats is None:
        seats = list(match.seats.select_related("user__participant").order_by("number"))
    ranks = _ranks_of(match, len(seats))
    if ranks is None:
        return None
    return _placements(ranks, [s.number for s in seats], participants_for_seats(seats))


@dataclass(frozen=True)
class ApplyResult:
    pool_id: int
    applied: bool
    reason: str = ""


class _StalePool(Exception):
    """A cached ladder id no longer names that ladder (deleted, recreated)."""


def _not_ratable(match_id: int, pool_ids: list[int]) -> list[ApplyResult]:
    logger.info(
        "match %s cannot be rated (unfinished, unknown seats or one "
        "participant in two seats)",
        match_id,
    )
    return [ApplyResult(pk, False, "not ratable") for pk in pool_ids]


def rating_apply_match(*, match_id: int) -> list[ApplyResult]:
    """Apply a finished match to every pool it feeds (safe to call repeatedly)."""
    if statements.can_pipeline():
        outcome = _apply_to_global_ladder(match_id)
        if outcome is None or isinstance(outcome, list):
            return outcome or []
        read: statements.MatchRead | None = outcome
    else:
        read = statements.read_match(match_id)
    if read is None:
        return []
    match, numbers, participants = read
    pools = pools_for_match(match)
    if not pools:
        return []
    ranks = _ranks_of(match, len(numbers))
    placements = None
    if ranks is not None:
        if len(participants) == len(numbers):
            placements = _placements(ranks, numbers, participants)
        else:
            placements = match_placements(match)
    if placements is None:
        return _not_ratable(match_id, [p.pk for p in pools])
    when = match.finished_at or timezone.now()
    results = []
    for target in pools:
        try:
            result = _apply_to_pool(target, match.pk, placements, when)
        except _StalePool:
            if target.scope not in _LADDER_SCOPES:  # deleted since the lookup
                results.append(ApplyResult(target.pk, False, "pool deleted"))
                continue
            # A cached ladder id that names no ladder any more: look it up again.
            _LADDER_IDS.clear()
            fresh = _ladder_target(scope=target.scope, game=target.game)
            result = _apply_to_pool(fresh, match.pk, placements, when)
        results.append(result)
    return results


def _apply_to_global_ladder(
    match_id: int,
) -> list[ApplyResult] | statements.MatchRead | None:
    """The common update in two round trips (PostgreSQL, outside a transaction):
    a match that feeds only its game's global ladder, among people who all have
    their participants.

    The first round trip is ``BEGIN``, the match's read, the ladder's lock and
    the ladder's state, all named through the match id since nothing of the
    match is known yet; the second the writes and ``COMMIT``. Returns the
    results, or, for any other match (a league's, a correspondence game on its
    own ladder, new people, an unrated match, no ladder yet), the match as read
    for the general path, after a rollback that wrote nothing; None for no
    such match.
    """
    scope = PoolScope.GLOBAL
    with (
        statements.pipelined_transaction() as ending,
        statements.cursor() as match_cursor,
        statements.cursor() as lock,
        statements.cursor() as state,
    ):
        statements.send_match_read(match_cursor, match_id)
        statements.send_ladder_lock(lock, match_id, scope)
        statements.send_ladder_state_read(state, match_id, scope)
        read = statements.match_read(match_cursor.fetchall())
        row = lock.fetchone()
        state_rows = state.fetchall()
        if read is None or row is None or not state_rows:
            ending.rollback()
            return read
        match, numbers, participants = read
        in_league = _parse_context(match.context or "") != (None, None, None)
        if in_league or _ladder_scope(match) != scope:
            ending.rollback()
            return read
        ranks = _ranks_of(match, len(numbers))
        if ranks is not None and len(participants) != len(numbers):
            ending.rollback()  # people to name first: the general path
            return read
        # The ladder found through the match is the truth the cache holds.
        _LADDER_IDS[(scope, match.game)] = row[0]
        placements = (
            None if ranks is None else _placements(ranks, numbers, participants)
        )
        if placements is None:
            ending.rollback()
            return _not_ratable(match_id, [row[0]])
        when = match.finished_at or timezone.now()
        return [_apply_locked(row, state_rows, match.pk, placements, when, batch=None)]


def _apply_to_pool(
    target: PoolTarget,
    match_id: int,
    placements: dict[Participant, int],
    when: datetime,
) -> ApplyResult:
    """Apply one match's placements to one pool under the pool's lock (on
    PostgreSQL outside a transaction: two round trips,
    ``statements.pool_transaction``)."""
    ids = [p.pk for p in placements]
    with (
        statements.pool_transaction() as batch,
        statements.cursor() as lock,
        statements.cursor() as read,
    ):
        lock.execute(statements.pool_lock_sql(), [target.pk])
        statements.send_pool_state_read(read, target.pk, match_id, ids)
        row = lock.fetchone()
        if row is None or (row[2], row[1]) != (target.scope, target.game):
            raise _StalePool(target)
        return _apply_locked(row, read.fetchall(), match_id, placements, when, batch)


def _apply_locked(
    row: tuple,
    state_rows: list[tuple],
    match_id: int,
    placements: dict[Participant, int],
    when: datetime,
    batch: Callable[[], contextlib.AbstractContextManager] | None,
) -> ApplyResult:
    """Rate the match in the locked pool ``row`` (``statements.POOL_FIELDS``)
    from its state as read after the lock, and send the writes (inside
    ``batch()`` when given)."""
    pool: RatingPool = statements.from_row(RatingPool, statements.POOL_FIELDS, row)
    already, voided, current = statements.pool_state(state_rows)
    if already:
        return ApplyResult(pool.pk, False, "already applied")
    if voided:
        return ApplyResult(pool.pk, False, "voided")
    if not all(kind_allows(pool.participants, p) for p in placements):
        return ApplyResult(pool.pk, False, "participant kind not allowed")
    config = pool.elo_config
    ids = [p.pk for p in placements]
    missing = [pid for pid in ids if pid not in current]
    seeds = (
        {
            s.participant_id: s
            for s in RatingSeed.objects.filter(pool=pool, participant_id__in=missing)
        }
        if missing and pool.seeded_from_id
        else {}
    )
    states: dict[int, elo.PlayerState] = {}
    for pid in ids:
        if pid in current:
            _rid, rating, games, elite, _peak = current[pid]
            states[pid] = elo.PlayerState(rating, games, bool(elite))
        elif pid in seeds:
            s = seeds[pid]
            states[pid] = elo.PlayerState(s.rating, s.games, s.reached_elite)
        else:
            states[pid] = elo.initial_state(config=config)
    anchors = anchors_among(pool, placements)
    for pid, rating in anchors.items():
        states[pid] = elo.PlayerState(
            rating, states[pid].games, rating >= config.elite_threshold
        )
    by_id = {p.pk: rank for p, rank in placements.items()}
    changes = elo.rate_match(by_id, states, config=config, fixed=anchors)
    seq = pool.last_seq + 1
    ranks = list(by_id.values())
    stamp = RatingEvent._meta.get_field("created").get_db_prep_value(when, connection)
    events: list[statements.EventRow] = []
    inserts: list[statements.RatingRow] = []
    updates: list[statements.RatingRow] = []
    for pid, change in changes.items():
        rank = by_id[pid]
        score = _pairwise_score(rank, ranks)
        after = change.rating_after
        # delta is after - before: exactly what a recompute can rebuild.
        before = change.rating_before
        events.append((pid, rank, score, before, after, after - before))
        held = current.get(pid)
        # A new rating's row is inserted by participant, a held one updated
        # by its id.
        if held is None:
            key, peak = pid, max(before, after)
        else:
            key, peak = held[0], max(held[4], after)
        row = (
            key,
            after,
            change.games_after,
            change.reached_elite_after,
            peak,
            int(rank == 1),
            score,
        )
        (inserts if held is None else updates).append(row)
    with batch() if batch is not None else contextlib.nullcontext():
        statements.write_application(
            pool_id=pool.pk,
            match_id=match_id,
            seq=seq,
            players=len(ranks),
            stamp=stamp,
            events=events,
            inserts=inserts,
            updates=updates,
        )
    return ApplyResult(pool.pk, True)


# --- Void, correct, recompute -----------------------------------------------------


def rating_void_match(
    *, match_id: int, by: User | None = None, reason: str = "", recompute: bool = True
) -> list[int]:
    """Take a match out of every pool; returns the ids of the pools it touched.

    The ``MatchVoid`` row keeps a late or repeated "match finished" task from
    applying it again. Each touched pool is recomputed (now, or by the caller
    when ``recompute`` is false), since every later rating depended on it.
    """
    game = Match.objects.filter(pk=match_id).values_list("game", flat=True).first()
    if game is None:
        raise NotFound(_("no such match"))
    with transaction.atomic():
        MatchVoid.objects.get_or_create(
            match_id=match_id, defaults={"voided_by": by, "reason": reason[:200]}
        )
    # The void is committed: an application that takes a pool's lock from now
    # on reads it and writes nothing. One that holds a pool's lock now read
    # the match as not void and is about to commit its events: waiting for
    # every pool of the game (in id order, as a rare operator's step) lets
    # the read below see them, where it would otherwise miss them and leave
    # the match rated.
    with transaction.atomic():
        list(
            RatingPool.objects.select_for_update()
            .filter(game=game)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        pool_ids = sorted(
            set(
                RatingEvent.objects.filter(match_id=match_id).values_list(
                    "pool_id", flat=True
                )
            )
        )
    for pool_id in pool_ids:
        with transaction.atomic():
            RatingPool.objects.select_for_update().get(pk=pool_id)
            RatingEvent.objects.filter(pool_id=pool_id, match_id=match_id).delete()
            RatingPool.objects.filter(pk=pool_id).update(
                rated_matches=RatingEvent.objects.filter(pool_id=pool_id)
                .values("match_id")
                .distinct()
                .count()
            )
        if recompute:
            rating_recompute_pool(pool_id=pool_id)
    return pool_ids


def rating_correct_match(*, match_id: int, placements: dict[int, int]) -> list[int]:
    """Replace a match's placements (participant id -> rank) in every pool it fed.

    The match keeps its place in each pool's order; everything after it is
    recomputed.
    """
    events = list(RatingEvent.objects.filter(match_id=match_id))
    if not events:
        raise Conflict(_("this match has no rating events to correct"))
    fed = {e.participant_id for e in events}
    if set(placements) != fed:
        raise Invalid(_("placements must name exactly the match's participants"))
    if any(
        not isinstance(r, int) or isinstance(r, bool) or r < 1
        for r in placements.values()
    ):
        raise Invalid(_("placements must be positive whole numbers"))
    ranks = list(placements.values())
    with transaction.atomic():
        for event in events:
            event.placement = placements[event.participant_id]
            event.score = _pairwise_score(event.placement, ranks)
        RatingEvent.objects.bulk_update(events, ["placement", "score"])
    pool_ids = sorted({e.pool_id for e in events})
    for pool_id in pool_ids:
        rating_recompute_pool(pool_id=pool_id)
    return pool_ids
