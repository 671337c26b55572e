"""Reads of duplicate events: pages, the API, the match-page hooks.

What a round's games tell (placements, seeds, matchpoints) is read only for
rounds that are over: while a round is played, a result already known at
one table says something about a deal another table has not played yet.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse

from accounts.models import User
from gameplay.contexts import MatchContextInfo
from gameplay.models import Match, MatchStatus
from gameplay.rules.bots import bot_display_name
from league.duplicate.models import (
    DuplicateEvent,
    DuplicateGame,
    DuplicatePlayer,
    DuplicateRound,
    EventStatus,
    RoundStatus,
)
from league.duplicate.scoring import (
    PAR,
    SeatResult,
    Standing,
    score_results,
    standings,
)

CONTEXT_PREFIX = "duplicate:"


def game_context(*, event_id: int, round_number: int, deal: int, table: int) -> str:
    """``duplicate:<event id>:<round>:<deal>:<table>`` (table 0: par)."""
    return f"{CONTEXT_PREFIX}{event_id}:{round_number}:{deal}:{table}"


def parse_context(context: str) -> tuple[int, int, int, int] | None:
    parts = (context or "").split(":")
    if len(parts) != 5 or parts[0] + ":" != CONTEXT_PREFIX:
        return None
    if not all(p.isdigit() and len(p) < 12 for p in parts[1:]):
        return None
    return int(parts[1]), int(parts[2]), int(parts[3]), int(parts[4])


def event_by_slug(*, slug: str) -> DuplicateEvent:
    return get_object_or_404(
        DuplicateEvent.objects.select_related("organiser"), slug=slug
    )


def event_list() -> list[DuplicateEvent]:
    return list(DuplicateEvent.objects.select_related("organiser")[:100])


def event_players(*, event: DuplicateEvent) -> list[DuplicatePlayer]:
    return list(event.players.select_related("user"))


def round_of_match(match: Match) -> DuplicateRound | None:
    parsed = parse_context(match.context)
    if parsed is None:
        return None
    event_id, number, _, _ = parsed
    return DuplicateRound.objects.filter(event_id=event_id, number=number).first()


def game_is_sealed(match: Match) -> bool:
    """A round's games are sealed until the round is over (unknown: sealed)."""
    rnd = round_of_match(match)
    return rnd is None or rnd.status != RoundStatus.FINISHED


def describe_game(match: Match) -> MatchContextInfo | None:
    parsed = parse_context(match.context)
    if parsed is None:
        return None
    event_id, number, deal, table = parsed
    event = DuplicateEvent.objects.filter(pk=event_id).first()
    if event is None:
        return None
    return MatchContextInfo(
        title=event.name,
        url=reverse("duplicate:event", args=[event.slug]),
        details=[
            f"duplicate round {number}",
            f"deal {deal + 1} of {event.deals}",
            "par (built-in bots)" if table == 0 else f"table {table}",
        ],
    )


def playing_round_of(*, user: User) -> DuplicateRound | None:
    """The round in play of a duplicate event ``user`` plays in, if any."""
    return (
        DuplicateRound.objects.filter(
            status=RoundStatus.PLAYING,
            event__status=EventStatus.RUNNING,
            event__players__user=user,
        )
        .select_related("event")
        .first()
    )


def chat_refusal(user: User, match: Match | None) -> str | None:
    """community's chat guard: no line at a sealed duplicate table, and none
    anywhere from a player whose duplicate round is in play (a player who
    finished a deal must not talk to one who has not)."""
    in_duplicate = match is not None and match.context.startswith(CONTEXT_PREFIX)
    if match is not None and in_duplicate and game_is_sealed(match):
        return "chat is off at the tables of a duplicate round until the round is over"
    if user.is_authenticated and playing_round_of(user=user) is not None:
        return (
            "chat is off for the players of a duplicate round until the round is over"
        )
    return None


def current_games_of(*, user: Any, event: DuplicateEvent) -> list[DuplicateGame]:
    """``user``'s games of the event now waiting or in play (their next deal)."""
    if not user.is_authenticated:
        return []
    games = (
        DuplicateGame.objects.filter(
            round__event=event,
            round__status=RoundStatus.PLAYING,
            match__status__in=[MatchStatus.WAITING, MatchStatus.ACTIVE],
            table__gt=0,
        )
        .select_related("match", "round")
        .order_by("round__number", "deal")
    )
    return [g for g in games if user.pk in g.seat_users]


@dataclass
class DealRow:
    """One (deal, seat) group of a finished round: who held it, and par."""

    deal: int
    seat: int
    par: int | None
    entries: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class RoundView:
    round: DuplicateRound
    tables: list[list[str]]
    progress: list[dict[str, Any]]
    seeds: list[str] | None
    deal_rows: list[DealRow]

    @property
    def table_rows(self) -> list[dict[str, Any]]:
        return [
            {**progress, "players": players}
            for players, progress in zip(self.tables, self.progress, strict=True)
        ]

    @property
    def deal_list(self) -> list[dict[str, Any]]:
        return [
            {
                "number": deal + 1,
                "commitment": commitment,
                "seed": self.seeds[deal] if self.seeds else None,
            }
            for deal, commitment in enumerate(self.round.commitments)
        ]


def _latest_games(rnd: DuplicateRound) -> dict[tuple[int, int], DuplicateGame]:
    """The last attempt of each (deal, table) of the round."""
    latest: dict[tuple[int, int], DuplicateGame] = {}
    for game in rnd.games.select_related("match").order_by("attempt"):
        latest[(game.deal, game.table)] = game
    return latest


