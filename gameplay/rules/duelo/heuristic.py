"""Hand-written strategy for Duelo: Kung Fu, computed from one seat's observation.

The bot keeps no memory between decisions, so everything it knows comes from the
current observation: its own hand, the public discard pile and prizes, the cards
revealed on the table, hand and deck counts, and whatever an effect shows it right
now. From those it counts the cards it has not seen ("the pool": opponents' hands,
the deck, the set-aside card and an unrevealed face-down card) and uses the pool's
composition as the probability of any single unseen card.

Every option is scored in the same rough unit (one prize, roughly one card) so that
face-up effects, duels and keeping a card in hand can be compared:

* a duel is worth ``STAKE`` times how much better than even it is expected to go,
  plus ``ELIM`` for knocking an opponent out and minus ``ELIM`` for being knocked
  out (losing the Master, or losing with one's last card);
* playing any card costs its ``HOLD`` value, the worth of keeping it in hand.

The constants were set by hand and checked by simulation (docs/bots-builtin.md).
"""

from __future__ import annotations

import random
from typing import Any

from gameplay.rules.bots.base import DecisionContext

BASE_COUNTS = {1: 6, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3, 7: 2, 8: 1}
DOUBLE_COUNTS = {k: (1 if k == 8 else 2 * v) for k, v in BASE_COUNTS.items()}
KINDS = tuple(range(1, 9))

STAKE = 2.0  # a won duel: a prize for me and one card fewer for the loser
ELIM = 6.0  # an elimination (in a two-player game it decides the game)
# Worth of keeping a card in hand: the Master wins nearly every duel and is the
# deck-out tiebreak card, Dragon and Tiger win most duels, the Disciple few.
HOLD = {1: 0.3, 2: 0.6, 3: 0.5, 4: 0.6, 5: 0.5, 6: 0.8, 7: 0.9, 8: 2.5}
# How much likelier an attacker is to lead with each card than the pool says:
# players attack with their strong cards and keep the Disciple for its effect.
ATTACK_WEIGHT = {1: 0.6, 2: 1.0, 3: 0.5, 4: 1.0, 5: 0.8, 6: 1.2, 7: 1.3, 8: 1.5}


# ---------------------------------------------------------------------------
# Duel arithmetic (mirrors the rulebook's resolution order).


def resolve(ak: int, dk: int, fa: int, fd: int) -> float:
    """The attacker's score (1 win, 0.5 tie, 0 loss) once both Focus values are set.

    Same name ties; an active Snake beats an odd final Focus; equal Focus ties;
    an active Drunken Fists makes the lowest Focus win. Crane switches off the
    opponent's combat effect.
    """
    a_on = dk != 3
    d_on = ak != 3
    if ak == dk:
        return 0.5
    if ak == 4 and a_on and fd & 1:
        return 1.0
    if dk == 4 and d_on and fa & 1:
        return 0.0
    if fa == fd:
        return 0.5
    low = (ak == 2 and a_on) or (dk == 2 and d_on)
    return 1.0 if (fa < fd) == low else 0.0


def _options(card: int, other: int, top: int) -> tuple[int, ...]:
    """Focus values a card may end the duel with, given the top card it may copy."""
    if card == other or other == 3:
        return (card,)  # same name always ties; Crane cancels the effect
    if card == 1:
        return (1, top)
    if card == 5:
        return (5, 1)
    return (card,)


def duel_score(ak: int, dk: int, top_dist: dict[int, float]) -> float:
    """Attacker's expected score when both sides use their optional effects well.

    Effects resolve attacker first, so the attacker picks its Focus and the
    defender answers knowing it. Both Disciples would see the same top card, whose
    distribution is ``top_dist``.
    """
    tops = top_dist.items() if (ak == 1 or dk == 1) else ((0, 1.0),)
    total = 0.0
    for top, p in tops:
        if p <= 0:
            continue
        best = max(
            min(resolve(ak, dk, fa, fd) for fd in _options(dk, ak, top))
            for fa in _options(ak, dk, top)
        )
        total += p * best
    return total


# ---------------------------------------------------------------------------
# What the seat knows.


