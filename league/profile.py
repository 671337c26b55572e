"""Profile sections league adds to a player's page (via accounts.profile)."""

from __future__ import annotations

from accounts.models import User
from accounts.profile import ProfileSection
from league.charts import rating_chart
from league.models import Participant
from league.ratings import selectors
from league.ratings.elo import display_rating, is_provisional


def ratings_section(user: User) -> ProfileSection | None:
    """One chart per pool the player is rated in (global ladders first)."""
    participant = Participant.objects.filter(key=Participant.user_key(user.pk)).first()
    if participant is None:
        return None
    pools = []
    for rating in selectors.participant_ratings(participant=participant):
        history = selectors.rating_history(participant=participant, pool=rating.pool)
        pools.append(
            {
                "pool": rating.pool,
                "rating": display_rating(rating.rating),
                "peak": display_rating(rating.peak),
                "games": rating.games,
                "played": rating.played,
                "wins": rating.wins,
                "provisional": is_provisional(
                    games=rating.games, config=rating.pool.elo_config
                ),
                "chart": rating_chart(history),
            }
        )
    if not pools:
        return None
    return ProfileSection(
        title="Ratings",
        template="league/_profile_ratings.html",
        context={"pools": pools},
    )


def head_to_head_section(user: User) -> ProfileSection | None:
    records = selectors.head_to_head(user=user)
    if not records:
        return None
    return ProfileSection(
        title="Head to head",
        template="league/_profile_h2h.html",
        context={"records": records[:30], "more": max(0, len(records) - 30)},
    )
