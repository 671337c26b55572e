"""Kung Fu (2019)'s flow: rounds, the reveal, the fights (rolls, effects, the
resolution) and the end of the game.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import Event, State
from gameplay.rules.kungfu2019.actions import _ev
from gameplay.rules.kungfu2019.alphabet import (
    BUDGET_TRACK,
    CODE,
    COMBOS,
    CROSS,
    DICE,
    ICON,
    INIT,
    PLAY,
    ROUNDS,
    START_HP,
    STAT,
    STAT_INDEX,
    STEP,
    USABLE,
)
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND
from gameplay.rules.kungfu2019.phases import ASSIGN, DUMMY, OVER, PLAYING

# ---------------------------------------------------------------------------
# Flow.


def _alive(s: State) -> list[int]:
    return [i for i in range(s["n"]) if not s["elim"][i]]


def _status(s: State, seat: int, stat: str) -> int:
    points: int = s["tracks"][seat][STAT_INDEX[stat]]
    return points * STEP[stat]


def _start_status(s: State, ev: list[Event]) -> None:
    """Learning phase 2 and 3: tracks from the icons, starting HP."""
    tracks = []
    for seat in range(s["n"]):
        t = [0] * 5
        for ch in s["hands"][seat]:
            t[ICON[ch]] += 1
        tracks.append(t)
    s["tracks"] = tracks
    base = START_HP[s["n"]]
    s["hp"] = [base + t[0] * STEP["hp"] for t in tracks]
    ev.append(
        _ev(
            "status",
            {
                "tracks": [dict(zip(STAT, t, strict=True)) for t in tracks],
                "hp": list(s["hp"]),
            },
        )
    )
    _new_round(s, ev)


def _new_round(s: State, ev: list[Event]) -> None:
    # The cards played last round (and the dummy's) leave the game, face up.
    s["discard"] += "".join(s["played"]) + s["dummy"]
    s["round"] += 1
    s["phase"] = PLAYING
    s["commit"] = [""] * s["n"]
    s["played"] = [""] * s["n"]
    s["dummy"] = ""
    s["order"] = []
    s["oi"] = 0
    s["fight"] = None
    ev.append(_ev("round", {"round": s["round"], "alive": _alive(s)}))


def _reveal(s: State, ev: list[Event]) -> None:
    """Fighting phase 1-2: every play is revealed; the attack order is fixed."""
    n = s["n"]
    alive = _alive(s)
    s["played"] = [s["commit"][i] if i in alive else "" for i in range(n)]
    s["commit"] = [""] * n
    totals = {i: sum(INIT[c] for c in s["played"][i]) for i in alive}
    if n == 2:
        # Rules for 2 players 1: the dummy plays 3 random cards from the deck
        # (the top three of the shuffled deck; they leave the game).
        deck = s["deck"]
        s["dummy"] = deck[-PLAY:][::-1]
        s["deck"] = deck[:-PLAY]
    tied = len(set(totals.values())) < len(totals)
    tiebreak = list(alive)
    if tied:
        # Reading: the rulebook breaks no ties between players; a random order
        # (a chance event, published) does, like a roll-off.
        s["rng"], perm = _rng.shuffled(s["rng"], "".join(map(str, alive)))
        tiebreak = [int(x) for x in perm]
    rank = {seat: i for i, seat in enumerate(tiebreak)}
    order = sorted(alive, key=lambda i: (totals[i], rank[i]))
    dummy_total = None
    if s["dummy"]:
        dummy_total = sum(INIT[c] for c in s["dummy"])
        # Rules for 2 players 3: players attack before the dummy on a tie.
        pos = sum(1 for i in order if totals[i] <= dummy_total)
        order.insert(pos, DUMMY)
    s["order"] = order
    s["oi"] = 0
    ev.append(
        _ev(
            "reveal",
            {
                "round": s["round"],
                "played": [[CODE[c] for c in p] if p else None for p in s["played"]],
                "totals": [totals.get(i) for i in range(n)],
                "dummy": [CODE[c] for c in s["dummy"]] if s["dummy"] else None,
                "dummy_total": dummy_total,
                "order": list(order),
                "tiebreak": tiebreak if tied else None,
            },
        )
    )
    _next_fight(s, ev)


def _roll(s: State) -> list[int]:
    stack = s["cfg"]["dice"]
    if s["di"] < len(stack):
        s["di"] += 1
        return list(stack[s["di"] - 1])
    s["rng"], (x,) = _rng.draw(s["rng"], 1)
    # The 7 dice are the base-6 digits of x mod 6^7, lowest first: the first
    # four are those of x mod 6^4, the last three of the quotient.
    x %= 6**DICE
    return [*_ROLL_LOW[x % 1296], *_ROLL_HIGH[x // 1296]]


def _digits(x: int, n: int) -> tuple[int, ...]:
    """The ``n`` lowest base-6 digits of ``x``, lowest first, each plus 1."""
    out = []
    for _ in range(n):
        x, d = divmod(x, 6)
        out.append(d + 1)
    return tuple(out)


# Rolls read from tables (a roll's seven divisions cost more than two lookups).
_ROLL_LOW = tuple(_digits(x, 4) for x in range(6**4))
_ROLL_HIGH = tuple(_digits(x, DICE - 4) for x in range(6 ** (DICE - 4)))


def _next_fight(s: State, ev: list[Event]) -> None:
    """Start the next attack of the round (skipping eliminated attackers)."""
    order = s["order"]
    while s["oi"] < len(order):
        a = order[s["oi"]]
        if a != DUMMY and s["elim"][a]:
            s["oi"] += 1
            continue
        _start_fight(s, ev, a)
        return
    _end_round(s, ev)


def _start_fight(s: State, ev: list[Event], a: int) -> None:
    n = s["n"]
    # Every living seat fights (the dummy attacks them all), in seat order.
    fighters = _alive(s)
    dice: list[list[int] | None] = [None] * n
    asg: list[dict[str, Any] | None] = [None] * n
    for seat in fighters:
        dice[seat] = _roll(s)
    s["fight"] = {"a": a, "f": fighters, "dice": dice, "asg": asg}
    done_now = []
    tracks = s["tracks"]
    for seat in fighters:
        rolled = dice[seat]
        assert rolled is not None  # every fighter rolled above
        played = s["played"][seat]
        # Loops, not generators (see engine.py's ``actors``): HIT/AVO from the
        # track and the red crosses, and whether any combination needs dice.
        role = ATTACK if seat == a else DEFEND
        track, step = BUDGET_TRACK[role]
        bud = tracks[seat][track] * step
        usable = False
        for c in played:
            bud += CROSS[c][role][1]
            if USABLE[c][role]:
                usable = True
        asg[seat] = {
            "v": list(rolled),
            "sets": [],
            "open": None,
            "bud": bud,
            "gain": 0,
            "spent": 0,
            "done": not usable,
        }
        if not usable:
            done_now.append(seat)
    s["phase"] = ASSIGN
    ev.append(
        _ev(
            "attack",
            {
                "round": s["round"],
                "attacker": a,
                "fighters": list(fighters),
                "dice": [None if d is None else list(d) for d in dice],
                "auto_done": done_now,
            },
        )
    )
    if len(done_now) == len(fighters):  # nobody has dice to assign
        _resolve(s, ev)


def _effects(s: State, seat: int, role: str) -> tuple[int, int]:
    """(main, extra): attack (ATK, HP change) or defence (DEF, yin-yangs)."""
    f = s["fight"]
    asg = f["asg"][seat]
    played = s["played"][seat]
    if role == ATTACK:
        main = _status(s, seat, "atk")
        extra = 0
        for c in played:
            cr = CROSS[c][role]
            main += cr[0]
            extra += cr[2]
        for slot, k, _d in asg["sets"]:
            e = COMBOS[played[slot]][k].effect
            main += e.atk
            extra += e.hp
        return main, extra
    main = _status(s, seat, "def")
    extra = 0
    for c in played:
        cr = CROSS[c][role]
        main += cr[0]
        extra += cr[2]
    for slot, k, _d in asg["sets"]:
        e = COMBOS[played[slot]][k].effect
        main += e.def_
        extra += e.yy
    return main, extra


def _resolve(s: State, ev: list[Event]) -> None:
    """Fighting phase 5: the attacker's ATK against every defender's DEF."""
    f = s["fight"]
    a = f["a"]
    s["hp"] = hp = s["hp"][:]  # copy-on-write (apply copies only the top dict)
    s["elim"] = s["elim"][:]
    if a == DUMMY:
        # Rules for 2 players 2: the dummy's attack is its cards' initiative sum.
        atk, heal = sum(INIT[c] for c in s["dummy"]), 0
    else:
        atk, heal = _effects(s, a, ATTACK)
    s["nfight"] += 1
    seq = s["nfight"]
    shown = []
    # Loops and ``map``, not comprehensions (see engine.py's ``actors``):
    # once a fight.
    for seat in f["f"]:
        asg = f["asg"][seat]
        v = asg["v"]
        pick = v.__getitem__
        sets = []
        for slot, k, d in asg["sets"]:
            sets.append([slot, k, [*d], list(map(pick, d))])
        shown.append(
            {
                "seat": seat,
                "values": [*v],
                "sets": sets,
                "spent": asg["spent"],
            }
        )
    defenders = []
    yy_total = 0
    out = []
    for seat in f["f"]:
        if seat == a:
            continue
        dv, yy = _effects(s, seat, DEFEND)
        dmg = max(0, atk - dv)
        hp[seat] -= dmg
        gone = hp[seat] <= 0
        if gone:
            s["elim"][seat] = seq
            out.append(seat)
        else:
            # The yin-yang: no effect if the defender is eliminated.
            yy_total += yy
        defenders.append(
            {
                "seat": seat,
                "defence": dv,
                "yin_yang": yy,
                "damage": dmg,
                "hp": hp[seat],
                "eliminated": gone,
            }
        )
    attacker_hp = None
    if a != DUMMY:
        # HP effects and yin-yang damage never eliminate the attacker.
        hp[a] = max(1, hp[a] + heal - yy_total)
        attacker_hp = hp[a]
    s["fight"] = None
    ev.append(
        _ev(
            "fight",
            {
                "round": s["round"],
                "attacker": a,
                "attack": atk,
                "attacker_hp_change": heal if a != DUMMY else 0,
                "yin_yang_damage": yy_total if a != DUMMY else 0,
                "attacker_hp": attacker_hp,
                "assignments": shown,
                "defenders": defenders,
            },
        )
    )
    for seat in out:
        ev.append(_ev("eliminated", {"seat": seat, "hp": hp[seat]}))
    alive = s["elim"].count(0)
    if alive <= 1:
        _finish(s, ev, "last_standing" if alive else "all_eliminated")
        return
    s["oi"] += 1
    _next_fight(s, ev)


def _end_round(s: State, ev: list[Event]) -> None:
    ev.append(_ev("round_end", {"round": s["round"], "hp": list(s["hp"])}))
    if s["round"] >= ROUNDS:
        _finish(s, ev, "rounds")
        return
    _new_round(s, ev)


def _finish(s: State, ev: list[Event], reason: str) -> None:
    n = s["n"]
    hp = s["hp"]
    elim = s["elim"]
    # Survivors first (most HP), then the eliminated, last eliminated first; within
    # one attack the one less far below 0 ranks higher (2 players, rule 4).
    key = {
        i: (0 if not elim[i] else 1, -elim[i] if elim[i] else 0, -hp[i])
        for i in range(n)
    }
    ranked = sorted(range(n), key=lambda i: key[i])
    placements = [0] * n
    for pos, seat in enumerate(ranked):
        if pos and key[seat] == key[ranked[pos - 1]]:
            placements[seat] = placements[ranked[pos - 1]]
        else:
            placements[seat] = pos + 1
    winners = [i for i in range(n) if placements[i] == 1]
    s["result"] = {
        "winners": winners,
        "placements": placements,
        "scores": {
            "hp": list(hp),
            "eliminated": [bool(e) for e in elim],
        },
        "reason": reason,
    }
    s["phase"] = OVER
    s["fight"] = None
    ev.append(_ev("game_over", {"winners": winners, "hp": list(hp), "reason": reason}))
