"""Duelo's rounds and the match: dealing a round, scoring it, victory markers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import Event, State
from gameplay.rules.duelo.cards import BASE_DECK, DOUBLE_DECK, FOCUS
from gameplay.rules.duelo.effects import _begin_turn, _cards
from gameplay.rules.duelo.phases import KEY, OVER


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
    hidden = s["hidden"] = s["hidden"][:]  # copy-on-write: engine.py's clone()
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
