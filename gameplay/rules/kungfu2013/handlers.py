"""Kung Fu (2013)'s decisions: one handler a phase, and how ``apply`` accepts an action.

:data:`_ACT` gives, per action id, everything needed to check and run it in
one lookup; :func:`_accept` is the fast check, :func:`_accept_slow` the one
that explains a refusal.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules.base import State
from gameplay.rules.errors import GameError, IllegalAction
from gameplay.rules.kungfu2013.alphabet import CARDS, COST
from gameplay.rules.kungfu2013.menus import ACTION_INFO, ARG, _ids
from gameplay.rules.kungfu2013.phases import (
    ATTACK,
    BLOCK,
    DRAW,
    EFFECT_PHASE,
    FACE,
    INITIATIVE,
    KEY,
    PAY,
    PROMPTS,
    REWARD,
    RULES_VERSION,
    TARGET,
    Events,
)
from gameplay.rules.kungfu2013.rounds import (
    _after_block,
    _break_coin,
    _change_initiative,
    _draw_one,
    _pay,
)

# ---------------------------------------------------------------------------
# Decision handlers: (state, events, seat, card or None, action id).


def _h_draw(s: State, ev: Events, seat: int, card: str | None, aid: str) -> None:
    todo = s["todo"]
    n = todo[-1][2]
    if n > 1:
        todo[-1] = ["draw", seat, n - 1]  # tasks are replaced, never edited
    else:
        todo.pop()
    _draw_one(s, ev, seat, "red" if aid == "draw:red" else "blue")


def _h_initiative(s: State, ev: Events, seat: int, card: str | None, aid: str) -> None:
    if aid == "initiative:keep":
        s["todo"].pop()
        s["todo"].append(["attack"])
        if ev is not None:
            ev.append(
                {"type": "keep_initiative", "public": {"seat": seat}, "private": {}}
            )
    else:
        _change_initiative(s, ev, "pass")


def _h_attack(s: State, ev: Events, seat: int, card: str | None, aid: str) -> None:
    assert card is not None
    s["hands"][seat] = s["hands"][seat].replace(card, "")
    b = s["b"]
    b["ac"] = card
    s["todo"][-1] = ["face"]


def _h_face(s: State, ev: Events, seat: int, card: str | None, aid: str) -> None:
    b = s["b"]
    todo = s["todo"]
    todo[-1] = ["block"]
    if aid == "face:up":
        b["face"] = "u"
        if ev is not None:
            ev.append(
                {
                    "type": "attack",
                    "public": {
                        "seat": seat,
                        "face": "up",
                        "card": CARDS[b["ac"]].copy(),
                    },
                    "private": {},
                }
            )
    else:
        b["face"] = "d"
        if ev is not None:
            ev.append(
                {
                    "type": "attack",
                    "public": {"seat": seat, "face": "down", "card": None},
                    "private": {KEY[seat]: {"card": CARDS[b["ac"]].copy()}},
                }
            )
        todo.append(["draw", 1 - seat, 1])


def _h_block(s: State, ev: Events, seat: int, card: str | None, aid: str) -> None:
    assert card is not None
    s["hands"][seat] = s["hands"][seat].replace(card, "")
    s["b"]["bc"] = card
    s["todo"].pop()
    if ev is not None:
        ev.append(
            {
                "type": "block",
                "public": {"seat": seat, "card": CARDS[card].copy()},
                "private": {},
            }
        )
    _after_block(s, ev)


def _h_effect(s: State, ev: Events, seat: int, card: str | None, aid: str) -> None:
    s["todo"].pop()
    if aid == "effect:skip":
        if ev is not None:
            ev.append(
                {"type": "effect_skipped", "public": {"seat": seat}, "private": {}}
            )
        return
    b = s["b"]
    mine = b["ac"] if seat == b["a"] else b["bc"]
    s["todo"].append(["resolve", seat])
    if COST[mine]:
        s["todo"].append(["pay", seat, COST[mine]])


def _h_pay(s: State, ev: Events, seat: int, card: str | None, aid: str) -> None:
    assert card is not None
    due = s["todo"].pop()[2]
    _pay(s, ev, seat, card, due)


def _h_target(s: State, ev: Events, seat: int, card: str | None, aid: str) -> None:
    assert card is not None
    s["todo"].pop()
    _break_coin(s, ev, 1 - seat, card)


def _h_reward(s: State, ev: Events, seat: int, card: str | None, aid: str) -> None:
    s["todo"].pop()
    b = s["b"]
    if ev is not None:
        ev.append(
            {
                "type": "reward",
                "public": {"seat": seat, "choice": aid[7:]},
                "private": {},
            }
        )
    if aid == "reward:draw":
        s["todo"].append(["draw", seat, b["bv"] - b["av"]])
    else:
        if s["init"] != seat:
            _change_initiative(s, ev, "defence_won")


_HANDLERS = {
    DRAW: _h_draw,
    INITIATIVE: _h_initiative,
    ATTACK: _h_attack,
    FACE: _h_face,
    BLOCK: _h_block,
    EFFECT_PHASE: _h_effect,
    PAY: _h_pay,
    TARGET: _h_target,
    REWARD: _h_reward,
}

# Per action id, everything ``apply`` needs to accept and run it, in one lookup:
# (phase it belongs to, where its card must be or None, seat offset, card, handler).
# The card check holds exactly for the menus of _ids: every fixed menu offers all
# of its phase's ids, and a card menu offers exactly the cards of one hand colour
# (``hands`` of the actor) or of one row of coin cards (``front`` of the actor,
# or of the opponent for a target).
_WHERE = {ATTACK: ("hands", 0), BLOCK: ("hands", 0), PAY: ("front", 0)}
_WHERE[TARGET] = ("front", 1)
# An action's entry: phase, the state key and seat offset where its card must be
# (or None), its card, its handler.
_Act = tuple[str, str | None, int, str | None, Any]
_ACT: dict[str, _Act] = {}
for _aid, _a in ACTION_INFO.items():
    _key, _off = _WHERE.get(_a["type"], (None, 0))
    _ACT[_aid] = (_a["type"], _key, _off, ARG[_aid], _HANDLERS[_a["type"]])
del _aid, _a, _key, _off


def _accept(s: State, seat: int | None, action_id: str) -> _Act:
    """The action's table entry if ``seat`` may play ``action_id`` in ``s`` now;
    otherwise IllegalAction (or GameError) with the full explanation."""
    if type(action_id) is str and type(s) is dict and type(seat) is int:
        act = _ACT.get(action_id)
        if (
            act is not None
            and seat == s["actor"]
            and act[0] == s["phase"]
            and s.get("rules_version") == RULES_VERSION
            and (act[1] is None or act[3] in s[act[1]][seat ^ act[2]])
        ):
            return act
    return _accept_slow(s, seat, action_id)


def _accept_slow(state: Any, seat: Any, action_id: Any) -> _Act:
    """``_accept`` step by step: the first failed check raises its error."""
    if not isinstance(state, dict) or state.get("rules_version") != RULES_VERSION:
        found = state.get("rules_version") if isinstance(state, dict) else None
        raise GameError(
            f"not a kungfu2013 state of rules version {RULES_VERSION} (got {found!r})"
        )
    if type(action_id) is not str:
        raise IllegalAction(
            "malformed_action",
            f"malformed action {action_id!r}: an action is its string id, "
            "e.g. 'initiative:keep'",
            action=str(action_id)[:80],
        )
    actor = state["actor"]
    if actor < 0:
        raise IllegalAction(
            "game_over", "the game is over; no more actions are accepted"
        )
    if seat != actor or type(seat) is not int:
        raise IllegalAction(
            "not_your_turn",
            f"seat {seat!r} may not act now: waiting for seat {actor} "
            f"({PROMPTS[state['phase']]})",
            player=actor,
        )
    act = _ACT.get(action_id)
    if (
        act is not None
        and act[0] == state["phase"]
        and (act[1] is None or act[3] in state[act[1]][seat ^ act[2]])
    ):
        return act
    raise IllegalAction(
        "not_legal",
        f"action {action_id!r} is not legal for seat {seat} in phase "
        f"{state['phase']!r} ({PROMPTS[state['phase']]}); legal: "
        + ", ".join(_ids(state)),
        action=action_id,
    )
