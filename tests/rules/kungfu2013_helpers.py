"""Helpers to build hand-crafted Kung Fu (2013) positions from stacked cards."""

from __future__ import annotations

from typing import Any

from gameplay.rules import get_game
from gameplay.rules.kungfu2013 import KungFu2013Game
from gameplay.rules.kungfu2013 import engine as E
from gameplay.rules.kungfu2013.rounds import _new_battle, _run

_GAME = get_game("kungfu2013")
assert isinstance(_GAME, KungFu2013Game)  # the playouts are beside the protocol
GAME: KungFu2013Game = _GAME


def chars(codes: list[str] | tuple[str, ...]) -> str:
    return "".join(E.BY_CODE[c] for c in codes)


def codes(cards: str) -> list[str]:
    return [E.CODE[c] for c in cards]


def make_state(
    hands: tuple[list[str], list[str]],
    *,
    red: list[str] | tuple[str, ...] = (),
    blue: list[str] | tuple[str, ...] = (),
    red_discard: list[str] | tuple[str, ...] = (),
    blue_discard: list[str] | tuple[str, ...] = (),
    front: tuple[list[str], list[str]] = ([], []),
    init: int = 0,
    life: tuple[int, int] = (10, 10),
    round_: int = 1,
    no_block: tuple[int, int] = (0, 0),
    max_rounds: int = 200,
) -> dict[str, Any]:
    """A round about to start phase A with seat ``init`` holding the initiative.

    Decks are listed top first. The cards need not add up to 60: these
    positions test one rule at a time.
    """
    s: dict[str, Any] = {
        "game": "kungfu2013",
        "rules_version": E.RULES_VERSION,
        "cfg": GAME.validate_config({"max_rounds": max_rounds}),
        "rng": "0123456789abcdef",
        "life": list(life),
        "hands": [chars(hands[0]), chars(hands[1])],
        "rdeck": chars(red)[::-1],
        "bdeck": chars(blue)[::-1],
        "rdisc": chars(red_discard),
        "bdisc": chars(blue_discard),
        "front": [chars(front[0]), chars(front[1])],
        "init": init,
        "starter": init,
        "round": round_,
        "noblk": list(no_block),
        "b": _new_battle(init),
        "todo": [["init"]],
        "phase": E.INITIATIVE,
        "actor": init,
        "result": None,
    }
    _run(s, [])
    return s


def corner_states() -> list[dict[str, Any]]:
    """Hand-made corners for the native tests: piles to reshuffle, coin cards
    to pay and target, a one-sided or empty draw supply, one card to attack or
    block with (a forced move takes no draw)."""
    return [
        make_state(
            (["r01", "b01"], ["r02", "b02"]),
            red_discard=["r03", "r04", "r05"],
            blue_discard=["b03", "b04"],
        ),
        make_state(
            (["r26", "r30", "b27", "b28"], ["r24", "b10", "b22"]),
            red=["r04", "r05"],
            blue=["b05"],
            front=(["r09", "r10", "b11"], ["b12", "b13", "r13"]),
        ),
        make_state((["r08"], ["b09"]), life=(1, 1)),
        make_state((["b09"], ["b01"])),
        make_state((["r28", "r29"], ["b01", "b02", "b30"]), red=["r01"], blue=["b03"]),
    ]


def play(
    state: dict[str, Any], *actions: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Apply ``actions`` in order, each by whoever must act; return all events."""
    events: list[dict[str, Any]] = []
    for aid in actions:
        seat = GAME.actors(state)[0]
        state, ev = GAME.apply(state, seat, aid)
        events += ev
    return state, events


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def hand(state: dict[str, Any], seat: int) -> list[str]:
    return sorted(codes(state["hands"][seat]))
