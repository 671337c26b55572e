"""Whose move it is across one player's matches, for any game.

The navigation badge ("games waiting for your move"), the home page's "your
games" list and the player's own socket all ask the same question, answered
here from each engine's ``actors`` through the registry, so no game is named.
A seat that resigned, or that a bot took over, is never waiting for a move,
nor is a seat at a real-time table (no turns).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Prefetch
from django.urls import get_script_prefix, reverse
from django.utils import timezone

from accounts.http import Viewer
from accounts.models import User
from gameplay import clocks
from gameplay.catalog import game_name
from gameplay.models import Match, MatchStatus, Seat
from gameplay.moverule import is_realtime
from gameplay.rules import GameError, get_game
from gameplay.timecontrol import TimeControl

# A person has a handful of games at once; the list on the home page stops here.
MAX_GAMES = 50


@dataclass(frozen=True)
class PlayerGame:
    """One of a player's unfinished matches, as the "your games" list shows it."""

    match: Match
    game_name: str
    url: str
    status: str
    your_move: bool
    to_move: list[str]  # display names of the seats to act now
    opponents: list[str]
    # The player's own time left for the move they are to make (None: not
    # their move, or no clock): what the list is ordered by.
    time_left: timedelta | None = None
    deadline: datetime | None = None


def has_turns(game: str) -> bool:
    """False for a real-time game (the engine's ``realtime`` flag), where
    nobody is ever "to move"; True for an unknown game (nothing to hide)."""
    try:
        return not is_realtime(get_game(game))
    except GameError:
        return True


def actors_of(match: Match) -> set[int]:
    """The seats to act now in an active match (empty otherwise or if unknown).

    Empty in a real-time game (the engine's ``realtime`` flag): everyone may
    act at every moment there, so nobody is "to move" and such a table is
    never "waiting for your move" (the badge would be on for the whole match).
    """
    if match.status != MatchStatus.ACTIVE or match.state is None:
        return set()
    if not has_turns(match.game):
        return set()
    return set(get_game(match.game).actors(match.state))


def seat_to_move(seat: Seat, actors: set[int]) -> bool:
    return (
        seat.user_id is not None
        and not seat.forfeited
        and not seat.replaced_by_bot
        and seat.number in actors
    )


def time_left(
    *, match: Match, seat: Seat, actors: set[int], now: datetime
) -> timedelta | None:
    """How long ``seat`` has left for the move it is to make (never negative),
    None when it is not to move or its game has no clock.

    The one read of urgency (issue 30 §3): the "your games" list's order on
    the home page and in the API, the digest's order and the times in the
    reminders all come from here, so the clock rule they follow is the one
    the clock check enforces (``clocks.seat_time_left``: vacations pause it).
    """
    if not seat_to_move(seat, actors):
        return None
    return clocks.seat_time_left(match=match, seat=seat, now=now, actors=sorted(actors))


def is_correspondence(match: Match) -> bool:
    """Whether "your move" reaches a player away from the site (e-mail, push).

    A correspondence time control gives days per move; a game whose move
    waits seconds or minutes is played at the table, and an untimed one has
    no deadline to warn of. Real-time games have no turns.
    """
    control = TimeControl.from_json(match.time_control)
    return control.is_correspondence and has_turns(match.game)


# The match page's path around a marker id (the nil UUID, which no match
# has), split once per script prefix (``match_url``).
_URL_MARKER = str(uuid.UUID(int=0))
_url_templates: dict[str, tuple[str, str]] = {}


def match_url(match: Match) -> str:
    """The match page's path. ``reverse`` is not cheap (about a hundred
    Python calls) and a live table asks for it at every socket's connect
    (its watchers' frame, ``table_watch``) from a match just read: the path
    is reversed once per script prefix around a marker id, and each
    match's id is put where the marker stood."""
    prefix = get_script_prefix()
    parts = _url_templates.get(prefix)
    if parts is None:
        path = reverse("gameplay:match", args=[_URL_MARKER])
        head, _, tail = path.rpartition(_URL_MARKER)
        parts = _url_templates[prefix] = (head, tail)
    return f"{parts[0]}{match.public_id}{parts[1]}"


def in_play(*, user: User) -> list[tuple[Match, bool]]:
    """The user's active matches where their own seat still plays (not
    resigned, not handed to a bot), newest first, each with whether it waits
    for the user's move now. At most ``MAX_GAMES``."""
    if not user.is_authenticated:
        return []
    seats = (
        Seat.objects.filter(
            user=user,
            forfeited=False,
            replaced_by_bot=False,
            match__status=MatchStatus.ACTIVE,
        )
        .select_related("match")
        .order_by("-match__started_at")[:MAX_GAMES]
    )
    return [(seat.match, seat.number in actors_of(seat.match)) for seat in seats]


def awaiting_move(*, user: User) -> list[Match]:
    """The user's active matches where the user is among the seats to act."""
    return [match for match, yours in in_play(user=user) if yours]


def player_games(*, user: Viewer, now: datetime | None = None) -> list[PlayerGame]:
    """The user's waiting tables and games in play, by urgency: their moves
    first, the least time left first (an untimed move after the timed ones),
    then the games waiting for others, then tables waiting for players."""
    if not user.is_authenticated:
        return []
    now = now or timezone.now()
    matches = (
        Match.objects.filter(
            seats__user=user, status__in=[MatchStatus.ACTIVE, MatchStatus.WAITING]
        )
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user"))
        )
        .order_by("-created_at")[:MAX_GAMES]
    )
    games = []
    for match in matches:
        actors = actors_of(match)
        seats = list(match.seats.all())
        mine = next(seat for seat in seats if seat.user_id == user.pk)
        if mine.forfeited:
            continue  # resigned: a bot plays on, it is no longer this player's game
        left = time_left(match=match, seat=mine, actors=actors, now=now)
        games.append(
            PlayerGame(
                match=match,
                game_name=game_name(match.game),
                url=match_url(match),
                status=match.status,
                your_move=seat_to_move(mine, actors),
                to_move=[seat.display_name for seat in seats if seat.number in actors],
                opponents=[
                    seat.display_name
                    for seat in seats
                    if seat.number != mine.number and not seat.is_open
                ],
                time_left=left,
                deadline=None if left is None else now + left,
            )
        )
    games.sort(key=_urgency)
    return games


def _urgency(game: PlayerGame) -> tuple[bool, bool, bool, timedelta]:
    """Sort key: your move, then timed, then least time left; then in play.
    (The sort is stable: equal keys keep the newest first.)"""
    left = game.time_left
    return (
        not game.your_move,
        game.status != MatchStatus.ACTIVE,
        left is None,
        left if left is not None else timedelta(0),
    )