class View:
    """Card counting and table facts extracted once per decision."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.obs = obs
        self.me: int = obs["seat"]
        self.n: int = obs["players"]
        self.hand: list[int] = list(obs["hand"] or [])
        self.seats: list[dict[str, Any]] = obs["seats"]
        self.deck_count: int = obs["deck_count"]
        counts = dict(DOUBLE_COUNTS if self.n > 4 else BASE_COUNTS)
        seen: list[int] = list(self.hand) + list(obs["discard"])
        for s in self.seats:
            seen += s["prizes"] + s["face_down_prizes"]
        play = obs.get("play")
        if play and play.get("card") is not None:
            seen.append(play["card"])
        duel = obs.get("duel")
        if duel and not duel.get("decided"):
            # Undecided duel cards are on the table; once decided they are
            # already counted in the prizes and the discard pile.
            seen += [c for c in duel["cards"] if c is not None]
        self.peek: int | None = obs["private"].get("peek")
        if self.peek is not None:
            seen.append(self.peek)
        for c in seen:
            counts[c] = counts.get(c, 0) - 1
        self.pool = {k: max(0, counts[k]) for k in KINDS}
        total = sum(self.pool.values())
        self.pool_total = total
        self.dist = {k: (v / total if total else 0.0) for k, v in self.pool.items()}
        self.master_unseen = self.pool[8] > 0
        self.alive = [s["seat"] for s in self.seats if s["alive"]]
        self.opponents = [i for i in self.alive if i != self.me]
        self._duels: dict[tuple[int, int], float] = {}

    def hold(self, card: int) -> float:
        """Worth of keeping ``card``; Drunken Fists guards against an unseen Master."""
        if card == 2 and self.master_unseen:
            return 0.9
        return HOLD[card]

    def pool_hold(self) -> float:
        """Average worth of one unseen card."""
        return sum(HOLD[k] * p for k, p in self.dist.items()) or 0.5

    def points(self, seat: int) -> int:
        s = self.seats[seat]
        return len(s["prizes"]) + len(s["face_down_prizes"])

    def leading(self) -> bool:
        """Would a deck-out now probably go my way (points, plus my best card)?"""
        mine = self.points(self.me) + (1 if 8 in self.hand else 0)
        best_other = max((self.points(o) for o in self.opponents), default=0)
        return mine > best_other

    def duel(self, ak: int, dk: int) -> float:
        """:func:`duel_score` under this view's top-card odds, memoized per decision."""
        key = (ak, dk)
        got = self._duels.get(key)
        if got is None:
            got = self._duels[key] = duel_score(ak, dk, self.top_dist())
        return got

    def top_dist(self) -> dict[int, float]:
        if self.peek is not None:
            return {self.peek: 1.0}
        return self.dist


# ---------------------------------------------------------------------------
# Option values.


def attack_value(v: View, card: int, target: int, hand_after: int) -> float:
    """Expected worth of dueling ``target`` with ``card`` (pool-marginal answer)."""
    t = v.seats[target]
    value = 0.0
    for dk, p in v.dist.items():
        if p <= 0:
            continue
        score = v.duel(card, dk)
        u = STAKE * (score - 0.5)
        win = max(0.0, score - 0.5) * 2  # probability-like share of outright wins
        loss = max(0.0, 0.5 - score) * 2
        if dk == 8 or t["hand_count"] == 1:
            u += ELIM * win  # their Master lost, or their last card gone
        if card == 8 or hand_after == 0:
            u -= ELIM * loss
        value += p * u
    return value


def answer_value(v: View, card: int) -> float:
    """Expected worth of answering an unknown attack with ``card``."""
    weights = {k: p * ATTACK_WEIGHT[k] for k, p in v.dist.items()}
    total = sum(weights.values()) or 1.0
    attacker = v.obs["duel"]["attacker"] if v.obs.get("duel") else None
    value = 0.0
    for ak, w in weights.items():
        if w <= 0:
            continue
        mine = 1.0 - v.duel(ak, card)
        u = STAKE * (mine - 0.5)
        win = max(0.0, mine - 0.5) * 2
        loss = max(0.0, 0.5 - mine) * 2
        if ak == 8:
            u += ELIM * win
        if card == 8 or len(v.hand) == 1:
            u -= ELIM * loss
        if attacker is not None and v.seats[attacker]["hand_count"] == 0:
            u += ELIM * win  # they attacked with their last card
        value += w / total * u
    return value - v.hold(card)


