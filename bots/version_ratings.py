"""A rating per version: each version's own Elo row and history.

League rates a bot as one participant whatever version plays (its rankings
and pools are the bot's). Authors also want to know whether v7 is better
than v6, so the bots app keeps a second, per-version rating with league's
own Elo functions (``league.ratings.elo``, pure):

* after every **rated** match with an uploaded seat (``match_finished`` →
  task ``bots.rate_versions``), each uploaded seat's version is rated
  against the other seats as they stand: other versions at their version
  ratings, built-in bots at their anchor ratings, people and connected bots
  at their league ratings. Only versions move here (league moves the rest).
* a version's first rating is seeded from its predecessor's (the newest
  earlier version that has one; else the bot's league rating; else 1500),
  and stays provisional until it has played league's provisional number of
  games, with the newcomer's K.
* idempotent per (version, match): a repeated task changes nothing.

The ladder ranking of current versions (:func:`current_versions_ranking`)
orders every playing bot's active version by this rating.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from bots.models import (
    Bot,
    BotStatus,
    BotVersion,
    VersionRating,
    VersionRatingEvent,
)
from bots.ratings import BASE_SCORE, anchor_strength, bot_rating, user_strength
from gameplay.agents import is_builtin, uploaded_version_id
from gameplay.models import Match, MatchStatus
from league.ratings import elo

logger = logging.getLogger(__name__)


def _seed(version: BotVersion) -> tuple[float, BotVersion | None]:
    """A new version's starting rating and the version it comes from."""
    earlier = (
        VersionRating.objects.filter(
            version__bot_id=version.bot_id, version__number__lt=version.number
        )
        .select_related("version")
        .order_by("-version__number")
        .first()
    )
    if earlier is not None:
        return earlier.rating, earlier.version
    rating = bot_rating(bot=version.bot)
    return (rating if rating is not None else BASE_SCORE), None


def version_rating_row(*, version: BotVersion) -> VersionRating:
    """The version's rating row, made (seeded) on first need."""
    row = VersionRating.objects.filter(version=version).first()
    if row is not None:
        return row
    rating, source = _seed(version)
    row, _ = VersionRating.objects.get_or_create(
        version=version,
        defaults={
            "rating": rating,
            "seed_rating": rating,
            "seeded_from": source,
        },
    )
    return row


def versions_rate_match(*, match_id: int) -> int:
    """Rate every uploaded version that played rated match ``match_id``.

    Returns how many version rows moved (0: unrated, not finished, no
    uploaded seat, or already rated).
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not match.rated or match.status != MatchStatus.FINISHED:
        return 0
    seats = list(match.seats.all())
    if any(seat.placement is None for seat in seats):
        return 0
    version_ids = {
        vid for seat in seats if (vid := uploaded_version_id(seat.agent)) is not None
    }
    if not version_ids:
        return 0
    with transaction.atomic():
        versions = BotVersion.objects.select_related("bot").in_bulk(version_ids)
        # Lock the rows so two matches' tasks rate a version one after the other.
        rows = {
            vid: version_rating_row(version=versions[vid]) for vid in sorted(versions)
        }
        rows = {
            row.version_id: row
            for row in VersionRating.objects.select_for_update().filter(
                version_id__in=list(rows)
            )
        }
        if VersionRatingEvent.objects.filter(
            match_id=match_id, version_id__in=list(rows)
        ).exists():
            return 0
        placements: dict[int, int] = {}
        states: dict[int, Any] = {}
        fixed: set[int] = set()
        for seat in seats:
            vid = uploaded_version_id(seat.agent)
            placements[seat.number] = int(seat.placement or 0)
            if vid is not None and vid in rows:
                row = rows[vid]
                states[seat.number] = elo.PlayerState(
                    rating=row.rating, games=row.games, reached_elite=row.reached_elite
                )
                continue
            if is_builtin(seat.agent):
                rating = anchor_strength(
                    game=match.game, name=seat.agent.removeprefix("builtin:")
                )
            elif seat.user_id is not None:
                rating = user_strength(user_id=seat.user_id, game=match.game)
            else:
                rating = BASE_SCORE
            states[seat.number] = elo.PlayerState(rating=rating, games=1000)
            fixed.add(seat.number)
        changes = elo.rate_match(placements, states, fixed=fixed)
        now = timezone.now()
        moved = 0
        for seat in seats:
            vid = uploaded_version_id(seat.agent)
            if vid is None or vid not in rows or seat.number in fixed:
                continue
            change = changes[seat.number]
            row = rows[vid]
            VersionRatingEvent.objects.create(
                version_id=vid,
                match_id=match_id,
                rating_before=change.rating_before,
                rating_after=change.rating_after,
                games_after=change.games_after,
            )
            row.rating = change.rating_after
            row.games = change.games_after
            row.reached_elite = change.reached_elite_after
            row.updated_at = now
            row.save(update_fields=["rating", "games", "reached_elite", "updated_at"])
            moved += 1
    return moved


# --- Reads -------------------------------------------------------------------------


@dataclass(frozen=True)
class VersionStanding:
    bot: Bot
    version: BotVersion
    rating: float | None
    games: int
    provisional: bool


def _provisional(games: int) -> bool:
    return elo.is_provisional(games=games)


def version_ratings(*, bot: Bot) -> dict[int, VersionRating]:
    """The bot's versions' rating rows by version id."""
    return {
        row.version_id: row
        for row in VersionRating.objects.filter(version__bot=bot).select_related(
            "seeded_from"
        )
    }


def is_provisional(row: VersionRating | None) -> bool:
    return row is None or _provisional(row.games)


def version_history(
    *, version: BotVersion, limit: int = 100
) -> list[VersionRatingEvent]:
    """The version's latest rating changes, oldest first."""
    events = list(
        VersionRatingEvent.objects.filter(version=version)
        .select_related("match")
        .order_by("-created_at", "-pk")[:limit]
    )
    return events[::-1]


def version_histories(
    *, bot: Bot, per_version: int = 10
) -> dict[int, list[VersionRatingEvent]]:
    """Each version's latest rating changes (oldest first), in one read."""
    events = (
        VersionRatingEvent.objects.filter(version__bot=bot)
        .select_related("match")
        .order_by("-created_at", "-pk")[: per_version * 50]
    )
    out: dict[int, list[VersionRatingEvent]] = {}
    for event in events:
        kept = out.setdefault(event.version_id, [])
        if len(kept) < per_version:
            kept.append(event)
    return {vid: kept[::-1] for vid, kept in out.items()}


def current_versions_ranking(*, game: str) -> list[VersionStanding]:
    """The ladder: every playing bot's current (active) version, best first;
    versions without a rated game yet come last, newest bot first."""
    bots = Bot.objects.filter(
        game=game, status=BotStatus.ACTIVE, disabled=False, active_version__isnull=False
    ).select_related("active_version", "owner")
    rows = {
        row.version_id: row
        for row in VersionRating.objects.filter(
            version_id__in=[b.active_version_id for b in bots]
        )
    }
    standings = []
    for bot in bots:
        version = bot.active_version
        assert version is not None  # the filter
        row = rows.get(version.pk)
        standings.append(
            VersionStanding(
                bot=bot,
                version=version,
                rating=row.rating if row is not None and row.games else None,
                games=row.games if row is not None else 0,
                provisional=is_provisional(row),
            )
        )
    return sorted(
        standings,
        key=lambda s: (s.rating is None, -(s.rating or 0.0), -s.bot.pk),
    )
