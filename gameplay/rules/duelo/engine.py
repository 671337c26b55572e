"""Duelo: Kung Fu (Mandala Jogos, 2016): the complete rules as a state machine.

Representation, chosen for speed and a lossless JSON round trip:

* A card is one character ``"1"``..``"8"``: its Focus. Copies of a card are
  indistinguishable at the table, so cards carry no identity at all, which also
  means face-down cards can never leak a stable id.
* The deck, the discard pile, hands and prize piles are strings (immutable), so
  cloning a state copies a dict and a handful of short lists, never the cards.
  The deck string runs bottom to top: the top card is ``deck[-1]``.
* Every decision is its own small menu (choose a card, then face up or down,
  then a target, then the opponent's answer, then each optional effect) and the
  state records whose decision it is in ``phase``/``actor``/``ctx``.

Every reading of an ambiguous rule is listed, with the rulebook section it
interprets, in ``docs/rules/duelo.md``; comments here name the reading briefly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
from gameplay.rules.views import LastView, Pile, PileViews

RULES_VERSION = "duelo-1"

NAMES = {
    "1": "Disciple",
    "2": "Drunken Fists",
    "3": "Crane Style",
    "4": "Snake Style",
    "5": "Monkey Style",
    "6": "Tiger Style",
    "7": "Dragon Style",
    "8": "Master of Kung Fu",
}
FOCUS = {k: int(k) for k in NAMES}
KINDS = "12345678"
# One box (24 cards) and two boxes without the second Master (47 cards).
BASE_DECK = "111111222333444555666778"
DOUBLE_DECK = "1" * 12 + "2" * 6 + "3" * 6 + "4" * 6 + "5" * 6 + "6" * 6 + "7777" + "8"
MAX_ROUNDS = 12  # the box holds 12 Victory Markers

KEY = [str(i) for i in range(8)]  # seat -> key of an event's private part

# Phases. The actor of each phase is stored in state["actor"].
CARD = "card"  # active player chooses the card to play
FACE = "face"  # ... then face up or face down
TARGET = "target"  # ... then, face down, the opponent to duel
ANSWER = "answer"  # the challenged opponent answers face down
C_DISCIPLE = "c_disciple"  # combat Disciple: reveal the top card to copy its Focus?
C_MONKEY = "c_monkey"  # combat Monkey: put the hand under the deck and redraw?
C_MONKEY_ORDER = "c_monkey_order"  # ... which card goes under next
DRAGON_DRAW = "dragon_draw"  # Dragon won or tied: draw one card or two?
U_DISCIPLE = "u_disciple"  # discard Disciple: reveal the top card to copy its effect?
DRUNK_PUT = "drunk_put"  # Drunken Fists: which card goes back on top next
SNAKE_TARGET = "snake_target"  # Snake: which opponent separates a card
SNAKE_SEPARATE = "snake_separate"  # ... that opponent chooses the card
SNAKE_GUESS = "snake_guess"  # ... the active player guesses odd or even
MONKEY_A = "monkey_a"  # Monkey: first of the two players who swap hands
MONKEY_B = "monkey_b"  # ... second player
TIGER_TARGET = "tiger_target"  # Tiger: whose hand to look at next turn
DRAGON_PEEK = "dragon_peek"  # Dragon: keep the top card on top or move it under
OVER = "over"

PHASES = (
    CARD,
    FACE,
    TARGET,
    ANSWER,
    C_DISCIPLE,
    C_MONKEY,
    C_MONKEY_ORDER,
    DRAGON_DRAW,
    U_DISCIPLE,
    DRUNK_PUT,
    SNAKE_TARGET,
    SNAKE_SEPARATE,
    SNAKE_GUESS,
    MONKEY_A,
    MONKEY_B,
    TIGER_TARGET,
    DRAGON_PEEK,
)

PROMPTS = {
    CARD: "choose the card to play",
    FACE: "play the card face up (discard effect) or face down (duel)",
    TARGET: "choose the opponent to duel",
    ANSWER: "answer the duel with a face-down card",
    C_DISCIPLE: "Disciple: reveal the top card to copy its Focus?",
    C_MONKEY: "Monkey Style: put your hand under the deck and redraw (Focus 1)?",
    C_MONKEY_ORDER: "Monkey Style: choose the next card to put under the deck",
    DRAGON_DRAW: "Dragon Style: draw one card or two?",
    U_DISCIPLE: "Disciple: reveal the top card to copy its discard effect?",
    DRUNK_PUT: "Drunken Fists: choose a card to put on top of the deck",
    SNAKE_TARGET: "Snake Style: choose the opponent who separates a card",
    SNAKE_SEPARATE: "Snake Style: separate one card from your hand",
    SNAKE_GUESS: "Snake Style: guess whether the separated card is odd or even",
    MONKEY_A: "Monkey Style: choose the first player whose hand is swapped",
    MONKEY_B: "Monkey Style: choose the second player whose hand is swapped",
    TIGER_TARGET: "Tiger Style: choose the opponent whose hand you look at next turn",
    DRAGON_PEEK: "Dragon Style: keep the top card on top or put it under the deck?",
    OVER: "the game is over",
}

# Phases of a face-up play (the played card is on the table, face up) and of a
# revealed duel, used by observe() to describe the table.
_UP_PHASES = frozenset(
    {
        U_DISCIPLE,
        DRUNK_PUT,
        SNAKE_TARGET,
        SNAKE_SEPARATE,
        SNAKE_GUESS,
        MONKEY_A,
        MONKEY_B,
        TIGER_TARGET,
        DRAGON_PEEK,
    }
)
_DUEL_PHASES = frozenset({C_DISCIPLE, C_MONKEY, C_MONKEY_ORDER, DRAGON_DRAW})
_PEEK_PHASES = frozenset({C_DISCIPLE, U_DISCIPLE, DRAGON_PEEK})


class _RoundOver(Exception):
    """Raised deep inside an effect when the round ends (deck out / last standing).

    Unwinding with an exception keeps every effect's code linear: a draw from an
    empty deck can happen in the middle of Drunken Fists, a duel prize or Dragon's
    extra card, and the round must end right there.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# ---------------------------------------------------------------------------
# Action catalogue: every id that can ever appear, with its label, built once.


