"""Kung Fu (2009)'s fixed numbers and names: limits, timers, phases, action ids.

Also the per-combination tables the rules read (``HITS``, ``POINTS``,
``NEED``...), derived once from the card data of ``cards.py``.
"""

from __future__ import annotations

from gameplay.rules.kungfu2009.cards import (
    COMBINATIONS,
    HIT_COUNTS,
    LEVEL_ORDER,
    LEVELS,
    STYLES,
)

RULES_VERSION = "kungfu2009-2"
HAND = 5  # cards dealt, and the refill target after a completed combination
MAX_OFFERS = 3  # open offers per seat (keeps menus and states small)
MAX_SIDE = 5  # cards per side of one offer
DEFAULT_IMPASSE_LIMIT = 5
DEFAULT_MINUTES = 20  # a live table's time limit (the table's ``end`` timer)

# The live platform's timers (seconds; docs/rules/kungfu2009.md, "Timeouts and
# defaults"): see ``KungFu2009Game.timers``.
SHOW_CLAIM_S = 2.0  # a claim's cards are on the table this long before the check
ANSWER_S = 20.0  # an offer unanswered by a player: declined for that player
BUILD_S = 30.0  # an offer being built without a step: cancelled
FORFEIT_S = 15.0  # a severe-punishment choice: the least valuable is lost

PLAY = "play"
PAUSED = "paused"
OVER = "over"

PASS = "pass"
CHECK = "check"
END = "end"

FULL_DECK = "".join(s * HIT_COUNTS[s] for s in STYLES)
HITS = {code: c["hits"] for code, c in COMBINATIONS.items()}
POINTS = {code: c["points"] for code, c in COMBINATIONS.items()}
LEVEL_OF = {code: c["level"] for code, c in COMBINATIONS.items()}
SIZE = {level: LEVELS[level][1] for level in LEVEL_ORDER}
#: code -> ((style, count), ...): the cards a combination needs, per style.
NEED = {
    code: tuple((x, h.count(x)) for x in sorted(set(h))) for code, h in HITS.items()
}
_STYLE_SET = frozenset(STYLES)

CLAIM_ID = {lv: f"claim:{lv}" for lv in LEVEL_ORDER}
FIT_ID = {lv: f"fit:{lv}" for lv in LEVEL_ORDER}
GIVE_ID = {x: f"give:{x}" for x in STYLES}
#: ``give:<real>:<declared>``: a card handed over declared as another style
#: (innocent cheating) in the same single step as an honest ``give``, so the
#: number of steps never tells anyone that an offer cheats (reading 3).
GIVE_AS_ID = {x: [f"give:{x}:{y}" for y in STYLES if y != x] for x in STYLES}
WANT_ID = {x: f"want:{x}" for x in STYLES}
FORFEIT_ID = {code: f"forfeit:{code}" for code in COMBINATIONS}
_MOVES: list[list[str]] = []
_MOVE_ARG: dict[str, tuple[int, int]] = {}


def _move_ids(n: int) -> list[str]:
    """``move:i:j`` for a hand of ``n`` cards (card i moves to position j)."""
    while len(_MOVES) <= n:
        k = len(_MOVES)
        ids = []
        for i in range(k):
            for j in range(k):
                if i != j:
                    arg = f"{i}:{j}"
                    _MOVE_ARG[arg] = (i, j)
                    ids.append("move:" + arg)
        _MOVES.append(ids)
    return _MOVES[n]


_move_ids(12)


#: A seat's key in an event's private parts.
_SEAT_KEY = tuple(str(t) for t in range(9))
