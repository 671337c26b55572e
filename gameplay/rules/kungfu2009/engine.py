"""Kung Fu (Kuznia Gier, 2009): the real-time trading game as a state machine.

There are no turns. Every seat in play may act at any moment; the server (or, in
bot matches, the virtual clock of :mod:`gameplay.rules.ticks`) stamps each intent
and applies the intents one at a time in stamp order. The engine never reads a
clock: rules that speak of time become explicit intents (an impasse vote) or table
steps (checking a claim, the end of the match's time).

Representation, chosen for speed and a lossless JSON round trip:

* A hit card is one letter of ``STYLES`` (cards of one style are identical, so
  they carry no ids). A hand is a string read left to right: its arrangement.
* The hit pile is a string whose top card is the last character; the discard
  pile (face up) a string.
* Combination cards are codes (``E01``, ``N07``, ``D03``); each pile is a list of
  codes, top last, with its face-up card in ``up``.
* Offers are small dicts replaced, never edited, when they change; every list the
  engine edits in place is copied by :meth:`KungFu2009Game.clone` (which every
  handler that edits one runs first). Arranging a hand, building an offer and a
  claim copy only the lists they change and share the others with the state
  before, so no list is edited once a state holding it has been returned.

The pause: a "KUNG FU" claim puts the claimed cards on the table and the game in
phase ``paused``. Nobody may act then (``actors`` is empty); trades, arrangements
and votes are refused with the reason, and a claim that arrives during the pause
(shouted at the same moment) queues behind the one being checked. The table (seat
``None``) takes the one step that moves a pause on: ``check`` resolves the claim at
the head of the queue. The server applies it once people have seen the cards, the
tick driver at the next tick. Refilled cards stay unseen by their owners until play
resumes.

Every reading of an ambiguous rule is listed, with the rulebook words it reads,
in ``docs/rules/kungfu2009.md``; comments here name the reading briefly.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import Action, EngineBase, Event, State
from gameplay.rules.errors import (
    GameError,
    IllegalAction,
    InvalidConfig,
    int_option,
    param_value,
)
from gameplay.rules.kungfu2009.cards import (
    COMBINATIONS,
    HIT_COUNTS,
    LEVEL_ORDER,
    LEVELS,
    PILE_CODES,
    STYLE_NAMES,
    STYLES,
    WILD,
    matches,
    removal,
)
from gameplay.rules.views import Pile, PileViews

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
_OPTIONS = ("players", "remove", "severe", "impasse_limit", "minutes", "deck")


def _validate(config: Any) -> dict[str, Any]:
    if not isinstance(config, dict):
        raise InvalidConfig(
            "config_not_object", f"config must be a dict, got {type(config).__name__}"
        )
    unknown = sorted(set(config) - set(_OPTIONS))
    if unknown:
        raise InvalidConfig(
            "unknown_options",
            f"unknown option(s) {', '.join(map(str, unknown))}; "
            f"allowed: {', '.join(_OPTIONS)}",
            options=", ".join(map(str, unknown)),
            allowed=", ".join(_OPTIONS),
        )
    players = config.get("players", 4)
    if type(players) is not int or not 3 <= players <= 8:
        raise InvalidConfig(
            "players_range",
            f"players must be from 3 to 8 (4-8, 3 as our variant), got {players!r}",
            min=3,
            max=8,
            players=param_value(players),
        )
    # Our 3-player variant plays with two 2-2-1 removals (docs/rules/kungfu2009.md).
    remove = int_option(
        config,
        "remove",
        2 if players == 3 else 0,
        low=0,
        high=7,
        detail="remove must be from 0 to 7 units of the 2-2-1 removal",
    )
    severe = config.get("severe", False)
    if type(severe) is not bool:
        raise InvalidConfig(
            "option_bool",
            f"severe must be true or false, got {severe!r}",
            option="severe",
            value=param_value(severe),
        )
    limit = int_option(
        config,
        "impasse_limit",
        DEFAULT_IMPASSE_LIMIT,
        low=1,
        high=50,
        detail="impasse_limit must be from 1 to 50",
    )
    minutes = int_option(
        config,
        "minutes",
        DEFAULT_MINUTES,
        low=1,
        high=240,
        detail="minutes (the table's time limit) must be from 1 to 240",
    )
    deck = config.get("deck")
    if deck is not None and (
        not isinstance(deck, str) or sorted(deck) != sorted(FULL_DECK)
    ):
        raise InvalidConfig(
            "bad_deck",
            "deck must be a string of all 68 hit cards (16 each of T, M, C, R "
            "and 4 D), top card first",
            option="deck",
        )
    return {
        "players": players,
        "remove": remove,
        "severe": severe,
        "impasse_limit": limit,
        "minutes": minutes,
        "deck": deck,
    }


# ---------------------------------------------------------------------------
# Small pure helpers.


def _holds(hand: str, cards: str) -> bool:
    """Does ``hand`` contain every card of ``cards`` (as a multiset)?"""
    if len(cards) <= 1:
        return not cards or cards in hand
    return all(hand.count(c) >= cards.count(c) for c in set(cards))


def _remove(hand: str, cards: str) -> str:
    """``hand`` without ``cards``, taking the rightmost copies (the arranged
    left part of a hand survives a trade)."""
    for c in cards:
        k = hand.rindex(c)
        hand = hand[:k] + hand[k + 1 :]
    return hand


def can_fit(hand: str, hits: str) -> bool:
    """Can the cards of ``hand`` realize ``hits`` (Dragons filling any gap)?"""
    missing = 0
    for c in set(hits):
        short = hits.count(c) - hand.count(c)
        if short > 0:
            missing += short
    return missing <= hand.count(WILD)


def fit_order(hand: str, hits: str) -> str:
    """``hand`` rearranged so that its first cards spell ``hits`` (Dragons last
    resort), the rest kept in order. ``can_fit`` must hold."""
    rest = hand
    head = []
    for h in hits:
        k = rest.index(h) if h in rest else rest.index(WILD)
        head.append(rest[k])
        rest = rest[:k] + rest[k + 1 :]
    return "".join(head) + rest


def distance(hand: str, hits: str) -> int:
    """Cards missing from ``hand`` to realize ``hits`` (Dragons fill gaps)."""
    missing = 0
    for c in set(hits):
        short = hits.count(c) - hand.count(c)
        if short > 0:
            missing += short
    return max(0, missing - hand.count(WILD))


def _ev(
    type_: str, public: dict[str, Any], private: dict[str, Any] | None = None
) -> Event:
    return {"type": type_, "public": public, "private": private or {}}


def _combo(code: str | None) -> dict[str, Any] | None:
    return None if code is None else dict(COMBINATIONS[code])


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
_not = operator.not_
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


# ---------------------------------------------------------------------------
# Menus. The first entry of every menu is the documented timeout default.


def _addressed(o: dict[str, Any], seat: int) -> bool:
    return o["from"] != seat and (
        o["to"] == seat or (o["to"] < 0 and seat not in o["declined"])
    )


def _target_ok(s: State, seat: int, to: int) -> bool:
    out = s["out"]
    if to < 0:
        return any(not out[t] for t in range(s["n"]) if t != seat)
    return to != seat and 0 <= to < s["n"] and not out[to]


def _my_offers(s: State, seat: int) -> int:
    return sum(1 for o in s["offers"] if o["from"] == seat)


def _legal_ids(s: State, seat: int | None) -> list[str]:
    """The seat's menu; seat None is the table (``check`` while paused,
    ``end`` when the match's time is up)."""
    if seat is None:
        ph = s["phase"]
        return [CHECK] if ph == PAUSED else [END] if ph == PLAY else []
    if type(seat) is not int or not 0 <= seat < s["n"]:
        return []
    if s["phase"] != PLAY:
        return []
    if s["owe"][seat]:
        won = sorted(s["won"][seat], key=lambda c: (POINTS[c], c))
        return [FORFEIT_ID[c] for c in won]
    out = s["out"]
    if out[seat]:
        return []
    hand = s["hands"][seat]
    up = s["up"]
    easy, normal, difficult = up["easy"], up["normal"], up["difficult"]
    # ``pass``, a claim of every face-up combination (all three while the
    # game is on: a pile that runs out ends it), then ``fit`` of each one
    # the hand could make but has not arranged.
    if easy is not None and normal is not None and difficult is not None:
        ids = [PASS, *_CLAIM_ALL]
    else:
        ids = [PASS]
        ids += [CLAIM_ID[lv] for lv in LEVEL_ORDER if up[lv] is not None]
    fits = _FITS[hand]
    if fits:
        if easy in fits:
            ids.append(_FIT_EASY)
        if normal in fits:
            ids.append(_FIT_NORMAL)
        if difficult in fits:
            ids.append(_FIT_DIFFICULT)
    offers = s["offers"]
    mine = 0
    if offers:
        hands = s["hands"]
        for o in offers:
            if o["from"] == seat:
                mine += 1
                ids.append(f"withdraw:{o['id']}")
            elif _addressed(o, seat):
                if _holds(hand, o["want"]) and _holds(hands[o["from"]], o["give"]):
                    ids.append(f"accept:{o['id']}")
                ids.append(f"decline:{o['id']}")
    d = s["drafts"][seat]
    if d is None:
        if mine < MAX_OFFERS:
            if True in out:
                ids += _TARGETS[s["n"], seat, *out]
            else:
                ids += _ALL_TARGETS[s["n"]][seat]
    else:
        give = d["give"]
        give_ids, holds = _GIVE_IDS[hand, give]
        if len(give) < MAX_SIDE:
            ids += give_ids
        if len(d["want"]) < MAX_SIDE:
            ids += _WANT_IDS
        if not d["open"]:
            ids.append("open")
        # "send" needs something given or asked, the given cards in hand,
        # a target in play and fewer than MAX_OFFERS of this seat's offers
        # open (counted above); this seat is in play, so an offer to all has
        # a partner when another seat is.
        if (give or d["want"]) and holds and mine < MAX_OFFERS:
            to = d["to"]
            if (
                out.count(False) > 1
                if to < 0
                else to != seat and to < s["n"] and not out[to]
            ):
                ids.append("send")
        ids.append("cancel")
    k = len(hand)
    ids += _MOVES[k] if k < len(_MOVES) else _move_ids(k)
    ids.append("impasse:no" if s["votes"][seat] else "impasse")
    return ids


