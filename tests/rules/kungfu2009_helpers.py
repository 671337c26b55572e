"""Helpers to build hand-crafted Kung Fu (2009) positions and to play intents."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from gameplay.rules import TimedGame, get_game
from gameplay.rules.kungfu2009 import engine as E
from gameplay.rules.kungfu2009.cards import COMBINATIONS

_GAME = get_game("kungfu2009")
assert isinstance(_GAME, TimedGame)  # Kung Fu (2009) has server-side timers
GAME: TimedGame = _GAME


def make_state(
    hands: list[str],
    *,
    up: Mapping[str, str | None] | None = None,
    deck: str | None = None,
    disc: str = "",
    won: list[list[str]] | None = None,
    seed: int = 1,
    **config: Any,
) -> dict[str, Any]:
    """A game in play with the given hands (left to right) and face-up combinations.

    ``deck`` is listed top card first. Without it the deck is whatever the seeded
    setup left, minus nothing: these positions test one rule at a time and need
    not conserve the 68 cards unless the test says so.
    """
    s = GAME.setup({"players": len(hands), **config}, seed)
    s["hands"] = list(hands)
    if deck is not None:
        s["deck"] = deck[::-1]
    s["disc"] = disc
    if up:
        s["up"] = {**s["up"], **up}
    if won is not None:
        s["won"] = [list(w) for w in won]
    return s


def act(state: dict[str, Any], seat: int | None, *intents: str) -> tuple[dict, list]:
    """Apply ``intents`` in order for ``seat``; return the state and all events."""
    events: list[dict[str, Any]] = []
    for aid in intents:
        state, ev = GAME.apply(state, seat, aid)
        events += ev
    return state, events


def offer(
    state: dict[str, Any], seat: int, to: int | str, *steps: str
) -> tuple[dict, list]:
    """Build and send one offer: ``to:<to>``, the given steps, ``send``."""
    return act(state, seat, f"to:{to}", *steps, "send")


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def all_cards(s: dict[str, Any]) -> Counter:
    """Every hit card wherever it is: hands, hit pile, discards, claims on the table."""
    places = [s["deck"], s["disc"], *s["hands"], *(c["cards"] for c in s["claims"])]
    return Counter("".join(places))


def all_combinations(s: dict[str, Any]) -> Counter:
    up = [c for c in s["up"].values() if c is not None]
    piles = [c for lv in s["piles"] for c in s["piles"][lv]]
    return Counter(up + piles + s["box"] + [c for w in s["won"] for c in w])


FULL_DECK = Counter(E.FULL_DECK)
FULL_COMBINATIONS = Counter(list(COMBINATIONS))


def random_seat_steps(state, rng, steps):
    """Seeded random play of a real-time table: yields (state, seat, after,
    events) for each seat's step (never ``pass``), the table's checks during
    a claim's pause applied in between; stops when the game is over."""
    for _ in range(steps):
        if GAME.is_over(state):
            return
        actors = GAME.actors(state)
        if not actors:  # a claim's pause: the table's check
            ids = GAME.legal_action_ids(state, None)
            if ids:
                state, _ = GAME.apply(state, None, rng.choice(ids))
            continue
        seat = rng.choice(actors)
        ids = [a for a in GAME.legal_action_ids(state, seat) if a != "pass"]
        if not ids:
            continue
        after, events = GAME.apply(state, seat, rng.choice(ids))
        yield state, seat, after, events
        state = after
