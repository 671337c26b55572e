"""Kung Fu (2009)'s menus: each seat's legal ids, and each entry's label.

Every seat in play may act at any moment, so every seat has a menu; its first
entry is the documented timeout default.
"""

from __future__ import annotations

import re
from typing import Any

from gameplay.rules.base import Action, State
from gameplay.rules.kungfu2009.cards import (
    COMBINATIONS,
    LEVEL_ORDER,
    STYLE_NAMES,
    STYLES,
    WILD,
)
from gameplay.rules.kungfu2009.constants import (
    _MOVE_ARG,
    _MOVES,
    CHECK,
    CLAIM_ID,
    END,
    FIT_ID,
    FORFEIT_ID,
    GIVE_AS_ID,
    GIVE_ID,
    HITS,
    MAX_OFFERS,
    MAX_SIDE,
    NEED,
    PASS,
    PAUSED,
    PLAY,
    POINTS,
    WANT_ID,
    _move_ids,
)
from gameplay.rules.kungfu2009.hands import _holds
from gameplay.rules.views import Pile, PileViews

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
# distinct facts (gameplay.rules.views); ``_legal_ids`` joins them.
_FITTABLE: PileViews[str, tuple[tuple[str, Any], ...]] = PileViews(_fittable)
_FITS: PileViews[str, frozenset[str]] = PileViews(_fits)
_TARGETS: PileViews[tuple[int, ...], Pile] = PileViews(_targets)
_GIVE_IDS: PileViews[tuple[str, str], tuple[Pile, bool]] = PileViews(_give_ids)
_WANT_IDS = tuple(WANT_ID[x] for x in STYLES)


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
    return ", ".join(map(STYLE_NAMES.__getitem__, styles)) or "nothing"


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
