"""Kung Fu (White Goblin Games, 2013): the complete rules as a state machine.

Representation, chosen for speed and a lossless JSON round trip:

* A card is one character of ``ALPHABET``: the first 30 are the red attack cards,
  the last 30 the blue block cards, each colour ordered by value, so sorting a
  hand's characters sorts it by value. Observations and action ids use the
  readable codes (``r06``, ``b17``) of ``cards.py``.
* Hands, decks, discard piles and the coin cards in front of each player are
  strings (immutable), so cloning a state copies a dict and a few short lists.
  A deck string runs bottom to top: the top card is ``deck[-1]``.
* The round is a stack of small tasks (``todo``, the next one last). Automatic
  tasks (a forced draw, an unaffordable effect, the outcome arithmetic) run at
  once inside ``apply``; a task that needs a decision sets ``phase`` and
  ``actor`` and waits. So every rule is one decision at a time, and the state
  says exactly what is pending.

Every reading of an ambiguous rule is listed, with the rulebook words it reads,
in ``docs/rules/kungfu2013.md``; comments here name the reading briefly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import itemgetter
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
from gameplay.rules.kungfu2013.cards import ATTACK_CARDS, BLOCK_CARDS, EFFECTS
from gameplay.rules.rng import uniform_chooser
from gameplay.rules.views import LIMIT, Pile, PileViews

RULES_VERSION = "kungfu2013-2"
START_LIFE = 10
LIFE_TOKENS = 20  # the box holds 20: the starting life is at most half of them
DEFAULT_MAX_ROUNDS = 200

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwx"
FIRST_BLUE = "U"  # characters below it are red


def _build() -> tuple[dict[str, dict[str, Any]], dict[str, str], str, str]:
    """Card table keyed by character, code -> character, and the two full decks."""
    table: dict[str, dict[str, Any]] = {}
    by_code: dict[str, str] = {}
    decks = []
    i = 0
    for colour, rows in (("red", ATTACK_CARDS), ("blue", BLOCK_CARDS)):
        chars = ""
        # Value order inside a colour makes sorted(hand) a value-ordered menu.
        for row in sorted(rows, key=lambda r: (r[2], r[3] or r[2], r[0])):
            code, name, value, rise, coins, effect, cost, on_hit = row
            ch = ALPHABET[i]
            i += 1
            table[ch] = {
                "code": code,
                "name": name,
                "colour": colour,
                "value": value,
                "rise": rise,
                "coins": coins,
                "effect": effect,
                "cost": cost,
                "on_hit": on_hit,
                "text": EFFECTS[effect] if effect else None,
            }
            by_code[code] = ch
            chars += ch
        decks.append(chars)
    return table, by_code, decks[0], decks[1]


CARDS, BY_CODE, RED_DECK, BLUE_DECK = _build()
assert len(RED_DECK) == len(BLUE_DECK) == 30
assert all((c < FIRST_BLUE) == (CARDS[c]["colour"] == "red") for c in CARDS)
CODE = {ch: c["code"] for ch, c in CARDS.items()}
VALUE: dict[str, int] = {ch: c["value"] for ch, c in CARDS.items()}
RISE: dict[str, int | None] = {ch: c["rise"] for ch, c in CARDS.items()}
COINS = {ch: c["coins"] for ch, c in CARDS.items()}
EFFECT = {ch: c["effect"] for ch, c in CARDS.items()}
COST = {ch: c["cost"] for ch, c in CARDS.items()}
ON_HIT = {ch: c["on_hit"] for ch, c in CARDS.items()}

# Phases: which decision is pending.
INITIATIVE = "initiative"  # the initiative holder keeps it or passes it
DRAW = "draw"  # draw one card: from the red or the blue deck?
ATTACK = "attack"  # the attacker chooses an attack card
FACE = "face"  # ... then face up or face down
BLOCK = "block"  # the defender must play a block card
EFFECT_PHASE = "effect"  # activate the special effect of your card?
PAY = "pay"  # ... discard which coin card in front of you next
TARGET = "target"  # which coin card in front of the opponent is discarded
REWARD = "reward"  # the defender won: draw the difference or take the initiative
OVER = "over"

PROMPTS = {
    INITIATIVE: "keep the initiative and attack, or pass it (you draw three)",
    DRAW: "draw a card from the red or the blue deck",
    ATTACK: "choose an attack card",
    FACE: "play the attack card face up or face down",
    BLOCK: "choose a block card",
    EFFECT_PHASE: "activate the special effect of your card?",
    PAY: "choose a power-coin card in front of you to pay with",
    TARGET: "choose the opponent's power-coin card to discard",
    REWARD: "you won the defence: draw the difference or take the initiative",
    OVER: "the game is over",
}

KEY = ("0", "1")  # seat -> key of an event's private part

# Where a helper appends its events: a list, or None in an in-place playout
# (``apply_in_place``), where nobody reads them and none are built. The rules
# are the same code either way; only the event dicts are skipped.
Events = list[Event] | None


def view(ch: str) -> dict[str, Any]:
    """A card as observations and events show it (a fresh dict)."""
    return CARDS[ch].copy()


_card = CARDS.__getitem__
_copy = dict.copy


def views(cards: Iterable[str]) -> list[dict[str, Any]]:
    """``[view(c) for c in cards]`` without a Python call per card: an
    observation shows about 30 cards (a random game's hands hold 20 or more)."""
    return list(map(_copy, map(_card, cards)))


# Observations show cards as read-only dicts built once (a copy of ``CARDS``
# apart from the one the rules read, so an observation cannot change a card),
# and each pile (a string) as a tuple of them (gameplay.rules.views).
_VIEW = {ch: c.copy() for ch, c in CARDS.items()}


def _items(table: Any, keys: Any) -> tuple[Any, ...]:
    """``tuple(table[k] for k in keys)``: the views of a pile, the ids of a menu.

    ``itemgetter(*keys)`` looks every key up in one C call (``map`` over a bound
    ``__getitem__`` makes a call per key, about twice the instructions for a
    20-card hand); it returns the bare item for a single key, hence the test.
    """
    if len(keys) > 1:
        items: tuple[Any, ...] = itemgetter(*keys)(table)
        return items
    return tuple(map(table.__getitem__, keys))


_PILE_VIEWS: PileViews[str, Pile] = PileViews(lambda cards: _items(_VIEW, cards))
# A card's view by the byte value of its character: a hand is sorted as bytes
# (small ints compare several times faster than one-character strings, and a
# random game's hands hold 20 cards or more).
_VIEW_OF_BYTE: list[Any] = [None] * 128
for _ch in ALPHABET:
    _VIEW_OF_BYTE[ord(_ch)] = _VIEW[_ch]
del _ch
_HAND_VIEWS: PileViews[str, Pile] = PileViews(
    lambda hand: _items(_VIEW_OF_BYTE, sorted(hand.encode()))
)
_VIEWS_LIMIT = LIMIT

# A hand's size per colour (public: the decks' backs differ), read-only:
# ``_HAND_COUNTS[len(hand)][reds]``. Looked up, not cached per hand: most
# steps change a hand, and a cache miss costs more than counting the reds.
_HAND_COUNTS: list[list[dict[str, int]]] = [
    [{"red": r, "blue": n - r} for r in range(n + 1)] for n in range(61)
]
_FACE = {"u": "up", "d": "down"}


def _label_card(ch: str) -> str:
    c = CARDS[ch]
    value = f"{c['value']}->{c['rise']}" if c["rise"] is not None else c["value"]
    return f"{c['name']} ({value})"


def _action_info() -> dict[str, Action]:
    info: dict[str, Action] = {
        "initiative:keep": {
            "type": "initiative",
            "choice": "keep",
            "label": "Keep the initiative and attack",
        },
        "initiative:pass": {
            "type": "initiative",
            "choice": "pass",
            "label": "Pass the initiative (you draw three cards)",
        },
        "draw:red": {"type": "draw", "deck": "red", "label": "Draw from the red deck"},
        "draw:blue": {
            "type": "draw",
            "deck": "blue",
            "label": "Draw from the blue deck",
        },
        "face:up": {"type": "face", "face": "up", "label": "Play it face up"},
        "face:down": {
            "type": "face",
            "face": "down",
            "label": "Play it face down (the defender draws one card)",
        },
        "effect:skip": {
            "type": "effect",
            "use": False,
            "label": "Do not activate the special effect",
        },
        "effect:use": {
            "type": "effect",
            "use": True,
            "label": "Activate the special effect (pay its coins)",
        },
        "reward:draw": {
            "type": "reward",
            "choice": "draw",
            "label": "Draw as many cards as the difference",
        },
        "reward:initiative": {
            "type": "reward",
            "choice": "initiative",
            "label": "Take the initiative (your opponent draws three)",
        },
    }
    for ch in ALPHABET:
        code = CODE[ch]
        label = _label_card(ch)
        if ch < FIRST_BLUE:
            info[f"attack:{code}"] = {
                "type": "attack",
                "card": code,
                "label": f"Attack with {label}",
            }
        else:
            info[f"block:{code}"] = {
                "type": "block",
                "card": code,
                "label": f"Block with {label}",
            }
        coins = f"{COINS[ch]} coin{'' if COINS[ch] == 1 else 's'}"
        info[f"pay:{code}"] = {
            "type": "pay",
            "card": code,
            "label": f"Pay with {CARDS[ch]['name']} ({coins})",
        }
        info[f"target:{code}"] = {
            "type": "target",
            "card": code,
            "label": f"Discard the opponent's {CARDS[ch]['name']} ({coins})",
        }
    for aid, a in info.items():
        a["id"] = aid
    return info


ACTION_INFO = _action_info()
ATTACK_ID = {ch: f"attack:{CODE[ch]}" for ch in RED_DECK}
BLOCK_ID = {ch: f"block:{CODE[ch]}" for ch in BLUE_DECK}
PAY_ID = {ch: f"pay:{CODE[ch]}" for ch in ALPHABET}
TARGET_ID = {ch: f"target:{CODE[ch]}" for ch in ALPHABET}
ARG = {aid: BY_CODE.get(aid.split(":", 1)[1]) for aid in ACTION_INFO}
# Hand menus sort the hand's bytes (small ints sort fast) and map them back:
# byte value of a card character -> its attack/block id, its value.
_ID_BY_BYTE = [""] * 128
_VALUE_OF_BYTE = [0] * 128
for _ch in ALPHABET:
    _ID_BY_BYTE[ord(_ch)] = ATTACK_ID[_ch] if _ch < FIRST_BLUE else BLOCK_ID[_ch]
    _VALUE_OF_BYTE[ord(_ch)] = VALUE[_ch]
del _ch

_OPTIONS = ("players", "start", "life", "max_rounds", "red_deck", "blue_deck")


_NO_BLUE = str.maketrans("", "", BLUE_DECK)
_NO_RED = str.maketrans("", "", RED_DECK)
_BLUE_BYTES = BLUE_DECK.encode()
_RED_BYTES = RED_DECK.encode()


def _reds(hand: str) -> str:
    return hand.translate(_NO_BLUE)


def _blues(hand: str) -> str:
    return hand.translate(_NO_RED)


def _has_red(hand: str) -> bool:
    # Every character is red or blue: stripping the blues leaves something iff
    # a red is left (one C loop, far cheaper than min() over the hand).
    return bool(hand.strip(BLUE_DECK))


def _has_blue(hand: str) -> bool:
    return bool(hand.strip(RED_DECK))


# Every red card's byte -> 0, every other byte -> 1. ``translate`` with a table
# and no bytes to delete is one pass over the hand (deleting bytes first builds
# a 256-entry table, per call), and ``count(0)`` one more: about a third of
# the instructions of ``len(hand.encode().translate(None, _BLUE_BYTES))``.
_RED_AS_ZERO = bytes(0 if chr(i) in RED_DECK else 1 for i in range(256))


def _nred(hand: str) -> int:
    """How many red cards ``hand`` holds."""
    return hand.encode().translate(_RED_AS_ZERO).count(0)


def _can_draw(s: State) -> bool:
    return bool(s["rdeck"] or s["bdeck"] or s["rdisc"] or s["bdisc"])


# The coins of a row of coin cards (few distinct rows; a row changes a few
# times a game): ``_COIN_SUMS[front]``, a dict lookup where it hits.
_COIN_SUMS: PileViews[str, int] = PileViews(
    lambda front: sum(map(COINS.__getitem__, front))
)


# ---------------------------------------------------------------------------
# Menus: the first entry of every menu is the documented timeout default.
#
# Menus are tuples. The hand menus sort the hand's bytes (small ints sort fast)
# and map them back to ids; menus of a row of coin cards (few distinct rows) are
# cached, each cache cleared when it grows past ``_CACHE_LIMIT`` entries.

_CACHE_LIMIT = 50_000
_DRAW_RED_FIRST = ("draw:red", "draw:blue")
_DRAW_BLUE_FIRST = ("draw:blue", "draw:red")
_FIXED = {
    INITIATIVE: ("initiative:keep", "initiative:pass"),
    FACE: ("face:up", "face:down"),
    EFFECT_PHASE: ("effect:skip", "effect:use"),
    REWARD: ("reward:draw", "reward:initiative"),
}
_PAY_MENU: dict[str, tuple[str, ...]] = {}
_TARGET_MENU: dict[str, tuple[str, ...]] = {}


def _menu_draw(s: State) -> tuple[str, ...]:
    # Default: the colour you hold fewer of (ties: blue, the cautious colour).
    hand = s["hands"][s["actor"]]
    if 2 * hand.encode().translate(_RED_AS_ZERO).count(0) < len(hand):  # _nred
        return _DRAW_RED_FIRST
    return _DRAW_BLUE_FIRST


def _menu_attack(s: State) -> tuple[str, ...]:
    # The red cards of the hand, weakest first.
    reds = s["hands"][s["actor"]].encode().translate(None, _BLUE_BYTES)
    return _items(_ID_BY_BYTE, sorted(reds))


def _menu_block(s: State) -> tuple[str, ...]:
    blues = sorted(s["hands"][s["actor"]].encode().translate(None, _RED_BYTES))
    b = s["b"]
    if b["face"] == "u":
        # Default: the weakest block that still stops the face-up attack at its
        # printed value, else the weakest block.
        need = VALUE[b["ac"]]
        for i, c in enumerate(blues):
            if _VALUE_OF_BYTE[c] >= need:
                if i:
                    del blues[i]
                    blues.insert(0, c)
                break
    return _items(_ID_BY_BYTE, blues)


def _menu_pay(s: State) -> tuple[str, ...]:
    front = s["front"][s["actor"]]
    menu = _PAY_MENU.get(front)
    if menu is None:
        if len(_PAY_MENU) > _CACHE_LIMIT:
            _PAY_MENU.clear()
        menu = _PAY_MENU[front] = tuple(
            PAY_ID[c] for c in sorted(front, key=lambda c: (COINS[c], c))
        )
    return menu


def _menu_target(s: State) -> tuple[str, ...]:
    front = s["front"][1 - s["actor"]]
    menu = _TARGET_MENU.get(front)
    if menu is None:
        if len(_TARGET_MENU) > _CACHE_LIMIT:
            _TARGET_MENU.clear()
        menu = _TARGET_MENU[front] = tuple(
            TARGET_ID[c] for c in sorted(front, key=lambda c: (-COINS[c], c))
        )
    return menu


def _menu_fixed(s: State) -> tuple[str, ...]:
    return _FIXED[s["phase"]]


def _menu_none(s: State) -> tuple[str, ...]:
    return ()


_MENUS = {
    DRAW: _menu_draw,
    INITIATIVE: _menu_fixed,
    ATTACK: _menu_attack,
    FACE: _menu_fixed,
    BLOCK: _menu_block,
    EFFECT_PHASE: _menu_fixed,
    PAY: _menu_pay,
    TARGET: _menu_target,
    REWARD: _menu_fixed,
    OVER: _menu_none,
}


def _ids(s: State) -> tuple[str, ...]:
    return _MENUS[s["phase"]](s)


# ---------------------------------------------------------------------------
# Helpers that change the state (``s`` is a private clone, or the caller's own
# state in the playout mode).
#
# Copy-on-write: ``apply`` shares the state's ``life``, ``front`` and ``noblk``
# lists with the state before (they change a few times a game), so a rule that
# changes one replaces the list, in every mode, never edits it.
#
# Events are dict literals ({"type", "public", "private"}) and a card in them
# is ``CARDS[c].copy()`` (``view``) written out: a random game builds about
# 1.6 events a step, and a helper's call per event cost more than the dict.


def _draw_one(s: State, ev: Events, seat: int, colour: str) -> None:
    """Draw one card from ``colour``'s deck (reshuffling its discard pile if empty)."""
    dk = "rdeck" if colour == "red" else "bdeck"
    deck = s[dk]
    if not deck:
        dp = "rdisc" if colour == "red" else "bdisc"
        pile = s[dp]
        if not pile:
            return
        s["rng"], deck = _rng.shuffled(s["rng"], pile)
        s[dp] = ""
        if ev is not None:
            ev.append(
                {
                    "type": "reshuffle",
                    "public": {"deck": colour, "cards": len(deck)},
                    "private": {},
                }
            )
    card = deck[-1]
    s[dk] = deck[:-1]
    s["hands"][seat] += card
    if ev is not None:
        ev.append(
            {
                "type": "draw",
                "public": {"seat": seat, "deck": colour},
                "private": {KEY[seat]: {"card": CARDS[card].copy()}},
            }
        )


def _discard(s: State, card: str) -> None:
    if card < FIRST_BLUE:
        s["rdisc"] += card
    else:
        s["bdisc"] += card


def _change_initiative(s: State, ev: Events, reason: str) -> None:
    """The initiative passes; the new defender draws three (pushed as a task)."""
    old = s["init"]
    s["init"] = 1 - old
    if ev is not None:
        ev.append(
            {
                "type": "initiative",
                "public": {"from": old, "to": 1 - old, "reason": reason},
                "private": {},
            }
        )
    s["todo"].append(["draw", old, 3])


def _result(life: list[int], reason: str) -> dict[str, Any]:
    if life[0] == life[1]:
        winners, placements = [0, 1], [1, 1]
    else:
        w = 0 if life[0] > life[1] else 1
        winners, placements = [w], [1, 2] if w == 0 else [2, 1]
    return {
        "winners": winners,
        "placements": placements,
        "scores": {"life": list(life)},
        "reason": reason,
    }


def _finish(s: State, ev: Events, reason: str) -> None:
    life = s["life"]
    s["result"] = result = _result(life, reason)
    winners = result["winners"]
    s["phase"] = OVER
    s["actor"] = -1
    s["todo"] = []
    if ev is not None:
        ev.append(
            {
                "type": "game_over",
                "public": {"winners": winners, "life": list(life), "reason": reason},
                "private": {},
            }
        )


def _new_battle(attacker: int) -> dict[str, Any]:
    return {
        "a": attacker,
        "ac": "",  # attack card
        "face": "",  # "u" up, "d" down, "" not chosen yet
        "bc": "",  # block card
        "blocked": False,  # the block step is over
        "null": "",  # the block card the attacker's effect discarded
        "act": [False, False],  # special effect activated, per seat
        "av": 0,
        "bv": 0,
        "hit": False,  # the attacker's on-hit effect is pending
        "dmg": 0,
        "flip": [],  # seats whose "initiative changes" effect is active
    }


def _resolve_effect(s: State, ev: Events, seat: int, effect: str) -> None:
    """One effect, at once (pushing a task when it needs decisions)."""
    opp = 1 - seat
    if effect == "draw3":
        s["todo"].append(["draw", seat, 3])
    elif effect == "heal2":
        s["life"] = life = s["life"][:]  # copy-on-write
        # Reading 14: "you immediately get two life tokens", at full life too.
        life[seat] += 2
        if ev is not None:
            ev.append(
                {
                    "type": "heal",
                    "public": {"seat": seat, "gain": 2, "life": life[seat]},
                    "private": {},
                }
            )
    elif effect == "discard2":
        hand = s["hands"][opp]
        gone = []
        for _ in range(2):
            if not hand:
                break
            s["rng"], j = _rng.randbelow(s["rng"], len(hand))
            card = hand[j]
            hand = hand[:j] + hand[j + 1 :]
            _discard(s, card)
            if ev is not None:
                gone.append(CARDS[card].copy())
        s["hands"][opp] = hand
        if ev is not None:
            ev.append(
                {
                    "type": "hand_discard",
                    "public": {"seat": opp, "cards": gone},
                    "private": {},
                }
            )
    elif effect == "break_coin":
        front = s["front"][opp]
        if len(front) > 1:
            s["todo"].append(["target", seat])
        elif front:
            _break_coin(s, ev, opp, front)
        else:
            if ev is not None:
                ev.append(
                    {
                        "type": "effect_ignored",
                        "public": {"seat": seat, "effect": effect},
                        "private": {},
                    }
                )
    elif effect == "no_block":
        s["noblk"] = noblk = s["noblk"][:]  # copy-on-write
        noblk[opp] = s["round"] + 1
        if ev is not None:
            ev.append(
                {
                    "type": "no_block",
                    "public": {"seat": opp, "round": s["round"] + 1},
                    "private": {},
                }
            )
    elif effect == "nullify":
        b = s["b"]
        if b["bc"]:
            b["null"] = card = b["bc"]
            b["bc"] = ""
            _discard(s, card)
            if ev is not None:
                ev.append(
                    {
                        "type": "block_discarded",
                        "public": {"seat": opp, "card": CARDS[card].copy()},
                        "private": {},
                    }
                )
        else:
            if ev is not None:
                ev.append(
                    {
                        "type": "effect_ignored",
                        "public": {"seat": seat, "effect": effect},
                        "private": {},
                    }
                )
    elif effect == "initiative":
        s["b"]["flip"] = s["b"]["flip"] + [seat]


def _break_coin(s: State, ev: Events, owner: int, card: str) -> None:
    s["front"] = front = s["front"][:]  # copy-on-write
    front[owner] = front[owner].replace(card, "")
    _discard(s, card)
    if ev is not None:
        ev.append(
            {
                "type": "coin_card_discarded",
                "public": {"seat": owner, "card": CARDS[card].copy()},
                "private": {},
            }
        )


def _run(s: State, ev: Events) -> None:
    """Run automatic tasks until one needs a decision (or the game ends)."""
    todo = s["todo"]
    hands = s["hands"]
    while todo:
        t = todo[-1]
        kind = t[0]
        if kind == "draw":
            seat, n = t[1], t[2]
            if n <= 0:
                todo.pop()
                continue
            red = bool(s["rdeck"] or s["rdisc"])
            blue = bool(s["bdeck"] or s["bdisc"])
            if red and blue:
                s["phase"], s["actor"] = DRAW, seat
                return
            todo.pop()
            if not (red or blue):
                continue  # nothing left to draw anywhere: the draw is lost
            if n > 1:
                todo.append(["draw", seat, n - 1])
            _draw_one(s, ev, seat, "red" if red else "blue")
        elif kind == "round":
            todo.pop()
            if s["round"] >= s["cfg"]["max_rounds"]:
                _finish(s, ev, "round_limit")
                return
            s["round"] += 1
            s["b"] = _new_battle(s["init"])
            if ev is not None:
                ev.append(
                    {
                        "type": "round",
                        "public": {"round": s["round"], "initiative": s["init"]},
                        "private": {},
                    }
                )
            todo.append(["init"])
        elif kind == "init":
            h = s["init"]
            if not hands[h].strip(BLUE_DECK):  # not _has_red(hands[h])
                if not _has_red(hands[1 - h]) and not _can_draw(s):
                    # Reading: nobody can ever attack again.
                    _finish(s, ev, "no_attack_possible")
                    return
                _change_initiative(s, ev, "no_attack_card")
                continue
            if s["rdeck"] or s["bdeck"] or s["rdisc"] or s["bdisc"]:  # _can_draw
                s["phase"], s["actor"] = INITIATIVE, h
                return
            # Reading: a voluntary change needs a card left for the new defender.
            todo.pop()
            todo.append(["attack"])
        elif kind == "attack":
            s["b"]["a"] = s["init"]
            s["phase"], s["actor"] = ATTACK, s["init"]
            return
        elif kind == "face":
            s["phase"], s["actor"] = FACE, s["b"]["a"]
            return
        elif kind == "block":
            b = s["b"]
            d = 1 - b["a"]
            if _has_blue(hands[d]) and s["noblk"][d] != s["round"]:
                s["phase"], s["actor"] = BLOCK, d
                return
            todo.pop()
            reason = "no_block_card" if not _has_blue(hands[d]) else "no_block_effect"
            if ev is not None:
                ev.append(
                    {
                        "type": "no_block_played",
                        "public": {"seat": d, "reason": reason},
                        "private": {},
                    }
                )
            _after_block(s, ev)
        elif kind == "effect":
            seat = t[1]
            b = s["b"]
            card = b["ac"] if seat == b["a"] else b["bc"]
            cost = COST[card] if card else None
            if cost is None or _COIN_SUMS[s["front"][seat]] < cost:
                todo.pop()
                continue
            s["phase"], s["actor"] = EFFECT_PHASE, seat
            return
        elif kind == "pay":
            seat, due = t[1], t[2]
            front = s["front"][seat]
            if due <= 0:
                todo.pop()
                continue
            if len(front) == 1:
                todo.pop()
                _pay(s, ev, seat, front, due)
                continue
            s["phase"], s["actor"] = PAY, seat
            return
        elif kind == "resolve":
            todo.pop()
            _activate(s, ev, t[1])
        elif kind == "target":
            s["phase"], s["actor"] = TARGET, t[1]
            return
        elif kind == "reward":
            s["phase"], s["actor"] = REWARD, 1 - s["b"]["a"]
            return
        elif kind == "outcome":
            todo.pop()
            if _outcome(s, ev):
                return
        elif kind == "hit":
            todo.pop()
            b = s["b"]
            if b["hit"] and b["dmg"] > 0:
                a = b["a"]
                if ev is not None:
                    ev.append(
                        {
                            "type": "on_hit",
                            "public": {"seat": a, "card": CARDS[b["ac"]].copy()},
                            "private": {},
                        }
                    )
                _resolve_effect(s, ev, a, EFFECT[b["ac"]])
        elif kind == "cleanup":
            todo.pop()
            _cleanup(s, ev)
        else:  # pragma: no cover - a corrupted state
            raise GameError(f"unknown task {t!r}")


def _after_block(s: State, ev: Events) -> None:
    """Both cards are down: reveal a face-down attack, then effects and outcome."""
    b = s["b"]
    b["blocked"] = True
    if b["face"] == "d" and ev is not None:
        ev.append(
            {
                "type": "reveal",
                "public": {"seat": b["a"], "card": CARDS[b["ac"]].copy()},
                "private": {},
            }
        )
    d = 1 - b["a"]
    s["todo"] += [["cleanup"], ["hit"], ["outcome"], ["effect", d], ["effect", b["a"]]]


def _pay(s: State, ev: Events, seat: int, card: str, due: int) -> None:
    s["front"] = front = s["front"][:]  # copy-on-write
    front[seat] = front[seat].replace(card, "")
    _discard(s, card)
    if ev is not None:
        ev.append(
            {
                "type": "pay",
                "public": {
                    "seat": seat,
                    "card": CARDS[card].copy(),
                    "coins": COINS[card],
                },
                "private": {},
            }
        )
    if due - COINS[card] > 0:
        s["todo"].append(["pay", seat, due - COINS[card]])


def _activate(s: State, ev: Events, seat: int) -> None:
    """The card's special effects happen (paid already): rise and/or its effect."""
    b = s["b"]
    card = b["ac"] if seat == b["a"] else b["bc"]
    b["act"] = b["act"][:]
    b["act"][seat] = True
    if ev is not None:
        ev.append(
            {
                "type": "activate",
                "public": {"seat": seat, "card": CARDS[card].copy()},
                "private": {},
            }
        )
    effect = EFFECT[card]
    if effect is not None:
        if ON_HIT[card]:
            b["hit"] = True  # waits for the outcome: only if the opponent loses life
        else:
            _resolve_effect(s, ev, seat, effect)


def _value(b: dict[str, Any], card: str, seat: int) -> int:
    rise = RISE[card]
    if b["act"][seat] and rise is not None:
        return rise
    return VALUE[card]


def _outcome(s: State, ev: Events) -> bool:
    """Phase D. Returns True when a decision (the defender's reward) is pending."""
    b = s["b"]
    a = b["a"]
    d = 1 - a
    av = _value(b, b["ac"], a)
    bv = _value(b, b["bc"], d) if b["bc"] else 0
    b["av"], b["bv"] = av, bv
    if av > bv:
        s["life"] = life = s["life"][:]  # copy-on-write
        dmg = min(av - bv, life[d])
        life[d] -= dmg
        b["dmg"] = dmg
        if ev is not None:
            ev.append(
                {
                    "type": "outcome",
                    "public": {"winner": a, "attack": av, "defence": bv, "damage": dmg},
                    "private": {},
                }
            )
        if ev is not None:
            ev.append(
                {
                    "type": "damage",
                    "public": {"seat": d, "amount": dmg, "life": life[d]},
                    "private": {},
                }
            )
        if life[d] <= 0:
            _finish(s, ev, "knockout")
            return True
        return False
    if av == bv:
        if ev is not None:
            ev.append(
                {
                    "type": "outcome",
                    "public": {"winner": None, "attack": av, "defence": bv},
                    "private": {},
                }
            )
        return False
    if ev is not None:
        ev.append(
            {
                "type": "outcome",
                "public": {"winner": d, "attack": av, "defence": bv},
                "private": {},
            }
        )
    s["phase"], s["actor"] = REWARD, d
    s["todo"].append(["reward"])
    return True


def _cleanup(s: State, ev: Events) -> None:
    """Played cards go to the discard piles, power-coin cards stay in front; then
    the "initiative changes" effects, then the next round."""
    b = s["b"]
    a = b["a"]
    d = 1 - a
    kept = []
    gone = []
    for seat, card in ((a, b["ac"]), (d, b["bc"])):
        if not card:
            continue
        if COINS[card]:
            s["front"] = front = s["front"][:]  # copy-on-write
            front[seat] += card
            if ev is not None:
                kept.append([seat, CARDS[card].copy()])
        else:
            _discard(s, card)
            if ev is not None:
                gone.append(CARDS[card].copy())
    if ev is not None:
        ev.append(
            {
                "type": "cleanup",
                "public": {"discarded": gone, "to_front": kept},
                "private": {},
            }
        )
    b["ac"] = b["bc"] = b["null"] = ""
    s["todo"].append(["round"])
    # Reading 12: every after-battle change ("the initiative changes after the
    # outcome", the reward's "becomes the new attacker") names one result, the
    # battle's defender attacks next round: so the initiative changes at most
    # once, and not at all when the reward has already moved it.
    if b["flip"] and s["init"] == a:
        _change_initiative(s, ev, "effect")
    b["flip"] = []


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


# ---------------------------------------------------------------------------
# Uniform random playouts, natively when the optional C kernel is built.
#
# ``_fastplay.c`` (built by setup.py as an optional extension) plays these same
# rules in C for ``random_playout``: each decision takes menu index
# ``rng.randbelow(choice, len(ids))`` of a choice stream seeded
# ``rng.seed_state(seed)``, and the game's own shuffles and random discards use
# the state's ``rng`` exactly as here, so the kernel and ``playout`` with
# ``uniform_chooser(seed)`` end every game identically
# (tests/rules/test_kungfu2013_native.py). Without a compiler the import fails
# and ``random_playout`` runs ``playout`` instead. The kernel gets its card table
# from here (so from cards.py) when this module is imported.


try:
    import gameplay.rules.kungfu2013._fastplay as _native
except ImportError:  # not built (no C compiler): the Python playout is used
    # mypy types the name as the module (the stub _fastplay.pyi) and has no way
    # to say "or None"; every use below checks it.
    _native = None  # type: ignore[assignment]

NATIVE = _native is not None


def native_policy() -> bool:
    """Whether the kernel plays the playout policy (``native_policy_playout``).

    False without the kernel, and with one built before it had the policy (a
    checkout whose extension was not rebuilt): rollout.py then plays its
    Python twin, the same choices, only slower. Read per call, so switching
    ``NATIVE`` off (tests, ``bench/ismcts.py --no-native``) takes effect.
    """
    return NATIVE and hasattr(_native, "policy_playout")


def _native_card(ch: str) -> tuple[str, bool, int, int, int, int, int, bool]:
    """One card as the kernel's ``init`` row (-1 or 0 for "none")."""
    rise, effect, cost = RISE[ch], EFFECT[ch], COST[ch]
    return (
        ch,
        ch < FIRST_BLUE,
        VALUE[ch],
        -1 if rise is None else rise,
        COINS[ch],
        0 if effect is None else _native.EFFECTS.index(effect) + 1,
        -1 if cost is None else cost,
        ON_HIT[ch],
    )


if _native is not None:
    _native.init(
        [_native_card(ch) for ch in ALPHABET],
        [_rng._words_for(n) for n in range(65)],
    )
    _PHASE_NO = {p: i for i, p in enumerate(_native.PHASES)}
    _TASK_NO = {t: i for i, t in enumerate(_native.TASKS)}
    _PHASE_OF = _native.PHASES
    _TASK_OF = _native.TASKS
    # The kernel's numbers for how a game ended (0: it goes on).
    _REASONS = {1: "round_limit", 2: "no_attack_possible", 3: "knockout"}
    # Tasks that carry a seat, and those that also carry a count.
    _SEATED = frozenset(("effect", "resolve", "target"))
    _COUNTED = frozenset(("draw", "pay"))


# ``observe`` in C, when the optional extension ``_fastobserve.c`` is built
# (setup.py). It follows ``_observe_py`` field by field and declines (None)
# whatever it does not handle; tests/rules/test_kungfu2013_observe.py compares
# the two for every seat at every step of seeded games.
try:
    import gameplay.rules.kungfu2013._fastobserve as _native_obs
except ImportError:  # not built (no C compiler): observe runs in Python
    # (typed as the module by the stub _fastobserve.pyi; every use checks it)
    _native_obs = None  # type: ignore[assignment]

_native_observe: Callable[[State, int | None], dict[str, Any] | None] | None = None
# ``legal_action_ids`` likewise (the menus of ``_menu_*``).
_native_legal: Callable[[State, int | None], list[str] | None] | None = None
if _native_obs is not None:
    _native_obs.init(RULES_VERSION, PROMPTS, _VIEW_OF_BYTE, _HAND_COUNTS)
    _native_obs.init_menus(
        _FIXED, _DRAW_RED_FIRST, _DRAW_BLUE_FIRST, _ID_BY_BYTE, PAY_ID, TARGET_ID
    )
    _native_observe = _native_obs.observe
    _native_legal = _native_obs.legal_action_ids


def _native_fields(s: State) -> tuple[Any, ...]:
    """The state as the kernel's flat tuple of fields (see _fastplay.c)."""
    b = s["b"]
    todo = bytearray()
    for t in s["todo"]:
        n = len(t)
        todo += bytes(
            (_TASK_NO[t[0]], t[1] if n > 1 else 0, (t[2] & 0xFF) if n > 2 else 0)
        )
    life, hands, front, noblk, act = (
        s["life"],
        s["hands"],
        s["front"],
        s["noblk"],
        b["act"],
    )
    return (
        int(s["rng"], 16),
        life[0],
        life[1],
        hands[0],
        hands[1],
        s["rdeck"],
        s["bdeck"],
        s["rdisc"],
        s["bdisc"],
        front[0],
        front[1],
        s["init"],
        s["round"],
        noblk[0],
        noblk[1],
        s["cfg"]["max_rounds"],
        b["a"],
        b["ac"],
        b["face"],
        b["bc"],
        b["blocked"],
        b["null"],
        act[0],
        act[1],
        b["av"],
        b["bv"],
        b["hit"],
        b["dmg"],
        b["flip"],
        bytes(todo),
        _PHASE_NO[s["phase"]],
        s["actor"],
    )


def _native_store(s: State, f: tuple[Any, ...]) -> None:
    """Write the kernel's fields back into ``s`` (in place, like ``playout``)."""
    s["rng"] = format(f[0], "016x")
    # New lists: the state's may be shared with the state before (copy-on-write).
    s["life"] = list(f[1:3])
    s["hands"] = list(f[3:5])
    s["rdeck"], s["bdeck"], s["rdisc"], s["bdisc"] = f[5:9]
    s["front"] = list(f[9:11])
    s["init"], s["round"] = f[11], f[12]
    s["noblk"] = list(f[13:15])
    s["b"] = {
        "a": f[16],
        "ac": f[17],
        "face": f[18],
        "bc": f[19],
        "blocked": bool(f[20]),
        "null": f[21],
        "act": [bool(f[22]), bool(f[23])],
        "av": f[24],
        "bv": f[25],
        "hit": bool(f[26]),
        "dmg": f[27],
        "flip": list(f[28]),
    }
    raw = f[29]
    todo = []
    for i in range(0, len(raw), 3):
        kind = _TASK_OF[raw[i]]
        if kind in _COUNTED:
            n = raw[i + 2]
            todo.append([kind, raw[i + 1], n - 256 if n > 127 else n])
        elif kind in _SEATED:
            todo.append([kind, raw[i + 1]])
        else:
            todo.append([kind])
    s["todo"] = todo
    s["phase"] = _PHASE_OF[f[30]]
    s["actor"] = f[31]
    if f[32]:
        s["result"] = _result(s["life"], _REASONS[f[32]])


# ---------------------------------------------------------------------------
# Configuration.


def _stack(option: str, codes: Any, full: str, colour: str) -> str | None:
    """A stacked deck: the listed codes on top (first = top), the rest shuffled."""
    if codes is None:
        return None
    if not isinstance(codes, list) or any(
        type(c) is not str or c not in BY_CODE for c in codes
    ):
        raise InvalidConfig(
            "bad_deck",
            f"{option} must be a list of {colour} card codes, top first "
            f"(e.g. {CODE[full[0]]!r})",
            option=option,
        )
    chars = [BY_CODE[c] for c in codes]
    wrong = [c for c, ch in zip(codes, chars, strict=True) if ch not in full]
    if wrong:
        raise InvalidConfig(
            "bad_deck",
            f"{option} may hold only {colour} cards, got {wrong}",
            option=option,
        )
    if len(set(chars)) != len(chars):
        raise InvalidConfig("bad_deck", f"{option} lists a card twice", option=option)
    return "".join(chars)


def _validate(config: Any) -> dict[str, Any]:
    if not isinstance(config, dict):
        raise InvalidConfig(
            "config_not_object", f"config must be a dict, not {type(config).__name__}"
        )
    unknown = sorted(str(k) for k in config if k not in _OPTIONS)
    if unknown:
        raise InvalidConfig(
            "unknown_options",
            f"unknown option(s) {', '.join(unknown)}; allowed: {', '.join(_OPTIONS)}",
            options=", ".join(unknown),
            allowed=", ".join(_OPTIONS),
        )
    players = config.get("players", 2)
    if players != 2 or type(players) is not int:
        raise InvalidConfig(
            "players_exact",
            f"Kung Fu (2013) is for exactly 2 players, got {players!r}",
            count=2,
            players=param_value(players),
        )
    start = config.get("start", "random")
    if not (start == "random" or (type(start) is int and start in (0, 1))):
        raise InvalidConfig(
            "option_choice",
            f"start must be 'random', 0 or 1, got {start!r}",
            option="start",
            choices="random, 0, 1",
            value=param_value(start),
        )
    life = int_option(
        config,
        "life",
        START_LIFE,
        low=1,
        high=LIFE_TOKENS // 2,
        detail=f"life must be an integer from 1 to {LIFE_TOKENS // 2}",
    )
    max_rounds = int_option(
        config,
        "max_rounds",
        DEFAULT_MAX_ROUNDS,
        low=1,
        high=10_000,
        detail="max_rounds must be an integer from 1 to 10000",
    )
    red = config.get("red_deck")
    blue = config.get("blue_deck")
    _stack("red_deck", red, RED_DECK, "red")
    _stack("blue_deck", blue, BLUE_DECK, "blue")
    return {
        "players": 2,
        "start": start,
        "life": life,
        "max_rounds": max_rounds,
        "red_deck": None if red is None else list(red),
        "blue_deck": None if blue is None else list(blue),
    }


# ---------------------------------------------------------------------------
# The engine object.


def _obs_base(key: tuple[int | None, int]) -> dict[str, Any]:
    """An observation's template for (seat, rounds): every field in its
    order, the fixed ones filled in, the others at their default."""
    seat, max_rounds = key
    return {
        "game": "kungfu2013",
        "rules_version": RULES_VERSION,
        "seat": seat,
        "players": 2,
        "round": 0,
        "max_rounds": max_rounds,
        "phase": None,
        "prompt": None,
        "actors": None,
        "pending": None,
        "life": None,
        "initiative": None,
        "starter": None,
        "hand": None,
        "hand_counts": None,
        "decks": None,
        "discards": None,
        "front": None,
        "coins": None,
        "no_block_round": None,
        "battle": None,
        "result": None,
    }


_OBS_BASE: PileViews[tuple[int | None, int], dict[str, Any]] = PileViews(_obs_base)

# The facts a battle's view shows: attacker, attack card, face, block card,
# block done, discarded block, the two seats' activated effects, on-hit
# pending, initiative changes, whether the observer is the attacker.
_BattleKey = tuple[int, str, str, str, bool, str, bool, bool, bool, int, bool]


def _battle_view(key: _BattleKey) -> dict[str, Any]:
    """The battle as an observation shows it (a face-down attack card only to
    its attacker until the block is down)."""
    a, ac, face, bc, blocked, null, act0, act1, hit, flips, attacker = key
    act = [act0, act1]
    b = {"act": act}  # what ``_value`` reads
    shown = face == "u" or blocked
    return {
        "attacker": a,
        "defender": 1 - a,
        "attack": _VIEW[ac] if ac and (shown or attacker) else None,
        "attack_played": bool(ac) and bool(face),
        "face": _FACE.get(face),
        "revealed": bool(ac) and shown,
        "block": _VIEW[bc or null] if bc or null else None,
        "block_done": blocked,
        "block_discarded": bool(null),
        "activated": act,
        "attack_value": (_value(b, ac, a) if ac and shown else None),
        "block_value": (_value(b, bc, 1 - a) if bc else (0 if blocked else None)),
        "on_hit_pending": hit,
        "initiative_changes": flips,
    }


_BATTLES: PileViews[_BattleKey, dict[str, Any]] = PileViews(_battle_view)


class KungFu2013Game(EngineBase):
    """Kung Fu (2013) behind the engine contract of ``gameplay.rules``.

    Timeout default (each menu's first entry): keep the initiative, draw the
    colour you hold fewer of, attack with the weakest card face up, block with
    the weakest card that stops a face-up attack, never activate an effect, pay
    with the smallest coin card, discard the opponent's richest coin card, draw
    the difference.
    """

    id = "kungfu2013"
    name = "Kung Fu (2013)"
    min_players = 2
    max_players = 2
    rules_version = RULES_VERSION
    # ``random_playout`` runs in the C kernel (_fastplay.c) when it is built.
    native_playout = NATIVE

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Normalized config (every option present) or InvalidConfig."""
        return _validate(config)

    def setup(self, config: dict[str, Any], seed: int) -> State:
        """Shuffle both decks, deal three of each colour, pick the starter."""
        cfg = self._setup_config(config, seed)
        r = _rng.seed_state(seed)
        decks = []
        for option, full in (("red_deck", RED_DECK), ("blue_deck", BLUE_DECK)):
            top = _stack(option, cfg[option], full, "") or ""
            rest = "".join(c for c in full if c not in top) if top else full
            r, rest = _rng.shuffled(r, rest)
            decks.append(rest + top[::-1])  # bottom -> top; first listed on top
        if cfg["start"] == "random":
            r, starter = _rng.randbelow(r, 2)
        else:
            starter = cfg["start"]
        s: State = {
            "game": self.id,
            "rules_version": RULES_VERSION,
            "cfg": cfg,
            "rng": r,
            "life": [cfg["life"], cfg["life"]],
            "hands": ["", ""],
            "rdeck": decks[0],
            "bdeck": decks[1],
            "rdisc": "",
            "bdisc": "",
            "front": ["", ""],
            "init": starter,
            "starter": starter,
            "round": 0,
            "noblk": [0, 0],
            "b": _new_battle(starter),
            "todo": [["round"]],
            "phase": INITIATIVE,
            "actor": starter,
            "result": None,
        }
        # The deal: three from each deck to each player, starting player first.
        for seat in (starter, 1 - starter):
            for dk in ("rdeck", "bdeck"):
                s["hands"][seat] += s[dk][-3:][::-1]
                s[dk] = s[dk][:-3]
        _run(s, None)  # the first round starts; setup returns no events
        return s

    # -- queries -----------------------------------------------------------

    def actors(self, state: State) -> list[int]:
        """The seat to act ([] once the game is over); never two at once."""
        a = state["actor"]
        return [] if a < 0 else [a]

    def legal_action_ids(self, state: State, seat: int | None) -> list[str]:
        """Fast path: just the ids, the first one being the timeout default.

        Built in C when the optional extension is there (``_native_legal``),
        the same menus as :meth:`_legal_action_ids_py`, which runs for what
        it declines; tests/rules/test_kungfu2013_observe.py holds the two equal.
        """
        if _native_legal is not None:
            ids = _native_legal(state, seat)
            if ids is not None:
                return ids
        return self._legal_action_ids_py(state, seat)

    def _legal_action_ids_py(self, state: State, seat: int | None) -> list[str]:
        """The menu of ``seat`` ([] when it is not that seat's decision)."""
        if seat != state["actor"] or state["actor"] < 0:
            return []
        phase = state["phase"]
        # The four two-way decisions (about 40% of a random game's steps) need
        # no menu builder's call.
        fixed = _FIXED.get(phase)
        return list(_MENUS[phase](state) if fixed is None else fixed)

    def legal_actions(self, state: State, seat: int | None) -> list[Action]:
        """The menu for ``seat`` ([] when it is not that seat's decision)."""
        return [dict(ACTION_INFO[i]) for i in self.legal_action_ids(state, seat)]

    # -- transitions ---------------------------------------------------------

    def apply(
        self, state: State, seat: int | None, action_id: str
    ) -> tuple[State, list[Event]]:
        """Apply one decision; never mutates ``state``.

        Validation happens before any copy is made, so a refused action costs
        nothing and leaves the caller's state exactly as it was.
        """
        act = _accept(state, seat, action_id)
        # ``clone`` without copying ``life``, ``front`` and ``noblk``: the rules
        # replace those lists when they change them (copy-on-write, above).
        s = state.copy()
        s["hands"] = state["hands"][:]
        s["todo"] = state["todo"][:]
        s["b"] = state["b"].copy()
        ev: list[Event] = []
        act[4](s, ev, seat, act[3], action_id)
        _run(s, ev)
        return s, ev

    def apply_in_place(self, state: State, seat: int, action_id: str) -> None:
        """``apply`` for playouts: changes ``state`` itself and builds no events.

        The same validation and the same rule code as ``apply`` (its handlers and
        task loop, with the event list left out), so ``apply_in_place`` on a
        clone gives exactly ``apply``'s next state. For simulations and search on
        states the caller owns (from ``setup``, ``clone``, ``apply`` or
        ``determinize``, not shared with anyone); a refused action raises the
        same errors before anything changes. Live matches use ``apply``, whose
        events are the match log.
        """
        act = _accept(state, seat, action_id)
        act[4](state, None, seat, act[3], action_id)
        _run(state, None)

    def playout(
        self,
        state: State,
        choose: Callable[[State, int, tuple[str, ...]], str],
        max_steps: int | None = None,
    ) -> int:
        """Play ``state`` on in place until the game ends (or ``max_steps``
        decisions): ``choose(state, seat, ids)`` picks each decision among the
        legal ids (a tuple in menu order, as ``legal_action_ids`` lists them).

        A loop of ``apply_in_place`` without the per-call overhead: the same
        menus, handlers and task loop; the legality check is ``id in ids``. An
        illegal choice raises IllegalAction, the state left after the last legal
        decision. Returns the number of decisions made. For simulations and
        search on a state the caller owns (see ``apply_in_place``).
        """
        if type(state) is not dict or state.get("rules_version") != RULES_VERSION:
            self._check(state)
        menus = _MENUS
        act_of = _ACT
        run = _run
        steps = 0
        limit = -1 if max_steps is None else max_steps
        while state["actor"] >= 0 and steps != limit:
            seat = state["actor"]
            ids = menus[state["phase"]](state)
            aid = choose(state, seat, ids)
            if type(aid) is not str or aid not in ids:
                _accept_slow(state, seat, aid)  # raises: not in the menu
            act = act_of[aid]
            act[4](state, None, seat, act[3], aid)
            run(state, None)
            steps += 1
        return steps

    def random_playout(
        self, state: State, seed: int, max_steps: int | None = None
    ) -> int:
        """``playout`` with uniform random choices, natively when it can.

        Each decision takes ``ids[rng.randbelow(stream, len(ids))]``, the stream
        seeded ``rng.seed_state(seed)`` (``uniform_chooser(seed)``). With the C
        kernel built (``NATIVE``) the whole game runs in C and ends exactly as
        ``playout(state, uniform_chooser(seed), max_steps)`` ends it; otherwise
        that is what runs. In place, on a state the caller owns; returns the
        number of decisions made.
        """
        if _native is None:
            return self.playout(state, uniform_chooser(seed), max_steps)
        return self._native_playout(_native.playout, state, seed, max_steps)

    def native_policy_playout(
        self, state: State, seed: int, max_steps: int | None = None
    ) -> int:
        """The playout policy of rollout.py played in C (``native_policy()``).

        Exactly ``playout(state, rollout.policy_chooser(seed), max_steps)``
        (rollout.py's ``playout`` picks between the two); the policy's rules
        live in rollout.py, the kernel only repeats them.
        """
        if not native_policy():
            raise RuntimeError("the kungfu2013 kernel has no policy_playout")
        return self._native_playout(_native.policy_playout, state, seed, max_steps)

    def _native_playout(
        self,
        kernel: Callable[[tuple[Any, ...], int, int], tuple[tuple[Any, ...], int, int]],
        state: State,
        seed: int,
        max_steps: int | None,
    ) -> int:
        if type(state) is not dict or state.get("rules_version") != RULES_VERSION:
            self._check(state)
        if state["actor"] < 0 or max_steps == 0:
            return 0
        fields, _, steps = kernel(
            _native_fields(state),
            int(_rng.seed_state(seed), 16),
            -1 if max_steps is None else max_steps,
        )
        _native_store(state, fields)
        return steps

    def clone(self, state: State) -> State:
        """A copy the engine may mutate: the dict, the short lists, the battle.

        Cards are strings (immutable), tasks are replaced rather than edited, and
        the battle's lists are replaced when they change, so this is all it takes.
        """
        s = state.copy()
        s["hands"] = state["hands"][:]
        s["front"] = state["front"][:]
        s["life"] = state["life"][:]
        s["noblk"] = state["noblk"][:]
        s["todo"] = state["todo"][:]
        s["b"] = state["b"].copy()
        return s

    # -- information ---------------------------------------------------------

    def observe(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now: see :meth:`_observe_py`.

        Built in C when the optional extension is there (``_native_observe``):
        the same fields from the same allow-list, keys in the same order; it
        declines a finished game, an invalid seat and anything malformed, which
        ``_observe_py`` then handles (its errors raised there).
        tests/rules/test_kungfu2013_observe.py holds the two equal.
        """
        if _native_observe is not None:
            obs = _native_observe(state, seat)
            if obs is not None:
                return obs
        return self._observe_py(state, seat)

    def _observe_py(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now, built field by field from an allow-list.

        Hidden: the opponent's hand (its size per colour is public, since the
        two decks' backs differ and every draw names its deck), both decks'
        order, a face-down attack card until the block is down (from everyone
        but the attacker), and the RNG state.
        """
        if type(seat) is bool or (seat is not None and seat not in (0, 1)):
            raise GameError(f"seat must be None, 0 or 1, got {seat!r}")
        ph = state["phase"]
        b = state["b"]
        hands = state["hands"]
        a = b["a"]
        actor = state["actor"]
        battle = None
        if ph != OVER or b["ac"]:
            # The battle's view from the facts it shows (a shared read-only
            # dict, built once per distinct facts: gameplay.rules.views).
            act = b["act"]
            battle = _BATTLES[
                a,
                b["ac"],
                b["face"],
                b["bc"],
                b["blocked"],
                b["null"],
                act[0],
                act[1],
                b["hit"],
                len(b["flip"]),
                seat == a,
            ]
        pending: dict[str, Any] = {}
        if actor >= 0 and state["todo"]:
            t = state["todo"][-1]
            if ph == DRAW:
                pending = {"draws": t[2]}
            elif ph == PAY:
                pending = {"coins_due": t[2]}
            elif ph == REWARD:
                pending = {"difference": b["bv"] - b["av"]}
        front = state["front"]
        # The fields fixed for a seat and game length come from a template
        # copied per call (cheaper than a literal of 21 keys, same key order).
        obs = _OBS_BASE[seat, state["cfg"]["max_rounds"]].copy()
        rnd = state["round"]
        obs["round"] = rnd
        obs["phase"] = ph
        obs["prompt"] = PROMPTS[ph]
        obs["actors"] = [] if actor < 0 else [actor]
        obs["pending"] = pending
        obs["life"] = [*state["life"]]
        obs["initiative"] = state["init"]
        obs["starter"] = state["starter"]
        if seat is not None:
            # A cache hit most of the time when every seat is observed after
            # each step (the live server), about 40% in a random game's loop;
            # a miss builds here, not in ``PileViews.__missing__``'s two calls.
            hand = hands[seat]
            view = _HAND_VIEWS.get(hand)
            if view is None:
                if len(_HAND_VIEWS) >= _VIEWS_LIMIT:
                    _HAND_VIEWS.clear()
                view = _HAND_VIEWS[hand] = _items(_VIEW_OF_BYTE, sorted(hand.encode()))
            obs["hand"] = [*view]
        h0, h1 = hands
        obs["hand_counts"] = [
            _HAND_COUNTS[len(h0)][h0.encode().translate(_RED_AS_ZERO).count(0)],
            _HAND_COUNTS[len(h1)][h1.encode().translate(_RED_AS_ZERO).count(0)],
        ]
        obs["decks"] = {"red": len(state["rdeck"]), "blue": len(state["bdeck"])}
        obs["discards"] = {
            "red": [*_PILE_VIEWS[state["rdisc"]]],
            "blue": [*_PILE_VIEWS[state["bdisc"]]],
        }
        obs["front"] = [[*_PILE_VIEWS[front[0]]], [*_PILE_VIEWS[front[1]]]]
        obs["coins"] = [_COIN_SUMS[front[0]], _COIN_SUMS[front[1]]]
        # The round in which each player may not block (a "no block" effect),
        # while it is still ahead.
        # (Two seats written out: on Python 3.11 a comprehension is a call.)
        nb0, nb1 = state["noblk"]
        obs["no_block_round"] = [
            nb0 if nb0 >= rnd else None,
            nb1 if nb1 >= rnd else None,
        ]
        obs["battle"] = battle
        if state["result"] is not None:
            obs["result"] = self.result(state)
        return obs

    def determinize(self, state: State, seat: int, rng_seed: int) -> State:
        """A full state ``seat`` cannot tell apart from ``state`` right now.

        Kept: everything in ``seat``'s observation (own hand, piles, coin cards,
        counts per colour). Re-dealt at random within each colour: the
        opponent's hand, both decks, and a face-down attack card the seat has not
        seen. The RNG is reseeded so future shuffles are unknown too.
        """
        s = self.clone(state)
        b = s["b"]
        opp = 1 - seat
        hidden_attack = (
            bool(b["ac"]) and seat != b["a"] and not (b["face"] == "u" or b["blocked"])
        )
        hand = s["hands"][opp]
        opp_red = _reds(hand)
        opp_blue = _blues(hand)
        red_pool = opp_red + s["rdeck"] + (b["ac"] if hidden_attack else "")
        blue_pool = opp_blue + s["bdeck"]
        # Sorted first: the sample depends only on what ``seat`` knows.
        r = _rng.seed_state(rng_seed)
        r, red = _rng.shuffled(r, "".join(sorted(red_pool)))
        r, blue = _rng.shuffled(r, "".join(sorted(blue_pool)))
        nr, nb = len(opp_red), len(opp_blue)
        s["hands"][opp] = red[:nr] + blue[:nb]
        rest = red[nr:]
        if hidden_attack:
            b["ac"] = rest[-1]
            rest = rest[:-1]
        s["rdeck"] = rest
        s["bdeck"] = blue[nb:]
        s["rng"] = r
        return s
