"""Bot ratings as the ladder and the bot page need them, read through league.

Elo lives in ``league`` (rating pools per game and scope); a bot is rated as
participant ``bot:<bot id>`` (see :mod:`bots.directory`). Ladder matches are
rated, so they feed the game's global pool. This module is the only place the
bots app reads ratings, through league's selectors (a plain dependency: league
is always installed and never imports bots); before a bot has a rating pairing
uses a ladder score computed from its recent placements, so near-rated pairing
works from the first round.
"""

from __future__ import annotations

from typing import Any

from bots.models import Bot
from gameplay.agents import uploaded_agent
from gameplay.models import MatchStatus, Seat
from league.charts import Chart, rating_chart
from league.models import Participant
from league.ratings.anchors import anchor_ratings
from league.ratings.selectors import (
    default_pool,
    participant_ratings,
    rating_history,
)

#: Ladder score scale for the fallback: Elo-like numbers around 1500.
BASE_SCORE = 1500.0
RECENT_MATCHES = 50


def _participant_and_pool(bot: Bot) -> tuple[Any, Any] | None:
    participant = Participant.objects.filter(key=Participant.bot_key(bot.pk)).first()
    pool = default_pool(game=bot.game)
    if participant is None or pool is None:
        return None
    return participant, pool


def bot_rating(*, bot: Bot) -> float | None:
    """The bot's Elo in its game's global pool, or None when not rated yet."""
    found = _participant_and_pool(bot)
    if found is None:
        return None
    participant, pool = found
    rating = participant_ratings(participant=participant).filter(pool=pool).first()
    return float(rating.rating) if rating is not None else None


def bot_rating_chart(*, bot: Bot) -> Chart | None:
    """League's server-side SVG chart geometry of the bot's rating, or None."""
    found = _participant_and_pool(bot)
    if found is None:
        return None
    participant, pool = found
    return rating_chart(rating_history(participant=participant, pool=pool))


def ladder_score(*, bot: Bot) -> float:
    """Fallback strength: 1500 plus 400 times (mean placement score - 0.5).

    The placement score of a match is 1 for first and 0 for last, so a bot that
    won every recent match scores 1700 and one that always lost 1300.
    """
    agents = [uploaded_agent(pk) for pk in bot.versions.values_list("pk", flat=True)]
    seats = (
        Seat.objects.filter(agent__in=agents, match__status=MatchStatus.FINISHED)
        .exclude(placement__isnull=True)
        .select_related("match")
        .order_by("-match__finished_at")[:RECENT_MATCHES]
    )
    scores = []
    for seat in seats:
        assert seat.placement is not None  # the query keeps placed seats only
        players = len((seat.match.result or {}).get("placements") or []) or 2
        scores.append((players - seat.placement) / max(1, players - 1))
    if not scores:
        return BASE_SCORE
    return BASE_SCORE + 400.0 * (sum(scores) / len(scores) - 0.5)


def pairing_strength(*, bot: Bot) -> float:
    """What ladder pairing sorts by: league's Elo when rated, else the score."""
    rating = bot_rating(bot=bot)
    return rating if rating is not None else ladder_score(bot=bot)


def user_strength(*, user_id: int, game: str) -> float:
    """A connected bot's strength for pairing: its account's Elo in ``game``'s
    global pool (it is rated as a user), else the middle of the scale."""
    participant = Participant.objects.filter(key=Participant.user_key(user_id)).first()
    pool = default_pool(game=game)
    if participant is None or pool is None:
        return BASE_SCORE
    rating = participant_ratings(participant=participant).filter(pool=pool).first()
    return float(rating.rating) if rating is not None else BASE_SCORE


def anchor_strength(*, game: str, name: str) -> float:
    """A built-in anchor's strength for pairing: its fixed league rating in
    ``game``'s pools."""
    return anchor_ratings(game).get(name, BASE_SCORE)