_CLAIM_ALL = tuple(CLAIM_ID[lv] for lv in LEVEL_ORDER)
_FIT_EASY, _FIT_NORMAL, _FIT_DIFFICULT = (FIT_ID[lv] for lv in LEVEL_ORDER)


def _fittable(cards: str) -> tuple[tuple[str, Any], ...]:
    """The combinations a hand of these cards (sorted: a multiset) could
    make, Dragons filling the gaps, each with its test of whether a hand
    starts with it arranged; per multiset (a few hundred in all)."""
    wild = cards.count(WILD)
    out = []
    for code, (need, arranged) in _FIT_TESTS.items():
        missing = 0
        for x, k in need:
            have = cards.count(x)
            if have < k:
                missing += k - have
        if missing <= wild:
            out.append((code, arranged))
    return tuple(out)


def _fits(hand: str) -> frozenset[str]:
    """The combinations whose ``fit`` a seat holding ``hand`` is offered:
    those its cards could make but that it does not start with arranged.
    Per hand: a menu needs this at every step and a hand (an arrangement
    of five cards, mostly) recurs across steps and games far more often
    than it together with the three face-up codes does (random play: 2,600
    hands in 60 games, 31,000 pairs of hand and code)."""
    return frozenset(
        code
        for code, arranged in _FITTABLE["".join(sorted(hand))]
        if arranged(hand) is None
    )