def seat_results(*, rnd: DuplicateRound) -> list[SeatResult]:
    """Every person's and par's placement in each seat of each deal of a
    *finished* game of ``rnd`` (bots filling a table are not scored; a game
    called off gives nobody a result)."""
    results: list[SeatResult] = []
    for game in _latest_games(rnd).values():
        match = game.match
        if match.status != MatchStatus.FINISHED or not match.result:
            continue
        placements = match.result.get("placements") or []
        for seat, place in enumerate(placements):
            if game.is_par:
                results.append(SeatResult(game.deal, seat, PAR, int(place)))
            elif seat < len(game.seat_users) and game.seat_users[seat] is not None:
                results.append(
                    SeatResult(game.deal, seat, game.seat_users[seat], int(place))
                )
    return results


def event_standings(*, event: DuplicateEvent) -> list[Standing]:
    """Matchpoint standings over the event's finished rounds."""
    results: list[SeatResult] = []
    for rnd in event.round_set.filter(status=RoundStatus.FINISHED):
        # Deals are numbered per round: keep the rounds' groups apart.
        for r in seat_results(rnd=rnd):
            results.append(
                SeatResult(r.deal + 1000 * rnd.number, r.seat, r.player, r.placement)
            )
    order: list[Hashable] = [p.user_id for p in event.players.all()]
    return standings(results, players=order)


def _names(event: DuplicateEvent) -> dict[Hashable, str]:
    return {p.user_id: p.user.public_name for p in event.players.select_related("user")}


def _usernames(event: DuplicateEvent) -> dict[Hashable, str]:
    return {p.user_id: p.user.username for p in event.players.select_related("user")}


def round_views(*, event: DuplicateEvent) -> list[RoundView]:
    names = _names(event)
    usernames = _usernames(event)
    bot = bot_display_name(event.par_bot)
    views: list[RoundView] = []
    for rnd in event.round_set.order_by("number"):
        latest = _latest_games(rnd)
        tables = [
            [names.get(uid, "?") if uid is not None else bot for uid in table]
            for table in rnd.tables
        ]
        progress = []
        for number in range(1, len(rnd.tables) + 1):
            games = [g for (d, t), g in latest.items() if t == number]
            done = sum(1 for g in games if g.match.is_over)
            playing = next(
                (g for g in games if not g.match.is_over),
                None,
            )
            progress.append(
                {
                    "table": number,
                    "deals_done": done,
                    "deal_in_play": playing.deal + 1 if playing else None,
                }
            )
        rows: list[DealRow] = []
        if rnd.is_over:
            scored = {
                (res.deal, res.seat, res.player): res
                for res in score_results(seat_results(rnd=rnd))
            }
            pars = {
                (g.deal, seat): place
                for (d, t), g in latest.items()
                if t == 0 and g.match.status == MatchStatus.FINISHED and g.match.result
                for seat, place in enumerate(g.match.result["placements"])
            }
            for deal in range(event.deals):
                for seat in range(event.table_size):
                    row = DealRow(deal=deal, seat=seat, par=pars.get((deal, seat)))
                    for (d, s, player), res in sorted(
                        scored.items(), key=lambda kv: -kv[1].matchpoints
                    ):
                        if d == deal and s == seat:
                            row.entries.append(
                                {
                                    "player": names.get(player, "?"),
                                    "username": usernames.get(player, ""),
                                    "placement": res.placement,
                                    "matchpoints": res.matchpoints,
                                    "top": res.top,
                                    "versus_par": res.versus_par,
                                }
                            )
                    rows.append(row)
        views.append(
            RoundView(
                round=rnd,
                tables=tables,
                progress=progress,
                seeds=list(rnd.seeds) if rnd.is_over else None,
                deal_rows=rows,
            )
        )
    return views


def event_json(*, event: DuplicateEvent, user: Any = None) -> dict[str, Any]:
    """The event as the API tells it to anyone: seeds only of finished rounds."""
    names = _names(event)
    usernames = _usernames(event)
    data: dict[str, Any] = {
        "slug": event.slug,
        "name": event.name,
        "game": event.game,
        "organiser": event.organiser.username,
        "status": event.status,
        "rounds": event.rounds,
        "deals": event.deals,
        "table_size": event.table_size,
        "par_bot": event.par_bot,
        "per_move": event.per_move,
        "current_round": event.current_round,
        "players": [p.user.username for p in event.players.select_related("user")],
        "commitment_method": 'sha256("<event slug>:<round>:<deal>:<seed>")',
        "round_list": [],
        "standings": [
            {
                "rank": row.rank,
                "player": names.get(row.player, "?"),
                "username": usernames.get(row.player, ""),
                "matchpoints": row.matchpoints,
                "top": row.top,
                "percent": round(row.percent, 2),
                "above_par": row.above_par,
                "level_with_par": row.level_with_par,
                "below_par": row.below_par,
            }
            for row in event_standings(event=event)
        ],
    }
    for view in round_views(event=event):
        rnd = view.round
        data["round_list"].append(
            {
                "number": rnd.number,
                "status": rnd.status,
                "commitments": rnd.commitments,
                "seeds": view.seeds,
                "tables": view.tables,
                "progress": view.progress,
                "results": [
                    {
                        "deal": row.deal + 1,
                        "seat": row.seat,
                        "par": row.par,
                        "entries": row.entries,
                    }
                    for row in view.deal_rows
                ],
            }
        )
    if user is not None and user.is_authenticated:
        data["my_games"] = [
            {
                "round": g.round.number,
                "deal": g.deal + 1,
                "match": str(g.match.public_id),
                "url": reverse("gameplay:match", args=[g.match.public_id]),
            }
            for g in current_games_of(user=user, event=event)
        ]
    return data
