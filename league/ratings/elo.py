"""Elo ratings for 2- to 8-player matches, as pure functions.

The Django layer stores ratings and calls these functions; nothing here touches
the database, so the same code serves live updates, full recomputes and the
benchmark. Two paths exist on purpose:

* :func:`rate_match` rates one finished match from the participants' current
  state and returns one :class:`RatingChange` per participant (what the rating
  event row stores).
* :func:`replay_pool` recomputes a whole pool from its ordered match list. It
  keeps state in plain lists (no objects per pairwise step) so 100,000
  eight-player matches replay in seconds.

Both paths call the same kernel, :func:`_match_deltas`, whose result does not
depend on the order in which participants are listed (the pairwise terms are
summed with :func:`math.fsum`, which rounds exactly once). That is what makes
"full recompute == incremental history" hold bit for bit, even when the database
returns a match's participants in a different order on replay.

Rounding policy: ratings are kept at full ``float`` precision everywhere (store
them in a double-precision column such as ``FloatField``) and rounded to whole
points only for display (:func:`display_rating`). Rounding before storing would
let the incremental path and the recompute path drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, TypeVar

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True, slots=True)
class EloConfig:
    """Per-pool rating parameters.

    The defaults follow FIDE: K=40 while a player is new, 20 afterwards and 10
    once the player has ever reached 2400 (sticky, so a dip below 2400 does not
    make the rating volatile again), and differences above 400 points count as
    400 so a win against a much weaker player is never worth nothing and a loss
    never costs more than ~0.92 K.

    ``max_difference_below`` is the rating from which that 400-point rule
    stops applying to a player's own calculation: FIDE's Rating Regulations
    in force since 1 October 2025 apply it only to players rated below 2650
    (the default). ``None`` applies it to everyone, the rule before then.
    The threshold is checked against the player's rating before the match,
    so a 2700 player's expectation against a 2200 uses the full 500 points
    while the 2200 player's still uses 400.
    """

    initial_rating: float = 1500.0
    new_player_k: float = 40.0
    new_player_games: int = 30
    standard_k: float = 20.0
    elite_k: float = 10.0
    elite_threshold: float = 2400.0
    max_rating_difference: float | None = 400.0
    max_difference_below: float | None = 2650.0
    provisional_games: int = 30

    def __post_init__(self) -> None:
        if self.new_player_games < 0 or self.provisional_games < 0:
            raise ValueError("game counts must not be negative")
        if min(self.new_player_k, self.standard_k, self.elite_k) <= 0:
            raise ValueError("K factors must be positive")
        if self.max_rating_difference is not None and self.max_rating_difference <= 0:
            raise ValueError("max_rating_difference must be positive or None")
        if self.max_difference_below is not None and self.max_difference_below <= 0:
            raise ValueError("max_difference_below must be positive or None")


DEFAULT_CONFIG = EloConfig()

_CONFIG_FIELDS = frozenset(f.name for f in fields(EloConfig))


def elo_config_from(overrides: dict[str, Any] | None) -> EloConfig:
    """EloConfig with a pool's ``overrides`` (unknown keys refused: a typo
    must not pass). Cached: every rated match of a pool asks for the same one."""
    if not overrides:
        return DEFAULT_CONFIG
    unknown = set(overrides) - _CONFIG_FIELDS
    if unknown:
        raise ValueError(f"unknown Elo option(s): {', '.join(sorted(unknown))}")
    return _cached_config(tuple(sorted(overrides.items())))


@lru_cache(maxsize=256)
def _cached_config(items: tuple[tuple[str, Any], ...]) -> EloConfig:
    return EloConfig(**dict(items))


@dataclass(frozen=True, slots=True)
class PlayerState:
    """What the pool knows about a participant before a match."""

    rating: float
    games: int = 0
    reached_elite: bool = False


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One participant's outcome of a rated match (one rating-event row).

    ``score`` and ``expected`` are the participant's pairwise totals against the
    other ``players - 1`` participants (each game worth 1), kept for charts and
    audits; ``k`` is the participant's full K before the multiplayer division.
    """

    rating_before: float
    rating_after: float
    delta: float
    k: float
    score: float
    expected: float
    games_after: int
    reached_elite_after: bool


@dataclass(slots=True)
class PoolReplay:
    """Result of :func:`replay_pool`: final states and, optionally, history."""

    states: dict
    history: list[dict] | None = field(default=None)


def initial_state(*, config: EloConfig = DEFAULT_CONFIG) -> PlayerState:
    """State of a participant who has never played in the pool."""
    return PlayerState(
        rating=config.initial_rating,
        games=0,
        reached_elite=config.initial_rating >= config.elite_threshold,
    )