# Per combination: the cards it needs per style, and a test of whether a hand
# starts with it arranged (``matches(hand[:len(hits)], hits)`` in one C call:
# each hit's style or a Dragon).
_FIT_TESTS = {
    code: (
        NEED[code],
        re.compile("".join(f"[{re.escape(h)}{re.escape(WILD)}]" for h in hits)).match,
    )
    for code, hits in HITS.items()
}


def _targets(key: tuple[int, ...]) -> tuple[str, ...]:
    """``to:<seat>`` for every other seat in play, then ``to:all`` (none when
    nobody is); per (players, seat, every seat's out flag)."""
    n, seat = key[0], key[1]
    out = key[2:]
    targets = [f"to:{t}" for t in range(n) if t != seat and not out[t]]
    if targets:
        targets.append("to:all")
    return tuple(targets)


#: ``_targets`` with nobody out, per players and seat.
_ALL_TARGETS = [
    [_targets((n, seat, *[False] * n)) for seat in range(n)] for n in range(9)
]


def _give_ids(key: tuple[str, str]) -> tuple[tuple[str, ...], bool]:
    """``give:<style>`` (and its declared-as variants) for every style the
    hand holds more of than the offer gives already, and whether the hand
    holds every card the offer gives; per (hand, given)."""
    hand, give = key
    ids: list[str] = []
    for x in STYLES:
        if hand.count(x) > give.count(x):
            ids.append(GIVE_ID[x])
            ids += GIVE_AS_ID[x]
    return tuple(ids), _holds(hand, give)


