"""Round robin schedules from the FIDE Berger tables (Handbook C.05, Annex 1).

The whole schedule is fixed before the first game, so the organiser can publish
it and the scheduler can create every round's matches up front. Berger tables
(rather than the simple "circle" rotation) are used because they balance the
first seat: over one cycle every player has the first seat either
``floor((n-1)/2)`` or ``ceil((n-1)/2)`` times and never more than two games in
a row with the same seat, the same guarantee chess arbiters rely on for colours.
"""

from __future__ import annotations

from collections.abc import Sequence

from league.tournaments.formats.base import P, Pairing

__all__ = ["Pairing", "berger_table", "round_robin_rounds"]


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """Berger pairings by pairing number (1-based) for an even ``n``.

    Round ``r`` pivots on player ``p = ((r-1) * n/2) mod (n-1) + 1``: ``p`` meets
    ``n`` (``p`` has the first seat in odd rounds, ``n`` in even rounds) and the
    other boards pair ``p+i`` (first seat) with ``p-i`` counting modulo
    ``n-1``. This reproduces the published tables, e.g. for six players round
    1 is 1-6, 2-5, 3-4 and round 2 is 6-4, 5-3, 1-2.
    """
    if n < 2 or n % 2:
        raise ValueError("berger_table needs an even number of players >= 2")
    m = n - 1
    rounds = []
    for r in range(1, n):
        pivot = ((r - 1) * (n // 2)) % m + 1
        games = [(pivot, n) if r % 2 else (n, pivot)]
        for i in range(1, n // 2):
            games.append(((pivot - 1 + i) % m + 1, (pivot - 1 - i) % m + 1))
        rounds.append(games)
    return rounds


def round_robin_rounds(
    participants: Sequence[P],
    *,
    cycles: int = 1,
    reverse_last_two_rounds: bool = True,
) -> list[list[Pairing[P]]]:
    """Every round of a (multi-)cycle round robin over ``participants``.

    ``participants`` are in pairing-number order (seed 1 first; draw lots or
    sort by rating before calling). An odd field gets a dummy as the last
    pairing number and whoever meets it has a bye that round, listed last.
    Each further cycle repeats the Berger table with seats swapped. For a
    double round robin FIDE (C.05 Annex 1) has the last two rounds of the
    *first* cycle played in reverse order and the second cycle keep the
    table's order. That stops the seat swap at the cycle boundary from giving
    anyone a third game in a row with the same seat, for every field size
    (four included); reversing in both cycles instead moved the problem to
    the end of the second cycle. With more cycles every cycle but the last is
    reversed (the same rule at each boundary; FIDE defines no more than two
    cycles). With it only four players over three or more cycles keep two
    such runs; no choice between the two orders per cycle avoids them for
    every size. ``reverse_last_two_rounds`` controls it.
    """
    players = list(participants)
    if len(players) < 2:
        raise ValueError("a round robin needs at least two participants")
    if len(set(players)) != len(players):
        raise ValueError("participants must be distinct")
    if cycles < 1:
        raise ValueError("cycles must be at least 1")
    n = len(players) + len(players) % 2
    base = berger_table(n)
    reversed_end = base
    if reverse_last_two_rounds and len(base) >= 2:
        reversed_end = [*base[:-2], base[-1], base[-2]]

    def player(number: int) -> P | None:
        return players[number - 1] if number <= len(players) else None

    rounds: list[list[Pairing[P]]] = []
    for cycle in range(cycles):
        for games in reversed_end if cycle < cycles - 1 else base:
            number = len(rounds) + 1
            played: list[tuple[P, P]] = []
            byes: list[P] = []
            for a, b in games:
                first, second = (a, b) if cycle % 2 == 0 else (b, a)
                pa, pb = player(first), player(second)
                if pa is None or pb is None:
                    bye = pa if pb is None else pb
                    assert bye is not None  # only the padding seat is None
                    byes.append(bye)
                else:
                    played.append((pa, pb))
            row = [
                Pairing(round=number, table=i + 1, first=a, second=b)
                for i, (a, b) in enumerate(played)
            ]
            row += [
                Pairing(round=number, table=len(row) + i + 1, first=p, second=None)
                for i, p in enumerate(byes)
            ]
            rounds.append(row)
    return rounds
