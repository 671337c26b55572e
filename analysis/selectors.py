"""What a client is shown of a match's analysis, per perspective.

``full`` shows every decision's menu. ``seat:N`` ("what seat N knew") shows
the menus, labels and worst moves of seat N's own decisions only; other seats'
decisions keep their position on the graph (version, seat, estimate, grade)
but not their menus, which would name the cards in that seat's hand.
``spectator`` shows no menus at all.
"""

from __future__ import annotations

from typing import Any

from analysis.models import MatchAnalysis
from analysis.services import analysable
from gameplay.models import Match
from gameplay.rules.analysis import ANALYSIS_VERSION
from gameplay.selectors import parse_perspective

_PRIVATE = ("menu", "taken", "taken_label", "taken_action", "best")


def analysis_of(*, match: Match) -> MatchAnalysis | None:
    return MatchAnalysis.objects.filter(match=match, version=ANALYSIS_VERSION).first()


def analysis_view(*, match: Match, perspective: str | None) -> dict[str, Any]:
    """The analysis as ``perspective`` may see it; raises ``NotFinished`` for a
    match in play and ``ValueError`` for a bad perspective."""
    analysable(match=match)
    players = match.config.get("players") or match.seats.count()
    kind, seat = parse_perspective(value=perspective, players=players)
    row = analysis_of(match=match)
    body: dict[str, Any] = {
        "match": str(match.public_id),
        "game": match.game,
        "perspective": perspective or "full",
        "version": ANALYSIS_VERSION,
        "status": row.status if row is not None else "none",
        "progress": None,
        "analysis": None,
    }
    if row is None:
        return body
    body["progress"] = {"done": row.done_steps, "total": row.total_steps}
    if row.error:
        body["error"] = row.error
    if row.result is None:
        return body
    result = dict(row.result)
    result["cpu_seconds"] = row.cpu_seconds
    if kind != "full":
        result["decisions"] = [
            d if kind == "seat" and d["seat"] == seat else _public(d)
            for d in result["decisions"]
        ]
        result["summary"] = {
            s: p if kind == "seat" and s == str(seat) else {**p, "worst": []}
            for s, p in result["summary"].items()
        }
    body["analysis"] = result
    return body


def _public(decision: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in decision.items() if k not in _PRIVATE}