# Parts of a seat's menu that depend on a few facts only, built once per
# distinct facts (gameplay.rules.views); ``_ids`` joins them.
_FITTABLE: PileViews[str, tuple[tuple[str, Any], ...]] = PileViews(_fittable)
_FITS: PileViews[str, frozenset[str]] = PileViews(_fits)
_TARGETS: PileViews[tuple[int, ...], Pile] = PileViews(_targets)
_GIVE_IDS: PileViews[tuple[str, str], tuple[Pile, bool]] = PileViews(_give_ids)
_WANT_IDS = tuple(WANT_ID[x] for x in STYLES)


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


# ---------------------------------------------------------------------------


# Heads whose menu entry depends on the id alone (no card, offer or claim
# named by the state): built once each, copied per menu. Every live step
# sends each seat its menu, about thirty entries a seat at a table of eight.
_STATIC_HEADS = frozenset(
    {"pass", "to", "give", "want", "open", "send", "cancel", "move"}
    | {"impasse", "forfeit", CHECK, END}
)
_STATIC_LABELS: dict[str, Action] = {}


def _menu_entry(s: State, seat: int | None, aid: str) -> Action:
    """``_label``, with the entries that depend on the id alone kept."""
    cached = _STATIC_LABELS.get(aid)
    if cached is not None:
        return dict(cached)
    a = _label(s, seat, aid)
    if aid.partition(":")[0] in _STATIC_HEADS and len(_STATIC_LABELS) < 4096:
        _STATIC_LABELS[aid] = dict(a)
    return a


def _style_list(styles: str) -> str:
    """Cards of an offer by their styles' names ("Tiger, Dragon"), or "nothing"."""
    return ", ".join(STYLE_NAMES[c] for c in styles) or "nothing"


def _label(s: State, seat: int | None, aid: str) -> Action:
    head, _, arg = aid.partition(":")
    a: Action = {"id": aid, "type": head}
    if aid == PASS:
        a["label"] = "Do nothing for now"
    elif aid == CHECK:
        a["label"] = "Check the claim being shown"
    elif aid == END:
        a["label"] = "End the match (time is up)"
    elif head in ("claim", "fit"):
        code = s["up"][arg]
        a.update(level=arg, code=code)
        verb = "Shout KUNG FU for" if head == "claim" else "Arrange your hand for"
        a["label"] = f"{verb} {arg} {code} ({COMBINATIONS[code]['label']})"
    elif head in ("accept", "decline", "withdraw"):
        o = next(x for x in s["offers"] if str(x["id"]) == arg)
        a.update(offer=o["id"], gives=o["say"], asks=o["want"], **{"from": o["from"]})
        a["label"] = (
            f"{head.capitalize()} offer {o['id']} from seat {o['from']}: gives "
            f"{_style_list(o['say'])}, asks {_style_list(o['want'])}"
        )
    elif head == "to":
        a["seat"] = None if arg == "all" else int(arg)
        a["label"] = (
            "Start an offer to everyone"
            if arg == "all"
            else f"Start an offer to seat {arg}"
        )
    elif head == "give" and ":" in arg:
        real, said = arg.split(":")
        a.update(style=real, declared=said)
        a["label"] = (
            f"Offer a {STYLE_NAMES[real]} card declared as a {STYLE_NAMES[said]} "
            "(innocent cheating)"
        )
    elif head in ("give", "want"):
        a["style"] = arg
        a["label"] = (
            f"Offer a {STYLE_NAMES[arg]} card"
            if head == "give"
            else f"Ask for a {STYLE_NAMES[arg]} card"
        )
    elif head == "open":
        a["label"] = "Play this offer with open cards"
    elif head == "send":
        a["label"] = "Make the offer"
    elif head == "cancel":
        a["label"] = "Drop the offer being built"
    elif head == "move":
        i, j = _MOVE_ARG[arg]
        a.update(**{"from": i, "to": j})
        a["label"] = f"Move card {i + 1} to position {j + 1}"
    elif head == "impasse":
        a["vote"] = arg == ""
        a["label"] = (
            "Vote for an impasse" if arg == "" else "Take back your impasse vote"
        )
    elif head == "forfeit":
        a["code"] = arg
        points = f"{POINTS[arg]} point{'' if POINTS[arg] == 1 else 's'}"
        a["label"] = f"Give up completed combination {arg} ({points})"
    else:  # pragma: no cover
        a["label"] = aid
    return a