def swap_gain(v: View, my_hand: list[int]) -> tuple[float, int | None]:
    """Best gain from trading my hand for an opponent's, and with whom."""
    mine = sum(v.hold(c) for c in my_hand)
    per_card = v.pool_hold()
    best, who = float("-inf"), None
    for o in v.opponents:
        s = v.seats[o]
        if s["protected"] or s["hand_count"] == 0:
            continue
        theirs = s["hand_count"] * per_card
        # The Master is likelier in a bigger hand; unseen, it is worth chasing.
        if v.master_unseen and v.pool_total:
            theirs += 2.0 * s["hand_count"] / v.pool_total
        gain = theirs - mine
        if gain > best:
            best, who = gain, o
    return best, who


def up_value(v: View, card: int, hand_after: list[int], depth: int = 0) -> float:
    """Worth of ``card``'s discard effect (without the cost of giving the card up)."""
    targets = [o for o in v.opponents if not v.seats[o]["protected"]]
    if card == 8:
        return -100.0  # discarding the Master eliminates its owner
    if card == 1:
        if depth:
            return 0.0
        exp = 0.0
        for t, p in v.top_dist().items():
            if t not in (1, 8):
                exp += p * max(0.0, up_value(v, t, hand_after, 1))
        return 0.1 + exp
    if card == 2:
        if v.deck_count < 2:
            return 2.0 if v.leading() else -2.0  # drawing two ends the round
        return 0.4
    if card == 3:
        threat = 0.2
        if len(hand_after) <= 1:
            threat += 1.0
        if 8 in hand_after and v.pool[2]:
            threat += 0.8
        if not targets:
            threat -= 0.2  # already safe from everyone still able to act
        return threat
    if card == 4:
        cands = [o for o in targets if v.seats[o]["hand_count"]]
        if not cands:
            return 0.0
        odd = sum(v.pool[k] for k in (1, 3, 5, 7))
        even = sum(v.pool[k] for k in (2, 4, 6)) + 0.2 * v.pool[8]
        p = max(odd, even) / ((odd + even) or 1)
        best = min(v.seats[o]["hand_count"] for o in cands)
        return p * (1.0 + (ELIM if best == 1 else 0.0))
    if card == 5:
        gain, who = swap_gain(v, hand_after)
        if who is None:
            return 0.0
        forced = len(v.opponents) == 1
        return gain if forced else max(0.0, gain)
    if card == 6:
        return 0.1 if targets else 0.0
    if card == 7:
        if v.deck_count == 0:
            return 2.0 if v.leading() else -2.0
        if v.deck_count <= len(v.alive) and not v.leading():
            return -0.2
        return 0.6
    return 0.0


def play_value(v: View, card: int, hand: list[int]) -> tuple[float, str, int | None]:
    """Best way to play ``card`` from ``hand``: (value, face, duel target)."""
    after = list(hand)
    after.remove(card)
    best = (up_value(v, card, after), "up", None)
    for o in v.opponents:
        if v.seats[o]["protected"]:
            continue
        val = attack_value(v, card, o, len(after))
        # Prefer hitting the points leader when values are close.
        val += 0.05 * v.points(o)
        if val > best[0]:
            best = (val, "down", o)
    return (best[0] - v.hold(card), best[1], best[2])


# ---------------------------------------------------------------------------
# The decision points.


def _pick(ids: list[str], prefix: str, values: dict[int, float]) -> str:
    """The legal ``prefix<k>`` id with the highest value (first one on ties)."""
    best_id, best_val = ids[0], float("-inf")
    for aid in ids:
        if not aid.startswith(prefix):
            continue
        val = values.get(int(aid[len(prefix) :]), float("-inf"))
        if val > best_val:
            best_id, best_val = aid, val
    return best_id


def choose(ctx: DecisionContext, rng: random.Random) -> str:
    """The heuristic's action id for ``ctx`` (always one of the legal ids)."""
    ids = ctx.legal_ids
    if len(ids) == 1:
        return ids[0]
    obs = ctx.observation
    v = View(obs)
    ph = obs["phase"]
    hand = v.hand
    return _decide(v, ph, ids, hand, obs)