def _action_info() -> dict[str, Action]:
    info: dict[str, Action] = {}

    def add(aid: str, label: str, **fields: Any) -> None:
        info[aid] = {"id": aid, "label": label, **fields}

    for k, name in NAMES.items():
        f = FOCUS[k]
        add(f"card:{k}", f"{name} ({f})", type="card", card=f)
        add(f"answer:{k}", f"Answer with {name} ({f})", type="answer", card=f)
        add(f"bottom:{k}", f"Put {name} under the deck", type="bottom", card=f)
        add(f"put:{k}", f"Put {name} on top of the deck", type="put", card=f)
        add(f"separate:{k}", f"Separate {name} ({f})", type="separate", card=f)
    for o in range(8):
        add(f"target:{o}", f"Duel seat {o}", type="target", seat=o)
        add(f"snake:{o}", f"Seat {o} separates a card", type="snake", seat=o)
        add(f"swap:{o}", f"Swap the hand of seat {o}", type="swap", seat=o)
        add(f"tiger:{o}", f"Look at seat {o}'s hand next turn", type="tiger", seat=o)
    add("face:up", "Play face up (discard effect)", type="face", face="up")
    add("face:down", "Play face down (duel)", type="face", face="down")
    add("reveal:no", "Do not reveal", type="reveal", reveal=False)
    add("reveal:yes", "Reveal the card and copy it", type="reveal", reveal=True)
    add("monkey:skip", "Keep your hand (Focus 5)", type="monkey", use=False)
    add("monkey:use", "Put your hand under the deck, redraw (Focus 1)", type="monkey")
    info["monkey:use"]["use"] = True
    add("dragon:one", "Draw one card", type="dragon", draws=1)
    add("dragon:two", "Draw two cards", type="dragon", draws=2)
    add("guess:odd", "Guess ODD", type="guess", guess="odd")
    add("guess:even", "Guess EVEN", type="guess", guess="even")
    add("peek:keep", "Leave the card on top", type="peek", bottom=False)
    add("peek:bottom", "Put the card under the deck", type="peek", bottom=True)
    return info


ACTION_INFO = _action_info()
# Action id -> the part after the colon, handed to the phase's handler.
ACTION_ARG = {aid: aid.split(":", 1)[1] for aid in ACTION_INFO}

_MENUS: dict[tuple[str, str], tuple[str, ...]] = {}


def _menu(prefix: str, hand: str) -> tuple[str, ...]:
    """Ids ``prefix + kind`` for the distinct kinds in ``hand``, lowest first.

    Cached per (prefix, hand string): there are only a few thousand hands, and
    this is the hottest function of a playout.
    """
    key = (prefix, hand)
    menu = _MENUS.get(key)
    if menu is None:
        menu = _MENUS[key] = tuple(prefix + k for k in sorted(set(hand)))
    return menu


_RINGS = [[tuple((a + i) % n for i in range(1, n)) for a in range(n)] for n in range(9)]
# Every seat from ``a`` clockwise, ``a`` first.
_CYCLES = [[(a, *ring) for a, ring in enumerate(rings)] for rings in _RINGS]
_SEAT_IDS = {p: [f"{p}{o}" for o in range(8)] for p in ("target:", "snake:", "swap:")}
_SEAT_IDS["tiger:"] = [f"tiger:{o}" for o in range(8)]
_FIXED = {
    FACE: ("face:up", "face:down"),
    C_DISCIPLE: ("reveal:no", "reveal:yes"),
    U_DISCIPLE: ("reveal:no", "reveal:yes"),
    C_MONKEY: ("monkey:skip", "monkey:use"),
    DRAGON_DRAW: ("dragon:one", "dragon:two"),
    SNAKE_GUESS: ("guess:odd", "guess:even"),
    DRAGON_PEEK: ("peek:keep", "peek:bottom"),
}
_UP_ONLY = ("face:up",)


def _opponents(s: State, a: int) -> list[int]:
    """Opponents ``a`` may target: alive and not protected by Crane Style."""
    alive = s["alive"]
    crane = s["crane"]
    return [o for o in _RINGS[s["n"]][a] if alive[o] and not crane[o]]


def _ids_face(s: State) -> tuple[str, ...]:
    a = s["actor"]
    alive = s["alive"]
    crane = s["crane"]
    for o in _RINGS[s["n"]][a]:
        if alive[o] and not crane[o]:
            return _FIXED[FACE]
    return _UP_ONLY


def _hand_menu(prefix: str) -> Callable[[State], tuple[str, ...]]:
    cache: dict[str, tuple[str, ...]] = {}

    def ids(s: State) -> tuple[str, ...]:
        hand = s["hands"][s["actor"]]
        menu = cache.get(hand)
        if menu is None:
            menu = cache[hand] = _menu(prefix, hand)
        return menu

    return ids


def _ids_target(s: State) -> list[str]:
    ids = _SEAT_IDS["target:"]
    return [ids[o] for o in _opponents(s, s["actor"])]


def _ids_snake_target(s: State) -> list[str]:
    ids = _SEAT_IDS["snake:"]
    hands = s["hands"]
    return [ids[o] for o in _opponents(s, s["actor"]) if hands[o]]


def _ids_tiger_target(s: State) -> list[str]:
    ids = _SEAT_IDS["tiger:"]
    return [ids[o] for o in _opponents(s, s["actor"])]


def _ids_monkey_a(s: State) -> list[str]:
    ids = _SEAT_IDS["swap:"]
    a = s["actor"]
    return [ids[a]] + [ids[o] for o in _opponents(s, a)]


def _ids_monkey_b(s: State) -> list[str]:
    ids = _SEAT_IDS["swap:"]
    a = s["actor"]
    first = s["ctx"]["swap"]
    return [ids[o] for o in [a, *_opponents(s, a)] if o != first]


def _constant(ids: tuple[str, ...]) -> Callable[[State], tuple[str, ...]]:
    return lambda s: ids


def _ids_over(s: State) -> tuple[str, ...]:
    return ()


# Phase -> function returning the actor's legal ids (first = timeout default).
_IDS: dict[str, Callable[[State], tuple[str, ...] | list[str]]] = {
    CARD: _hand_menu("card:"),
    ANSWER: _hand_menu("answer:"),
    FACE: _ids_face,
    TARGET: _ids_target,
    DRUNK_PUT: _hand_menu("put:"),
    C_MONKEY_ORDER: _hand_menu("bottom:"),
    SNAKE_SEPARATE: _hand_menu("separate:"),
    SNAKE_TARGET: _ids_snake_target,
    TIGER_TARGET: _ids_tiger_target,
    MONKEY_A: _ids_monkey_a,
    MONKEY_B: _ids_monkey_b,
    OVER: _ids_over,
    **{ph: _constant(ids) for ph, ids in _FIXED.items() if ph != FACE},
}


def _ids(s: State) -> tuple[str, ...] | list[str]:
    """Legal action ids of the current actor; the first one is the timeout default."""
    return _IDS[s["phase"]](s)


# ---------------------------------------------------------------------------
# Small helpers used by the effects. Events are written as dict literals
# ({"type", "public", "private"}, as ``gameplay.rules.base.event`` builds them):
# a helper's call cost about a tenth of ``apply`` at 1.7 events a step.


def _cards(cards: str) -> list[int]:
    """Public/own card list as Focus values, sorted so order reveals nothing."""
    return sorted(FOCUS[c] for c in cards)


def _draw(s: State, ev: list[Event], seat: int) -> None:
    """Draw the top card for ``seat``; an empty deck refills once or ends the round."""
    deck = s["deck"]
    if not deck:
        cfg = s["cfg"]
        if cfg["reshuffle_discard"] and not s["reshuffled"] and s["discard"]:
            # Optional rule for 4 players: the first time a draw meets an empty
            # deck, the discard pile becomes the new deck.
            s["reshuffled"] = True
            s["rng"], deck = _rng.shuffled(s["rng"], s["discard"])
            s["discard"] = ""
            ev.append(
                {
                    "type": "reshuffle",
                    "public": {"deck_count": len(deck)},
                    "private": {},
                }
            )
        else:
            raise _RoundOver("deck_out")
    c = deck[-1]
    s["deck"] = deck[:-1]
    s["hands"][seat] += c
    ev.append(
        {
            "type": "draw",
            "public": {"seat": seat, "deck_count": len(deck) - 1},
            "private": {KEY[seat]: {"card": FOCUS[c]}},
        }
    )


