"""Matchpoints of a duplicate event: pure Python, no Django, no clock.

A *result* is what one player (or par, the built-in bot) got in one seat of
one deal: the seat's placement (1 = best, equal placements = a tie). Results
are compared only inside their *group*, the (deal, seat) pair: everyone who
held that seat of that deal, at any table, and par. Against each other
result of the group a player scores 1 for a better placement, 1/2 for the
same and 0 for a worse one (bridge's matchpoints at one point per
comparison). Par is compared like any other result but is never ranked.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

PAR = "par"
T = TypeVar("T")


@dataclass(frozen=True)
class SeatResult:
    deal: int
    seat: int
    player: Hashable  # a player id, or PAR
    placement: int


@dataclass(frozen=True)
class ScoredResult:
    deal: int
    seat: int
    player: Hashable
    placement: int
    matchpoints: float
    top: int  # the most this result could score: the others in its group
    par: int | None  # par's placement in this group (None: par did not play)

    @property
    def versus_par(self) -> int | None:
        """+1 above par, 0 level, -1 below; None without a par result."""
        if self.par is None:
            return None
        return (self.par > self.placement) - (self.par < self.placement)


@dataclass
class Standing:
    player: Hashable
    matchpoints: float = 0.0
    top: int = 0
    deals: int = 0
    above_par: int = 0
    level_with_par: int = 0
    below_par: int = 0
    rank: int = 0
    results: list[ScoredResult] = field(default_factory=list)

    @property
    def percent(self) -> float:
        """Matchpoints as a share of the most possible (0 with no comparison)."""
        return 100.0 * self.matchpoints / self.top if self.top else 0.0


def score_results(results: Iterable[SeatResult]) -> list[ScoredResult]:
    """Every player's result with its matchpoints, in (deal, seat, player) order."""
    groups: dict[tuple[int, int], list[SeatResult]] = defaultdict(list)
    for result in results:
        groups[(result.deal, result.seat)].append(result)
    scored: list[ScoredResult] = []
    for (deal, seat), group in sorted(groups.items()):
        par = next((r.placement for r in group if r.player == PAR), None)
        for result in group:
            if result.player == PAR:
                continue
            points = 0.0
            for other in group:
                if other is result:
                    continue
                if result.placement < other.placement:
                    points += 1.0
                elif result.placement == other.placement:
                    points += 0.5
            scored.append(
                ScoredResult(
                    deal=deal,
                    seat=seat,
                    player=result.player,
                    placement=result.placement,
                    matchpoints=points,
                    top=len(group) - 1,
                    par=par,
                )
            )
    scored.sort(key=lambda s: (s.deal, s.seat, str(s.player)))
    return scored


def standings(
    results: Iterable[SeatResult], *, players: Iterable[Hashable]
) -> list[Standing]:
    """Players ranked by matchpoint percentage, then matchpoints, then the
    order of ``players`` (the order they joined); equal on both share a rank.

    The percentage ranks, not the sum: a player whose deal was not played
    (an aborted game) or who sat at a smaller group has fewer comparisons.
    """
    order = list(players)
    table = {p: Standing(player=p) for p in order}
    for scored in score_results(results):
        row = table.get(scored.player)
        if row is None:
            continue
        row.results.append(scored)
        row.matchpoints += scored.matchpoints
        row.top += scored.top
        row.deals += 1
        vs = scored.versus_par
        if vs is not None:
            row.above_par += vs > 0
            row.level_with_par += vs == 0
            row.below_par += vs < 0
    rows = sorted(
        table.values(),
        key=lambda r: (-round(r.percent, 9), -r.matchpoints, order.index(r.player)),
    )
    for index, row in enumerate(rows):
        previous = rows[index - 1] if index else None
        same = (
            previous is not None
            and round(previous.percent, 9) == round(row.percent, 9)
            and previous.matchpoints == row.matchpoints
        )
        row.rank = previous.rank if same and previous is not None else index + 1
    return rows


def seat_order(players: list[T], *, table: int, deal: int) -> list[T]:
    """Who sits where at ``table`` (1-based) for ``deal`` (0-based): the
    table's players rotated by (table - 1 + deal), as the duplicate bot
    matches rotate theirs, so over a round each player moves through the
    seats and the same seat of a deal is held by different tables' players
    in different positions of their tables."""
    size = len(players)
    shift = (table - 1 + deal) % size
    return players[shift:] + players[:shift]
