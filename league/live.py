"""Tournament pages follow their tournament live (issue 26, section 4).

A watcher's page showed round 1 "in play" five rounds later: nothing told it
that rounds, results or the bracket moved on. The page now follows
``/ws/tournaments/<slug>/``: every committed change of the tournament (its
row, a round, a pairing, an entrant) sends the socket's watchers a
``tournament`` frame, and the page (``static/js/tournament-live.js``) fetches
itself again and swaps in its live parts (status, bracket, standings, cross
table, rounds, entrants). The frame carries no data, only that something
changed, so anybody may watch, signed in or not, and nothing hidden can leak.
On connect the consumer sends the tournament's version (``live_version``) so a
page rendered before a change it missed catches up at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import Count, Max, Q

from gameplay.watching import WatchConsumer
from league.models import (
    DivisionMember,
    Entrant,
    League,
    Pairing,
    PairingStatus,
    RatingPool,
    Registration,
    Round,
    RoundStatus,
    Season,
    SeasonQueueEntry,
    Tournament,
)

logger = logging.getLogger(__name__)


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def live_version(tournament: Tournament) -> str:
    """A short digest that changes whenever the page's live parts would: the
    status, the rounds and their states, the pairings' states and latest
    decision, the entrants."""
    rounds = tournament.rounds.aggregate(
        n=Count("pk"), running=Count("pk", filter=Q(status=RoundStatus.RUNNING))
    )
    pairings = tournament.pairings.aggregate(
        n=Count("pk"),
        done=Count("pk", filter=Q(status=PairingStatus.DONE)),
        playing=Count("pk", filter=Q(status=PairingStatus.PLAYING)),
        last=Max("decided_at"),
    )
    entrants = tournament.entrants.count()
    last = pairings["last"].isoformat() if pairings["last"] else "-"
    return (
        f"{tournament.status}.{rounds['n']}.{rounds['running']}."
        f"{pairings['n']}.{pairings['done']}.{pairings['playing']}.{last}."
        f"{entrants}"
    )


def _send(tournament_id: int) -> None:
    _send_group(tournament_group(tournament_id), "tournament", tournament_id)


def _send_group(group: str, kind: str, key: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass  # the normal case: a worker or request thread may block
    else:
        # Only a test harness writes from an event loop's thread (the ORM
        # refuses it elsewhere); that thread cannot wait for the send.
        logger.debug("%s %s changed inside an event loop", kind, key)
        return
    text = json.dumps({"type": kind})
    try:
        async_to_sync(layer.group_send)(group, {"type": "watch.frame", "text": text})
    except Exception:  # a lost refresh must never undo a committed result
        logger.exception("live update of %s %s failed", kind, key)


def tournament_changed(tournament_id: int) -> None:
    """Tell the tournament's watchers once the current transaction commits."""
    transaction.on_commit(lambda: _send(tournament_id))


def _on_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    tournament_id = (
        instance.pk if isinstance(instance, Tournament) else instance.tournament_id
    )
    if tournament_id is not None:
        tournament_changed(tournament_id)


def connect_signals() -> None:
    """Every save of what the page shows announces a change (league.apps)."""
    from django.db.models.signals import post_delete, post_save

    for model in (Tournament, Round, Pairing, Entrant):
        post_save.connect(_on_saved, sender=model, dispatch_uid=f"live.{model}")
    post_delete.connect(_on_saved, sender=Entrant, dispatch_uid="live.entrant.del")
    season_models: tuple[type[Any], ...] = (
        Season,
        Registration,
        SeasonQueueEntry,
        DivisionMember,
    )
    for season_model in season_models:
        uid = f"live.season.{season_model.__name__}"
        post_save.connect(_on_season_saved, sender=season_model, dispatch_uid=uid)
        post_delete.connect(
            _on_season_saved, sender=season_model, dispatch_uid=uid + ".del"
        )


# --- Season pages ------------------------------------------------------------------
#
# A season page follows ``/ws/seasons/<league>/<number>/`` the same way: its
# standings (or divisions), the queue's "Waiting now" and the latest rated games
# are its live parts. What moves them: a registration, a queue entry (joined,
# left, or paired into a game), a division place, the season's own row, and a
# rated game applied to the season's pool (``seasons_rated``, from the rating
# task; ratings are written in raw SQL, so no model signal sees them).


def season_group(season_id: int) -> str:
    return f"season.{season_id}"


def season_live_version(season: Season) -> str:
    """A short digest that changes whenever the season page's live parts would."""
    registrations = season.registrations.aggregate(
        n=Count("pk"), last=Max("updated_at")
    )
    queue = season.queue_entries.aggregate(n=Count("pk"), last=Max("joined_at"))
    pool = RatingPool.objects.filter(season=season).values("last_seq").first()
    places = DivisionMember.objects.filter(season=season).count()
    stamps = [
        value.isoformat() if value else "-"
        for value in (registrations["last"], queue["last"])
    ]
    return (
        f"{season.status}.{registrations['n']}.{stamps[0]}.{queue['n']}."
        f"{stamps[1]}.{pool['last_seq'] if pool else '-'}.{places}"
    )


def season_changed(season_id: int) -> None:
    """Tell the season page's watchers once the current transaction commits."""
    transaction.on_commit(
        lambda: _send_group(season_group(season_id), "season", season_id)
    )


def seasons_rated(pool_ids: list[int]) -> None:
    """Rated games were applied to these pools: their seasons' pages update."""
    for season_id in RatingPool.objects.filter(
        pk__in=pool_ids, season__isnull=False
    ).values_list("season_id", flat=True):
        season_changed(season_id)


def _on_season_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    season_id = instance.pk if isinstance(instance, Season) else instance.season_id
    if season_id is not None:
        season_changed(season_id)


class TournamentWatchConsumer(WatchConsumer):
    """Read-only: the version on connect, a frame on every change; pings."""

    async def opening(self) -> tuple[str, dict[str, Any]] | None:
        found = await self._version()
        if found is None:
            return None
        tournament_id, version = found
        return tournament_group(tournament_id), {
            "type": "tournament",
            "version": version,
        }

    @database_sync_to_async
    def _version(self) -> tuple[int, str] | None:
        slug = str(self.scope["url_route"]["kwargs"]["slug"])
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            return None
        return tournament.pk, live_version(tournament)


class SeasonWatchConsumer(WatchConsumer):
    """A season page's socket: the version on connect, a frame on every change."""

    async def opening(self) -> tuple[str, dict[str, Any]] | None:
        found = await self._version()
        if found is None:
            return None
        season_id, version = found
        return season_group(season_id), {"type": "season", "version": version}

    @database_sync_to_async
    def _version(self) -> tuple[int, str] | None:
        kwargs = self.scope["url_route"]["kwargs"]
        league = League.objects.filter(slug=str(kwargs["slug"])).first()
        if league is None:
            return None
        season = Season.objects.filter(league=league, number=kwargs["number"]).first()
        if season is None:
            return None
        return season.pk, season_live_version(season)
