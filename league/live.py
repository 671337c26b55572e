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
    Entrant,
    Pairing,
    PairingStatus,
    Round,
    RoundStatus,
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
        logger.debug("tournament %s changed inside an event loop", tournament_id)
        return
    text = json.dumps({"type": "tournament"})
    try:
        async_to_sync(layer.group_send)(
            tournament_group(tournament_id),
            {"type": "watch.frame", "text": text},
        )
    except Exception:  # a lost refresh must never undo a committed result
        logger.exception("live update of tournament %s failed", tournament_id)


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
