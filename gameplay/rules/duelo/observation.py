"""What a Duelo seat may know: the observation, built from an allow-list.

:func:`observe_py` is the Python reference (the C code in ``_fastplay.c``
follows it field by field); the views below are built once and shared
read-only between observations.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules.base import EngineBase, State
from gameplay.rules.duelo.cards import FOCUS
from gameplay.rules.duelo.phases import (
    _DUEL_PHASES,
    _PEEK_PHASES,
    _UP_PHASES,
    ANSWER,
    C_MONKEY_ORDER,
    DRUNK_PUT,
    FACE,
    MONKEY_B,
    PROMPTS,
    RULES_VERSION,
    SNAKE_GUESS,
    SNAKE_SEPARATE,
    TARGET,
)
from gameplay.rules.errors import GameError
from gameplay.rules.views import LastView, Pile, PileViews


def observe_py(game: EngineBase, state: State, seat: int | None) -> dict[str, Any]:
    """``DueloGame.observe`` in Python (the engine's ``_observe_py``): the
    reference the C code follows, and what runs when it is not built or declines."""
    n = state["n"]
    if seat is not None and (type(seat) is not int or not 0 <= seat < n):
        raise GameError(f"seat must be None or 0..{n - 1}, got {seat!r}")
    ph = state["phase"]
    ctx = state["ctx"]
    a = state["turn"]
    hands = state["hands"]
    alive = state["alive"]
    crane = state["crane"]
    tiger = state["tiger"]
    prizes = state["prizes"]
    hidden = state["hidden"]
    actor = state["actor"]
    cfg = state["cfg"]
    # Each seat's public part is a view shared read-only (its facts as
    # one key, built once per distinct key). The per-seat lists other than
    # ``hands`` are copy-on-write (apply() shares them with the state
    # before until an effect replaces one), so while they are the same
    # objects as at the last call only the hand counts can differ: the
    # seats' views are then looked up by those counts alone (every seat's
    # observation of a state, and most steps of a game, hit).
    counts = (*map(len, hands),)
    memo = _SEATS_MEMO[0]
    if (
        memo[0] is alive
        and memo[1] is prizes
        and memo[2] is crane
        and memo[3] is tiger
        and memo[4] is hidden
    ):
        by_counts = memo[5]
    else:
        by_counts = {}
        _SEATS_MEMO[0] = (alive, prizes, crane, tiger, hidden, by_counts)
    views = by_counts.get(counts)
    if views is None:
        if len(by_counts) >= 64:
            by_counts.clear()
        # ``map`` of the cache's lookup builds the tuple without a
        # comprehension's frame; every list here has ``n`` items, so the
        # zip needs no ``strict`` (its keyword call is not free).
        views = by_counts[counts] = (
            *map(
                _SEAT_VIEW,
                zip(
                    range(n),
                    alive,
                    counts,
                    prizes,
                    hidden,
                    crane,
                    tiger,
                    strict=False,
                ),
            ),
        )
    seats = [*views]
    discard = state["discard"]
    start_draw = state["start_draw"]
    history = state["history"]
    # The fields that never change in a game come from a per-table
    # template (a dict copy is far cheaper than a literal of 23 keys);
    # the template keeps the keys' order, so the JSON is the same.
    obs = _OBS_BASE[seat, n, cfg["rounds"]].copy()
    obs["round"] = state["round"]
    obs["markers"] = list(state["markers"])
    obs["turn"] = a
    obs["turns"] = state["turns"]
    obs["phase"] = ph
    obs["actors"] = [] if actor < 0 else [actor]
    obs["prompt"] = PROMPTS[ph]
    obs["deck_count"] = len(state["deck"])
    if discard:
        obs["discard"] = [*_PILE[discard]]
    else:
        obs["discard"] = []
    obs["reshuffle_available"] = cfg["reshuffle_discard"] and not state["reshuffled"]
    obs["seats"] = seats
    if seat is not None:
        obs["hand"] = [*_SORTED[hands[seat]]]
    obs["private"] = {}
    obs["start_draw"] = _start_draw_view(start_draw) if start_draw else []
    # The records are shared read-only views; the list is this
    # observation's own, like all its lists.
    obs["rounds"] = [*_ROUNDS(history)] if history else []
    if state["result"] is not None:
        obs["result"] = game.result(state)
    if ph == FACE:
        obs["play"] = {
            "seat": a,
            "face": None,
            "card": FOCUS[ctx["card"]] if seat == a else None,
        }
    elif ph in _UP_PHASES:
        copied = ctx.get("copied")
        obs["play"] = {
            "seat": a,
            "face": "up",
            "card": FOCUS[ctx["card"]],
            "copied": FOCUS[copied] if copied else None,
        }
        if ph == DRUNK_PUT:
            obs["play"]["to_put_back"] = ctx["left"]
        elif ph in (SNAKE_SEPARATE, SNAKE_GUESS):
            obs["play"]["target"] = ctx["target"]
        elif ph == MONKEY_B:
            obs["play"]["first_swap"] = ctx["swap"]
    elif ph in (TARGET, ANSWER):
        obs["duel"] = {
            "attacker": a,
            "defender": ctx.get("def"),
            "cards": [FOCUS[ctx["card"]] if seat == a else None, None],
        }
    elif ph in _DUEL_PHASES:
        w = ctx.get("winner")
        obs["duel"] = {
            "attacker": a,
            "defender": ctx["def"],
            "cards": [FOCUS[ctx["card"]], FOCUS[ctx["dk"]]],
            "focus": [ctx["fa"], ctx["fd"]],
            "winner": None if w is None or w < 0 else w,
            "tie": w == -1,
            "decided": w is not None,
        }
    if seat is not None and seat == actor and ph in _PEEK_PHASES:
        source = "deck" if state["deck"] else "set_aside"
        obs["private"] = {"peek": FOCUS[ctx["peek"]], "source": source}
    if ph == SNAKE_GUESS and seat == ctx["target"]:
        obs["private"] = {"separated": FOCUS[ctx["sep"]]}
    if seat is not None and seat == actor:
        if ph == DRUNK_PUT and "put" in ctx:
            # Cards this player put back on top so far, bottom to top.
            obs["private"] = {"put_back": [FOCUS[c] for c in ctx["put"]]}
        elif ph == C_MONKEY_ORDER and "under" in ctx:
            # Cards this player put under the deck so far, in that order.
            obs["private"] = {"put_under": [FOCUS[c] for c in ctx["under"]]}
    return obs


# Views built once (gameplay.rules.views): a pile (a string) as its Focus
# values, in order and sorted; the finished rounds, a list the engine replaces
# rather than edits, while it is the same list.
_PILE: PileViews[str, Pile] = PileViews(lambda cards: tuple(map(int, cards)))
_SORTED: PileViews[str, Pile] = PileViews(lambda cards: tuple(sorted(map(int, cards))))
_SeatKey = tuple[int, bool, int, str, str, bool, int]


def _seat_view(key: _SeatKey) -> dict[str, Any]:
    """A seat's public part of an observation, from its facts."""
    i, alive, hand_count, prizes, hidden, crane, tiger = key
    return {
        "seat": i,
        "alive": alive,
        "hand_count": hand_count,
        "prizes": [*_PILE[prizes]] if prizes else [],
        "face_down_prizes": [*_PILE[hidden]] if hidden else [],
        "protected": crane,
        "tiger_target": tiger if tiger >= 0 else None,
    }


_SEAT: PileViews[_SeatKey, dict[str, Any]] = PileViews(_seat_view)
_SEAT_VIEW = _SEAT.__getitem__
# observe()'s memo of the seats' views: (alive, prizes, crane, tiger, hidden,
# {hand counts: views}) for the lists it was last asked about, by identity (it
# holds them, so their ids cannot be reused); one tuple, replaced whole, so
# another thread never pairs lists with another set's views.
_SEATS_MEMO: list[tuple[Any, ...]] = [(None,) * 5 + ({},)]


def _obs_base(key: tuple[int | None, int, int]) -> dict[str, Any]:
    """An observation's template for (seat, players, rounds to win): every
    field in its order, the fixed ones filled in, the others at their
    default."""
    seat, n, rounds = key
    return {
        "game": "duelo",
        "rules_version": RULES_VERSION,
        "seat": seat,
        "players": n,
        "round": 0,
        "rounds_to_win": rounds,
        "markers": None,
        "turn": 0,
        "turns": 0,
        "phase": None,
        "actors": None,
        "prompt": None,
        "deck_count": 0,
        "discard": None,
        "reshuffle_available": False,
        "seats": None,
        "hand": None,
        "play": None,
        "duel": None,
        "private": None,
        "start_draw": None,
        "rounds": None,
        "result": None,
    }


_OBS_BASE: PileViews[tuple[int | None, int, int], dict[str, Any]] = PileViews(_obs_base)
_ROUNDS: LastView[list[dict[str, Any]], list[dict[str, Any]]] = LastView(
    lambda history: [_copy_record(r) for r in history]
)


def _copy_record(r: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in r.items():
        if isinstance(v, list):
            out[k] = [list(x) if isinstance(x, list) else x for x in v]
        else:
            out[k] = v
    return out


def _start_draw_view(start_draw: list[list[list[int]]]) -> list[list[list[int]]]:
    """An observation's copy of the start draws (the C code's, when any)."""
    return [[list(d) for d in r] for r in start_draw]