def _peek(s: State) -> tuple[str, str]:
    """The card a Disciple looks at: the deck's top, else the set-aside card."""
    deck = s["deck"]
    if deck:
        return deck[-1], "deck"
    return s["aside"], "set_aside"


def _eliminate(s: State, ev: list[Event], seat: int, reason: str) -> None:
    """Take ``seat`` out of the round; the hand goes to the discard pile face up."""
    # ``alive``, ``crane``, ``tiger`` and ``prizes`` are copy-on-write: apply()
    # shares them with the state it was given, so they are replaced, not edited.
    alive = s["alive"] = s["alive"][:]
    alive[seat] = False
    hand = s["hands"][seat]
    s["hands"][seat] = ""
    s["discard"] += hand
    s["out"] = [*s["out"], seat]  # copy-on-write: clone() shares this list
    crane = s["crane"]
    if crane[seat]:
        crane = s["crane"] = crane[:]
        crane[seat] = False
    tiger = s["tiger"]
    if tiger[seat] >= 0:
        tiger = s["tiger"] = tiger[:]
        tiger[seat] = -1
    ev.append(
        {
            "type": "eliminated",
            "public": {"seat": seat, "reason": reason, "hand": _cards(hand)},
            "private": {},
        }
    )
    if s["alive"].count(True) <= 1:
        raise _RoundOver("last_standing")


def _tiger_look(s: State, ev: list[Event], seat: int, target: int) -> None:
    ev.append(
        {
            "type": "tiger_look",
            "public": {"seat": seat, "target": target},
            "private": {
                KEY[seat]: {"target": target, "hand": _cards(s["hands"][target])}
            },
        }
    )


def _remove(s: State, seat: int, card: str) -> None:
    s["hands"][seat] = s["hands"][seat].replace(card, "", 1)


# ---------------------------------------------------------------------------
# Turn structure.


def _begin_turn(s: State, ev: list[Event]) -> None:
    a = s["turn"]
    s["phase"] = CARD
    s["actor"] = a
    s["ctx"] = {}
    ev.append(
        {"type": "turn", "public": {"seat": a, "turn": s["turns"]}, "private": {}}
    )
    if s["crane"][a]:
        # Crane protection lasts until its owner's next turn (copy-on-write).
        crane = s["crane"] = s["crane"][:]
        crane[a] = False
        ev.append({"type": "protection_ends", "public": {"seat": a}, "private": {}})
    t = s["tiger"][a]
    if t >= 0:
        tiger = s["tiger"] = s["tiger"][:]
        tiger[a] = -1
        if s["alive"][t] and not s["crane"][t]:
            _tiger_look(s, ev, a, t)
        else:
            ev.append(
                {
                    "type": "tiger_fizzles",
                    "public": {"seat": a, "target": t},
                    "private": {},
                }
            )
    _draw(s, ev, a)


def _end_turn(s: State, ev: list[Event]) -> None:
    a = s["turn"]
    n = s["n"]
    alive = s["alive"]
    hands = s["hands"]
    for x in _CYCLES[n][a]:
        if alive[x] and not hands[x]:
            _eliminate(s, ev, x, "no_cards")
    alive = s["alive"]  # a new list if someone was eliminated (copy-on-write)
    for x in _RINGS[n][a]:
        if alive[x]:
            s["turn"] = x
            break
    s["turns"] += 1
    _begin_turn(s, ev)


def _finish_up(s: State, ev: list[Event]) -> None:
    """End of a face-up play: the card goes to the discard pile, then the turn ends."""
    a = s["turn"]
    k = s["table"]
    s["table"] = ""
    s["discard"] += k
    if k == "8":
        _eliminate(s, ev, a, "master_discarded")
    _end_turn(s, ev)


def _discard_effect(s: State, ev: list[Event], a: int, k: str) -> bool:
    """Start the discard effect of kind ``k``; True when it waits for a decision."""
    ctx = s["ctx"]
    if k == "1":
        peek, source = _peek(s)
        ctx["peek"] = peek
        s["phase"] = U_DISCIPLE
        ev.append(
            {
                "type": "disciple_look",
                "public": {"seat": a, "source": source},
                "private": {KEY[a]: {"card": FOCUS[peek], "source": source}},
            }
        )
        return True
    if k == "2":
        _draw(s, ev, a)
        _draw(s, ev, a)
        ctx["left"] = 2
        s["phase"] = DRUNK_PUT
        return True
    if k == "3":
        crane = s["crane"] = s["crane"][:]  # copy-on-write
        crane[a] = True
        ev.append({"type": "protected", "public": {"seat": a}, "private": {}})
        return False
    if k == "4":
        hands = s["hands"]
        if not any(hands[o] for o in _opponents(s, a)):
            ev.append(
                {"type": "fizzles", "public": {"seat": a, "card": 4}, "private": {}}
            )
            return False
        s["phase"] = SNAKE_TARGET
        return True
    if k == "5":
        if not _opponents(s, a):
            # Only the player themself is eligible: one player cannot swap.
            ev.append(
                {"type": "fizzles", "public": {"seat": a, "card": 5}, "private": {}}
            )
            return False
        s["phase"] = MONKEY_A
        return True
    if k == "6":
        if not _opponents(s, a):
            ev.append(
                {"type": "fizzles", "public": {"seat": a, "card": 6}, "private": {}}
            )
            return False
        s["phase"] = TIGER_TARGET
        return True
    if k == "7":
        deck = s["deck"]
        if not deck:
            ev.append(
                {
                    "type": "dragon_look",
                    "public": {"seat": a, "empty": True},
                    "private": {},
                }
            )
            _draw(s, ev, a)
            return False
        ctx["peek"] = deck[-1]
        s["phase"] = DRAGON_PEEK
        ev.append(
            {
                "type": "dragon_look",
                "public": {"seat": a},
                "private": {KEY[a]: {"card": FOCUS[deck[-1]]}},
            }
        )
        return True
    return False  # the Master has no discard effect


# ---------------------------------------------------------------------------
# Decision handlers: (state copy, events, acting seat, argument after the colon).


def _h_card(s: State, ev: list[Event], a: int, k: str) -> None:
    _remove(s, a, k)
    s["table"] = k
    s["ctx"] = {"card": k}
    s["phase"] = FACE


def _h_face(s: State, ev: list[Event], a: int, face: str) -> None:
    k = s["ctx"]["card"]
    if face == "up":
        ev.append(
            {"type": "play_up", "public": {"seat": a, "card": FOCUS[k]}, "private": {}}
        )
        if not _discard_effect(s, ev, a, k):
            _finish_up(s, ev)
    else:
        ev.append(
            {
                "type": "play_down",
                "public": {"seat": a},
                "private": {KEY[a]: {"card": FOCUS[k]}},
            }
        )
        s["phase"] = TARGET


def _h_target(s: State, ev: list[Event], a: int, arg: str) -> None:
    o = int(arg)
    s["ctx"]["def"] = o
    s["phase"] = ANSWER
    s["actor"] = o
    ev.append(
        {"type": "challenge", "public": {"attacker": a, "defender": o}, "private": {}}
    )