def k_factor(
    *, games: int, reached_elite: bool, config: EloConfig = DEFAULT_CONFIG
) -> float:
    """K for a participant who has played ``games`` rated games so far.

    The new-player K wins over the elite K: a newcomer's rating is still
    uncertain even if it shot past 2400, so it keeps moving fast for its first
    ``new_player_games`` games and only then drops straight to the elite K.
    """
    if games < config.new_player_games:
        return config.new_player_k
    if reached_elite:
        return config.elite_k
    return config.standard_k


def is_provisional(*, games: int, config: EloConfig = DEFAULT_CONFIG) -> bool:
    """True while a rating rests on too few games to be shown without a marker."""
    return games < config.provisional_games


def display_rating(rating: float) -> int:
    """Whole-point rating for pages and APIs (storage keeps the full float)."""
    return math.floor(rating + 0.5)


def delta_text(delta: float) -> str:
    """A rating change as every page prints it: one decimal, always signed,
    a real minus sign, U+2212 ("+13.4", "\u221220.0", "±0.0" for no change).

    The front end's ``ratingDelta`` (static/js/live-match.js) prints the same;
    tests/frontend/fixtures/rating_deltas.json holds the cases both must meet.
    """
    # Half away from zero on the magnitude, so both signs round alike (the
    # JS helper does the same with Math.round on the absolute value).
    tenths = math.floor(abs(delta) * 10 + 0.5)
    if tenths == 0:
        return "\u00b10.0"
    sign = "+" if delta > 0 else "\u2212"
    return f"{sign}{tenths // 10}.{tenths % 10}"


def expected_score(
    rating: float,
    opponent: float,
    *,
    max_difference: float | None = 400.0,
    cap_below: float | None = 2650.0,
) -> float:
    """Expected score of ``rating`` against ``opponent`` (logistic, base 10, 400).

    ``max_difference`` applies the FIDE 400-point rule; ``None`` disables it.
    ``cap_below``: the rule applies only while ``rating`` is below it (FIDE
    since October 2025: 2650); ``None`` applies it at every rating.
    """
    diff = opponent - rating
    if max_difference is not None and (cap_below is None or rating < cap_below):
        if diff > max_difference:
            diff = max_difference
        elif diff < -max_difference:
            diff = -max_difference
    return 1.0 / (1.0 + 10.0 ** (diff / 400.0))


def period_rating(
    *,
    rating: float,
    results: Iterable[tuple[float, float]],
    k: float,
    max_difference: float | None = 400.0,
    cap_below: float | None = 2650.0,
) -> float:
    """New rating after a rating period of ``(opponent_rating, score)`` games.

    This is the classic tournament calculation (all expectations use the
    pre-period ratings). A multiplayer match is exactly such a period against
    the other participants with ``K / (players - 1)``.
    """
    terms = [
        score
        - expected_score(
            rating, opp, max_difference=max_difference, cap_below=cap_below
        )
        for opp, score in results
    ]
    return rating + k * math.fsum(terms)


def placements_single_winner(participants: Iterable[P], *, winner: P) -> dict[P, int]:
    """Placements for games that only name a winner: the losers tie for second.

    Ranking the losers equal means each loser scores a half against every other
    loser, so losing a multiplayer game costs the same whoever else lost.
    """
    ids = list(participants)
    if winner not in ids:
        raise ValueError("winner must be one of the participants")
    return {p: 1 if p == winner else 2 for p in ids}


def placements_from_order(order: Iterable[P | Iterable[P]]) -> dict[P, int]:
    """Placements from a finishing order; an inner collection is a tie.

    ``["a", ("b", "c"), "d"]`` gives a=1, b=c=2, d=4 (competition ranking).
    """
    placements: dict[P, int] = {}
    position = 1
    for entry in order:
        group = (
            list(entry) if isinstance(entry, (list, tuple, set, frozenset)) else [entry]
        )
        for p in group:
            if p in placements:
                raise ValueError(f"participant {p!r} placed twice")
            placements[p] = position
        position += len(group)
    return placements


