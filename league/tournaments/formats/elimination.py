"""Single and double elimination brackets as plain, JSON-able data.

A :class:`Bracket` is a list of matches whose two slots name where their
participant comes from (a seed, the winner of match X or the loser of match Y).
Participants are filled in by :func:`advance`, which returns a new bracket and
never mutates its input, so the Django layer can store ``to_dict()`` in a JSON
column, load it, advance it and save it inside one transaction.

Every slot is re-derived from its source on each update (:func:`_settle`), in
creation order, which is also dependency order. That single pass resolves byes
in cascade (a bye's "loser" is nobody, which can hand the next losers-bracket
match a bye too) and makes :func:`void_result` trivial: clear the results that
depend on the voided one and settle again.

Seeding is the standard one (1-16, 8-9, 4-13, 5-12, ...): if the higher seed
always wins, seeds ``s`` and ``t`` can only meet once the field has shrunk to
the smallest power of two holding both in its top places, so seed 1 and 2 meet
in the final. Byes fill the missing places of the next power of two and, being
the lowest "seeds", land against the top seeds.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

Section = Literal["W", "L", "GF", "P3"]
MatchState = Literal["pending", "ready", "done", "bye", "skipped"]

FINISHED: frozenset[str] = frozenset({"done", "bye", "skipped"})


@dataclass(slots=True)
class Slot:
    """One side of a match: ``source`` is ``seed:N``, ``winner:ID`` or ``loser:ID``.

    ``resolved`` turns true once the source is settled; a resolved slot whose
    ``participant`` is ``None`` is a bye.
    """

    source: str
    participant: Hashable | None = None
    resolved: bool = False


@dataclass(slots=True)
class BracketMatch:
    """A bracket match; ``state`` is pending, ready, done, bye or skipped."""

    id: str
    section: Section
    round: int
    index: int
    slots: list[Slot]
    state: MatchState = "pending"
    winner: Hashable | None = None
    loser: Hashable | None = None

    @property
    def participants(self) -> list[Hashable | None]:
        return [s.participant for s in self.slots]


@dataclass(slots=True)
class BracketRound:
    """A column of the drawn bracket."""

    section: Section
    round: int
    title: str
    matches: list[BracketMatch]


@dataclass(slots=True)
class Bracket:
    kind: Literal["single", "double"]
    entrants: list[Hashable]
    matches: dict[str, BracketMatch] = field(default_factory=dict)
    champion: Hashable | None = None

    @property
    def finished(self) -> bool:
        """True once the champion is known (a third-place match may remain)."""
        return self.champion is not None

    @property
    def complete(self) -> bool:
        """True once no match is left to play."""
        return all(m.state in FINISHED for m in self.matches.values())

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (participants must themselves be JSON-able)."""
        return {
            "kind": self.kind,
            "entrants": list(self.entrants),
            "champion": self.champion,
            "matches": [
                {
                    "id": m.id,
                    "section": m.section,
                    "round": m.round,
                    "index": m.index,
                    "state": m.state,
                    "winner": m.winner,
                    "loser": m.loser,
                    "slots": [[s.source, s.participant, s.resolved] for s in m.slots],
                }
                for m in self.matches.values()
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Bracket:
        matches = {
            m["id"]: BracketMatch(
                id=m["id"],
                section=m["section"],
                round=m["round"],
                index=m["index"],
                state=m["state"],
                winner=m["winner"],
                loser=m["loser"],
                slots=[Slot(src, p, res) for src, p, res in m["slots"]],
            )
            for m in data["matches"]
        }
        return cls(
            kind=data["kind"],
            entrants=list(data["entrants"]),
            matches=matches,
            champion=data["champion"],
        )


def bracket_size(entrants: int) -> int:
    """Smallest power of two holding ``entrants`` (at least 2)."""
    size = 2
    while size < entrants:
        size *= 2
    return size


def standard_seed_order(size: int) -> list[int]:
    """Seeds in bracket-line order for a power-of-two ``size``.

    Built by doubling: each seed ``s`` of the half-size order is followed by its
    complement ``2k + 1 - s``, giving 1, 16, 8, 9, 4, 13, 5, 12, 2, 15, ... for 16.
    """
    if size < 2 or size & (size - 1):
        raise ValueError("size must be a power of two >= 2")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def _check_entrants(participants: Sequence[Hashable]) -> list[Hashable]:
    players = list(participants)
    if len(players) < 2:
        raise ValueError("a bracket needs at least two entrants")
    if len(set(players)) != len(players):
        raise ValueError("entrants must be distinct")
    if any(p is None for p in players):
        raise ValueError("None is reserved for byes")
    return players


def _add(
    matches: dict[str, BracketMatch],
    section: Section,
    rnd: int,
    index: int,
    sources: tuple[str, str],
    prefix: str | None = None,
) -> str:
    mid = prefix or f"{section}{rnd}-{index}"
    matches[mid] = BracketMatch(
        id=mid,
        section=section,
        round=rnd,
        index=index,
        slots=[Slot(s) for s in sources],
    )
    return mid


def _first_round(matches: dict[str, BracketMatch], size: int) -> None:
    order = standard_seed_order(size)
    for i in range(size // 2):
        _add(
            matches, "W", 1, i + 1, (f"seed:{order[2 * i]}", f"seed:{order[2 * i + 1]}")
        )


def _winners_rounds(matches: dict[str, BracketMatch], size: int) -> int:
    _first_round(matches, size)
    rounds = size.bit_length() - 1
    for r in range(2, rounds + 1):
        for i in range(1, size // 2**r + 1):
            src = (f"winner:W{r - 1}-{2 * i - 1}", f"winner:W{r - 1}-{2 * i}")
            _add(matches, "W", r, i, src)
    return rounds


def single_elimination(
    participants: Sequence[Hashable], *, third_place: bool = False
) -> Bracket:
    """Single-elimination bracket; ``participants`` are in seed order.

    With ``third_place`` the semi-final losers play for third (a semi-final
    decided by a bye hands the other loser third place without a game).
    """
    players = _check_entrants(participants)
    size = bracket_size(len(players))
    matches: dict[str, BracketMatch] = {}
    rounds = _winners_rounds(matches, size)
    if third_place and rounds >= 2:
        semis = (f"loser:W{rounds - 1}-1", f"loser:W{rounds - 1}-2")
        _add(matches, "P3", rounds, 1, semis, prefix="P3")
    return _settle(Bracket(kind="single", entrants=players, matches=matches))


# --- Losers-bracket drop-in order ---------------------------------------------
#
# A player who loses in winners round r >= 2 drops into the losers bracket
# against a survivor who came from the winners bracket earlier. If the two met
# there already, the losers match is a rematch. Where the droppers land is a
# free choice (any permutation of the drop-in round's matches); we restrict it
# to the XOR family ``i -> i ^ mask`` (reversal, half swaps and their
# combinations, the permutations that respect the bracket's binary structure)
# and pick, per bracket size, the masks that minimise the expected number of
# rematches in every losers round before the losers final, with every result
# a coin flip. That expectation is exact and cheap to compute: a losers-slot
# player's origin (the winners match they lost) has a known distribution, and
# two players whose origins are winners matches o1 below o2 met in the winners
# bracket with probability 2^-(round(o2) - round(o1)) (o1's winner had to reach
# o2 and lose it); players who lost in the same winners round never met.


def _origin_inside(o1: tuple[int, int], o2: tuple[int, int]) -> bool:
    (r1, j1), (r2, j2) = o1, o2
    return r1 < r2 and (j1 - 1) >> (r2 - r1) == j2 - 1


def _pair_rematch(d1: dict, d2: dict) -> float:
    total = 0.0
    for o1, p1 in d1.items():
        for o2, p2 in d2.items():
            if _origin_inside(o1, o2):
                total += p1 * p2 * 2.0 ** (o1[0] - o2[0])
            elif _origin_inside(o2, o1):
                total += p1 * p2 * 2.0 ** (o2[0] - o1[0])
    return total


def drop_in_rematches(size: int, masks: Sequence[int]) -> list[float]:
    """Expected rematches per losers round for drop-in ``masks`` (coin-flip results).

    ``masks[r - 2]`` places the losers of winners round ``r``: losers match
    ``i`` (0-based) takes the loser of winners match ``i ^ mask``. All the
    probabilities are dyadic, so the float sums are exact.
    """
    k = size.bit_length() - 1
    if len(masks) != k - 1:
        raise ValueError(f"a bracket of {size} needs {k - 1} drop-in masks")
    per_round: list[float] = []
    slots = []
    cost = 0.0
    for i in range(size // 4):
        a, b = {(1, 2 * i + 1): 1.0}, {(1, 2 * i + 2): 1.0}
        cost += _pair_rematch(a, b)
        slots.append({(1, 2 * i + 1): 0.5, (1, 2 * i + 2): 0.5})
    per_round.append(cost)
    for r in range(2, k + 1):
        count = size >> r
        mask = masks[r - 2]
        if not 0 <= mask < count:
            raise ValueError(f"mask {mask} out of range for {count} matches")
        cost, dropped = 0.0, []
        for i in range(count):
            origin = (r, (i ^ mask) + 1)
            cost += _pair_rematch(slots[i], {origin: 1.0})
            d = {o: p / 2 for o, p in slots[i].items()}
            d[origin] = 0.5
            dropped.append(d)
        per_round.append(cost)
        slots = dropped
        if r < k:
            cost, merged = 0.0, []
            for i in range(count // 2):
                a, b = slots[2 * i], slots[2 * i + 1]
                cost += _pair_rematch(a, b)
                pair: dict[tuple[int, int], float] = {}
                for src in (a, b):
                    for o, p in src.items():
                        pair[o] = pair.get(o, 0.0) + p / 2
                merged.append(pair)
            per_round.append(cost)
            slots = merged
    return per_round


def _mask_key(size: int, masks: tuple[int, ...]) -> tuple:
    rounds = drop_in_rematches(size, masks)
    return (sum(rounds[:-1]), rounds, masks)


def search_drop_in_masks(size: int) -> tuple[int, ...]:
    """Best masks found by coordinate descent from three starts (deterministic).

    Used for bracket sizes without a precomputed entry; for 4-64 places the
    table below is the exhaustive optimum, which the tests re-derive.
    """
    k = size.bit_length() - 1
    counts = [size >> r for r in range(2, k + 1)]
    starts = [
        tuple(0 for _ in counts),
        tuple(c - 1 for c in counts),
        tuple(c // 2 if c > 1 else 0 for c in counts),
    ]
    best = None
    for start in starts:
        current, key = start, _mask_key(size, start)
        improved = True
        while improved:
            improved = False
            for idx, count in enumerate(counts):
                for m in range(count):
                    trial = (*current[:idx], m, *current[idx + 1 :])
                    trial_key = _mask_key(size, trial)
                    if trial_key < key:
                        current, key, improved = trial, trial_key, True
        if best is None or key < best:
            best = key
    assert best is not None  # three starts, each one scored
    return best[2]


#: Drop-in masks per bracket size (winners rounds 2..k): the exhaustive
#: optimum for 4-64 places, :func:`search_drop_in_masks` for 128 and 256
#: (both re-derived by ``tests/league/algorithms/test_elimination.py``).
_DROP_IN_MASKS: dict[int, tuple[int, ...]] = {
    2: (),
    4: (0,),
    8: (1, 0),
    16: (2, 0, 0),
    32: (2, 2, 0, 0),
    64: (8, 6, 1, 1, 0),
    128: (4, 12, 4, 1, 1, 0),
    256: (24, 8, 8, 6, 0, 1, 0),
}


@lru_cache(maxsize=32)
def _drop_in_masks(size: int) -> tuple[int, ...]:
    """Masks for ``size``: the table, or for brackets over 256 places the 256
    table for the last seven drop-in rounds behind the best of a few
    structured masks for the early ones (a full search would take minutes)."""
    if size in _DROP_IN_MASKS:
        return _DROP_IN_MASKS[size]
    extra = size.bit_length() - 1 - 8
    options = []
    for r in range(2, 2 + extra):
        c = size >> r
        options.append(
            sorted({c - 1, c // 2, c // 2 - 1, c // 4, 3 * c // 4, c // 8, c - c // 8})
        )
    tail = _DROP_IN_MASKS[256]
    return min(
        (_mask_key(size, (*prefix, *tail)) for prefix in itertools.product(*options)),
    )[2]


def _drop_in_order(wb_round: int, count: int) -> list[int]:
    """Which winners-bracket match feeds each drop-in losers match (1-based)."""
    mask = _drop_in_masks(count << wb_round)[wb_round - 2]
    return [(i ^ mask) + 1 for i in range(count)]


def double_elimination(participants: Sequence[Hashable]) -> Bracket:
    """Double-elimination bracket with a losers bracket and a grand final.

    The grand final ``GF1`` pits the winners-bracket champion (slot 0) against
    the losers-bracket champion (slot 1). Only if the latter wins is the reset
    ``GF2`` played, because only then has each finalist lost once.
    """
    players = _check_entrants(participants)
    size = bracket_size(len(players))
    matches: dict[str, BracketMatch] = {}
    k = _winners_rounds(matches, size)
    last_lb: str | None = None
    if k >= 2:
        for i in range(1, size // 4 + 1):
            _add(matches, "L", 1, i, (f"loser:W1-{2 * i - 1}", f"loser:W1-{2 * i}"))
        lb_round = 1
        for r in range(2, k + 1):
            count = size // 2**r
            order = _drop_in_order(r, count)
            lb_round += 1
            for i in range(1, count + 1):
                src = (f"winner:L{lb_round - 1}-{i}", f"loser:W{r}-{order[i - 1]}")
                _add(matches, "L", lb_round, i, src)
            if r < k:
                lb_round += 1
                for i in range(1, count // 2 + 1):
                    src = (
                        f"winner:L{lb_round - 1}-{2 * i - 1}",
                        f"winner:L{lb_round - 1}-{2 * i}",
                    )
                    _add(matches, "L", lb_round, i, src)
        last_lb = f"winner:L{lb_round}-1"
    challenger = last_lb or f"loser:W{k}-1"
    _add(matches, "GF", 1, 1, (f"winner:W{k}-1", challenger), prefix="GF1")
    _add(matches, "GF", 2, 1, ("loser:GF1", "winner:GF1"), prefix="GF2")
    return _settle(Bracket(kind="double", entrants=players, matches=matches))


def _source_value(bracket: Bracket, source: str) -> tuple[bool, Hashable | None]:
    kind, _, ref = source.partition(":")
    if kind == "seed":
        seed = int(ref)
        player = bracket.entrants[seed - 1] if seed <= len(bracket.entrants) else None
        return True, player
    match = bracket.matches[ref]
    if match.state not in FINISHED:
        return False, None
    return True, match.winner if kind == "winner" else match.loser


def _settle(bracket: Bracket) -> Bracket:
    """Re-derive every unfinished match from its sources, in dependency order."""
    bracket.champion = None
    for match in bracket.matches.values():
        if match.id == "GF2":
            _settle_reset(bracket, match)
            continue
        if match.state in ("done", "bye"):
            continue
        for slot in match.slots:
            slot.resolved, slot.participant = _source_value(bracket, slot.source)
        match.winner = match.loser = None
        if not all(s.resolved for s in match.slots):
            match.state = "pending"
            continue
        present = [p for p in match.participants if p is not None]
        if len(present) == 2:
            match.state = "ready"
        else:
            match.state = "bye"
            match.winner = present[0] if present else None
    _settle_champion(bracket)
    return bracket


def _settle_reset(bracket: Bracket, reset: BracketMatch) -> None:
    first = bracket.matches["GF1"]
    if reset.state == "done":
        return
    reset.winner = reset.loser = None
    if first.state not in FINISHED:
        reset.state = "pending"
        for slot in reset.slots:
            slot.resolved, slot.participant = False, None
        return
    reset.slots[0].participant, reset.slots[1].participant = first.loser, first.winner
    for slot in reset.slots:
        slot.resolved = True
    challenger_won = (
        first.state == "done" and first.winner == first.slots[1].participant
    )
    reset.state = "ready" if challenger_won else "skipped"


def _settle_champion(bracket: Bracket) -> None:
    if bracket.kind == "double":
        reset = bracket.matches["GF2"]
        if reset.state == "done":
            bracket.champion = reset.winner
        elif reset.state == "skipped":
            bracket.champion = bracket.matches["GF1"].winner
        return
    final = max(
        (m for m in bracket.matches.values() if m.section == "W"), key=lambda m: m.round
    )
    if final.state in FINISHED:
        bracket.champion = final.winner


def _clone(bracket: Bracket) -> Bracket:
    """Copy for the pure API (much cheaper than ``copy.deepcopy``)."""
    matches = {
        mid: BracketMatch(
            id=m.id,
            section=m.section,
            round=m.round,
            index=m.index,
            state=m.state,
            winner=m.winner,
            loser=m.loser,
            slots=[Slot(s.source, s.participant, s.resolved) for s in m.slots],
        )
        for mid, m in bracket.matches.items()
    }
    return Bracket(
        kind=bracket.kind,
        entrants=list(bracket.entrants),
        matches=matches,
        champion=bracket.champion,
    )


def advance(bracket: Bracket, match_id: str, winner: Hashable) -> Bracket:
    """Record ``winner`` of a ready match and propagate; returns a new bracket.

    A forfeit is recorded the same way (the present player wins). Byes that
    the result unlocks are resolved automatically.
    """
    new = _clone(bracket)
    match = new.matches.get(match_id)
    if match is None:
        raise KeyError(f"no match {match_id!r}")
    if match.state != "ready":
        raise ValueError(f"match {match_id} is {match.state}, not ready to be decided")
    if winner not in match.participants:
        raise ValueError(f"{winner!r} does not play in match {match_id}")
    match.winner = winner
    match.loser = next(p for p in match.participants if p != winner)
    match.state = "done"
    return _settle(new)


def _dependents(bracket: Bracket, match_id: str) -> set[str]:
    found: set[str] = set()
    frontier = [match_id]
    while frontier:
        current = frontier.pop()
        for m in bracket.matches.values():
            if m.id in found:
                continue
            if any(s.source.partition(":")[2] == current for s in m.slots):
                found.add(m.id)
                frontier.append(m.id)
    return found


def dependent_matches(bracket: Bracket, match_id: str) -> set[str]:
    """Ids of every match whose slots depend, directly or not, on ``match_id``.

    These are the results a void would undo (e.g. to warn the organiser).
    """
    if match_id not in bracket.matches:
        raise KeyError(f"no match {match_id!r}")
    return _dependents(bracket, match_id)


def void_result(bracket: Bracket, match_id: str) -> Bracket:
    """Undo a decided match and every result that depended on it.

    Downstream matches go back to pending (or ready), so the organiser can
    re-enter the corrected result; returns a new bracket.
    """
    new = _clone(bracket)
    match = new.matches.get(match_id)
    if match is None:
        raise KeyError(f"no match {match_id!r}")
    if match.state != "done":
        raise ValueError(f"match {match_id} has no result to void")
    for mid in {match_id} | _dependents(new, match_id):
        m = new.matches[mid]
        m.state, m.winner, m.loser = "pending", None, None
    return _settle(new)


def playable_matches(bracket: Bracket) -> list[BracketMatch]:
    """Matches that can be scheduled now, in bracket order."""
    return [m for m in bracket.matches.values() if m.state == "ready"]


def _title(
    bracket: Bracket, section: Section, rnd: int, last_w: int, last_l: int
) -> str:
    if section == "GF":
        return "Grand final" if rnd == 1 else "Grand final reset"
    if section == "P3":
        return "Third place"
    if section == "L":
        return "Losers final" if rnd == last_l else f"Losers round {rnd}"
    if bracket.kind == "double":
        return "Winners final" if rnd == last_w else f"Winners round {rnd}"
    left = last_w - rnd
    names = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
    return names.get(left, f"Round {rnd}")


def bracket_rounds(bracket: Bracket) -> list[BracketRound]:
    """Columns for drawing: winners rounds, losers rounds, then finals."""
    groups: dict[tuple[Section, int], list[BracketMatch]] = {}
    for m in bracket.matches.values():
        groups.setdefault((m.section, m.round), []).append(m)
    rank = {"W": 0, "L": 1, "P3": 2, "GF": 3}
    last_w = max((r for s, r in groups if s == "W"), default=0)
    last_l = max((r for s, r in groups if s == "L"), default=0)
    return [
        BracketRound(
            section=s,
            round=r,
            title=_title(bracket, s, r, last_w, last_l),
            matches=sorted(ms, key=lambda m: m.index),
        )
        for (s, r), ms in sorted(
            groups.items(), key=lambda kv: (rank[kv[0][0]], kv[0][1])
        )
    ]