def _h_answer(s: State, ev: list[Event], o: int, dk: str) -> None:
    ctx = s["ctx"]
    a = s["turn"]
    ak = ctx["card"]
    _remove(s, o, dk)
    s["table"] = ak + dk
    ctx["dk"] = dk
    ctx["fa"] = FOCUS[ak]
    ctx["fd"] = FOCUS[dk]
    ev.append(
        {
            "type": "duel_reveal",
            "public": {"attacker": a, "defender": o, "cards": [FOCUS[ak], FOCUS[dk]]},
            "private": {},
        }
    )
    # Crane Style ignores the opponent's combat effect. Effects that need a
    # decision are queued active player first (simultaneous effects rule).
    a_on = dk != "3"
    d_on = ak != "3"
    fx = []
    for seat, k, on in ((a, ak, a_on), (o, dk, d_on)):
        if not on:
            continue
        # Disciple v Disciple always ties, so looking gains nothing; a Monkey
        # redraw still changes the hand even when it cannot change the result.
        if (k == "1" and ak != dk) or k == "5":
            fx.append([seat, k])
    ctx["fx"] = fx
    _next_fx(s, ev)


def _next_fx(s: State, ev: list[Event]) -> None:
    ctx = s["ctx"]
    fx = ctx["fx"]
    if not fx:
        _resolve_duel(s, ev)
        return
    seat, k = fx[0]
    ctx["fx"] = fx[1:]
    s["actor"] = seat
    if k == "1":
        peek, source = _peek(s)
        ctx["peek"] = peek
        s["phase"] = C_DISCIPLE
        ev.append(
            {
                "type": "disciple_look",
                "public": {"seat": seat, "source": source},
                "private": {KEY[seat]: {"card": FOCUS[peek], "source": source}},
            }
        )
    else:
        s["phase"] = C_MONKEY


def _h_c_disciple(s: State, ev: list[Event], seat: int, arg: str) -> None:
    ctx = s["ctx"]
    peek = ctx.pop("peek")
    if arg == "yes":
        ctx["fa" if seat == s["turn"] else "fd"] = FOCUS[peek]
        ev.append(
            {
                "type": "disciple_reveal",
                "public": {"seat": seat, "card": FOCUS[peek]},
                "private": {},
            }
        )
    _next_fx(s, ev)


def _h_c_monkey(s: State, ev: list[Event], seat: int, arg: str) -> None:
    ctx = s["ctx"]
    if arg == "use":
        ctx["fa" if seat == s["turn"] else "fd"] = 1
        hand = s["hands"][seat]
        ctx["mleft"] = len(hand)
        ev.append(
            {
                "type": "monkey_redraw",
                "public": {"seat": seat, "hand_count": len(hand)},
                "private": {},
            }
        )
        if hand:
            s["phase"] = C_MONKEY_ORDER
            return
    _next_fx(s, ev)


def _h_c_monkey_order(s: State, ev: list[Event], seat: int, k: str) -> None:
    _remove(s, seat, k)
    s["deck"] = k + s["deck"]  # each card goes beneath the ones placed before it
    s["ctx"]["under"] = s["ctx"].get("under", "") + k  # known to the player
    ev.append(
        {
            "type": "put_under",
            "public": {"seat": seat, "deck_count": len(s["deck"])},
            "private": {KEY[seat]: {"card": FOCUS[k]}},
        }
    )
    if s["hands"][seat]:
        return
    for _ in range(s["ctx"]["mleft"]):
        _draw(s, ev, seat)
    _next_fx(s, ev)


def _resolve_duel(s: State, ev: list[Event]) -> None:
    ctx = s["ctx"]
    a = s["turn"]
    o = ctx["def"]
    ak = ctx["card"]
    dk = ctx["dk"]
    fa = ctx["fa"]
    fd = ctx["fd"]
    a_on = dk != "3"
    d_on = ak != "3"
    if ak == dk:
        w, why = -1, "same_name"
    elif ak == "4" and a_on and fd & 1:
        w, why = a, "snake"
    elif dk == "4" and d_on and fa & 1:
        w, why = o, "snake"
    elif fa == fd:
        w, why = -1, "same_focus"
    else:
        low = (ak == "2" and a_on) or (dk == "2" and d_on)
        w = a if (fa < fd) == low else o
        why = "lowest_focus" if low else "highest_focus"
    ev.append(
        {
            "type": "duel_result",
            "public": {
                "attacker": a,
                "defender": o,
                "cards": [FOCUS[ak], FOCUS[dk]],
                "focus": [fa, fd],
                "winner": w if w >= 0 else None,
                "tie": w < 0,
                "reason": why,
            },
            "private": {},
        }
    )
    ctx["winner"] = w
    prizes = s["prizes"] = s["prizes"][:]  # copy-on-write
    s["table"] = ""
    if w < 0:
        prizes[a] += dk
        prizes[o] += ak
        if ak == "6" and a_on:
            _tiger_look(s, ev, a, o)
        if dk == "6" and d_on:
            _tiger_look(s, ev, o, a)
        ctx["drawq"] = [a, o]
    else:
        lose = o if w == a else a
        wk, lk = (ak, dk) if w == a else (dk, ak)
        prizes[w] += lk
        s["discard"] += wk
        if wk == "6" and (a_on if w == a else d_on):
            _tiger_look(s, ev, w, lose)
        if lk == "8":
            _eliminate(s, ev, lose, "master_lost")
        ctx["drawq"] = [w]
    _next_draw(s, ev)


def _next_draw(s: State, ev: list[Event]) -> None:
    """Prize draws, active player first; a Dragon with its effect asks first."""
    ctx = s["ctx"]
    a = s["turn"]
    ak = ctx["card"]
    dk = ctx["dk"]
    q = ctx["drawq"]
    while q:
        x = q[0]
        q = q[1:]
        ctx["drawq"] = q
        dragon = (ak == "7" and dk != "3") if x == a else (dk == "7" and ak != "3")
        if dragon:
            s["phase"] = DRAGON_DRAW
            s["actor"] = x
            return
        _draw(s, ev, x)
    _end_turn(s, ev)


def _h_dragon_draw(s: State, ev: list[Event], seat: int, arg: str) -> None:
    _draw(s, ev, seat)
    if arg == "two":
        ev.append({"type": "dragon_extra", "public": {"seat": seat}, "private": {}})
        _draw(s, ev, seat)
    _next_draw(s, ev)


def _h_u_disciple(s: State, ev: list[Event], a: int, arg: str) -> None:
    ctx = s["ctx"]
    peek = ctx.pop("peek")
    if arg == "yes":
        ev.append(
            {
                "type": "disciple_reveal",
                "public": {"seat": a, "card": FOCUS[peek]},
                "private": {},
            }
        )
        ctx["copied"] = peek
        # A revealed Disciple only "reveals that same Disciple": no effect.
        if peek != "1" and _discard_effect(s, ev, a, peek):
            return
    _finish_up(s, ev)


