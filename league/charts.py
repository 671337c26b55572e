"""Server-side SVG geometry for rating charts (no JavaScript, no CDN)."""

from __future__ import annotations

from dataclasses import dataclass

from league.ratings.selectors import HistoryPoint


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    polyline: str
    points: list[tuple[float, float, HistoryPoint]]
    y_ticks: list[tuple[float, int]]
    low: int
    high: int


def rating_chart(
    history: list[HistoryPoint], *, width: int = 600, height: int = 200, pad: int = 36
) -> Chart | None:
    """Coordinates for a line chart of rating after each match (None if empty).

    The x axis is match order, not time: a player with bursts of games would
    otherwise get an unreadable cluster. The y range hugs the data plus a margin.
    """
    if not history:
        return None
    ratings = [h.rating for h in history]
    first_before = history[0].rating - history[0].delta
    low = min(*ratings, first_before)
    high = max(*ratings, first_before)
    margin = max(10.0, (high - low) * 0.1)
    low, high = low - margin, high + margin
    inner_w, inner_h = width - pad - 8, height - 2 * 12 - 8
    count = len(history)

    def x(i: int) -> float:
        return pad + (inner_w * i / count if count else 0)

    def y(value: float) -> float:
        return 12 + inner_h * (1 - (value - low) / (high - low))

    coords = [(round(x(0), 1), round(y(first_before), 1))]
    points = []
    for i, h in enumerate(history, start=1):
        px, py = round(x(i), 1), round(y(h.rating), 1)
        coords.append((px, py))
        points.append((px, py, h))
    step = max(1, round((high - low) / 4 / 25) * 25)
    start = int(low // step + 1) * step
    ticks = [(round(y(v), 1), int(v)) for v in range(start, int(high) + 1, step)]
    return Chart(
        width=width,
        height=height,
        polyline=" ".join(f"{a},{b}" for a, b in coords),
        points=points,
        y_ticks=ticks,
        low=int(low),
        high=int(high),
    )
