"""Rating charts label their y axis with a few "nice" ticks (issue 26 §4: a
small range drew one gridline and label per rating point, a solid band)."""

from __future__ import annotations

import itertools
import math
from datetime import UTC, datetime

import pytest

from league.charts import nice_step, nice_ticks, rating_chart
from league.ratings.selectors import HistoryPoint


def _nice(step: int) -> bool:
    power = 10 ** math.floor(math.log10(step))
    return step // power in (1, 2, 5) and step % power == 0


@pytest.mark.parametrize(
    "low, high",
    [
        (1490.0, 1510.0),  # one drawn game: the 10-point margin either side
        (1496.3, 1519.8),
        (1480.0, 1540.0),
        (1450.5, 1551.2),
        (1400.0, 1700.0),
        (1100.0, 2400.0),
        (300.0, 2800.0),
        (1499.6, 1500.4),
    ],
)
def test_ticks_are_few_nice_and_inside_the_range(low: float, high: float) -> None:
    ticks = nice_ticks(low, high)
    step = nice_step(high - low)
    assert _nice(step)
    assert 1 <= len(ticks) <= 7 if high - low >= 1 else len(ticks) <= 1
    assert all(low <= t <= high for t in ticks)
    assert all(t % step == 0 for t in ticks)
    assert all(b - a == step for a, b in itertools.pairwise(ticks))
    if high - low >= 10:
        assert len(ticks) >= 2


def _history(deltas: list[float]) -> list[HistoryPoint]:
    rating, out = 1500.0, []
    for i, d in enumerate(deltas):
        rating += d
        out.append(
            HistoryPoint(i + 1, datetime(2026, 12, 1, tzinfo=UTC), rating, d, 1, 2, "x")
        )
    return out


def test_a_small_range_gets_a_handful_of_gridlines() -> None:
    chart = rating_chart(_history([3.0, -2.5, 1.5, -4.0]))
    assert chart is not None
    labels = [label for _, label in chart.y_ticks]
    # The old rule drew 20 or more lines, one per point, at this range.
    assert 2 <= len(labels) <= 7, labels
    assert len({b - a for a, b in itertools.pairwise(labels)}) == 1
    assert all(label % 5 == 0 for label in labels)
    ys = [y for y, _ in chart.y_ticks]
    assert all(12 <= y <= chart.height - 12 for y in ys)
    assert ys == sorted(ys, reverse=True), "higher ratings sit higher"