def _h_drunk_put(s: State, ev: list[Event], a: int, k: str) -> None:
    _remove(s, a, k)
    s["deck"] += k  # the second card chosen ends up on top
    ev.append(
        {
            "type": "put_on_top",
            "public": {"seat": a, "deck_count": len(s["deck"])},
            "private": {KEY[a]: {"card": FOCUS[k]}},
        }
    )
    ctx = s["ctx"]
    ctx["left"] -= 1
    ctx["put"] = ctx.get("put", "") + k  # the player knows what is on top now
    if not ctx["left"]:
        _finish_up(s, ev)


def _h_snake_target(s: State, ev: list[Event], a: int, arg: str) -> None:
    o = int(arg)
    s["ctx"]["target"] = o
    s["phase"] = SNAKE_SEPARATE
    s["actor"] = o
    ev.append(
        {"type": "snake_target", "public": {"seat": a, "target": o}, "private": {}}
    )


def _h_snake_separate(s: State, ev: list[Event], o: int, k: str) -> None:
    s["ctx"]["sep"] = k
    s["phase"] = SNAKE_GUESS
    s["actor"] = s["turn"]
    ev.append(
        {
            "type": "snake_separated",
            "public": {"seat": o},
            "private": {KEY[o]: {"card": FOCUS[k]}},
        }
    )


def _h_snake_guess(s: State, ev: list[Event], a: int, guess: str) -> None:
    ctx = s["ctx"]
    o = ctx["target"]
    k = ctx["sep"]
    correct = (FOCUS[k] & 1 == 1) == (guess == "odd")
    public: dict[str, Any] = {"seat": a, "target": o, "guess": guess}
    public["correct"] = correct
    if correct:
        public["card"] = FOCUS[k]  # discarded face up, so everyone sees it
    seen = {"card": FOCUS[k]}
    ev.append(
        {
            "type": "snake_guess",
            "public": public,
            "private": {KEY[a]: seen, KEY[o]: dict(seen)},
        }
    )
    if correct:
        _remove(s, o, k)
        s["discard"] += k
        if k == "8":
            _eliminate(s, ev, o, "master_discarded")
    _finish_up(s, ev)


def _h_monkey_a(s: State, ev: list[Event], a: int, arg: str) -> None:
    s["ctx"]["swap"] = int(arg)
    s["phase"] = MONKEY_B


def _h_monkey_b(s: State, ev: list[Event], a: int, arg: str) -> None:
    x = s["ctx"]["swap"]
    y = int(arg)
    hands = s["hands"]
    hands[x], hands[y] = hands[y], hands[x]
    ev.append(
        {
            "type": "hands_swapped",
            "public": {
                "seat": a,
                "seats": [x, y],
                "hand_counts": [len(hands[x]), len(hands[y])],
            },
            "private": {
                KEY[x]: {"hand": _cards(hands[x])},
                KEY[y]: {"hand": _cards(hands[y])},
            },
        }
    )
    _finish_up(s, ev)


def _h_tiger_target(s: State, ev: list[Event], a: int, arg: str) -> None:
    o = int(arg)
    tiger = s["tiger"] = s["tiger"][:]  # copy-on-write
    tiger[a] = o
    ev.append({"type": "tiger_mark", "public": {"seat": a, "target": o}, "private": {}})
    _finish_up(s, ev)


def _h_dragon_peek(s: State, ev: list[Event], a: int, arg: str) -> None:
    if arg == "bottom":
        deck = s["deck"]
        s["deck"] = deck[-1] + deck[:-1]
    ev.append(
        {
            "type": "dragon_peek",
            "public": {"seat": a, "to_bottom": arg == "bottom"},
            "private": {},
        }
    )
    _draw(s, ev, a)
    _finish_up(s, ev)


_HANDLERS = {
    CARD: _h_card,
    FACE: _h_face,
    TARGET: _h_target,
    ANSWER: _h_answer,
    C_DISCIPLE: _h_c_disciple,
    C_MONKEY: _h_c_monkey,
    C_MONKEY_ORDER: _h_c_monkey_order,
    DRAGON_DRAW: _h_dragon_draw,
    U_DISCIPLE: _h_u_disciple,
    DRUNK_PUT: _h_drunk_put,
    SNAKE_TARGET: _h_snake_target,
    SNAKE_SEPARATE: _h_snake_separate,
    SNAKE_GUESS: _h_snake_guess,
    MONKEY_A: _h_monkey_a,
    MONKEY_B: _h_monkey_b,
    TIGER_TARGET: _h_tiger_target,
    DRAGON_PEEK: _h_dragon_peek,
}


# ---------------------------------------------------------------------------
# Rounds, scoring and the match.


def _ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Competition ranking ("1224"): 1 + the number of strictly better keys."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def _start_round(s: State, ev: list[Event], starter: int, order: str | None) -> None:
    n = s["n"]
    s["round"] += 1
    if order is None:
        full = DOUBLE_DECK if n > 4 else BASE_DECK
        s["rng"], order = _rng.shuffled(s["rng"], full)
    deck = order
    aside = deck[-1]  # the first card off the top is set aside, unseen
    deck = deck[:-1]
    hands = [""] * n
    for i in range(n):
        x = (starter + i) % n
        hands[x] = deck[-2:]
        deck = deck[:-2]
    s.update(
        deck=deck,
        aside=aside,
        discard="",
        hands=hands,
        prizes=[""] * n,
        hidden=[""] * n,
        alive=[True] * n,
        crane=[False] * n,
        tiger=[-1] * n,
        reshuffled=False,
        out=[],
        turn=starter,
        starter=starter,
        table="",
        ctx={},
    )
    ev.append(
        {
            "type": "round_start",
            "public": {
                "round": s["round"],
                "starter": starter,
                "deck_count": len(deck),
            },
            "private": {KEY[x]: {"hand": _cards(hands[x])} for x in range(n)},
        }
    )
    _begin_turn(s, ev)


def _end_round(s: State, ev: list[Event], reason: str) -> None:
    n = s["n"]
    s["discard"] += s["table"]  # a card still in play is discarded with the round
    s["table"] = ""
    s["ctx"] = {}
    alive = s["alive"]
    hands = s["hands"]
    hidden = s["hidden"] = s["hidden"][:]  # copy-on-write, see clone()
    prizes = s["prizes"]
    record: dict[str, Any] = {"round": s["round"], "reason": reason}
    if reason == "deck_out":
        live = [i for i in range(n) if alive[i]]
        record["hands"] = [_cards(hands[i]) if alive[i] else None for i in range(n)]
        best = max((max(hands[i]) for i in live if hands[i]), default="")
        if best:
            # Every player holding a card of the highest Focus sets one aside.
            for i in live:
                if best in hands[i]:
                    hands[i] = hands[i].replace(best, "", 1)
                    hidden[i] += best
    points = [len(prizes[i]) + len(hidden[i]) for i in range(n)]
    pfocus = [sum(FOCUS[c] for c in prizes[i]) for i in range(n)]
    out = s["out"]
    keys: list[tuple[int, int, int]] = []
    for i in range(n):
        if alive[i]:
            keys.append(
                (1, points[i], pfocus[i]) if reason == "deck_out" else (1, 0, 0)
            )
        else:
            keys.append((0, out.index(i), 0))
    places = _ranks(keys)
    winners = [i for i in range(n) if places[i] == 1]
    record.update(
        winners=winners,
        placements=places,
        points=points,
        prize_focus=pfocus,
        face_down_prizes=[_cards(h) for h in hidden],
    )
    s["history"] = [*s["history"], record]
    markers = s["markers"] = s["markers"][:]
    for w in winners:
        markers[w] += 1
    ev.append(
        {
            "type": "round_over",
            "public": {k: v for k, v in record.items()},
            "private": {},
        }
    )
    target = s["cfg"]["rounds"]
    if target == 1:
        _finish(
            s,
            ev,
            {
                "winners": winners,
                "placements": places,
                "scores": {"points": points, "prize_focus": pfocus},
                "reason": reason,
            },
        )
        return
    top = max(markers)
    leaders = [i for i in range(n) if markers[i] == top]
    if top >= target and len(leaders) == 1:
        _finish(
            s,
            ev,
            {
                "winners": leaders,
                "placements": _ranks([(m,) for m in markers]),
                "scores": {"markers": list(markers), "rounds_played": s["round"]},
                "reason": "match",
            },
        )
        return
    # The round's winner starts the next; of several, the first clockwise from
    # the previous starter.
    prev = s["starter"]
    nxt = next(x for x in ((prev + i) % n for i in range(n)) if x in winners)
    _start_round(s, ev, nxt, None)