def _match_deltas(
    ratings: list[float],
    ks: list[float],
    ranks: list[int],
    max_difference: float | None,
    cap_below: float | None = None,
) -> tuple[list[float], list[float], list[float]]:
    """Kernel shared by the incremental and the replay paths.

    Returns per-participant (delta, pairwise score, pairwise expectation). Each
    pair is a separate game worth 1 with ``K_i / (n - 1)``; a lower rank beats a
    higher one and equal ranks draw. The sums use ``math.fsum`` so the result is
    independent of participant order. The 400-point cap applies to
    participant ``i``'s terms only while ``i`` is rated below ``cap_below``
    (``None``: always).
    """
    n = len(ratings)
    deltas: list[float] = []
    scores: list[float] = []
    expecteds: list[float] = []
    for i in range(n):
        ri = ratings[i]
        rank_i = ranks[i]
        cap = max_difference
        if cap_below is not None and ri >= cap_below:
            cap = None
        terms = []
        exp_terms = []
        score = 0.0
        for j in range(n):
            if j == i:
                continue
            diff = ratings[j] - ri
            if cap is not None:
                if diff > cap:
                    diff = cap
                elif diff < -cap:
                    diff = -cap
            e = 1.0 / (1.0 + 10.0 ** (diff / 400.0))
            rank_j = ranks[j]
            s = 1.0 if rank_i < rank_j else (0.5 if rank_i == rank_j else 0.0)
            score += s
            terms.append(s - e)
            exp_terms.append(e)
        deltas.append(ks[i] / (n - 1) * math.fsum(terms))
        scores.append(score)
        expecteds.append(math.fsum(exp_terms))
    return deltas, scores, expecteds


def _check_placements(placements: Mapping[P, int]) -> None:
    if len(placements) < 2:
        raise ValueError("a rated match needs at least two participants")
    for p, rank in placements.items():
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            raise ValueError(f"placement of {p!r} must be a positive int, got {rank!r}")


def rate_match(
    placements: Mapping[P, int],
    states: Mapping[P, PlayerState],
    *,
    config: EloConfig = DEFAULT_CONFIG,
    fixed: Collection[P] = (),
) -> dict[P, RatingChange]:
    """Rate one finished match.

    ``placements`` maps each participant to its rank (1 = best, equal ranks =
    tie); ``states`` holds every participant's state before the match (use
    :func:`initial_state` for newcomers). Returns the change per participant in
    the order of ``placements``. Idempotency (one event per pool and match) is
    the caller's job: this function has no memory.

    ``fixed`` participants are anchors (the built-in bots): the others are
    rated against them as usual, but their own rating never moves, so the
    pool's scale stays tied to programs whose strength does not change.
    """
    _check_placements(placements)
    ids = list(placements)
    missing = [p for p in ids if p not in states]
    if missing:
        raise KeyError(f"no rating state for {missing!r}")
    before = [states[p] for p in ids]
    ratings = [s.rating for s in before]
    ks = [
        k_factor(games=s.games, reached_elite=s.reached_elite, config=config)
        for s in before
    ]
    ranks = [placements[p] for p in ids]
    deltas, scores, expecteds = _match_deltas(
        ratings, ks, ranks, config.max_rating_difference, config.max_difference_below
    )
    for idx, p in enumerate(ids):
        if p in fixed:
            deltas[idx] = 0.0
    out: dict[P, RatingChange] = {}
    for idx, p in enumerate(ids):
        new = ratings[idx] + deltas[idx]
        out[p] = RatingChange(
            rating_before=ratings[idx],
            rating_after=new,
            delta=deltas[idx],
            k=ks[idx],
            score=scores[idx],
            expected=expecteds[idx],
            games_after=before[idx].games + 1,
            reached_elite_after=before[idx].reached_elite
            or new >= config.elite_threshold,
        )
    return out


def apply_changes(
    states: Mapping[P, PlayerState], changes: Mapping[P, RatingChange]
) -> dict[P, PlayerState]:
    """New state mapping after a match (unchanged participants are kept)."""
    out = dict(states)
    for p, c in changes.items():
        out[p] = PlayerState(
            rating=c.rating_after,
            games=c.games_after,
            reached_elite=c.reached_elite_after,
        )
    return out


@dataclass(slots=True)
class EventReplay:
    """Result of :func:`replay_events`: each event's rating before and after
    (in the order of the events given) and every participant's final state."""

    befores: list[float]
    afters: list[float]
    states: dict


