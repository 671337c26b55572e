"""Kung Fu (2009)'s trade offers: how one is shown, found, and why it closed.

Offers are small dicts replaced, never edited, when they change; a closed
offer's reason is kept (the latest ``CLOSED_KEPT``) so that a late answer to it
is refused with the reason.
"""

from __future__ import annotations

import re
from typing import Any

from gameplay.rules.base import State
from gameplay.rules.errors import IllegalAction


def _offer_public(o: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """An offer as ``viewer`` sees it: the real cards only to its giver, or to
    everyone when it is played with open cards."""
    shown = o["open"] or viewer == o["from"]
    return {
        "id": o["id"],
        "from": o["from"],
        "to": None if o["to"] < 0 else o["to"],
        "declared": o["say"],
        "want": o["want"],
        "open": o["open"],
        "declined": list(o["declined"]),
        "cards": o["give"] if shown else None,
    }


def _offer_id(arg: str) -> int:
    if not arg.isdigit() or not arg.isascii() or (len(arg) > 1 and arg[0] == "0"):
        raise IllegalAction(
            "malformed_offer", f"malformed offer number {arg!r}", offer=arg[:20]
        )
    return int(arg)


def _find_offer(s: State, arg: str) -> dict[str, Any]:
    n = _offer_id(arg)
    o: dict[str, Any]
    for o in s["offers"]:
        if o["id"] == n:
            return o
    if n >= s["next_offer"]:
        raise IllegalAction("offer_never_made", f"offer {n} was never made", offer=n)
    closed = s["closed"].get(arg)
    raise _not_open(n, closed)


CLOSED_KEPT = 16  # reasons kept for the latest closed offers (error messages)

# Why an offer closed: its code (in ``offer_void`` events as ``why``, in the
# refusal of a closed offer as ``offer_<why>``) and the English reason kept in
# the state's ``closed`` map and the events' ``reason`` (bots read it).
CLOSE_REASONS = {
    "accepted": "accepted by seat {seat}",
    "declined": "declined by seat {seat}",
    "withdrawn": "withdrawn by seat {seat}",
    "traded": "seat {seat} traded the cards away",
    "claimed": "seat {seat} put the cards down for a claim",
    "out_of_play": "its player is out of play",
}
_CLOSE_PATTERNS = [
    (why, re.compile(re.escape(text).replace(re.escape("{seat}"), r"(\d+)") + "$"))
    for why, text in CLOSE_REASONS.items()
]


def _closed_why(reason: str) -> tuple[str, int | None]:
    """The code of a kept reason, and the seat it names (None if none)."""
    for why, pattern in _CLOSE_PATTERNS:
        m = pattern.match(reason)
        if m:
            return why, int(m.group(1)) if m.groups() else None
    return "closed", None  # pragma: no cover - every kept reason has a code


def _not_open(n: int, closed: str | None) -> IllegalAction:
    """The refusal of closed offer ``n``, its code saying why it closed."""
    why, by = _closed_why(closed) if closed else ("closed", None)
    text = f"offer {n} is not open ({closed or 'closed earlier'})"
    if why == "accepted":
        return IllegalAction("offer_accepted", text, offer=n, player=by)
    if why == "declined":
        return IllegalAction("offer_declined", text, offer=n, player=by)
    if why == "withdrawn":
        return IllegalAction("offer_withdrawn", text, offer=n, player=by)
    if why == "traded":
        return IllegalAction("offer_traded", text, offer=n, player=by)
    if why == "claimed":
        return IllegalAction("offer_claimed", text, offer=n, player=by)
    if why == "out_of_play":
        return IllegalAction("offer_out_of_play", text, offer=n)
    return IllegalAction("offer_closed", text, offer=n)


def _close(s: State, oid: int, why: str, seat: int) -> str:
    """Keep why offer ``oid`` closed (for a later refusal); returns the reason."""
    reason = CLOSE_REASONS[why].format(seat=seat)
    closed = s["closed"]  # a private copy (clone)
    closed[str(oid)] = reason
    if len(closed) > CLOSED_KEPT:
        del closed[next(iter(closed))]
    return reason