def _finish(s: State, ev: list[Event], result: dict[str, Any]) -> None:
    s["phase"] = OVER
    s["actor"] = -1
    s["result"] = result
    ev.append(
        {
            "type": "game_over",
            "public": {k: v for k, v in result.items()},
            "private": {},
        }
    )


# ---------------------------------------------------------------------------
# Config.

_OPTIONS = ("players", "start", "reshuffle_discard", "rounds", "deck")


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
    if type(players) is not int or not 2 <= players <= 8:
        raise InvalidConfig(
            "players_range",
            f"players must be an integer from 2 to 8, got {players!r}",
            min=2,
            max=8,
            players=param_value(players),
        )
    start = config.get("start", "random")
    if type(start) is int:
        if not 0 <= start < players:
            raise InvalidConfig(
                "option_range",
                f"start seat must be from 0 to {players - 1}, got {start!r}",
                option="start",
                min=0,
                max=players - 1,
                value=start,
            )
    elif start not in ("random", "highest_focus"):
        raise InvalidConfig(
            "option_choice",
            f"start must be 'random', 'highest_focus' or a seat number, got {start!r}",
            option="start",
            choices=f"random, highest_focus, 0-{players - 1}",
            value=param_value(start),
        )
    reshuffle = config.get("reshuffle_discard", False)
    if type(reshuffle) is not bool:
        raise InvalidConfig(
            "option_bool",
            f"reshuffle_discard must be true or false, got {reshuffle!r}",
            option="reshuffle_discard",
            value=param_value(reshuffle),
        )
    rounds = int_option(
        config,
        "rounds",
        1,
        low=1,
        high=MAX_ROUNDS,
        detail=f"rounds (round wins needed) must be from 1 to {MAX_ROUNDS}",
    )
    deck = config.get("deck")
    if deck is not None:
        full = DOUBLE_DECK if players > 4 else BASE_DECK
        if not isinstance(deck, list) or any(
            type(c) is not int or not 1 <= c <= 8 for c in deck
        ):
            raise InvalidConfig(
                "bad_deck",
                "deck must be a list of card Focus values 1-8, top first",
                option="deck",
            )
        if sorted(deck) != sorted(FOCUS[c] for c in full):
            raise InvalidConfig(
                "bad_deck",
                f"deck must hold exactly the {len(full)} cards of the "
                f"{'doubled ' if players > 4 else ''}deck "
                f"(counts per Focus 1-8: {[full.count(k) for k in KINDS]}), "
                f"got counts {[deck.count(f) for f in range(1, 9)]}",
                option="deck",
            )
        deck = list(deck)
    return {
        "players": players,
        "start": start,
        "reshuffle_discard": reshuffle,
        "rounds": rounds,
        "deck": deck,
    }


# ---------------------------------------------------------------------------
# The engine object.


