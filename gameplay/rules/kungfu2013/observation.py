"""What a Kung Fu (2013) seat may know: the observation, built from an allow-list.

:func:`observe_py` is the Python reference (``_fastobserve.c`` follows it
field by field); the card, pile and battle views are built once and shared
read-only between observations.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules.base import EngineBase, State
from gameplay.rules.errors import GameError
from gameplay.rules.kungfu2013.alphabet import (
    _COIN_SUMS,
    _RED_AS_ZERO,
    ALPHABET,
    CARDS,
    _items,
)
from gameplay.rules.kungfu2013.phases import (
    DRAW,
    OVER,
    PAY,
    PROMPTS,
    REWARD,
    RULES_VERSION,
)
from gameplay.rules.kungfu2013.rounds import _value
from gameplay.rules.views import LIMIT, Pile, PileViews


def observe_py(game: EngineBase, state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know now, built field by field from an allow-list:
    ``KungFu2013Game.observe`` in Python (the engine's ``_observe_py``), the
    reference the C code follows and what runs when it declines.

    Hidden: the opponent's hand (its size per colour is public, since the
    two decks' backs differ and every draw names its deck), both decks'
    order, a face-down attack card until the block is down (from everyone
    but the attacker), and the RNG state.
    """
    if type(seat) is bool or (seat is not None and seat not in (0, 1)):
        raise GameError(f"seat must be None, 0 or 1, got {seat!r}")
    ph = state["phase"]
    b = state["b"]
    hands = state["hands"]
    a = b["a"]
    actor = state["actor"]
    battle = None
    if ph != OVER or b["ac"]:
        # The battle's view from the facts it shows (a shared read-only
        # dict, built once per distinct facts: gameplay.rules.views).
        act = b["act"]
        battle = _BATTLES[
            a,
            b["ac"],
            b["face"],
            b["bc"],
            b["blocked"],
            b["null"],
            act[0],
            act[1],
            b["hit"],
            len(b["flip"]),
            seat == a,
        ]
    pending: dict[str, Any] = {}
    if actor >= 0 and state["todo"]:
        t = state["todo"][-1]
        if ph == DRAW:
            pending = {"draws": t[2]}
        elif ph == PAY:
            pending = {"coins_due": t[2]}
        elif ph == REWARD:
            pending = {"difference": b["bv"] - b["av"]}
    front = state["front"]
    # The fields fixed for a seat and game length come from a template
    # copied per call (cheaper than a literal of 21 keys, same key order).
    obs = _OBS_BASE[seat, state["cfg"]["max_rounds"]].copy()
    rnd = state["round"]
    obs["round"] = rnd
    obs["phase"] = ph
    obs["prompt"] = PROMPTS[ph]
    obs["actors"] = [] if actor < 0 else [actor]
    obs["pending"] = pending
    obs["life"] = [*state["life"]]
    obs["initiative"] = state["init"]
    obs["starter"] = state["starter"]
    if seat is not None:
        # A cache hit most of the time when every seat is observed after
        # each step (the live server), about 40% in a random game's loop;
        # a miss builds here, not in ``PileViews.__missing__``'s two calls.
        hand = hands[seat]
        view = _HAND_VIEWS.get(hand)
        if view is None:
            if len(_HAND_VIEWS) >= _VIEWS_LIMIT:
                _HAND_VIEWS.clear()
            view = _HAND_VIEWS[hand] = _items(_VIEW_OF_BYTE, sorted(hand.encode()))
        obs["hand"] = [*view]
    h0, h1 = hands
    obs["hand_counts"] = [
        _HAND_COUNTS[len(h0)][h0.encode().translate(_RED_AS_ZERO).count(0)],
        _HAND_COUNTS[len(h1)][h1.encode().translate(_RED_AS_ZERO).count(0)],
    ]
    obs["decks"] = {"red": len(state["rdeck"]), "blue": len(state["bdeck"])}
    obs["discards"] = {
        "red": [*_PILE_VIEWS[state["rdisc"]]],
        "blue": [*_PILE_VIEWS[state["bdisc"]]],
    }
    obs["front"] = [[*_PILE_VIEWS[front[0]]], [*_PILE_VIEWS[front[1]]]]
    obs["coins"] = [_COIN_SUMS[front[0]], _COIN_SUMS[front[1]]]
    # The round in which each player may not block (a "no block" effect),
    # while it is still ahead.
    # (Two seats written out: on Python 3.11 a comprehension is a call.)
    nb0, nb1 = state["noblk"]
    obs["no_block_round"] = [
        nb0 if nb0 >= rnd else None,
        nb1 if nb1 >= rnd else None,
    ]
    obs["battle"] = battle
    if state["result"] is not None:
        obs["result"] = game.result(state)
    return obs


