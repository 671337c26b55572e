"""What a Kung Fu (2019) seat may know: the observation, built from an allow-list.

:func:`observe_py` is the Python reference (``_fastobserve.c`` follows it field
by field); the pile, track and template views are built once and shared
read-only between observations.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from gameplay.rules.base import Game, State
from gameplay.rules.errors import GameError
from gameplay.rules.kungfu2019.alphabet import CODE, ROUNDS, RULES_VERSION, STAT, STEP
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND
from gameplay.rules.kungfu2019.phases import DRAFT, PLAYING, PROMPTS
from gameplay.rules.views import LastView, Pile, PileViews


def _track_views(
    tracks: list[list[int]],
) -> tuple[tuple[dict[str, int], ...], tuple[dict[str, int], ...]]:
    """Each seat's status tracks as observations show them: the track
    positions and the values they give."""
    return (
        tuple(dict(zip(STAT, t, strict=True)) for t in tracks),
        tuple({k: t[i] * STEP[k] for i, k in enumerate(STAT)} for t in tracks),
    )


# Views built once (gameplay.rules.views): a pile of cards (a string) as its
# card codes, in order and sorted; the status tracks, a list the engine
# replaces rather than edits, while it is the same list (read-only dicts).
_CODES: PileViews[str, Pile] = PileViews(
    lambda cards: tuple(map(CODE.__getitem__, cards))
)
_SORTED_CODES: PileViews[str, Pile] = PileViews(
    lambda cards: tuple(map(CODE.__getitem__, sorted(cards)))
)
_TRACK_VIEWS = LastView(_track_views)
# A fighter's assignment record's "done" flag (a C call for ``map``).
_DONE = itemgetter("done")


def _obs_base(key: tuple[int | None, int, str]) -> dict[str, Any]:
    """An observation's template for (seat, players, phase): every field in
    its order, the fixed ones filled in, the others at their default."""
    seat, n, phase = key
    return {
        "game": "kungfu2019",
        "rules_version": RULES_VERSION,
        "seat": seat,
        "players": n,
        "phase": phase,
        "prompt": PROMPTS[phase],
        "round": 0,
        "rounds": ROUNDS,
        "actors": None,
        "hp": None,
        "eliminated": None,
        "tracks": None,
        "status": None,
        "hand": None,
        "hand_sizes": None,
        "deck_size": 0,
        "discard": None,
        "draft": None,
        "commits": None,
        "played": None,
        "dummy": None,
        "order": None,
        "attack_index": None,
        "fight": None,
        "result": None,
    }


_OBS_BASE: PileViews[tuple[int | None, int, str], dict[str, Any]] = PileViews(_obs_base)


def observe_py(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    """:meth:`observe` in Python: the reference the C code follows."""
    n = state["n"]
    if (
        seat is not None
        and not (type(seat) is int and 0 <= seat < n)
        and (type(seat) is bool or seat not in range(n))
    ):
        raise GameError(f"seat must be None or 0-{n - 1}, got {seat!r}")
    ph = state["phase"]
    me = seat is not None
    # The fields fixed for a seat at a table in a phase come from a template
    # copied per call (cheaper than a literal of 25 keys, same key order).
    # ``[*x]`` rather than ``list(x)`` for the fresh lists: no call.
    obs = _OBS_BASE[seat, n, ph].copy()
    obs["round"] = state["round"]
    obs["actors"] = game.actors(state)
    obs["hp"] = [*state["hp"]]
    obs["eliminated"] = [*map(bool, state["elim"])]
    track_views = _TRACK_VIEWS(state["tracks"])
    obs["tracks"] = [*track_views[0]]
    obs["status"] = [*track_views[1]]
    hands = state["hands"]
    if me:
        obs["hand"] = [*_SORTED_CODES[hands[seat]]]
    obs["hand_sizes"] = [*map(len, hands)]
    obs["deck_size"] = len(state["deck"])
    obs["discard"] = [*_CODES[state["discard"]]]
    if ph == DRAFT:
        picks = state["picks"]
        obs["draft"] = {
            "turn": state["turn"],
            "pack_sizes": list(map(len, state["packs"])),
            "picked": list(map(bool, picks)),
            "pack": [*_SORTED_CODES[state["packs"][seat]]] if me else None,
            "pick": CODE[picks[seat]] if me and picks[seat] else None,
        }
    elif ph == PLAYING:
        commit = state["commit"]
        obs["commits"] = {
            "counts": list(map(len, commit)),
            "mine": [*_CODES[commit[seat]]] if me else None,
        }
    # The per-seat lists: ``map`` to ``list`` (C calls, a fresh list per
    # seat) where every seat has one, which is most steps; else loops
    # rather than comprehensions (see engine.py's ``actors``).
    plays = state["played"]
    played: list[list[str] | None]
    if "" not in plays:  # everyone's cards face up: the fights
        played = [*map(list, map(_CODES.__getitem__, plays))]
    elif plays.count("") == n:  # nothing revealed yet this round
        played = [None] * n
    else:
        played = []
        for p in plays:
            played.append([*_CODES[p]] if p else None)
    obs["played"] = played
    if state["dummy"]:
        obs["dummy"] = [CODE[c] for c in state["dummy"]]
    order = state["order"]
    obs["order"] = [*order]
    if order:
        obs["attack_index"] = state["oi"]
    f = state["fight"]
    if f is not None:
        dice: list[list[int] | None]
        done: list[bool | None]
        asgs = f["asg"]
        rolls = f["dice"]
        if None not in rolls and None not in asgs:  # every seat fights
            dice = [*map(list, rolls)]
            done = [*map(_DONE, asgs)]
        else:
            dice = []
            done = []
            # (``zip(..., strict=True)`` is a keyword call; both lists have
            # a slot per seat.)
            for i, d in enumerate(rolls):
                a = asgs[i]
                dice.append(None if d is None else [*d])
                done.append(None if a is None else a["done"])
        fight: dict[str, Any] = {
            "attacker": f["a"],
            "fighters": [*f["f"]],
            "dice": dice,
            "done": done,
            "mine": None,
        }
        asg = None if seat is None else f["asg"][seat]
        if asg is not None:
            # A loop and the role inline: no calls of their own (see
            # ``actors``), this part being built at every dice step.
            sets: list[list[Any]] = []
            for slot, k, d in asg["sets"]:
                sets.append([slot, k, [*d]])
            op = asg["open"]
            fight["mine"] = {
                "role": ATTACK if seat == f["a"] else DEFEND,
                "values": [*asg["v"]],
                "sets": sets,
                "open": None if op is None else [op[0], op[1], [*op[2]]],
                "budget": asg["bud"] + asg["gain"],
                "spent": asg["spent"],
                "done": asg["done"],
            }
        obs["fight"] = fight
    if state["result"] is not None:
        obs["result"] = game.result(state)
    return obs
