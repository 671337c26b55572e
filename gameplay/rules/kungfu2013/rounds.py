"""Kung Fu (2013)'s round: a stack of small tasks, run until one needs a decision.

The round is a stack of tasks (``todo``, the next one last). Automatic tasks
(a forced draw, an unaffordable effect, the outcome arithmetic) run at once in
:func:`_run`; a task that needs a decision sets ``phase`` and ``actor`` and
waits for its handler (:mod:`.handlers`). Draws, the initiative, the battle's
effects and outcome, and the end of the game are here.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import State
from gameplay.rules.errors import GameError
from gameplay.rules.kungfu2013.alphabet import (
    _COIN_SUMS,
    BLUE_DECK,
    CARDS,
    COINS,
    COST,
    EFFECT,
    FIRST_BLUE,
    ON_HIT,
    RISE,
    VALUE,
    _can_draw,
    _has_blue,
    _has_red,
)
from gameplay.rules.kungfu2013.phases import (
    ATTACK,
    BLOCK,
    DRAW,
    EFFECT_PHASE,
    FACE,
    INITIATIVE,
    KEY,
    OVER,
    PAY,
    REWARD,
    TARGET,
    Events,
)

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
