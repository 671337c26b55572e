"""Adapter to the FIDE Dutch reference engine (caissify-pairings, tests only).

Translates our :class:`SwissGame` history into the engine's stateless input
(scores, seat history, float history, bye counts, previous pairings) and its
output back into ``(first, second)`` pairs, so both implementations pair the
very same situation.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence

from caissify_pairings import MissingFloatHistoryWarning, generate_pairings

from league.tournaments.formats.swiss import SwissGame, player_records


class IncompleteReferencePairing(Exception):
    """The reference left more than one player unpaired."""


def dutch_pairings(
    participants: Sequence[int], history: Sequence[SwissGame], *, total_rounds: int
) -> tuple[list[tuple[int, int]], int | None]:
    """Reference pairing of the next round: (pairs as (first, second), bye)."""
    records = player_records(history)
    rounds = sorted({g.round for g in history})
    colour_hist: dict[int, list[str]] = {p: [] for p in participants}
    float_hist: dict[int, list[str]] = {p: [] for p in participants}
    score: dict[int, float] = {p: 0.0 for p in participants}
    for r in rounds:
        before = dict(score)
        seen = set()
        for g in (g for g in history if g.round == r):
            if g.second is None:
                colour_hist[g.first].append("none")
                float_hist[g.first].append("down")
                score[g.first] += g.first_points
                seen.add(g.first)
                continue
            a, b = g.first, g.second
            colour_hist[a].append("white")
            colour_hist[b].append("black")
            fa = fb = "none"
            if before[a] > before[b]:
                fa, fb = "down", "up"
            elif before[a] < before[b]:
                fa, fb = "up", "down"
            float_hist[a].append(fa)
            float_hist[b].append(fb)
            score[a] += g.first_points
            score[b] += g.second_points
            seen.update((a, b))
        for p in participants:
            if p not in seen:
                colour_hist[p].append("none")
                float_hist[p].append("none")
    players = [
        {
            "id": p,
            "name": f"p{p:04d}",
            "rating": 3000 - i,
            "starting_number": i + 1,
            "score": records[p].score if p in records else 0.0,
            "color_hist": colour_hist[p],
            "float_history": float_hist[p],
            "bye_count": records[p].byes if p in records else 0,
        }
        for i, p in enumerate(participants)
    ]
    previous = {
        (g.first, g.second) for g in history if g.second is not None and g.played
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingFloatHistoryWarning)
        out = generate_pairings(
            system="dutch",
            players=players,
            previous_pairings=previous,
            round_number=len(rounds) + 1,
            total_rounds=total_rounds,
            bye_value=1.0,
            max_byes_per_player=1,
        )
    pairs, byes = [], []
    for row in out:
        if row.get("bye") or row.get("black_id") is None:
            byes.append(row["white_id"])
        else:
            pairs.append((row["white_id"], row["black_id"]))
    if len(byes) > 1:
        # The reference found no complete pairing and left several players out.
        raise IncompleteReferencePairing(byes)
    return pairs, (byes[0] if byes else None)


def pairing_profile(
    participants: Sequence[int],
    history: Sequence[SwissGame],
    pairs: Sequence[tuple[int, int]],
    bye: int | None,
) -> dict[str, object]:
    """Quality measures of one round's pairing, for comparing two engines.

    Score groups are indexed from the top (0); a pair's distance is how many
    groups apart its players are. Seat violations count players who do not
    get their preferred seat, by preference strength.
    """
    from league.tournaments.formats.swiss import colour_preference

    records = player_records(history)
    score = {p: records[p].score if p in records else 0.0 for p in participants}
    seats = {p: records[p].seats if p in records else [] for p in participants}
    last_float = {
        p: records[p].last_float if p in records else "" for p in participants
    }
    levels = sorted(set(score.values()), reverse=True)
    group = {p: levels.index(score[p]) for p in participants}
    dist = [abs(group[a] - group[b]) for a, b in pairs]
    violations = {1: 0, 2: 0, 3: 0}
    for first, second in pairs:
        for p, got in ((first, "1"), (second, "2")):
            want, strength = colour_preference(seats[p])
            if want is not None and want != got:
                violations[strength] += 1
    repeat_floats = 0
    for a, b in pairs:
        if score[a] == score[b]:
            continue
        hi, lo = (a, b) if score[a] > score[b] else (b, a)
        repeat_floats += (last_float[hi] == "down") + (last_float[lo] == "up")
    return {
        "bye_group": None if bye is None else group[bye],
        "far_pairs": sum(max(0, d - 1) for d in dist),
        "cross_pairs": sum(d > 0 for d in dist),
        "score_diff": sum(abs(score[a] - score[b]) for a, b in pairs),
        "absolute_seat_violations": violations[3],
        "strong_seat_violations": violations[2],
        "mild_seat_violations": violations[1],
        "repeat_floats": repeat_floats,
    }


def pairable(players: Iterable[int], allowed) -> bool:
    """True if ``players`` split into pairs that all satisfy ``allowed``."""
    import networkx as nx

    nodes = list(players)
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(
        (a, b) for i, a in enumerate(nodes) for b in nodes[i + 1 :] if allowed(a, b)
    )
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)


def second_bye_forced(players: Sequence[int], history: Sequence[SwissGame]) -> bool:
    """True if no player without a bye can sit out with the rest paired."""
    records = player_records(history)

    def fresh(p: int) -> bool:
        return p not in records or records[p].byes == 0

    def no_rematch(a: int, b: int) -> bool:
        return a not in records or b not in records[a].opponents

    return not any(
        pairable([q for q in players if q != p], no_rematch)
        for p in players
        if fresh(p)
    )


def no_complete_pairing(players: Sequence[int], history: Sequence[SwissGame]) -> bool:
    """True if every way to pair the round (any bye) repeats a game."""
    records = player_records(history)

    def no_rematch(a: int, b: int) -> bool:
        return a not in records or b not in records[a].opponents

    if len(players) % 2 == 0:
        return not pairable(players, no_rematch)
    return not any(
        pairable([q for q in players if q != p], no_rematch) for p in players
    )


# Criteria both engines rank first, in our priority order; "lower is better"
# after the sign flip on the bye group (the bye should go as low as possible).
HARD_ORDER = ("bye_group", "absolute_seat_violations", "far_pairs", "cross_pairs")
SOFT_ORDER = (
    "score_diff",
    "mild_seat_violations",
    "strong_seat_violations",
    "repeat_floats",
)


def _key(profile: dict, names: Sequence[str]) -> tuple:
    return tuple(
        -(profile[n] if profile[n] is not None else -1)
        if n == "bye_group"
        else profile[n]
        for n in names
    )


def _seat_reason(
    history: Sequence[SwissGame],
    opairs: Sequence[tuple[int, int]],
    rpairs: Sequence[tuple[int, int]],
) -> str:
    """Why a pair got the other seats: which FIDE E rule reads differently."""
    records = player_records(history)
    reasons = set()
    for a, b in set(opairs) - set(rpairs):
        ra, rb = records.get(a), records.get(b)
        missing = [r for r in (ra, rb) if r is None or len(r.seats) < len(r.rounds)]
        uneven = ra is not None and rb is not None and len(ra.rounds) != len(rb.rounds)
        unplayed = bool(missing) or uneven
        if unplayed:
            reasons.add("E.3 with a bye or forfeit in the history")
        elif ra is not None and rb is not None and ra.score != rb.score:
            reasons.add("E.4 higher rank by score")
        else:
            reasons.add("other")
    return ", ".join(sorted(reasons))


def classify(
    participants: Sequence[int],
    history: Sequence[SwissGame],
    ours: tuple[list[tuple[int, int]], int | None],
    ref: tuple[list[tuple[int, int]], int | None],
) -> str:
    """Name the kind of difference between our pairing and the reference."""
    (opairs, obye), (rpairs, rbye) = ours, ref
    if sorted(opairs) == sorted(rpairs) and obye == rbye:
        return "identical"
    if {frozenset(p) for p in opairs} == {
        frozenset(p) for p in rpairs
    } and obye == rbye:
        return "same pairs, other seats: " + _seat_reason(history, opairs, rpairs)
    po = pairing_profile(participants, history, opairs, obye)
    pr = pairing_profile(participants, history, rpairs, rbye)
    ko, kr = _key(po, HARD_ORDER), _key(pr, HARD_ORDER)
    if ko != kr:
        first = next(n for n, a, b in zip(HARD_ORDER, ko, kr, strict=True) if a != b)
        return f"{'ours' if ko < kr else 'reference'} better on {first}"
    if obye != rbye:
        return "other bye recipient in the same group"
    if po == pr:
        return "equal quality, other choice"
    so = (
        po["mild_seat_violations"] + po["strong_seat_violations"],
        po["strong_seat_violations"],
        po["repeat_floats"],
    )
    sr = (
        pr["mild_seat_violations"] + pr["strong_seat_violations"],
        pr["strong_seat_violations"],
        pr["repeat_floats"],
    )
    names = ("seat preferences met", "strong seat preferences met", "repeated floats")
    first = next(n for n, a, b in zip(names, so, sr, strict=True) if a != b)
    return f"{'ours' if so < sr else 'reference'} better on {first}"


def compare(
    seeds: Iterable[int], *, min_players: int = 6, max_players: int = 20
) -> tuple[Counter, list[str]]:
    """Play generated tournaments along the reference pairings and compare.

    Both engines pair every round from the same history; results are random
    (one third draws). Returns the count per kind of difference and a list of
    hard-rule violations by our engine (expected empty).
    """
    from league.tournaments.formats.swiss import SwissPairingError, pair_swiss_round

    kinds: Counter = Counter()
    problems: list[str] = []
    for seed in seeds:
        rnd = random.Random(seed)
        n = rnd.randint(min_players, max_players)
        total = min(rnd.randint(4, 8), n - 1)
        players = list(range(1, n + 1))
        history: list[SwissGame] = []
        for r in range(1, total + 1):
            try:
                ref = dutch_pairings(players, history, total_rounds=total)
            except IncompleteReferencePairing:
                ref = None
            try:
                mine = pair_swiss_round(players, history)
            except SwissPairingError:
                if not no_complete_pairing(players, history):
                    problems.append(
                        f"seed {seed} round {r}: gave up on a pairable round"
                    )
                kinds[
                    "no complete pairing exists (ours refuses, reference leaves "
                    "players unpaired or repeats a game)"
                ] += 1
                break
            opairs = [(p.first, p.second) for p in mine if not p.is_bye]
            obye = next((p.first for p in mine if p.is_bye), None)
            records = player_records(history)
            for a, b in opairs:
                if a in records and b in records[a].opponents:
                    problems.append(f"seed {seed} round {r}: rematch {a}-{b}")
            repeat_bye = obye is not None and obye in records and records[obye].byes
            if repeat_bye and not second_bye_forced(players, history):
                problems.append(f"seed {seed} round {r}: second bye for {obye}")
            if ref is None:
                kinds["ours complete, reference leaves several players unpaired"] += 1
                break
            kind = classify(players, history, (opairs, obye), ref)
            kinds[kind] += 1
            if r == 1 and kind != "identical":
                problems.append(f"seed {seed}: round 1 differs ({kind})")
            rpairs, rbye = ref
            for a, b in rpairs:
                history.append(SwissGame(r, a, b, rnd.choice((1.0, 0.5, 0.0))))
            if rbye is not None:
                history.append(SwissGame(r, rbye, None, 1.0))
    return kinds, problems


if __name__ == "__main__":  # pragma: no cover - manual report for the docs
    import sys

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    kinds, problems = compare(range(count))
    total = sum(kinds.values())
    print(f"{count} tournaments, {total} rounds")
    for kind, k in kinds.most_common():
        print(f"{k:6d}  {100 * k / total:5.1f}%  {kind}")
    print("problems:", problems or "none")