def replay_events(
    participants: Sequence[P],
    ranks: Sequence[int],
    matches: Iterable[tuple[int, int]],
    *,
    config: EloConfig = DEFAULT_CONFIG,
    initial: Mapping[P, PlayerState] | None = None,
    fixed: Mapping[P, float] | None = None,
) -> EventReplay:
    """Replay a pool from flat event columns: the full recompute's kernel.

    ``participants[i]`` finished match ``ranks[i]``; ``matches`` lists each
    match as the ``(start, end)`` slice of its events, in pool order (wrap it
    in a progress bar if you like). ``initial`` and ``fixed`` are
    :func:`replay_pool`'s. The numbers equal :func:`rate_match` applied match
    by match, bit for bit: each pairwise term is the same expression as in
    :func:`_match_deltas` and each participant's terms go through
    :func:`math.fsum`, which rounds their exact sum once. Two shortcuts keep
    that: a participant's pairing with itself is included (its term is
    exactly 0.0: ``10 ** 0`` is 1, the rank ties, 0.5 - 0.5), which saves
    skipping it; and when a match's whole spread is within the 400-point cap
    no difference can exceed it (rounding is monotonic), so no clamping is
    needed. Plain lists and no per-event objects: a tight loop.
    """
    fsum = math.fsum
    start = config.initial_rating
    threshold = config.elite_threshold
    start_elite = start >= threshold
    # No cap is an infinite one: nothing exceeds it.
    cap = config.max_rating_difference
    cap = math.inf if cap is None else cap
    low = -cap
    cap_below = config.max_difference_below
    new_games = config.new_player_games
    k_new, k_std, k_elite = config.new_player_k, config.standard_k, config.elite_k
    # participant -> [rating, games, reached_elite]; lists avoid object churn.
    table: dict = {}
    if initial:
        for p, s in initial.items():
            table[p] = [s.rating, s.games, s.reached_elite]
    anchors = fixed or {}
    for p, rating in anchors.items():
        games = table[p][1] if p in table else 0
        table[p] = [rating, games, rating >= threshold]
    befores = [0.0] * len(participants)
    afters = [0.0] * len(participants)
    for first, end in matches:
        if end - first < 2:
            raise ValueError("a rated match needs at least two participants")
        seated = participants[first:end]
        rows = []
        for p in seated:
            row = table.get(p)
            if row is None:
                row = table[p] = [start, 0, start_elite]
            rows.append(row)
        ratings = [row[0] for row in rows]
        places = ranks[first:end]
        pairs = list(zip(ratings, places, strict=True))
        share = end - first - 1
        unclamped = max(ratings) - min(ratings) <= cap
        at = first
        for p, row, ri, rank_i in zip(seated, rows, ratings, places, strict=True):
            games = row[1]
            if anchors and p in anchors:
                delta = 0.0
            else:
                k = k_new if games < new_games else (k_elite if row[2] else k_std)
                if unclamped or (cap_below is not None and ri >= cap_below):
                    terms = [
                        (1.0 if rank_i < rank_j else 0.5 if rank_i == rank_j else 0.0)
                        - 1.0 / (1.0 + 10.0 ** ((rj - ri) / 400.0))
                        for rj, rank_j in pairs
                    ]
                else:
                    terms = [
                        (1.0 if rank_i < rank_j else 0.5 if rank_i == rank_j else 0.0)
                        - 1.0
                        / (
                            1.0
                            + 10.0
                            ** (
                                (cap if (d := rj - ri) > cap else low if d < low else d)
                                / 400.0
                            )
                        )
                        for rj, rank_j in pairs
                    ]
                delta = k / share * fsum(terms)
            new = ri + delta
            befores[at] = ri
            afters[at] = new
            at += 1
            row[0] = new
            row[1] = games + 1
            if new >= threshold:
                row[2] = True
    states = {
        p: PlayerState(rating=r[0], games=r[1], reached_elite=r[2])
        for p, r in table.items()
    }
    return EventReplay(befores, afters, states)


def replay_pool(
    matches: Iterable[Mapping[P, int]],
    *,
    config: EloConfig = DEFAULT_CONFIG,
    initial: Mapping[P, PlayerState] | None = None,
    keep_history: bool = False,
    fixed: Mapping[P, float] | None = None,
) -> PoolReplay:
    """Recompute a pool from scratch by rating ``matches`` in order.

    ``initial`` seeds states (e.g. ratings carried over from a previous
    season); anyone else starts from :func:`initial_state`. With
    ``keep_history`` the result also lists, per match, ``{participant:
    (rating_before, rating_after)}`` for charts. The numbers equal applying
    :func:`rate_match` match by match, bit for bit. ``fixed`` maps anchors to
    their rating, held for the whole replay (``rate_match``'s ``fixed``).
    The work is :func:`replay_events`'s.
    """
    participants: list[P] = []
    ranks: list[int] = []
    bounds: list[tuple[int, int]] = []
    for placements in matches:
        _check_placements(placements)
        first = len(participants)
        participants.extend(placements)
        ranks.extend(placements.values())
        bounds.append((first, len(participants)))
    replay = replay_events(
        participants, ranks, bounds, config=config, initial=initial, fixed=fixed
    )
    history: list[dict] | None = None
    if keep_history:
        history = [
            {
                p: (replay.befores[i], replay.afters[i])
                for i, p in enumerate(participants[first:end], start=first)
            }
            for first, end in bounds
        ]
    return PoolReplay(states=replay.states, history=history)