def _decide(
    v: View, ph: str, ids: list[str], hand: list[int], obs: dict[str, Any]
) -> str:
    if ph == "card":
        vals = {c: play_value(v, c, hand)[0] for c in set(hand)}
        return _pick(ids, "card:", vals)
    if ph == "face":
        card = obs["play"]["card"]
        _, face, _ = play_value(v, card, [*hand, card])
        return f"face:{face}"
    if ph == "target":
        card = obs["duel"]["cards"][0]
        vals = {
            o: attack_value(v, card, o, len(hand)) + 0.05 * v.points(o)
            for o in v.opponents
        }
        return _pick(ids, "target:", vals)
    if ph == "answer":
        return _pick(ids, "answer:", {c: answer_value(v, c) for c in set(hand)})
    if ph in ("c_disciple", "c_monkey"):
        return _combat_choice(v, ph, obs)
    if ph == "c_monkey_order":
        return ids[0]
    if ph == "dragon_draw":
        dc = v.deck_count
        if dc >= 2 and (dc > len(v.alive) + 1 or v.leading()):
            return "dragon:two"
        if dc == 1 and v.leading():
            return "dragon:two"  # the second draw ends the round while I lead
        return "dragon:one"
    if ph == "u_disciple":
        peek = obs["private"]["peek"]
        good = peek not in (1, 8) and up_value(v, peek, hand, 1) > 0
        return "reveal:yes" if good else "reveal:no"
    if ph == "drunk_put":
        left = obs["play"]["to_put_back"]
        order = sorted(hand, key=lambda c: (v.hold(c), c))
        # The last card put back lands on top, where the next player draws it:
        # give them the weakest card, so put the second-weakest first.
        card = order[1] if left == 2 and len(order) > 1 else order[0]
        return f"put:{card}"
    if ph == "snake_target":
        vals = {
            o: 10.0 / max(1, v.seats[o]["hand_count"]) + 0.1 * v.points(o)
            for o in v.opponents
        }
        return _pick(ids, "snake:", vals)
    if ph == "snake_separate":
        # Give up the least useful card, never the Master while another exists.
        return _pick(ids, "separate:", {c: -v.hold(c) for c in set(hand)})
    if ph == "snake_guess":
        odd = sum(v.pool[k] for k in (1, 3, 5, 7))
        even = sum(v.pool[k] for k in (2, 4, 6)) + 0.2 * v.pool[8]
        return "guess:odd" if odd >= even else "guess:even"
    if ph in ("monkey_a", "monkey_b"):
        return _monkey(v, ph, ids, hand, obs)
    if ph == "tiger_target":
        vals = {o: float(v.seats[o]["hand_count"]) for o in v.opponents}
        return _pick(ids, "tiger:", vals)
    if ph == "dragon_peek":
        peek = obs["private"]["peek"]
        return "peek:keep" if v.hold(peek) >= v.pool_hold() else "peek:bottom"
    return ids[0]


def _combat_choice(v: View, ph: str, obs: dict[str, Any]) -> str:
    """Disciple reveal / Monkey redraw: whichever Focus gives the better duel."""
    duel = obs["duel"]
    attacker = duel["attacker"] == v.me
    ak, dk = duel["cards"]
    fa, fd = duel["focus"]
    other = dk if attacker else ak
    tops = v.top_dist()

    def score(my_focus: int) -> float:
        # The defender's effects resolve after the attacker's, so an attacker
        # must expect the defender's best reply; a defender acts last.
        if attacker:
            total = 0.0
            for top, p in tops.items() if other == 1 else ((0, 1.0),):
                replies = _options(other, ak, top) if other in (1, 5) else (fd,)
                total += p * min(resolve(ak, dk, my_focus, r) for r in replies)
            return total
        return 1.0 - resolve(ak, dk, fa, my_focus)

    current = fa if attacker else fd
    if ph == "c_disciple":
        peek = obs["private"]["peek"]
        return "reveal:yes" if score(peek) > score(current) else "reveal:no"
    use, keep = score(1), score(current)
    if use > keep:
        return "monkey:use"
    if use == keep and 8 not in v.hand:
        # Same result either way: reroll a hand worse than the average unseen one.
        rest = v.hand
        if rest and sum(map(v.hold, rest)) / len(rest) < v.pool_hold() - 0.1:
            return "monkey:use"
    return "monkey:skip"


def _monkey(
    v: View, ph: str, ids: list[str], hand: list[int], obs: dict[str, Any]
) -> str:
    """Swap my hand with the opponent likeliest to hold more, or two opponents."""
    gain, who = swap_gain(v, hand)
    forced = len(v.opponents) == 1
    me = f"swap:{v.me}"
    if ph == "monkey_a":
        if who is not None and (gain > 0 or forced) and me in ids:
            return me
        others = [a for a in ids if a != me]
        return others[0] if others else ids[0]
    first = obs["play"]["first_swap"]
    if first == v.me:
        target = f"swap:{who}" if who is not None else ids[0]
        return target if target in ids else ids[0]
    others = [a for a in ids if a != me]
    return others[0] if others else ids[0]
