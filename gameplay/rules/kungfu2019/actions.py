"""Kung Fu (2019)'s action ids, parsed once, and the events' helpers."""

from __future__ import annotations

from typing import Any

from gameplay.rules.base import Event
from gameplay.rules.kungfu2019.alphabet import ALPHABET, CODE, COMBOS, DICE, PLAY

PICK_ID = {ch: f"pick:{CODE[ch]}" for ch in ALPHABET}
PLAY_ID = {ch: f"play:{CODE[ch]}" for ch in ALPHABET}
PICK_ARG = {v: k for k, v in PICK_ID.items()}
PLAY_ARG = {v: k for k, v in PLAY_ID.items()}
ARG = {**PICK_ARG, **PLAY_ARG}
DIE_ID = [f"die:{i}" for i in range(DICE)]
UP_ID = [f"up:{i}" for i in range(DICE)]
DOWN_ID = [f"down:{i}" for i in range(DICE)]
SET_ID = {(s, k): f"set:{s}:{k}" for s in range(PLAY) for k in range(4)}
assert all(len(cs) <= 4 for cs in COMBOS.values())  # SET_ID covers k < 4
DROP_ID = [f"drop:{j}" for j in range(DICE)]
# Every dice-assignment id with an argument, parsed once: (kind, first, second)
# (``set``: slot and combination; the others: the set or die index, 0). The
# assignment steps are most of a game's steps, and a lookup costs less than
# splitting the id and converting its numbers at each of them.
STEP_ARG: dict[str, tuple[str, int, int]] = {
    **{sid: ("set", slot, k) for (slot, k), sid in SET_ID.items()},
    **{aid: ("drop", j, 0) for j, aid in enumerate(DROP_ID)},
    **{aid: ("die", i, 0) for i, aid in enumerate(DIE_ID)},
    **{aid: ("up", i, 0) for i, aid in enumerate(UP_ID)},
    **{aid: ("down", i, 0) for i, aid in enumerate(DOWN_ID)},
}
# Take-backs of a hidden commit while others still choose (``retract_actions``).
UNPICK = "unpick"
REOPEN = "reopen"
UNPLAY_ID = {ch: f"unplay:{CODE[ch]}" for ch in ALPHABET}
UNPLAY_ARG = {v: k for k, v in UNPLAY_ID.items()}
# Every id a take-back can have: ``apply`` asks for a seat's take-backs only
# when the action is one of them.
RETRACTS = frozenset((UNPICK, REOPEN, *UNPLAY_ID.values()))


# A seat's key in an event's private part (``str(seat)`` once, not per event).
SEAT_KEY = tuple(str(i) for i in range(5))  # five players at most


def _ev(
    type_: str, public: dict[str, Any], private: dict[str, Any] | None = None
) -> Event:
    return {"type": type_, "public": public, "private": private or {}}
