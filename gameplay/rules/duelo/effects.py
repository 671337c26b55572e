"""Duelo's turn and its effects: draws, duels, discard effects, one handler a phase.

A handler takes the copy of the state that ``apply`` made, the event list, the
acting seat and the argument after the action id's colon; it edits the copy,
appends events and leaves the next decision in ``phase``/``actor``/``ctx``.
A round that ends inside an effect unwinds as :class:`_RoundOver`.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import Event, State
from gameplay.rules.duelo.cards import FOCUS
from gameplay.rules.duelo.menus import _CYCLES, _RINGS, _opponents
from gameplay.rules.duelo.phases import (
    ANSWER,
    C_DISCIPLE,
    C_MONKEY,
    C_MONKEY_ORDER,
    CARD,
    DRAGON_DRAW,
    DRAGON_PEEK,
    DRUNK_PUT,
    FACE,
    KEY,
    MONKEY_A,
    MONKEY_B,
    SNAKE_GUESS,
    SNAKE_SEPARATE,
    SNAKE_TARGET,
    TARGET,
    TIGER_TARGET,
    U_DISCIPLE,
)


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
