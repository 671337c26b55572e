"""Kung Fu (2019)'s decisions: one handler a phase (the handler table), the
take-backs, and the draft's and play's menus and checks.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules.base import Event, State
from gameplay.rules.kungfu2019 import actions as _actions
from gameplay.rules.kungfu2019.actions import (
    ARG,
    PICK_ID,
    PLAY_ID,
    REOPEN,
    SEAT_KEY,
    STEP_ARG,
    UNPICK,
    UNPLAY_ARG,
    UNPLAY_ID,
    _ev,
)
from gameplay.rules.kungfu2019.alphabet import CODE, HAND, PLAY
from gameplay.rules.kungfu2019.assignment import (
    _assign_ids,
    _assign_legal,
    _checked_proposal,
    _dropped,
    _maybe_close,
)
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND
from gameplay.rules.kungfu2019.observation import _SORTED_CODES
from gameplay.rules.kungfu2019.phases import ASSIGN, DRAFT, PLAYING
from gameplay.rules.kungfu2019.rounds import _resolve, _reveal, _start_status
from gameplay.rules.views import PileViews

# Assigned, not imported: CPython 3.11 compiles ``NAME.method(...)`` on a name
# the module imports as an attribute load and a call (a bound method made per
# call), and on any other name as a method call; ``_is_legal`` runs
# ``PICK_ARG.get`` or ``PLAY_ARG.get`` at every draft and play step Python
# checks.
PICK_ARG = _actions.PICK_ARG
PLAY_ARG = _actions.PLAY_ARG

# ---------------------------------------------------------------------------
# Decision handlers.


def _h_pick(s: State, ev: list[Event], seat: int, aid: str) -> None:
    ch = ARG[aid]
    packs = s["packs"] = s["packs"][:]
    picks = s["picks"] = s["picks"][:]
    packs[seat] = packs[seat].replace(ch, "")
    picks[seat] = ch
    ev.append(
        {
            "type": "pick",
            "public": {"seat": seat},
            "private": {SEAT_KEY[seat]: {"card": CODE[ch]}},
        }
    )
    # A pick that leaves another seat to choose is most draft steps: the test
    # is one search in C (no generator).
    if "" in picks:
        return
    n = s["n"]
    hands = s["hands"][:]
    for i in range(n):
        hands[i] += picks[i]
    s["hands"] = hands
    # Learning phase 1-1: the rest passes to the player on the left (seat + 1).
    packs = s["packs"]
    packs = s["packs"] = packs[-1:] + packs[:-1]
    s["picks"] = [""] * n
    s["turn"] += 1
    private: dict[str, Any] = {}
    for i in range(n):
        private[SEAT_KEY[i]] = {"pack": [*_SORTED_CODES[packs[i]]]}
    ev.append(
        {
            "type": "draft_pass",
            "public": {"turn": s["turn"], "pack_size": len(packs[0])},
            "private": private,
        }
    )
    if s["turn"] >= HAND:
        _start_status(s, ev)


def _h_play(s: State, ev: list[Event], seat: int, aid: str) -> None:
    ch = ARG[aid]
    hands = s["hands"] = s["hands"][:]
    commit = s["commit"] = s["commit"][:]
    hands[seat] = hands[seat].replace(ch, "")
    commit[seat] += ch
    ev.append(
        {
            "type": "commit",
            "public": {"seat": seat, "count": len(commit[seat])},
            "private": {SEAT_KEY[seat]: {"card": CODE[ch]}},
        }
    )
    # Loops, not a generator over ``_alive`` (see engine.py's ``actors``):
    # at every play.
    for i, out in enumerate(s["elim"]):
        if not out and len(commit[i]) != PLAY:
            return
    _reveal(s, ev)


def _h_assign(s: State, ev: list[Event], seat: int, aid: str) -> None:
    s["fight"] = f = s["fight"].copy()
    f["asg"] = asgs = f["asg"][:]
    asgs[seat] = asg = asgs[seat].copy()
    rolled = f["dice"][seat]
    private: dict[str, Any] = {"step": aid}
    if aid == "auto":
        asg["v"], asg["sets"], asg["gain"], asg["spent"] = _checked_proposal(s, seat)
        asg["open"] = None
        asg["done"] = True
    elif aid == "done":
        asg["done"] = True
    elif aid == "best":
        asg["v"], asg["sets"], asg["gain"], asg["spent"] = _checked_proposal(s, seat)
    elif aid == "reset":
        asg["v"] = list(rolled)
        asg["sets"] = []
        asg["gain"] = asg["spent"] = 0
    elif aid == "cancel":
        op = asg["open"]
        v = asg["v"][:]
        for i in op[2]:
            asg["spent"] -= abs(v[i] - rolled[i])
            v[i] = rolled[i]
        asg["v"] = v
        asg["open"] = None
    else:
        kind, i, k = STEP_ARG[aid]
        if kind == "set":
            asg["open"] = [i, k, []]
        elif kind == "drop":
            asg["v"], asg["sets"], asg["gain"], asg["spent"] = _dropped(s, seat, i)
        elif kind == "die":
            op = asg["open"]
            asg["open"] = [op[0], op[1], op[2] + [i]]
            _maybe_close(s, seat, asg, ATTACK if seat == f["a"] else DEFEND)
        else:  # up / down
            v = asg["v"][:]
            before = abs(v[i] - rolled[i])
            v[i] += 1 if kind == "up" else -1
            asg["spent"] += abs(v[i] - rolled[i]) - before
            asg["v"] = v
            op = asg["open"]
            asg["open"] = [op[0], op[1], [*op[2]]]
            _maybe_close(s, seat, asg, ATTACK if seat == f["a"] else DEFEND)
    done = asg["done"]
    if done:
        # Loops and ``map``, not comprehensions (see engine.py's ``actors``).
        shown: list[list[Any]] = []
        pick = asg["v"].__getitem__
        for slot, k, d in asg["sets"]:
            shown.append([slot, k, [*d], list(map(pick, d))])
        private["sets"] = shown
    ev.append(
        {
            "type": "assign",
            "public": {"seat": seat, "done": done},
            "private": {SEAT_KEY[seat]: private},
        }
    )
    if done:
        for i in f["f"]:
            if not asgs[i]["done"]:
                return
        _resolve(s, ev)


_HANDLERS = {DRAFT: _h_pick, PLAYING: _h_play, ASSIGN: _h_assign}


def _retract_ids(s: State, seat: int) -> list[str]:
    """A seat's take-backs of its hidden commits in the open simultaneous choice.

    Draft: the card kept this turn (back into the pack), while another seat
    has not picked. Play: each card committed this round (back into the hand),
    while another living seat has not committed all three. Dice: a finished
    assignment (reopened as it was), while another fighter is not done. The
    last commit of all reveals at once, so nothing is left to take back then.
    """
    ph = s["phase"]
    if ph == DRAFT:
        if s["picks"][seat]:
            return [UNPICK]
        return []
    if ph == PLAYING:
        return [UNPLAY_ID[c] for c in sorted(s["commit"][seat])]
    if ph == ASSIGN:
        f = s["fight"]
        asg = f["asg"][seat]
        if seat in f["f"] and asg is not None and asg["done"]:
            return [REOPEN]
    return []


def _h_retract(s: State, ev: list[Event], seat: int, aid: str) -> None:
    ph = s["phase"]
    if ph == DRAFT:
        ch = s["picks"][seat]
        s["packs"] = s["packs"][:]
        s["picks"] = s["picks"][:]
        s["packs"][seat] += ch
        s["picks"][seat] = ""
        ev.append(_ev("unpick", {"seat": seat}, {str(seat): {"card": CODE[ch]}}))
    elif ph == PLAYING:
        ch = UNPLAY_ARG[aid]
        s["hands"] = s["hands"][:]
        s["commit"] = s["commit"][:]
        s["commit"][seat] = s["commit"][seat].replace(ch, "")
        s["hands"][seat] += ch
        ev.append(
            _ev(
                "uncommit",
                {"seat": seat, "count": len(s["commit"][seat])},
                {str(seat): {"card": CODE[ch]}},
            )
        )
    else:
        s["fight"] = f = s["fight"].copy()
        f["asg"] = f["asg"][:]
        f["asg"][seat] = dict(f["asg"][seat], done=False)
        ev.append(_ev("reopen", {"seat": seat}, {str(seat): {"step": aid}}))


def _is_legal(s: State, seat: int, aid: str) -> bool:
    """``aid in _ids(s, seat)``, answered without building the menu."""
    ph = s["phase"]
    if ph == DRAFT:
        ch = PICK_ARG.get(aid)
        return ch is not None and not s["picks"][seat] and ch in s["packs"][seat]
    if ph == PLAYING:
        ch = PLAY_ARG.get(aid)
        return (
            ch is not None
            and not s["elim"][seat]
            and len(s["commit"][seat]) < PLAY
            and ch in s["hands"][seat]
        )
    if ph == ASSIGN:
        return _assign_legal(s, seat, aid)
    return False


# The draft's and the play's menus of a pack or hand (a string), built once.
# (Random hands rarely repeat, so these are built at most play and draft steps:
# ``map`` rather than a generator, which resumes a frame per card.)
_PICK_MENUS: PileViews[str, tuple[str, ...]] = PileViews(
    lambda pile: tuple(map(PICK_ID.__getitem__, sorted(pile)))
)
_PLAY_MENUS: PileViews[str, tuple[str, ...]] = PileViews(
    lambda pile: tuple(map(PLAY_ID.__getitem__, sorted(pile)))
)


def _ids(s: State, seat: int) -> list[str]:
    ph = s["phase"]
    if ph == DRAFT:
        if s["picks"][seat]:
            return []
        return [*_PICK_MENUS[s["packs"][seat]]]
    if ph == PLAYING:
        if s["elim"][seat] or len(s["commit"][seat]) >= PLAY:
            return []
        return [*_PLAY_MENUS[s["hands"][seat]]]
    if ph == ASSIGN:
        return _assign_ids(s, seat)
    return []
