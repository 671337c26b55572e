"""What happens at a Kung Fu (2009) table: draws, refills, voided offers, claims
checked, the impasse, the end.

The state changes the intent handlers (:mod:`.handlers`) and the table's own
steps (``check``, ``end``) share.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import Event, State
from gameplay.rules.kungfu2009.cards import COMBINATIONS, LEVEL_ORDER
from gameplay.rules.kungfu2009.constants import (
    _SEAT_KEY,
    HAND,
    HITS,
    LEVEL_OF,
    OVER,
    PLAY,
    POINTS,
)
from gameplay.rules.kungfu2009.menus import _FIT_TESTS
from gameplay.rules.kungfu2009.offers import _close


def _ev(
    type_: str, public: dict[str, Any], private: dict[str, Any] | None = None
) -> Event:
    return {"type": type_, "public": public, "private": private or {}}


def _combo(code: str | None) -> dict[str, Any] | None:
    return None if code is None else dict(COMBINATIONS[code])


# ---------------------------------------------------------------------------
# State changes (``s`` is always a private clone).


def _draw(s: State, ev: list[Event], n: int) -> str:
    """Take ``n`` cards from the hit pile, reshuffling the discards when it runs
    out; fewer when both are empty."""
    got = ""
    while n > 0:
        deck = s["deck"]
        if not deck:
            if not s["disc"]:
                break
            s["rng"], deck = _rng.shuffled(s["rng"], s["disc"])
            s["disc"] = ""
            ev.append(_ev("reshuffle", {"cards": len(deck)}))
        k = min(n, len(deck))
        got += deck[len(deck) - k :][::-1]
        s["deck"] = deck[: len(deck) - k]
        n -= k
    return got


def _void_offers_of(s: State, ev: list[Event], seat: int, why: str) -> None:
    """Close every open offer of ``seat``: cards left its hand (a trade it made
    or accepted, a claim).

    All of them, not only those whose real cards are gone: which offers could
    still be honoured depends on their real cards, so closing only those would
    tell everyone that an offer's declared cards were not its real ones before
    anyone accepted it (reading 3, reading 5). The trade or claim is public, so
    closing them all tells nobody anything.
    """
    keep = []
    for o in s["offers"]:
        if o["from"] == seat:
            _void(s, ev, o["id"], why, seat)
        else:
            keep.append(o)
    if len(keep) != len(s["offers"]):
        s["offers"] = keep


def _void(s: State, ev: list[Event], oid: int, why: str, seat: int) -> None:
    """Close offer ``oid`` for ``why`` (``CLOSE_REASONS``), caused by ``seat``:
    the ``offer_void`` event carries the code and the seat (the boards word
    them) and the English reason."""
    reason = _close(s, oid, why, seat)
    ev.append(
        _ev("offer_void", {"offer": oid, "reason": reason, "why": why, "seat": seat})
    )


def _leave_play(s: State, ev: list[Event], seat: int) -> None:
    """A punished seat leaves play: its offers, offers to it and its vote go."""
    keep = []
    for o in s["offers"]:
        if o["from"] == seat or o["to"] == seat:
            _void(s, ev, o["id"], "out_of_play", seat)
        else:
            keep.append(o)
    s["offers"] = keep
    s["drafts"][seat] = None
    s["votes"][seat] = False


def _refill(s: State, ev: list[Event], first: int) -> None:
    """Every seat, ``first`` then the others in seat order, draws up to 5.

    Cards of a seat's claim waiting on the table count as its cards (reading:
    they were put down from the hand and may come back). The drawn cards stay
    unseen (``fresh``) until play resumes.
    """
    n = s["n"]
    pending = [0] * n
    for c in s["claims"]:
        pending[c["seat"]] += len(c["cards"])
    hands = s["hands"]
    for k in range(n):
        t = (first + k) % n
        need = HAND - len(hands[t]) - pending[t]
        if need > 0:
            got = _draw(s, ev, need)
            if got:
                hands[t] += got
                s["fresh"][t] += len(got)
                ev.append(_ev("draw", {"seat": t, "cards": len(got)}))


def _settle_forfeit(s: State, ev: list[Event], seat: int, code: str, why: str) -> None:
    won = s["won"][seat]
    s["won"][seat] = [c for c in won if c != code]
    s["box"] = s["box"] + [code]
    s["owe"][seat] = False
    ev.append(
        _ev(
            "forfeit",
            {"seat": seat, "combination": _combo(code), "reason": why},
        )
    )


def _return_to_play(s: State, ev: list[Event], seats: list[int]) -> None:
    for t in seats:
        if s["owe"][t]:
            # Reading: a choice still pending when play resumes takes the default.
            code = min(s["won"][t], key=lambda c: (POINTS[c], c))
            _settle_forfeit(s, ev, t, code, "default")
        if s["out"][t]:
            s["out"][t] = False
            ev.append(_ev("back_in_play", {"seat": t}))


def _finish(s: State, ev: list[Event], reason: str) -> None:
    # Reading 15: an owed discard is paid before scoring. A game that ends (the
    # impasse limit, the time, a completed pile) before the punished player
    # chooses takes the default, so the punishment is never skipped.
    for t in range(s["n"]):
        if s["owe"][t]:
            code = min(s["won"][t], key=lambda c: (POINTS[c], c))
            _settle_forfeit(s, ev, t, code, "default")
    # Cards of claims still waiting go back to their owners (card conservation).
    for c in s["claims"]:
        s["hands"][c["seat"]] = c["cards"] + s["hands"][c["seat"]]
    s["claims"] = []
    s["fresh"] = [0] * s["n"]
    s["phase"] = OVER
    s["result"] = _result(s, reason)
    r = s["result"]
    ev.append(
        _ev(
            "game_over",
            {
                "winners": r["winners"],
                "placements": r["placements"],
                "points": r["scores"]["points"],
                "reason": reason,
            },
        )
    )


def _result(s: State, reason: str) -> dict[str, Any]:
    n = s["n"]
    points, diff, norm = [], [], []
    for t in range(n):
        won = s["won"][t]
        points.append(sum(POINTS[c] for c in won))
        diff.append(sum(1 for c in won if LEVEL_OF[c] == "difficult"))
        norm.append(sum(1 for c in won if LEVEL_OF[c] == "normal"))
    key = [(points[t], diff[t], norm[t]) for t in range(n)]
    best = max(key)
    winners = [t for t in range(n) if key[t] == best]
    placements = [1 + sum(1 for u in range(n) if key[u] > key[t]) for t in range(n)]
    return {
        "winners": winners,
        "placements": placements,
        "scores": {
            "points": points,
            "difficult": diff,
            "normal": norm,
            "easy": [len(s["won"][t]) - diff[t] - norm[t] for t in range(n)],
        },
        "reason": reason,
    }


def _resume(s: State, ev: list[Event]) -> None:
    """Play resumes: each seat now sees the cards it drew during the pause."""
    s["phase"] = PLAY
    private = {}
    fresh = s["fresh"]
    if any(fresh):
        hands = s["hands"]
        for t, k in enumerate(fresh):
            if k:
                private[_SEAT_KEY[t]] = {"cards": hands[t][len(hands[t]) - k :]}
    s["fresh"] = [0] * s["n"]
    ev.append({"type": "resume", "public": {}, "private": private})


def _impasse(s: State, ev: list[Event]) -> None:
    """Face-up combinations to the bottoms of their piles, three new ones."""
    piles = dict(s["piles"])
    up = dict(s["up"])
    for lv in LEVEL_ORDER:
        if up[lv] is not None:
            pile = [up[lv]] + piles[lv]
            up[lv] = pile[-1]
            piles[lv] = pile[:-1]
    s["piles"], s["up"] = piles, up
    s["votes"] = [False] * s["n"]
    s["impasses"] += 1
    ev.append(
        _ev(
            "impasse",
            {
                "count": s["impasses"],
                "face_up": {lv: _combo(up[lv]) for lv in LEVEL_ORDER},
            },
        )
    )
    if s["impasses"] >= s["cfg"]["impasse_limit"]:
        # Our rule: the masters end an exam that is stuck (docs/rules/kungfu2009.md).
        _finish(s, ev, "impasse_limit")


def _maybe_impasse(s: State, ev: list[Event]) -> None:
    """An impasse when every seat in play (one at least) votes for it."""
    live = False
    votes = s["votes"]
    for t, out in enumerate(s["out"]):
        if not out:
            if not votes[t]:
                return
            live = True
    if live:
        _impasse(s, ev)


def _check(s: State, ev: list[Event]) -> None:
    """The table checks the claim at the head of the queue."""
    claims = s["claims"]
    c = claims.pop(0)
    seat, lv, code, cards = c["seat"], c["level"], c["code"], c["cards"]
    n = s["n"]
    if s["up"][lv] != code:
        # Reading: a claim on a combination taken meanwhile is void, not wrong.
        s["hands"][seat] = cards + s["hands"][seat]
        ev.append(
            _ev(
                "claim_void",
                {"seat": seat, "level": lv, "code": code, "reason": "taken"},
            )
        )
    elif len(cards) == len(HITS[code]) and _FIT_TESTS[code][1](cards) is not None:
        # ``matches(cards, HITS[code])``, the pattern in one C call.
        s["disc"] += cards
        s["won"][seat] = s["won"][seat] + [code]
        ev.append(
            _ev(
                "claim_correct",
                {
                    "seat": seat,
                    "combination": _combo(code),
                    "cards": cards,
                    "points": POINTS[code],
                },
            )
        )
        # Every other punished player is back in play (a combination was completed).
        _return_to_play(s, ev, [t for t in range(n) if t != seat])
        s["votes"] = [False] * n
        s["impasses"] = 0
        _refill(s, ev, seat)
        pile = s["piles"][lv]
        if pile:
            new = pile[-1]
            s["piles"] = {**s["piles"], lv: pile[:-1]}
        else:
            new = None
        s["up"] = {**s["up"], lv: new}
        ev.append(_ev("reveal", {"level": lv, "combination": _combo(new)}))
        if new is None:
            _finish(s, ev, "pile_completed")
            return
    else:
        hand = s["hands"][seat]
        lost = cards + hand
        s["disc"] += lost
        s["hands"][seat] = ""
        s["fresh"][seat] = 0
        s["out"][seat] = True
        _leave_play(s, ev, seat)
        owe = s["cfg"]["severe"] and bool(s["won"][seat])
        s["owe"][seat] = owe
        ev.append(
            _ev(
                "claim_wrong",
                {
                    "seat": seat,
                    "combination": _combo(code),
                    "cards": cards,
                    "discarded": lost,
                    "severe": owe,
                },
            )
        )
        if all(s["out"]):
            # Our rule: nobody is left to complete a combination, so everyone is
            # back in play with a fresh hand of 5.
            ev.append(_ev("all_out", {}))
            _return_to_play(s, ev, list(range(n)))
            _refill(s, ev, seat)
        else:
            _maybe_impasse(s, ev)
            if s["phase"] == OVER:
                return
    if not claims:
        _resume(s, ev)