class DueloGame(EngineBase):
    """Duelo: Kung Fu behind the engine contract of ``gameplay.rules``.

    Timeout default: every menu is ordered so that its first entry is the
    cautious default: the lowest-Focus card (the Master last), face up, the next
    opponent to the left, and declining every optional effect.
    """

    id = "duelo"
    name = "Duelo: Kung Fu"
    min_players = 2
    max_players = 8
    rules_version = RULES_VERSION

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Normalized config (every option present) or InvalidConfig."""
        return _validate(config)

    def setup(self, config: dict[str, Any], seed: int) -> State:
        """A new game (the first round dealt, the first player about to choose)."""
        cfg = self._setup_config(config, seed)
        n = cfg["players"]
        s: State = {
            "game": self.id,
            "rules_version": RULES_VERSION,
            "cfg": cfg,
            "rng": _rng.seed_state(seed),
            "n": n,
            "round": 0,
            "markers": [0] * n,
            "history": [],
            "turns": 0,
            "start_draw": [],
            "result": None,
        }
        start = cfg["start"]
        if start == "random":
            s["rng"], starter = _rng.randbelow(s["rng"], n)
        elif start == "highest_focus":
            starter = self._highest_focus_draw(s)
        else:
            starter = start
        order = None
        if cfg["deck"] is not None:
            order = "".join(str(c) for c in reversed(cfg["deck"]))
        ev: list[Event] = []
        _start_round(s, ev, starter, order)
        return s

    @staticmethod
    def _highest_focus_draw(s: State) -> int:
        """Each contender draws from a fresh shuffle; ties for highest draw again."""
        full = DOUBLE_DECK if s["n"] > 4 else BASE_DECK
        contenders = list(range(s["n"]))
        while True:
            s["rng"], deck = _rng.shuffled(s["rng"], full)
            draws = [[x, FOCUS[deck[-1 - i]]] for i, x in enumerate(contenders)]
            s["start_draw"].append(draws)
            best = max(f for _, f in draws)
            contenders = [x for x, f in draws if f == best]
            if len(contenders) == 1:
                return contenders[0]

    # -- queries -----------------------------------------------------------

    def actors(self, state: State) -> list[int]:
        """The seat to act ([] once the game is over); Duelo never has two."""
        a = state["actor"]
        return [] if a < 0 else [a]

    def legal_action_ids(self, state: State, seat: int | None) -> list[str]:
        """Fast path: just the ids, first one being the timeout default."""
        if seat != state["actor"] or state["actor"] < 0:
            return []
        return list(_IDS[state["phase"]](state))

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
        if type(state) is not dict or state.get("rules_version") != RULES_VERSION:
            self._check(state)
        if type(action_id) is not str:
            raise IllegalAction(
                "malformed_action",
                f"malformed action {action_id!r}: an action is its string id, "
                "e.g. 'card:3'",
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
        ids = _IDS[state["phase"]](state)  # _ids(), without a call
        if action_id not in ids:
            raise IllegalAction(
                "not_legal",
                f"action {action_id!r} is not legal for seat {seat} in phase "
                f"{state['phase']!r} ({PROMPTS[state['phase']]}); legal: "
                + ", ".join(ids),
                action=action_id,
            )
        # The copy the handlers edit: ``hands`` and ``ctx`` change at most
        # steps and are copied; the per-seat lists that change a few times a
        # round are copy-on-write in the handlers, so they are shared here.
        s = state.copy()
        s["hands"] = state["hands"][:]
        s["ctx"] = state["ctx"].copy()
        ev: list[Event] = []
        try:
            _HANDLERS[s["phase"]](s, ev, seat, ACTION_ARG[action_id])
        except _RoundOver as end:
            _end_round(s, ev, end.reason)
        return s, ev

    def clone(self, state: State) -> State:
        """A copy the engine may mutate: the dict, the lists it edits, ``ctx``.

        Cards are strings (immutable), and the lists that change at most once a
        round (``hidden``, ``markers``, ``out``, ``history``) are replaced rather
        than edited by the engine, so they are shared. Callers treat states as
        values and never edit them in place.
        """
        s = state.copy()
        s["hands"] = state["hands"][:]
        s["prizes"] = state["prizes"][:]
        s["alive"] = state["alive"][:]
        s["crane"] = state["crane"][:]
        s["tiger"] = state["tiger"][:]
        s["ctx"] = state["ctx"].copy()
        return s

    # -- information ---------------------------------------------------------

    def observe(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now, built field by field from an allow-list.

        Hidden information (other hands, deck order, the set-aside card, a
        face-down card not yet revealed, the RNG state) is never copied in. The
        only secrets that appear are those an effect shows this seat right now:
        the card a Disciple or Dragon is looking at, and the card this seat
        separated for Snake Style. Earlier private sights arrive as events.

        Built in C when the optional ``_fastplay`` extension is there (it was
        about 44% of a step of the public API in Python, issue 33 §2): the
        same fields from the same allow-list as :meth:`_observe_py`, the
        reference, which builds it otherwise and whenever the C code declines
        (a finished or malformed state, an invalid seat: the errors are
        raised there). tests/rules/test_duelo_native.py holds the two equal.
        """
        if _native_observe is not None:
            obs = _native_observe(state, seat)
            if obs is not None:
                return obs
        return self._observe_py(state, seat)

    def _observe_py(self, state: State, seat: int | None) -> dict[str, Any]:
        """:meth:`observe` in Python: the reference the C code follows."""
        n = state["n"]
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise GameError(f"seat must be None or 0..{n - 1}, got {seat!r}")
        ph = state["phase"]
        ctx = state["ctx"]
        a = state["turn"]
        hands = state["hands"]
        alive = state["alive"]
        crane = state["crane"]
        tiger = state["tiger"]
        prizes = state["prizes"]
        hidden = state["hidden"]
        actor = state["actor"]
        cfg = state["cfg"]
        # Each seat's public part is a view shared read-only (its facts as
        # one key, built once per distinct key). The per-seat lists other than
        # ``hands`` are copy-on-write (apply() shares them with the state
        # before until an effect replaces one), so while they are the same
        # objects as at the last call only the hand counts can differ: the
        # seats' views are then looked up by those counts alone (every seat's
        # observation of a state, and most steps of a game, hit).
        counts = (*map(len, hands),)
        memo = _SEATS_MEMO[0]
        if (
            memo[0] is alive
            and memo[1] is prizes
            and memo[2] is crane
            and memo[3] is tiger
            and memo[4] is hidden
        ):
            by_counts = memo[5]
        else:
            by_counts = {}
            _SEATS_MEMO[0] = (alive, prizes, crane, tiger, hidden, by_counts)
        views = by_counts.get(counts)
        if views is None:
            if len(by_counts) >= 64:
                by_counts.clear()
            # ``map`` of the cache's lookup builds the tuple without a
            # comprehension's frame; every list here has ``n`` items, so the
            # zip needs no ``strict`` (its keyword call is not free).
            views = by_counts[counts] = (
                *map(
                    _SEAT_VIEW,
                    zip(
                        range(n),
                        alive,
                        counts,
                        prizes,
                        hidden,
                        crane,
                        tiger,
                        strict=False,
                    ),
                ),
            )
        seats = [*views]
        discard = state["discard"]
        start_draw = state["start_draw"]
        history = state["history"]
        # The fields that never change in a game come from a per-table
        # template (a dict copy is far cheaper than a literal of 23 keys);
        # the template keeps the keys' order, so the JSON is the same.
        obs = _OBS_BASE[seat, n, cfg["rounds"]].copy()
        obs["round"] = state["round"]
        obs["markers"] = list(state["markers"])
        obs["turn"] = a
        obs["turns"] = state["turns"]
        obs["phase"] = ph
        obs["actors"] = [] if actor < 0 else [actor]
        obs["prompt"] = PROMPTS[ph]
        obs["deck_count"] = len(state["deck"])
        if discard:
            obs["discard"] = [*_PILE[discard]]
        else:
            obs["discard"] = []
        obs["reshuffle_available"] = (
            cfg["reshuffle_discard"] and not state["reshuffled"]
        )
        obs["seats"] = seats
        if seat is not None:
            obs["hand"] = [*_SORTED[hands[seat]]]
        obs["private"] = {}
        obs["start_draw"] = _start_draw_view(start_draw) if start_draw else []
        # The records are shared read-only views; the list is this
        # observation's own, like all its lists.
        obs["rounds"] = [*_ROUNDS(history)] if history else []
        if state["result"] is not None:
            obs["result"] = self.result(state)
        if ph == FACE:
            obs["play"] = {
                "seat": a,
                "face": None,
                "card": FOCUS[ctx["card"]] if seat == a else None,
            }
        elif ph in _UP_PHASES:
            copied = ctx.get("copied")
            obs["play"] = {
                "seat": a,
                "face": "up",
                "card": FOCUS[ctx["card"]],
                "copied": FOCUS[copied] if copied else None,
            }
            if ph == DRUNK_PUT:
                obs["play"]["to_put_back"] = ctx["left"]
            elif ph in (SNAKE_SEPARATE, SNAKE_GUESS):
                obs["play"]["target"] = ctx["target"]
            elif ph == MONKEY_B:
                obs["play"]["first_swap"] = ctx["swap"]
        elif ph in (TARGET, ANSWER):
            obs["duel"] = {
                "attacker": a,
                "defender": ctx.get("def"),
                "cards": [FOCUS[ctx["card"]] if seat == a else None, None],
            }
        elif ph in _DUEL_PHASES:
            w = ctx.get("winner")
            obs["duel"] = {
                "attacker": a,
                "defender": ctx["def"],
                "cards": [FOCUS[ctx["card"]], FOCUS[ctx["dk"]]],
                "focus": [ctx["fa"], ctx["fd"]],
                "winner": None if w is None or w < 0 else w,
                "tie": w == -1,
                "decided": w is not None,
            }
        if seat is not None and seat == actor and ph in _PEEK_PHASES:
            source = "deck" if state["deck"] else "set_aside"
            obs["private"] = {"peek": FOCUS[ctx["peek"]], "source": source}
        if ph == SNAKE_GUESS and seat == ctx["target"]:
            obs["private"] = {"separated": FOCUS[ctx["sep"]]}
        if seat is not None and seat == actor:
            if ph == DRUNK_PUT and "put" in ctx:
                # Cards this player put back on top so far, bottom to top.
                obs["private"] = {"put_back": [FOCUS[c] for c in ctx["put"]]}
            elif ph == C_MONKEY_ORDER and "under" in ctx:
                # Cards this player put under the deck so far, in that order.
                obs["private"] = {"put_under": [FOCUS[c] for c in ctx["under"]]}
        return obs

    def determinize(self, state: State, seat: int, rng_seed: int) -> State:
        """A full state ``seat`` cannot tell apart from ``state`` right now.

        Everything ``seat``'s observation shows stays fixed (own hand, public
        piles, counts, a card it is peeking at, the cards it has just put on top
        of or under the deck in the current decision); every card hidden from it
        (other hands, the rest of the deck, the set-aside card, an opponent's
        unrevealed face-down card) is dealt again at random from the pool of
        those cards, and the RNG is reseeded so future shuffles are unknown too.
        Private sights from earlier turns (Tiger, Drunken Fists, Monkey) are not
        used: a bot that remembers them can reject samples that contradict them.
        """
        s = self.clone(state)
        n = s["n"]
        ph = s["phase"]
        ctx = s["ctx"]
        fixed_top = seat == s["actor"] and ph in _PEEK_PHASES
        deck = s["deck"]
        pool = []
        keep_top = keep_bottom = ""
        if fixed_top and deck:
            keep_top = deck[-1]
        elif seat == s["actor"] and ph == DRUNK_PUT:
            keep_top = deck[len(deck) - len(ctx.get("put", "")) :]
        elif seat == s["actor"] and ph == C_MONKEY_ORDER:
            keep_bottom = deck[: len(ctx.get("under", ""))]
        pool.append(deck[len(keep_bottom) : len(deck) - len(keep_top)])
        keep_aside = fixed_top and not deck
        if not keep_aside:
            pool.append(s["aside"])
        others = [i for i in range(n) if i != seat and s["hands"][i]]
        for i in others:
            pool.append(s["hands"][i])
        hidden_table = ph in (FACE, TARGET, ANSWER) and seat != s["turn"]
        if hidden_table:
            pool.append(s["table"])
        # Sorted first: the sample must depend only on what ``seat`` knows, not on
        # where the hidden cards really are (bots rely on this; see bots tests).
        hidden = "".join(sorted("".join(pool)))
        r, cards = _rng.shuffled(_rng.seed_state(rng_seed), hidden)
        pos = 0

        def take(count: int) -> str:
            nonlocal pos
            part = cards[pos : pos + count]
            pos += count
            return part

        middle = len(deck) - len(keep_top) - len(keep_bottom)
        s["deck"] = keep_bottom + take(middle) + keep_top
        if not keep_aside:
            s["aside"] = take(1)
        for i in others:
            s["hands"][i] = take(len(state["hands"][i]))
        if hidden_table:
            s["table"] = take(1)
            ctx["card"] = s["table"]
        if ph in _PEEK_PHASES and not fixed_top:
            ctx["peek"] = _peek(s)[0]
        if ph == SNAKE_GUESS and seat != ctx["target"]:
            r, j = _rng.randbelow(r, len(s["hands"][ctx["target"]]))
            ctx["sep"] = s["hands"][ctx["target"]][j]
        s["rng"] = r
        return s


