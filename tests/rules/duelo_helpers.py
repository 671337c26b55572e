"""Helpers to build hand-crafted Duelo positions and drive them step by step."""

from __future__ import annotations

from typing import Any

from gameplay.rules import get_game, view_events

GAME = get_game("duelo")


def cards(values: list[int] | str) -> str:
    """Cards as the engine stores them: a string of Focus digits."""
    return values if isinstance(values, str) else "".join(str(v) for v in values)


def make_state(
    hands: list[list[int]],
    deck: list[int],
    *,
    turn: int = 0,
    aside: int = 1,
    discard: list[int] | None = None,
    config: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A position where seat ``turn`` has drawn and must choose a card.

    ``deck`` is listed top first, like the stacked-deck option. The card totals
    need not match a real deck: these positions test one rule at a time.
    """
    cfg = {"players": len(hands), "start": turn, **(config or {})}
    state = GAME.setup(cfg, seed=0)
    state["hands"] = [cards(h) for h in hands]
    state["deck"] = cards(list(reversed(deck)))
    state["aside"] = str(aside)
    state["discard"] = cards(discard or [])
    state["turn"] = turn
    state["actor"] = turn
    state["phase"] = "card"
    state["ctx"] = {}
    return state


def run(state: dict[str, Any], *ids: str) -> tuple[dict[str, Any], list[dict]]:
    """Apply ``ids`` in order, each by whoever must act; return state and events."""
    events: list[dict] = []
    for aid in ids:
        (seat,) = GAME.actors(state)
        state, evs = GAME.apply(state, seat, aid)
        events.extend(evs)
    return state, events


def of_type(events: list[dict], type_: str) -> list[dict]:
    return [e for e in events if e["type"] == type_]


def duel_result(events: list[dict]) -> dict[str, Any]:
    (res,) = of_type(events, "duel_result")
    return res["public"]


def seen_by(events: list[dict], seat: int | None) -> list[dict]:
    return view_events(events, seat)


def top_first(state: dict[str, Any]) -> list[int]:
    return [int(c) for c in reversed(state["deck"])]


def hand(state: dict[str, Any], seat: int) -> list[int]:
    return sorted(int(c) for c in state["hands"][seat])
