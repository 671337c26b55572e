"""What a Kung Fu (2009) seat may know: the observation, built from an allow-list.

:func:`observe_py` is the Python reference (the C code in ``_fastplay.c``
follows it field by field and reads the same shared views); the views below
are built once and shared read-only between observations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameplay.rules.base import EngineBase, State
from gameplay.rules.errors import GameError
from gameplay.rules.kungfu2009.cards import COMBINATIONS, LEVEL_ORDER, STYLES
from gameplay.rules.kungfu2009.constants import PLAY, POINTS, RULES_VERSION
from gameplay.rules.kungfu2009.offers import _offer_public
from gameplay.rules.views import PileViews


def observe_py(game: EngineBase, state: State, seat: int | None) -> dict[str, Any]:
    """``KungFu2009Game.observe`` in Python (the engine's ``_observe_py``): the
    reference the C code follows, and what runs when it is not built or declines."""
    n = state["n"]
    if type(seat) is bool or (
        seat is not None and (type(seat) is not int or not 0 <= seat < n)
    ):
        raise GameError(f"seat must be None or 0-{n - 1}, got {seat!r}")
    cfg = state["cfg"]
    # The fields fixed for a seat at a table come from a template copied
    # per call (cheaper than a literal of 25 keys, same key order); the
    # fields still at the template's default (no hand, no draft, nobody
    # out, nothing won) are left as they are.
    obs = _OBS_BASE[seat, n, cfg["impasse_limit"], cfg["severe"]].copy()
    hands = state["hands"]
    if seat is not None:
        h = hands[seat]
        unseen = state["fresh"][seat]
        if unseen:
            obs["hand"] = h[: len(h) - unseen]
            obs["unseen"] = unseen
        else:
            obs["hand"] = h
        d = state["drafts"][seat]
        if d is not None:
            obs["draft"] = d.copy()
    phase = obs["phase"] = state["phase"]
    out = state["out"]
    # ``actors`` and ``in_play`` per out and owe flags (a list built per
    # seat costs several times a copy of a kept tuple), or all seats.
    owe = state["owe"]
    if True in out:
        facts = _SEAT_FACTS[(*out, *owe)]
        obs["actors"] = [*facts[0]] if phase == PLAY else []
        obs["in_play"] = [*facts[1]]
    else:
        obs["actors"] = [*_SEATS[n]] if phase == PLAY else []
        obs["in_play"] = [True] * n
    obs["owes_forfeit"] = [*owe]
    obs["hand_sizes"] = _HAND_SIZES[n](hands)
    # Shared read-only views (the face-up combinations per codes, the
    # pile sizes per sizes, the discard's styles per pile), like the
    # combination dicts inside them: none is a list, so none is one the
    # observation must own (docs/engine.md, "Observations").
    up = state["up"]
    obs["face_up"] = _FACE_UP[up["easy"], up["normal"], up["difficult"]]
    piles = state["piles"]
    obs["piles"] = _PILE_SIZES[
        len(piles["easy"]), len(piles["normal"]), len(piles["difficult"])
    ]
    obs["removed"] = len(state["box"])
    obs["deck"] = len(state["deck"])
    obs["discard"] = _DISCARD_VIEW[state["disc"]]
    won = state["won"]
    if any(won):
        obs["won"] = list(map(list, won))
        obs["points"] = [sum(map(_points, w)) if w else 0 for w in won]
    else:
        obs["won"] = _NO_WINS[n]()
        obs["points"] = [0] * n
    offers = state["offers"]
    obs["offers"] = [_offer_public(o, seat) for o in offers] if offers else []
    obs["votes"] = [*state["votes"]]
    obs["impasses"] = state["impasses"]
    claims = state["claims"]
    obs["claims"] = list(map(dict, claims)) if claims else []
    if state["result"] is not None:
        obs["result"] = game.result(state)
    return obs


# Observations show the face-up combinations as read-only dicts built once
# (copies apart from the COMBINATIONS the rules read), and count the discard
# pile's styles once per pile (gameplay.rules.views).
_COMBO_VIEW: dict[str | None, dict[str, Any] | None] = {
    code: dict(c) for code, c in COMBINATIONS.items()
}
_COMBO_VIEW[None] = None
_DISCARD_VIEW: PileViews[str, dict[str, int]] = PileViews(
    lambda disc: {x: disc.count(x) for x in STYLES}
)
_points = POINTS.__getitem__
_FACE_UP: PileViews[tuple[str | None, str | None, str | None], dict[str, Any]] = (
    PileViews(
        lambda key: dict(zip(LEVEL_ORDER, map(_COMBO_VIEW.get, key), strict=True))
    )
)
_PILE_SIZES: PileViews[tuple[int, int, int], dict[str, int]] = PileViews(
    lambda key: dict(zip(LEVEL_ORDER, key, strict=True))
)
#: Every seat of a table of ``n``, in order (the actors when nobody is out).
_SEATS = [tuple(range(n)) for n in range(9)]


def _seat_facts(flags: tuple[bool, ...]) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """Per every seat's out flags then owe flags: the actors while play goes
    on (the seats in play, and a punished seat choosing what it loses) and
    the in-play flags."""
    n = len(flags) // 2
    out, owe = flags[:n], flags[n:]
    return (
        tuple(t for t in range(n) if not out[t] or owe[t]),
        tuple(not o for o in out),
    )


_SEAT_FACTS: PileViews[tuple[bool, ...], tuple[tuple[int, ...], tuple[bool, ...]]] = (
    PileViews(_seat_facts)
)
#: A fresh list of ``n`` empty lists (the ``won`` of an observation before
#: anything is won), written out: cheaper than building it per seat.
_NO_WINS: tuple[Callable[[], list[list[str]]], ...] = (
    lambda: [],
    lambda: [[]],
    lambda: [[], []],
    lambda: [[], [], []],
    lambda: [[], [], [], []],
    lambda: [[], [], [], [], []],
    lambda: [[], [], [], [], [], []],
    lambda: [[], [], [], [], [], [], []],
    lambda: [[], [], [], [], [], [], [], []],
)
#: The sizes of ``n`` hands as a fresh list, written out likewise.
_HAND_SIZES: tuple[Callable[[list[str]], list[int]], ...] = (
    lambda h: [],
    lambda h: [len(h[0])],
    lambda h: [len(h[0]), len(h[1])],
    lambda h: [len(h[0]), len(h[1]), len(h[2])],
    lambda h: [len(h[0]), len(h[1]), len(h[2]), len(h[3])],
    lambda h: [len(h[0]), len(h[1]), len(h[2]), len(h[3]), len(h[4])],
    lambda h: [len(h[0]), len(h[1]), len(h[2]), len(h[3]), len(h[4]), len(h[5])],
    lambda h: [
        len(h[0]),
        len(h[1]),
        len(h[2]),
        len(h[3]),
        len(h[4]),
        len(h[5]),
        len(h[6]),
    ],
    lambda h: [
        len(h[0]),
        len(h[1]),
        len(h[2]),
        len(h[3]),
        len(h[4]),
        len(h[5]),
        len(h[6]),
        len(h[7]),
    ],
)
# The face-up and pile fields of an observation name the levels in this order.
assert LEVEL_ORDER == ("easy", "normal", "difficult")


def _obs_base(key: tuple[int | None, int, int, bool]) -> dict[str, Any]:
    """An observation's template for (seat, players, impasse limit, severe):
    every field in its order, the fixed ones filled in, the others at their
    default."""
    seat, n, impasse_limit, severe = key
    return {
        "game": "kungfu2009",
        "rules_version": RULES_VERSION,
        "seat": seat,
        "players": n,
        "phase": None,
        "actors": None,
        "hand": None,
        "unseen": 0,
        "draft": None,
        "hand_sizes": None,
        "in_play": None,
        "owes_forfeit": None,
        "face_up": None,
        "piles": None,
        "removed": 0,
        "deck": 0,
        "discard": None,
        "won": None,
        "points": None,
        "offers": None,
        "votes": None,
        "impasses": 0,
        "impasse_limit": impasse_limit,
        "severe": severe,
        "claims": None,
        "result": None,
    }


_OBS_BASE: PileViews[tuple[int | None, int, int, bool], dict[str, Any]] = PileViews(
    _obs_base
)
