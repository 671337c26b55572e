"""Duelo's menus: every action id with its label, and each phase's legal ids.

A phase's menu is built by one small function of the state (cached by hand
where it can be), its first id being the timeout default; ``apply`` and
``legal_action_ids`` call them directly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameplay.rules.base import Action, State
from gameplay.rules.duelo.cards import FOCUS, NAMES
from gameplay.rules.duelo.phases import (
    ANSWER,
    C_DISCIPLE,
    C_MONKEY,
    C_MONKEY_ORDER,
    CARD,
    DRAGON_DRAW,
    DRAGON_PEEK,
    DRUNK_PUT,
    FACE,
    MONKEY_A,
    MONKEY_B,
    OVER,
    SNAKE_GUESS,
    SNAKE_SEPARATE,
    SNAKE_TARGET,
    TARGET,
    TIGER_TARGET,
    U_DISCIPLE,
)

# ---------------------------------------------------------------------------
# Action catalogue: every id that can ever appear, with its label, built once.


def _action_info() -> dict[str, Action]:
    info: dict[str, Action] = {}

    def add(aid: str, label: str, **fields: Any) -> None:
        info[aid] = {"id": aid, "label": label, **fields}

    for k, name in NAMES.items():
        f = FOCUS[k]
        add(f"card:{k}", f"{name} ({f})", type="card", card=f)
        add(f"answer:{k}", f"Answer with {name} ({f})", type="answer", card=f)
        add(f"bottom:{k}", f"Put {name} under the deck", type="bottom", card=f)
        add(f"put:{k}", f"Put {name} on top of the deck", type="put", card=f)
        add(f"separate:{k}", f"Separate {name} ({f})", type="separate", card=f)
    for o in range(8):
        add(f"target:{o}", f"Duel seat {o}", type="target", seat=o)
        add(f"snake:{o}", f"Seat {o} separates a card", type="snake", seat=o)
        add(f"swap:{o}", f"Swap the hand of seat {o}", type="swap", seat=o)
        add(f"tiger:{o}", f"Look at seat {o}'s hand next turn", type="tiger", seat=o)
    add("face:up", "Play face up (discard effect)", type="face", face="up")
    add("face:down", "Play face down (duel)", type="face", face="down")
    add("reveal:no", "Do not reveal", type="reveal", reveal=False)
    add("reveal:yes", "Reveal the card and copy it", type="reveal", reveal=True)
    add("monkey:skip", "Keep your hand (Focus 5)", type="monkey", use=False)
    add("monkey:use", "Put your hand under the deck, redraw (Focus 1)", type="monkey")
    info["monkey:use"]["use"] = True
    add("dragon:one", "Draw one card", type="dragon", draws=1)
    add("dragon:two", "Draw two cards", type="dragon", draws=2)
    add("guess:odd", "Guess ODD", type="guess", guess="odd")
    add("guess:even", "Guess EVEN", type="guess", guess="even")
    add("peek:keep", "Leave the card on top", type="peek", bottom=False)
    add("peek:bottom", "Put the card under the deck", type="peek", bottom=True)
    return info


ACTION_INFO = _action_info()
# Action id -> the part after the colon, handed to the phase's handler.
ACTION_ARG = {aid: aid.split(":", 1)[1] for aid in ACTION_INFO}

_MENUS: dict[tuple[str, str], tuple[str, ...]] = {}


def _menu(prefix: str, hand: str) -> tuple[str, ...]:
    """Ids ``prefix + kind`` for the distinct kinds in ``hand``, lowest first.

    Cached per (prefix, hand string): there are only a few thousand hands, and
    this is the hottest function of a playout.
    """
    key = (prefix, hand)
    menu = _MENUS.get(key)
    if menu is None:
        menu = _MENUS[key] = tuple(prefix + k for k in sorted(set(hand)))
    return menu


_RINGS = [[tuple((a + i) % n for i in range(1, n)) for a in range(n)] for n in range(9)]
# Every seat from ``a`` clockwise, ``a`` first.
_CYCLES = [[(a, *ring) for a, ring in enumerate(rings)] for rings in _RINGS]
_SEAT_IDS = {p: [f"{p}{o}" for o in range(8)] for p in ("target:", "snake:", "swap:")}
_SEAT_IDS["tiger:"] = [f"tiger:{o}" for o in range(8)]
_FIXED = {
    FACE: ("face:up", "face:down"),
    C_DISCIPLE: ("reveal:no", "reveal:yes"),
    U_DISCIPLE: ("reveal:no", "reveal:yes"),
    C_MONKEY: ("monkey:skip", "monkey:use"),
    DRAGON_DRAW: ("dragon:one", "dragon:two"),
    SNAKE_GUESS: ("guess:odd", "guess:even"),
    DRAGON_PEEK: ("peek:keep", "peek:bottom"),
}
_UP_ONLY = ("face:up",)


def _opponents(s: State, a: int) -> list[int]:
    """Opponents ``a`` may target: alive and not protected by Crane Style."""
    alive = s["alive"]
    crane = s["crane"]
    return [o for o in _RINGS[s["n"]][a] if alive[o] and not crane[o]]


def _ids_face(s: State) -> tuple[str, ...]:
    a = s["actor"]
    alive = s["alive"]
    crane = s["crane"]
    for o in _RINGS[s["n"]][a]:
        if alive[o] and not crane[o]:
            return _FIXED[FACE]
    return _UP_ONLY


def _hand_menu(prefix: str) -> Callable[[State], tuple[str, ...]]:
    cache: dict[str, tuple[str, ...]] = {}

    def ids(s: State) -> tuple[str, ...]:
        hand = s["hands"][s["actor"]]
        menu = cache.get(hand)
        if menu is None:
            menu = cache[hand] = _menu(prefix, hand)
        return menu

    return ids


def _ids_target(s: State) -> list[str]:
    ids = _SEAT_IDS["target:"]
    return [ids[o] for o in _opponents(s, s["actor"])]


def _ids_snake_target(s: State) -> list[str]:
    ids = _SEAT_IDS["snake:"]
    hands = s["hands"]
    return [ids[o] for o in _opponents(s, s["actor"]) if hands[o]]


def _ids_tiger_target(s: State) -> list[str]:
    ids = _SEAT_IDS["tiger:"]
    return [ids[o] for o in _opponents(s, s["actor"])]


def _ids_monkey_a(s: State) -> list[str]:
    ids = _SEAT_IDS["swap:"]
    a = s["actor"]
    return [ids[a]] + [ids[o] for o in _opponents(s, a)]


def _ids_monkey_b(s: State) -> list[str]:
    ids = _SEAT_IDS["swap:"]
    a = s["actor"]
    first = s["ctx"]["swap"]
    return [ids[o] for o in [a, *_opponents(s, a)] if o != first]


def _constant(ids: tuple[str, ...]) -> Callable[[State], tuple[str, ...]]:
    return lambda s: ids


def _ids_over(s: State) -> tuple[str, ...]:
    return ()


# Phase -> function returning the actor's legal ids (first = timeout default).
_IDS: dict[str, Callable[[State], tuple[str, ...] | list[str]]] = {
    CARD: _hand_menu("card:"),
    ANSWER: _hand_menu("answer:"),
    FACE: _ids_face,
    TARGET: _ids_target,
    DRUNK_PUT: _hand_menu("put:"),
    C_MONKEY_ORDER: _hand_menu("bottom:"),
    SNAKE_SEPARATE: _hand_menu("separate:"),
    SNAKE_TARGET: _ids_snake_target,
    TIGER_TARGET: _ids_tiger_target,
    MONKEY_A: _ids_monkey_a,
    MONKEY_B: _ids_monkey_b,
    OVER: _ids_over,
    **{ph: _constant(ids) for ph, ids in _FIXED.items() if ph != FACE},
}


def _ids(s: State) -> tuple[str, ...] | list[str]:
    """Legal action ids of the current actor; the first one is the timeout default."""
    return _IDS[s["phase"]](s)
