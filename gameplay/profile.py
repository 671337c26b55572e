"""The "Recent games" section of a player's profile page."""

from __future__ import annotations

from accounts.models import User
from accounts.profile import ProfileSection
from gameplay import selectors


def recent_games_section(user: User) -> ProfileSection | None:
    matches = selectors.recent_matches(user=user, limit=15)
    live = list(selectors.live_matches().filter(seats__user=user)[:5])
    if not matches and not live:
        return None
    rows = []
    for match in matches:
        seat = next(s for s in match.seats.all() if s.user_id == user.pk)
        rows.append(
            {
                "match": match,
                "placement": seat.placement,
                "won": seat.placement == 1,
                "players": len(match.seats.all()),
                "opponents": [s.display_name for s in match.seats.all() if s != seat],
            }
        )
    return ProfileSection(
        title="Games",
        template="gameplay/_profile_games.html",
        context={"rows": rows, "live": live},
    )
