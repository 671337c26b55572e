"""Kung Fu (2013)'s menus: every action id with its label, and each phase's menu.

The engine's ``legal_action_ids`` and ``playout`` call a phase's menu
builder directly; the C code (``_fastobserve.c``) builds the same menus from
the tables it is handed here (:mod:`.native`).
"""

from __future__ import annotations

from gameplay.rules.base import Action, State
from gameplay.rules.kungfu2013.alphabet import (
    _BLUE_BYTES,
    _RED_AS_ZERO,
    _RED_BYTES,
    ALPHABET,
    BLUE_DECK,
    BY_CODE,
    CARDS,
    CODE,
    COINS,
    FIRST_BLUE,
    RED_DECK,
    VALUE,
    _items,
)
from gameplay.rules.kungfu2013.phases import (
    ATTACK,
    BLOCK,
    DRAW,
    EFFECT_PHASE,
    FACE,
    INITIATIVE,
    OVER,
    PAY,
    REWARD,
    TARGET,
)


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