# Observations show cards as read-only dicts built once (a copy of ``CARDS``
# apart from the one the rules read, so an observation cannot change a card),
# and each pile (a string) as a tuple of them (gameplay.rules.views).
_VIEW = {ch: c.copy() for ch, c in CARDS.items()}


_PILE_VIEWS: PileViews[str, Pile] = PileViews(lambda cards: _items(_VIEW, cards))
# A card's view by the byte value of its character: a hand is sorted as bytes
# (small ints compare several times faster than one-character strings, and a
# random game's hands hold 20 cards or more).
_VIEW_OF_BYTE: list[Any] = [None] * 128
for _ch in ALPHABET:
    _VIEW_OF_BYTE[ord(_ch)] = _VIEW[_ch]
del _ch
_HAND_VIEWS: PileViews[str, Pile] = PileViews(
    lambda hand: _items(_VIEW_OF_BYTE, sorted(hand.encode()))
)
_VIEWS_LIMIT = LIMIT

# A hand's size per colour (public: the decks' backs differ), read-only:
# ``_HAND_COUNTS[len(hand)][reds]``. Looked up, not cached per hand: most
# steps change a hand, and a cache miss costs more than counting the reds.
_HAND_COUNTS: list[list[dict[str, int]]] = [
    [{"red": r, "blue": n - r} for r in range(n + 1)] for n in range(61)
]
_FACE = {"u": "up", "d": "down"}


def _obs_base(key: tuple[int | None, int]) -> dict[str, Any]:
    """An observation's template for (seat, rounds): every field in its
    order, the fixed ones filled in, the others at their default."""
    seat, max_rounds = key
    return {
        "game": "kungfu2013",
        "rules_version": RULES_VERSION,
        "seat": seat,
        "players": 2,
        "round": 0,
        "max_rounds": max_rounds,
        "phase": None,
        "prompt": None,
        "actors": None,
        "pending": None,
        "life": None,
        "initiative": None,
        "starter": None,
        "hand": None,
        "hand_counts": None,
        "decks": None,
        "discards": None,
        "front": None,
        "coins": None,
        "no_block_round": None,
        "battle": None,
        "result": None,
    }


_OBS_BASE: PileViews[tuple[int | None, int], dict[str, Any]] = PileViews(_obs_base)

# The facts a battle's view shows: attacker, attack card, face, block card,
# block done, discarded block, the two seats' activated effects, on-hit
# pending, initiative changes, whether the observer is the attacker.
_BattleKey = tuple[int, str, str, str, bool, str, bool, bool, bool, int, bool]


def _battle_view(key: _BattleKey) -> dict[str, Any]:
    """The battle as an observation shows it (a face-down attack card only to
    its attacker until the block is down)."""
    a, ac, face, bc, blocked, null, act0, act1, hit, flips, attacker = key
    act = [act0, act1]
    b = {"act": act}  # what ``_value`` reads
    shown = face == "u" or blocked
    return {
        "attacker": a,
        "defender": 1 - a,
        "attack": _VIEW[ac] if ac and (shown or attacker) else None,
        "attack_played": bool(ac) and bool(face),
        "face": _FACE.get(face),
        "revealed": bool(ac) and shown,
        "block": _VIEW[bc or null] if bc or null else None,
        "block_done": blocked,
        "block_discarded": bool(null),
        "activated": act,
        "attack_value": (_value(b, ac, a) if ac and shown else None),
        "block_value": (_value(b, bc, 1 - a) if bc else (0 if blocked else None)),
        "on_hit_pending": hit,
        "initiative_changes": flips,
    }


_BATTLES: PileViews[_BattleKey, dict[str, Any]] = PileViews(_battle_view)
