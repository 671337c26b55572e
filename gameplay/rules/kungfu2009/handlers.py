"""Kung Fu (2009)'s intents: one handler for each kind of action a seat sends.

Building and answering offers, arranging a hand, claiming a combination, the
impasse vote. Each validates first (raising before any change), then changes
a clone of the state.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules.base import Event, State
from gameplay.rules.errors import IllegalAction
from gameplay.rules.kungfu2009 import constants as _constants
from gameplay.rules.kungfu2009.cards import STYLE_NAMES, STYLES, matches
from gameplay.rules.kungfu2009.constants import (
    _MOVES,
    _SEAT_KEY,
    _STYLE_SET,
    HITS,
    MAX_OFFERS,
    MAX_SIDE,
    PAUSED,
    SIZE,
    _move_ids,
)
from gameplay.rules.kungfu2009.hands import _holds, _remove, can_fit, fit_order
from gameplay.rules.kungfu2009.menus import _addressed, _my_offers, _target_ok
from gameplay.rules.kungfu2009.offers import (
    _close,
    _find_offer,
    _offer_id,
    _offer_public,
)
from gameplay.rules.kungfu2009.table import _ev, _maybe_impasse, _void_offers_of

# Assigned, not imported: CPython 3.11 compiles ``NAME.method(...)`` on a name
# the module imports as an attribute load and a call (a bound method made per
# call), and on any other name as a method call (none); ``_h_move``, most
# intents of a game, runs ``_MOVE_ARG.get``.
_MOVE_ARG = _constants._MOVE_ARG

# ---------------------------------------------------------------------------
# Intent handlers: validate (raising before any change), then change ``s``.
# Each takes the original state for validation and returns the new one.


def _clone(state: State) -> State:
    s = state.copy()
    s["hands"] = state["hands"][:]
    s["fresh"] = state["fresh"][:]
    s["out"] = state["out"][:]
    s["owe"] = state["owe"][:]
    s["won"] = state["won"][:]
    s["drafts"] = state["drafts"][:]
    s["votes"] = state["votes"][:]
    s["claims"] = state["claims"][:]
    s["closed"] = state["closed"].copy()
    return s


def _drafting(state: State, seat: int, d: dict[str, Any] | None) -> State:
    """``state`` with ``seat``'s offer being built replaced by ``d``: a copy of
    the dict and the drafts, the other lists shared (as ``_rearranged``).
    Building an offer (a fifth of a random game's intents) changes nothing
    else."""
    s = state.copy()
    drafts = s["drafts"] = state["drafts"][:]
    drafts[seat] = d
    return s


def _draft_events(seat: int, d: dict[str, Any] | None) -> list[Event]:
    """The private ``draft`` event: the seat's offer being built, a copy."""
    return [
        {
            "type": "draft",
            "public": {},
            "private": {_SEAT_KEY[seat]: {"draft": None if d is None else d.copy()}},
        }
    ]


def _rearranged(state: State, seat: int, hand: str) -> State:
    """``state`` with ``seat``'s hand rearranged: a copy of the dict and the
    hands, the other lists shared. Arranging is most of a game's intents and
    changes nothing else; every handler that edits a list clones first, so a
    shared list is never edited."""
    s = state.copy()
    hands = s["hands"] = state["hands"][:]
    hands[seat] = hand
    return s


def _need_draft(state: State, seat: int) -> dict[str, Any]:
    d: dict[str, Any] | None = state["drafts"][seat]
    if d is None:
        raise IllegalAction(
            "no_draft",
            "no offer is being built: start one with 'to:<seat>' or 'to:all'",
        )
    return d


def _h_to(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    if state["drafts"][seat] is not None:
        raise IllegalAction(
            "draft_open", "an offer is already being built: send or cancel it first"
        )
    if _my_offers(state, seat) >= MAX_OFFERS:
        raise IllegalAction(
            "too_many_offers",
            f"you have {MAX_OFFERS} open offers already: withdraw one first",
            max=MAX_OFFERS,
        )
    if arg == "all":
        to = -1
    else:
        to = _offer_id(arg)
        if to >= state["n"] or to == seat:
            raise IllegalAction(
                "not_a_partner", f"seat {to} is not another seat at this table"
            )
    if not _target_ok(state, seat, to):
        if to < 0:
            raise IllegalAction("nobody_in_play", "nobody else is in play")
        raise IllegalAction("partner_out", f"seat {to} is out of play", player=to)
    d = {"to": to, "give": "", "say": "", "want": "", "open": False}
    return _drafting(state, seat, d), _draft_events(seat, d)


def _h_give(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    """``give:<style>`` (declared as what it is) or ``give:<style>:<declared>``."""
    d = _need_draft(state, seat)
    real, sep, said = arg.partition(":")
    if sep and said == real and real in _STYLE_SET:
        raise IllegalAction(
            "declared_as_itself",
            f"give:{arg}: a card declared as what it is is 'give:{real}'",
            action=f"give:{real}",
        )
    for x in (real, said) if sep else (real,):
        if x not in _STYLE_SET:
            raise IllegalAction(
                "unknown_style",
                f"unknown style {x!r}; styles: {', '.join(STYLES)}",
                style=x[:20],
            )
    if len(d["give"]) >= MAX_SIDE:
        raise IllegalAction(
            "give_at_most", f"an offer gives at most {MAX_SIDE} cards", max=MAX_SIDE
        )
    if state["hands"][seat].count(real) <= d["give"].count(real):
        raise IllegalAction(
            "no_card_to_give",
            f"you hold no other {STYLE_NAMES[real]} card to give",
            style=STYLE_NAMES[real],
        )
    d = {**d, "give": d["give"] + real, "say": d["say"] + (said if sep else real)}
    return _drafting(state, seat, d), _draft_events(seat, d)


def _h_want(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    d = _need_draft(state, seat)
    if arg not in _STYLE_SET:
        raise IllegalAction(
            "unknown_style",
            f"unknown style {arg!r}; styles: {', '.join(STYLES)}",
            style=arg[:20],
        )
    if len(d["want"]) >= MAX_SIDE:
        raise IllegalAction(
            "want_at_most", f"an offer asks for at most {MAX_SIDE} cards", max=MAX_SIDE
        )
    d = {**d, "want": d["want"] + arg}
    return _drafting(state, seat, d), _draft_events(seat, d)


def _h_open(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    d = _need_draft(state, seat)
    if arg or d["open"]:
        raise IllegalAction(
            "already_open", "the offer is already played with open cards"
        )
    d = {**d, "open": True}
    return _drafting(state, seat, d), _draft_events(seat, d)


def _h_send(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    d = _need_draft(state, seat)
    if arg:
        raise IllegalAction(
            "malformed_action", f"malformed action 'send:{arg}'", action=f"send:{arg}"
        )
    if not (d["give"] or d["want"]):
        raise IllegalAction(
            "empty_offer", "an offer must give or ask for at least one card"
        )
    if not _holds(state["hands"][seat], d["give"]):
        raise IllegalAction(
            "cards_gone", "you no longer hold the cards of this offer: cancel it"
        )
    if not _target_ok(state, seat, d["to"]):
        raise IllegalAction(
            "partner_gone", "the offer's partner is out of play: cancel it"
        )
    if _my_offers(state, seat) >= MAX_OFFERS:
        raise IllegalAction(
            "too_many_offers",
            f"you have {MAX_OFFERS} open offers already",
            max=MAX_OFFERS,
        )
    s = _clone(state)
    oid = s["next_offer"]
    s["next_offer"] = oid + 1
    o = {
        "id": oid,
        "from": seat,
        "to": d["to"],
        "give": d["give"],
        "say": d["say"],
        "want": d["want"],
        "open": d["open"],
        "declined": [],
    }
    s["offers"] = s["offers"] + [o]
    s["drafts"][seat] = None
    pub = _offer_public(o, None)
    return s, [_ev("offer", pub, {str(seat): {"cards": o["give"]}})]


def _h_cancel(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    _need_draft(state, seat)
    if arg:
        raise IllegalAction(
            "malformed_action",
            f"malformed action 'cancel:{arg}'",
            action=f"cancel:{arg}",
        )
    return _drafting(state, seat, None), _draft_events(seat, None)


def _h_accept(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    o = _find_offer(state, arg)
    if not _addressed(o, seat):
        raise IllegalAction(
            "not_addressed",
            f"offer {o['id']} is not addressed to seat {seat}",
            offer=o["id"],
        )
    hands = state["hands"]
    if not _holds(hands[seat], o["want"]):
        raise IllegalAction(
            "cannot_pay",
            f"you do not hold the cards offer {o['id']} asks for ({o['want']})",
            offer=o["id"],
        )
    g = o["from"]
    if not _holds(hands[g], o["give"]):  # pragma: no cover - voided on change
        raise IllegalAction(
            "cannot_honour",
            f"seat {g} can no longer honour offer {o['id']}",
            offer=o["id"],
            player=g,
        )
    s = _clone(state)
    hands = s["hands"]
    hands[g] = _remove(hands[g], o["give"]) + o["want"]
    hands[seat] = _remove(hands[seat], o["want"]) + o["give"]
    s["offers"] = [x for x in s["offers"] if x is not o]
    _close(s, o["id"], "accepted", seat)
    cheated = o["give"] != o["say"]
    ev = [
        _ev(
            "trade",
            {
                "offer": o["id"],
                "from": g,
                "to": seat,
                "declared": o["say"],
                "want": o["want"],
                "open": o["open"],
            },
            {
                str(g): {"gave": o["give"], "received": o["want"]},
                str(seat): {
                    "received": o["give"],
                    "declared": o["say"],
                    "cheated": cheated,
                    "gave": o["want"],
                },
            },
        )
    ]
    _void_offers_of(s, ev, g, "traded")
    _void_offers_of(s, ev, seat, "traded")
    return s, ev


def _h_decline(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    o = _find_offer(state, arg)
    if not _addressed(o, seat):
        if seat in o["declined"]:
            raise IllegalAction(
                "declined_already",
                f"offer {o['id']} is not addressed to seat {seat} (declined already)",
                offer=o["id"],
            )
        raise IllegalAction(
            "not_addressed",
            f"offer {o['id']} is not addressed to seat {seat}",
            offer=o["id"],
        )
    s = _clone(state)
    ev = [_ev("offer_declined", {"offer": o["id"], "seat": seat})]
    declined = o["declined"] + [seat]
    if o["to"] == seat or len(declined) >= s["n"] - 1:
        # A direct offer declined, or an offer to all declined by everyone.
        s["offers"] = [x for x in s["offers"] if x is not o]
        _close(s, o["id"], "declined", seat)
        return s, ev
    new = {**o, "declined": declined}
    s["offers"] = [new if x is o else x for x in s["offers"]]
    return s, ev


def _h_withdraw(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    o = _find_offer(state, arg)
    if o["from"] != seat:
        raise IllegalAction(
            "not_yours",
            f"offer {o['id']} is seat {o['from']}'s, not yours",
            offer=o["id"],
            player=o["from"],
        )
    s = _clone(state)
    s["offers"] = [x for x in s["offers"] if x is not o]
    _close(s, o["id"], "withdrawn", seat)
    return s, [_ev("offer_withdrawn", {"offer": o["id"], "seat": seat})]


def _h_move(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    hand = state["hands"][seat]
    if len(hand) >= len(_MOVES):
        _move_ids(len(hand))
    ij = _MOVE_ARG.get(arg)
    if ij is None or ij[0] >= len(hand) or ij[1] >= len(hand):
        raise IllegalAction(
            "malformed_move",
            f"malformed move {arg!r}: 'move:<from>:<to>' with positions 0-"
            f"{len(hand) - 1} of your hand, different",
        )
    i, j = ij
    # Card i taken out and put back at position j of the rest, in one go.
    if i < j:
        hand = hand[:i] + hand[i + 1 : j + 1] + hand[i] + hand[j + 1 :]
    else:
        hand = hand[:j] + hand[i] + hand[j:i] + hand[i + 1 :]
    s = state.copy()  # _rearranged, written out: most intents are moves
    hands = s["hands"] = state["hands"][:]
    hands[seat] = hand
    return s, [
        {
            "type": "arrange",
            "public": {"seat": seat},
            "private": {_SEAT_KEY[seat]: {"hand": hand}},
        }
    ]


def _h_fit(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    code = state["up"].get(arg) if arg in SIZE else None
    if code is None:
        raise IllegalAction(
            "no_combination", f"no face-up {arg!r} combination to arrange for"
        )
    hand = state["hands"][seat]
    hits = HITS[code]
    if not can_fit(hand, hits):
        raise IllegalAction("cannot_make", f"your cards cannot make {code} ({hits})")
    if matches(hand[: len(hits)], hits):
        raise IllegalAction(
            "already_arranged", f"your hand is already arranged for {code}"
        )
    hand = fit_order(hand, hits)
    s = _rearranged(state, seat, hand)
    return s, [
        {
            "type": "arrange",
            "public": {"seat": seat},
            "private": {_SEAT_KEY[seat]: {"hand": hand}},
        }
    ]


def _h_claim(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    code = state["up"].get(arg) if arg in SIZE else None
    if code is None:
        raise IllegalAction(
            "no_combination", f"no face-up {arg!r} combination to claim"
        )
    claims = state["claims"]
    if claims and any(c["seat"] == seat for c in claims):
        raise IllegalAction(
            "claim_waiting", "your KUNG FU is already waiting to be checked"
        )
    # A copy of the dict, the hands and the claims (and the closed reasons
    # when offers are voided): the other lists are shared, as in
    # ``_rearranged``; a claim is a twelfth of a random game's intents.
    s = state.copy()
    hands = s["hands"] = state["hands"][:]
    hand = hands[seat]
    fresh = state["fresh"][seat]
    seen, unseen = hand[: len(hand) - fresh], hand[len(hand) - fresh :]
    k = SIZE[arg]
    cards = seen[:k]
    hands[seat] = seen[k:] + unseen
    queued = state["phase"] == PAUSED
    claims = s["claims"] = [
        *claims,
        {"seat": seat, "level": arg, "code": code, "cards": cards},
    ]
    s["phase"] = PAUSED
    ev = [
        {
            "type": "claim",
            "public": {
                "seat": seat,
                "level": arg,
                "code": code,
                "cards": cards,
                "queued": queued,
                "position": len(claims),
            },
            "private": {},
        }
    ]
    if s["offers"]:
        s["closed"] = state["closed"].copy()
        _void_offers_of(s, ev, seat, "claimed")
    return s, ev


def _h_impasse(state: State, seat: int, arg: str) -> tuple[State, list[Event]]:
    vote = arg == ""
    if arg not in ("", "no"):
        raise IllegalAction(
            "malformed_action",
            f"malformed action 'impasse:{arg}'",
            action=f"impasse:{arg}",
        )
    if state["votes"][seat] == vote:
        if vote:
            raise IllegalAction("already_voted", "you already vote for an impasse")
        raise IllegalAction("not_voted", "you have not voted")
    s = _clone(state)
    s["votes"][seat] = vote
    ev = [_ev("impasse_vote", {"seat": seat, "vote": vote})]
    if vote:
        _maybe_impasse(s, ev)
    return s, ev


_HANDLERS = {
    "to": _h_to,
    "give": _h_give,
    "want": _h_want,
    "open": _h_open,
    "send": _h_send,
    "cancel": _h_cancel,
    "accept": _h_accept,
    "decline": _h_decline,
    "withdraw": _h_withdraw,
    "move": _h_move,
    "fit": _h_fit,
    "claim": _h_claim,
    "impasse": _h_impasse,
}
