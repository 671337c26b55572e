"""The "Recent games" section of a player's profile page."""

from __future__ import annotations

from accounts.models import User
from accounts.profile import ProfileSection
from gameplay import selectors
from gameplay.catalog import game_name
from gameplay.models import Match


def _opponents(match: Match, user: User) -> list[str]:
    return [s.display_name for s in match.seats.all() if s.user_id != user.pk]


def recent_games_section(user: User) -> ProfileSection | None:
    """Each result with the game's name and the opponents' names (never an id)."""
    matches = selectors.recent_matches(user=user, limit=15)
    live_matches = list(selectors.live_matches().filter(seats__user=user)[:5])
    if not matches and not live_matches:
        return None
    rows = []
    for match in matches:
        seat = next(s for s in match.seats.all() if s.user_id == user.pk)
        rows.append(
            {
                "match": match,
                "game_name": game_name(match.game),
                "placement": seat.placement,
                "won": seat.placement == 1,
                "players": len(match.seats.all()),
                "opponents": _opponents(match, user),
            }
        )
    live = [
        {
            "match": match,
            "game_name": game_name(match.game),
            "opponents": _opponents(match, user),
        }
        for match in live_matches
    ]
    return ProfileSection(
        title="Games",
        template="gameplay/_profile_games.html",
        context={"rows": rows, "live": live},
    )
