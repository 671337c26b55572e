"""Arena reads: standings (with fire and each player's sheet), the games in
play to watch, and the version the live page compares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Q
from django.utils.translation import pgettext_lazy

from accounts.models import User
from league.models import Participant
from league.tournaments.arena.models import (
    Arena,
    ArenaGame,
    ArenaGameStatus,
    ArenaPlayer,
    ArenaSeat,
)
from league.tournaments.arena.pairing import on_fire


def ranked_players(arena: Arena) -> list[ArenaPlayer]:
    """Every player in standings order: score, then wins, then fewer games
    (the same points in fewer games), then who joined first."""
    players = list(arena.players.select_related("participant"))
    players.sort(key=lambda p: (-p.score, -p.wins, p.games, p.joined_at, p.pk))
    return players


# The words of a standing row's ``state`` (the API keeps the codes).
STATE_LABELS = {
    "left": pgettext_lazy("arena player state", "left"),
    "playing": pgettext_lazy("arena player state", "playing"),
    "paused": pgettext_lazy("arena player state", "paused"),
    "waiting": pgettext_lazy("arena player state", "waiting"),
}


@dataclass
class StandingRow:
    rank: int
    player: ArenaPlayer
    fire: bool
    playing: bool
    # Points per finished game in order; "doubled" wins are marked.
    sheet: list[dict[str, Any]] = field(default_factory=list)

    @property
    def state(self) -> str:
        if self.player.withdrawn:
            return "left"
        if self.playing:
            return "playing"
        if self.player.paused:
            return "paused"
        return "waiting"

    @property
    def state_label(self) -> str:
        """``state`` as the page says it, in the active language."""
        return str(STATE_LABELS[self.state])


def standings(arena: Arena) -> list[StandingRow]:
    players = ranked_players(arena)
    playing = set(
        ArenaSeat.objects.filter(
            game__arena=arena, game__status=ArenaGameStatus.PLAYING
        ).values_list("player_id", flat=True)
    )
    sheets: dict[int, list[dict[str, Any]]] = {}
    for seat in (
        ArenaSeat.objects.filter(game__arena=arena, game__status=ArenaGameStatus.DONE)
        .order_by("game__finished_at", "game_id")
        .only("player_id", "points", "doubled", "berserk", "outcome")
    ):
        sheets.setdefault(seat.player_id, []).append(
            {
                "points": seat.points,
                "doubled": seat.doubled,
                "berserk": seat.berserk,
                "outcome": seat.outcome,
            }
        )
    return [
        StandingRow(
            rank=i + 1,
            player=p,
            fire=on_fire(p.streak),
            playing=p.pk in playing,
            sheet=sheets.get(p.pk, []),
        )
        for i, p in enumerate(players)
    ]


@dataclass
class GameView:
    game: ArenaGame
    # Per seat, in seat order: name, berserk, points (None while in play).
    seats: list[dict[str, Any]]


def games(arena: Arena, *, status: str, limit: int = 30) -> list[GameView]:
    """Games of the arena in ``status``, newest first, with their players."""
    found = list(
        arena.games.filter(status=status)
        .exclude(match=None)
        .select_related("match")
        .prefetch_related("seats__player__participant")[:limit]
    )
    out = []
    for game in found:
        seats = sorted(game.seats.all(), key=lambda s: s.seat)
        out.append(
            GameView(
                game=game,
                seats=[
                    {
                        "name": s.player.participant.name,
                        "berserk": s.berserk,
                        "points": s.points,
                    }
                    for s in seats
                ],
            )
        )
    return out


def player_entries(arena: Arena, user: User | None) -> list[ArenaPlayer]:
    """The user's own entry and their bots' entries in ``arena``."""
    if user is None or not user.is_authenticated:
        return []
    return list(
        arena.players.filter(
            Q(participant__key=Participant.user_key(user.pk))
            | Q(participant__owner_id=user.pk, participant__bot_id__isnull=False)
        ).select_related("participant")
    )


def current_game_of(player: ArenaPlayer) -> ArenaGame | None:
    return (
        ArenaGame.objects.filter(seats__player=player, status=ArenaGameStatus.PLAYING)
        .select_related("match")
        .first()
    )


def live_version(arena: Arena) -> str:
    """Changes whenever the page's live parts would: status, players' scores
    and states, games started and finished."""
    players = arena.players.aggregate(
        n=Count("pk"),
        score=Max("score"),
        paused=Count("pk", filter=Q(paused=True)),
        left=Count("pk", filter=Q(withdrawn=True)),
        berserk=Count("pk", filter=Q(berserk=True)),
        freed=Max("freed_at"),
    )
    played = arena.games.aggregate(
        n=Count("pk"),
        playing=Count("pk", filter=Q(status=ArenaGameStatus.PLAYING)),
        last=Max("finished_at"),
    )

    def stamp(value: Any) -> str:
        return value.isoformat() if value else "-"

    return (
        f"{arena.status}.{players['n']}.{players['score']}.{players['paused']}."
        f"{players['left']}.{players['berserk']}.{stamp(players['freed'])}."
        f"{played['n']}.{played['playing']}.{stamp(played['last'])}"
    )