# Views built once (gameplay.rules.views): a pile (a string) as its Focus
# values, in order and sorted; the finished rounds, a list the engine replaces
# rather than edits, while it is the same list.
_PILE: PileViews[str, Pile] = PileViews(lambda cards: tuple(map(int, cards)))
_SORTED: PileViews[str, Pile] = PileViews(lambda cards: tuple(sorted(map(int, cards))))
_SeatKey = tuple[int, bool, int, str, str, bool, int]


def _seat_view(key: _SeatKey) -> dict[str, Any]:
    """A seat's public part of an observation, from its facts."""
    i, alive, hand_count, prizes, hidden, crane, tiger = key
    return {
        "seat": i,
        "alive": alive,
        "hand_count": hand_count,
        "prizes": [*_PILE[prizes]] if prizes else [],
        "face_down_prizes": [*_PILE[hidden]] if hidden else [],
        "protected": crane,
        "tiger_target": tiger if tiger >= 0 else None,
    }


_SEAT: PileViews[_SeatKey, dict[str, Any]] = PileViews(_seat_view)
_SEAT_VIEW = _SEAT.__getitem__
# observe()'s memo of the seats' views: (alive, prizes, crane, tiger, hidden,
# {hand counts: views}) for the lists it was last asked about, by identity (it
# holds them, so their ids cannot be reused); one tuple, replaced whole, so
# another thread never pairs lists with another set's views.
_SEATS_MEMO: list[tuple[Any, ...]] = [(None,) * 5 + ({},)]


def _obs_base(key: tuple[int | None, int, int]) -> dict[str, Any]:
    """An observation's template for (seat, players, rounds to win): every
    field in its order, the fixed ones filled in, the others at their
    default."""
    seat, n, rounds = key
    return {
        "game": "duelo",
        "rules_version": RULES_VERSION,
        "seat": seat,
        "players": n,
        "round": 0,
        "rounds_to_win": rounds,
        "markers": None,
        "turn": 0,
        "turns": 0,
        "phase": None,
        "actors": None,
        "prompt": None,
        "deck_count": 0,
        "discard": None,
        "reshuffle_available": False,
        "seats": None,
        "hand": None,
        "play": None,
        "duel": None,
        "private": None,
        "start_draw": None,
        "rounds": None,
        "result": None,
    }


_OBS_BASE: PileViews[tuple[int | None, int, int], dict[str, Any]] = PileViews(_obs_base)
_ROUNDS: LastView[list[dict[str, Any]], list[dict[str, Any]]] = LastView(
    lambda history: [_copy_record(r) for r in history]
)


def _copy_record(r: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in r.items():
        if isinstance(v, list):
            out[k] = [list(x) if isinstance(x, list) else x for x in v]
        else:
            out[k] = v
    return out


def _start_draw_view(start_draw: list[list[list[int]]]) -> list[list[list[int]]]:
    """An observation's copy of the start draws (the C code's, when any)."""
    return [[list(d) for d in r] for r in start_draw]


# ``observe`` in C, when the optional extension ``_fastplay.c`` is built
# (setup.py). It follows ``_observe_py`` field by field and declines (None)
# whatever it does not handle; tests/rules/test_duelo_native.py compares the
# two for every seat at every step of seeded games.
try:
    from gameplay.rules.duelo import _fastplay as _native
except ImportError:  # not built (no C compiler): observe runs in Python
    # mypy types the name as the module (the stub _fastplay.pyi) and has no
    # way to say "or None"; every use checks it.
    _native = None  # type: ignore[assignment]

if _native is not None and (*PHASES, OVER) != _native.PHASES:
    # A build of another version of the C code: not used (a test fails).
    _native = None  # type: ignore[assignment]

NATIVE = _native is not None
_native_observe: Callable[[State, int | None], dict[str, Any] | None] | None = None
if _native is not None:
    _native.init(RULES_VERSION, PROMPTS, _ROUNDS, _start_draw_view)
    _native_observe = _native.observe
