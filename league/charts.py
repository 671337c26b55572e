"""Server-side SVG geometry for rating charts (no JavaScript, no CDN)."""

from __future__ import annotations

import math
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


#: Tick steps are 1, 2 or 5 times a power of ten ("nice numbers", Heckbert,
#: Graphics Gems, 1990): labels a reader adds up at a glance. A raw step is
#: rounded to the nice number whose range holds it: below 1.5 -> 1, below 3
#: -> 2, below 7 -> 5, else 10 (times the power of ten).
_NICE = ((1.5, 1), (3.0, 2), (7.0, 5))


def nice_step(span: float, *, target: int = 4) -> int:
    """The whole-point tick step that cuts ``span`` into about ``target`` parts.

    Never below 1 (ratings are shown in whole points), always 1, 2 or 5 times
    a power of ten, so a range of 20 points gets a line every 5, not 20 lines;
    a span gets between about ``target - 1`` and ``target * 1.5 + 1`` ticks.
    """
    raw = max(span, 1.0) / max(target, 1)
    power = 10 ** math.floor(math.log10(raw))
    fraction = raw / power
    nice = next((n for limit, n in _NICE if fraction < limit), 10)
    return max(1, int(nice * power))


def nice_ticks(low: float, high: float, *, target: int = 4) -> list[int]:
    """Whole-point tick values inside [low, high], ``nice_step`` apart, on
    multiples of the step (1480, 1490, 1500, not 1483, 1493)."""
    step = nice_step(high - low, target=target)
    first = math.ceil(low / step) * step
    return list(range(first, math.floor(high) + 1, step))


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
    ticks = [(round(y(v), 1), v) for v in nice_ticks(low, high)]
    return Chart(
        width=width,
        height=height,
        polyline=" ".join(f"{a},{b}" for a, b in coords),
        points=points,
        y_ticks=ticks,
        low=int(low),
        high=int(high),
    )
