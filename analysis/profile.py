"""The "Analysed games" section of a player's profile: accuracy per game."""

from __future__ import annotations

from accounts.models import User
from accounts.profile import ProfileSection
from analysis.models import AnalysisStatus, MatchAnalysis
from gameplay.catalog import game_name
from gameplay.models import MatchStatus

RECENT = 10


def accuracy_section(user: User) -> ProfileSection | None:
    """The player's mean loss per decision in their latest analysed games,
    and over them all (searched games only; the real-time review has no
    mean loss)."""
    analyses = (
        MatchAnalysis.objects.filter(
            status=AnalysisStatus.DONE,
            match__status=MatchStatus.FINISHED,
            match__seats__user=user,
        )
        .select_related("match")
        .prefetch_related("match__seats")
        .order_by("-match__finished_at")[: RECENT * 2]
    )
    rows = []
    for row in analyses:
        result = row.result or {}
        if result.get("kind", "search") != "search":
            continue
        seat = next(s.number for s in row.match.seats.all() if s.user_id == user.pk)
        mine = result.get("summary", {}).get(str(seat))
        if not mine or mine.get("mean_loss") is None:
            continue
        rows.append({"match": row.match, "game_name": game_name(row.match.game),
                     **mine})  # fmt: skip
        if len(rows) == RECENT:
            break
    if not rows:
        return None
    decisions = sum(r["decisions"] for r in rows)
    overall = sum(r["mean_loss"] * r["decisions"] for r in rows) / decisions
    return ProfileSection(
        title="Analysed games",
        template="analysis/_profile_accuracy.html",
        context={"rows": rows, "overall": overall, "decisions": decisions},
    )