class KungFu2009Game(EngineBase):
    """Kung Fu (Kuznia Gier, 2009): 4-8 players (3 as our variant), real time.

    Timeout default (each menu's first entry): "pass" (do nothing), or for a
    severe punishment the completed combination worth least.
    """

    id = "kungfu2009"
    name = "Kung Fu (Kuznia Gier, 2009)"
    min_players = 3
    max_players = 8
    rules_version = RULES_VERSION
    #: Real time: every seat in ``actors`` may act at once, "pass" heads every
    #: menu, and the table (seat None) checks claims. Drivers read this flag.
    realtime = True
    #: Events whose public part the other seats' tables leave out (another
    #: seat rearranging its hand or building an offer): a live table sends
    #: no frame to a seat for whom a step made only these (docs/engine.md).
    quiet_events = frozenset({"arrange", "draft"})

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Normalized config (every option present) or InvalidConfig."""
        return _validate(config)

    def setup(self, config: dict[str, Any], seed: int) -> State:
        """Shuffle the piles, remove 2-2-1 units, deal 5 each, reveal three."""
        cfg = self._setup_config(config, seed)
        n = cfg["players"]
        r = _rng.seed_state(seed)
        if cfg["deck"] is not None:
            deck = cfg["deck"][::-1]
        else:
            r, deck = _rng.shuffled(r, FULL_DECK)
        piles: dict[str, list[str]] = {}
        box: list[str] = []
        up: dict[str, str | None] = {}
        cut = removal(cfg["remove"])
        for lv in LEVEL_ORDER:
            codes = PILE_CODES[lv]
            # Shuffle the pile's indices (at most 24, one character each).
            r, order = _rng.shuffled(r, "".join(chr(65 + i) for i in range(len(codes))))
            pile = [codes[ord(ch) - 65] for ch in order]
            k = cut[lv]
            box += pile[len(pile) - k :] if k else []
            pile = pile[: len(pile) - k]
            up[lv] = pile[-1]
            piles[lv] = pile[:-1]
        hands = [""] * n
        for _ in range(HAND):
            for t in range(n):
                hands[t] += deck[-1]
                deck = deck[:-1]
        return {
            "game": self.id,
            "rules_version": RULES_VERSION,
            "cfg": cfg,
            "rng": r,
            "n": n,
            "hands": hands,
            "fresh": [0] * n,
            "out": [False] * n,
            "owe": [False] * n,
            "won": [[] for _ in range(n)],
            "deck": deck,
            "disc": "",
            "piles": piles,
            "up": up,
            "box": sorted(box),
            "offers": [],
            "closed": {},
            "drafts": [None] * n,
            "next_offer": 1,
            "votes": [False] * n,
            "impasses": 0,
            "claims": [],
            "phase": PLAY,
            "result": None,
        }

    # -- queries -----------------------------------------------------------

    def actors(self, state: State) -> list[int]:
        """Every seat that may act now: all seats in play, plus a punished seat
        choosing the combination it loses; nobody while a claim is checked."""
        if state["phase"] != PLAY:
            return []
        # Nobody out is most steps of play; else the answer per out and owe
        # flags (``actors`` runs at every step, and its answer is in every
        # observation).
        out = state["out"]
        if True not in out:
            return [*_SEATS[state["n"]]]
        return [*_SEAT_FACTS[(*out, *state["owe"])][0]]

    # The seat's menu (``_legal_ids``): the function itself, not a method
    # that calls it, since every decision asks for a menu.
    legal_action_ids = staticmethod(_legal_ids)

    def legal_actions(self, state: State, seat: int | None) -> list[Action]:
        return [_menu_entry(state, seat, a) for a in self.legal_action_ids(state, seat)]

    def menu_key(self, state: State, seat: int) -> tuple[Any, ...]:
        """What ``legal_actions(state, seat)`` gives, named cheaply: two
        states with one key give the seat the same menu (ids and labels), so
        a live table rebuilds only the menus whose key changed
        (``gameplay.frames.seat_menu``). Server-side only; never sent.

        The seat's menu ids, and the face-up codes when the menu claims or
        fits (their labels name the combinations). The ids alone name every
        other label: an offer's number is never reused (``next_offer``) and
        what its label shows (from, gives, asks) is fixed when it is made.
        Not a copy of what the ids read (every offer, the offerers' whole
        hands): another seat's move or offer then changed every seat's key,
        and a key changed for about one seat in five per step where a menu
        changed for one in twenty (seeded random play, 8 seats); the ids
        cost less than half of that copy.
        ``tests/rules/test_kungfu2009_menu_key.py`` checks one key, one menu.
        """
        if type(seat) is not int or not 0 <= seat < state["n"]:
            return ()
        ids = _legal_ids(state, seat)
        if not ids or ids[0] != PASS:  # no claim or fit: no face-up label
            return tuple(ids)
        up = state["up"]
        return (up["easy"], up["normal"], up["difficult"], *ids)

    # -- transitions ---------------------------------------------------------

    def apply(
        self, state: State, seat: int | None, action_id: str
    ) -> tuple[State, list[Event]]:
        """Apply one intent; never mutates ``state``.

        Validation happens before any copy is made, so a refused intent costs
        nothing and leaves the caller's state exactly as it was.
        """
        if (
            type(state) is not dict
            or "rules_version" not in state
            or state["rules_version"] != RULES_VERSION
        ):
            self._check(state)
        if type(action_id) is not str:
            raise IllegalAction(
                "malformed_action",
                f"malformed intent {action_id!r}: an intent is its string id, "
                "e.g. 'to:2' or 'claim:easy'",
                action=str(action_id)[:80],
            )
        phase = state["phase"]
        if phase == OVER:
            raise IllegalAction(
                "game_over", "the game is over; no more intents are accepted"
            )
        if seat is None:
            return self._table(state, action_id)
        if type(seat) is not int or not 0 <= seat < state["n"]:
            raise IllegalAction(
                "no_such_seat", f"seat {seat!r} is not a seat at this table"
            )
        head, sep, arg = action_id.partition(":")
        if sep and not arg:
            raise IllegalAction(
                "malformed_action",
                f"malformed intent {action_id!r}",
                action=action_id[:80],
            )
        if phase == PAUSED and head != "claim":
            who = state["claims"][0]["seat"]
            raise IllegalAction(
                "paused",
                f"the game is paused while seat {who}'s KUNG FU is checked: "
                "no trading, arranging or voting until it resumes",
                player=who,
            )
        if state["owe"][seat]:
            if head != "forfeit":
                raise IllegalAction(
                    "choose_forfeit",
                    "you are out of play: choose the completed combination you "
                    "lose (severe punishment)",
                )
            if arg not in state["won"][seat]:
                raise IllegalAction(
                    "no_completed", f"you have no completed combination {arg!r}"
                )
            s = _clone(state)
            ev: list[Event] = []
            _settle_forfeit(s, ev, seat, arg, "chosen")
            return s, ev
        if state["out"][seat]:
            raise IllegalAction(
                "out_of_play",
                f"seat {seat} is out of play (punished) until another player "
                "completes a combination",
            )
        if action_id == PASS:
            return state, []
        handler = _HANDLERS.get(head)
        if handler is None or (not arg and head not in _NO_ARG):
            raise IllegalAction(
                "malformed_action",
                f"unknown intent {action_id!r}; intents: pass, to:<seat>|all, "
                "give:<style>[:<declared>], want:<style>, open, send, cancel, "
                "accept:<offer>, decline:<offer>, withdraw:<offer>, "
                "move:<from>:<to>, fit:<level>, claim:<level>, impasse, impasse:no",
                action=action_id[:80],
            )
        return handler(state, seat, arg)

    def _table(self, state: State, action_id: str) -> tuple[State, list[Event]]:
        """The table's own steps (the sequencer's, never a player's)."""
        phase = state["phase"]
        s = _clone(state)
        ev: list[Event] = []
        if action_id == CHECK and phase == PAUSED:
            _check(s, ev)
        elif action_id == END and phase == PLAY:
            _finish(s, ev, "time")
        else:
            raise IllegalAction(
                "not_legal",
                f"the table may not {action_id!r} now; table steps: "
                + (", ".join(self.legal_action_ids(state, None)) or "none"),
                action=action_id[:80],
            )
        return s, ev

    def timers(self, state: State) -> list[dict[str, Any]]:
        """The server-side timers this state calls for (the live platform's
        driver applies them; the engine itself never reads a clock).

        Each is ``{"key", "seat", "action", "delay"}``: ``action`` is applied
        for ``seat`` (None: the table) once the timer with that ``key`` has
        been listed, without a break, for ``delay`` seconds, and only when the
        action is legal then (a timer due during a pause waits for the
        resume). A key that changes (a draft's next step, the next claim in
        line) starts a new timer. Docs: "Timeouts and defaults".
        """
        if state["phase"] == OVER:
            return []
        n = state["n"]
        out = []
        minutes = state["cfg"].get("minutes")
        if minutes:
            out.append(
                {"key": "end", "seat": None, "action": END, "delay": 60.0 * minutes}
            )
        claims = state["claims"]
        if claims:
            c = claims[0]
            out.append(
                {
                    "key": f"check:{c['seat']}:{c['level']}",
                    "seat": None,
                    "action": CHECK,
                    "delay": SHOW_CLAIM_S,
                }
            )
        out_of_play = state["out"]
        for o in state["offers"]:
            oid = o["id"]
            for t in range(n):
                if not out_of_play[t] and _addressed(o, t):
                    out.append(
                        {
                            "key": f"decline:{oid}:{t}",
                            "seat": t,
                            "action": f"decline:{oid}",
                            "delay": ANSWER_S,
                        }
                    )
        for t, d in enumerate(state["drafts"]):
            if d is not None:
                step = f"{d['to']}:{d['give']}:{d['say']}:{d['want']}:{d['open']}"
                out.append(
                    {
                        "key": f"cancel:{t}:{step}",
                        "seat": t,
                        "action": "cancel",
                        "delay": BUILD_S,
                    }
                )
        for t in range(n):
            if state["owe"][t]:
                won = min(state["won"][t], key=lambda c: (POINTS[c], c))
                out.append(
                    {
                        "key": f"forfeit:{t}",
                        "seat": t,
                        "action": FORFEIT_ID[won],
                        "delay": FORFEIT_S,
                    }
                )
        return out

    def clone(self, state: State) -> State:
        """A copy the engine may mutate: the dict and the lists edited in place."""
        return _clone(state)

    # -- information ---------------------------------------------------------

    def observe(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now, built field by field from an allow-list.

        Hidden: other hands (their sizes are public), the seat's own cards drawn
        during a pause (until play resumes), other seats' offers being built,
        the real cards of other seats' offers not played open, the order of the
        hit pile and of the combination piles, the removed combinations, and the
        RNG state. The discard pile is face up.

        Built in C when the optional ``_fastplay`` extension is there (it was
        about a third of a step of the public API in Python, issue 33 §2):
        the same fields from the same allow-list as :meth:`_observe_py`, the
        reference, which builds it otherwise and whenever the C code declines
        (a finished or malformed state, an invalid seat: the errors are
        raised there). tests/rules/test_kungfu2009_native.py holds the two
        equal.
        """
        if _native_observe is not None:
            obs = _native_observe(state, seat)
            if obs is not None:
                return obs
        return self._observe_py(state, seat)

    def _observe_py(self, state: State, seat: int | None) -> dict[str, Any]:
        """:meth:`observe` in Python: the reference the C code follows."""
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
            obs["result"] = self.result(state)
        return obs

    def determinize(self, state: State, seat: int, rng_seed: int) -> State:
        """A full state ``seat`` cannot tell apart from ``state`` right now.

        Kept: everything in the seat's observation. Re-dealt at random: the other
        hands (keeping the real cards of their open offers), the seat's unseen
        cards, the hit pile, the combination piles' order together with the
        removed cards; other seats' closed offers get real cards drawn from their
        new hands, their drafts are dropped. The RNG is reseeded.
        """
        s = _clone(state)
        r = _rng.seed_state(rng_seed)
        n = s["n"]
        hands = s["hands"]
        keep = [""] * n
        for o in s["offers"]:
            t = o["from"]
            if t != seat and o["open"]:
                # The open cards must stay in that hand (the largest need counts).
                need = keep[t]
                for c in set(o["give"]):
                    extra = o["give"].count(c) - need.count(c)
                    if extra > 0:
                        need += c * extra
                keep[t] = need
        pool = s["deck"]
        sizes = [0] * n
        for t in range(n):
            if t == seat:
                k = s["fresh"][t]
                if k:
                    pool += hands[t][len(hands[t]) - k :]
                continue
            rest = _remove(hands[t], keep[t])
            sizes[t] = len(rest)
            pool += rest
        r, pool = _rng.shuffled(r, "".join(sorted(pool)))
        for t in range(n):
            if t == seat:
                k = s["fresh"][t]
                if k:
                    hands[t] = hands[t][: len(hands[t]) - k] + pool[:k]
                    pool = pool[k:]
                continue
            hands[t] = keep[t] + pool[: sizes[t]]
            pool = pool[sizes[t] :]
            s["drafts"][t] = None
        s["deck"] = pool
        offers = []
        for o in s["offers"]:
            if o["from"] != seat and not o["open"]:
                h = hands[o["from"]]
                r, mixed = _rng.shuffled(r, h)
                o = {**o, "give": mixed[: len(o["give"])]}
            offers.append(o)
        s["offers"] = offers
        # Combination piles: face-down cards and the box, re-split by counts.
        hidden = sorted(s["box"] + [c for lv in LEVEL_ORDER for c in s["piles"][lv]])
        r, order = _rng.shuffled(r, "".join(chr(48 + i) for i in range(len(hidden))))
        codes = [hidden[ord(ch) - 48] for ch in order]
        piles: dict[str, list[str]] = {lv: [] for lv in LEVEL_ORDER}
        box: list[str] = []
        want = {lv: len(s["piles"][lv]) for lv in LEVEL_ORDER}
        for code in codes:
            lv = LEVEL_OF[code]
            if len(piles[lv]) < want[lv]:
                piles[lv].append(code)
            else:
                box.append(code)
        s["piles"] = piles
        s["box"] = sorted(box)
        s["rng"] = r
        return s


_NO_ARG = frozenset({"open", "send", "cancel", "impasse"})
#: A seat's key in an event's private parts.
_SEAT_KEY = tuple(str(t) for t in range(9))

# ``observe`` in C, when the optional extension ``_fastplay.c`` is built
# (setup.py). It follows ``_observe_py`` field by field, reads the same shared
# views, and declines (None) whatever it does not handle;
# tests/rules/test_kungfu2009_native.py compares the two.
try:
    from gameplay.rules.kungfu2009 import _fastplay as _native
except ImportError:  # not built: the Python reference
    # mypy types the name as the module (the stub _fastplay.pyi) and has no
    # other way to say "or None".
    _native = None  # type: ignore[assignment]

NATIVE = _native is not None
_native_observe: Callable[[State, int | None], dict[str, Any] | None] | None = None
if _native is not None:
    _native.init(RULES_VERSION, POINTS, _FACE_UP, _PILE_SIZES, _DISCARD_VIEW)
    _native_observe = _native.observe
