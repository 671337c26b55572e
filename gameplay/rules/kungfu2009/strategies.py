"""Built-in strategies for Kung Fu (2009), each reading only one seat's observation.

Three bots, from weakest to strongest (docs/rules/kungfu2009.md has the measured
figures):

* :class:`RandomTrader`: trades at random (starts offers to random partners,
  gives and asks for random cards, accepts or declines at random), passes half of
  the time, but arranges and claims a combination its hand makes.
* :class:`GreedyCollector`: picks the face-up combination it is closest to and
  asks everyone for all the cards it misses at once, giving away the cards that
  combination does not need; accepts any offer that brings a missing card.
* :class:`Planner` (the heuristic bot's strategy, :func:`choose`): values every
  hand by its distance to each face-up combination weighted by the points
  (``points / (1 + distance)^2``), accepts an offer only when the hand it would
  get is worth more, offers its unneeded cards for missing ones to everyone (two
  for two when two or more are missing, else one for one), withdraws offers
  that went stale, and votes for an impasse when every combination is far away.

None keeps memory between decisions: the draft being built and the offers on
the table are in the observation. All are deterministic given ``ctx.seed``.
"""

from __future__ import annotations

import random
from typing import Any

from gameplay.rules.bots.base import Bot, DecisionContext, make_rng
from gameplay.rules.kungfu2009.cards import LEVEL_ORDER, WILD, matches
from gameplay.rules.kungfu2009.constants import MAX_OFFERS
from gameplay.rules.kungfu2009.hands import distance

PASS = "pass"


def _face_up(obs: dict[str, Any]) -> list[tuple[str, str, int]]:
    """(level, hits, points) of the face-up combinations."""
    out = []
    for lv in LEVEL_ORDER:
        c = obs["face_up"][lv]
        if c is not None:
            out.append((lv, c["hits"], c["points"]))
    return out


def hand_value(hand: str, combos: list[tuple[str, str, int]]) -> float:
    """How good a hand is: the best ``points / (1 + distance)^2``, plus a
    quarter of the others' (a hand close to several combinations is safer when
    one of them is taken)."""
    best = total = 0.0
    for _lv, hits, points in combos:
        d = distance(hand, hits)
        v = points / ((1 + d) * (1 + d))
        total += v
        if v > best:
            best = v
    return best + 0.25 * (total - best)


def _claimable(obs: dict[str, Any], ids: list[str]) -> str | None:
    """The claim for the most valuable combination the arranged hand makes."""
    hand = obs["hand"] or ""
    best, best_pts = None, -1
    for lv, hits, points in _face_up(obs):
        if matches(hand[: len(hits)], hits) and points > best_pts:
            aid = f"claim:{lv}"
            if aid in ids:
                best, best_pts = aid, points
    return best


def _fit(obs: dict[str, Any], ids: list[str]) -> str | None:
    best, best_pts = None, -1
    for lv, _hits, points in _face_up(obs):
        aid = f"fit:{lv}"
        if aid in ids and points > best_pts:
            best, best_pts = aid, points
    return best


def _target(hand: str, combos: list[tuple[str, str, int]]) -> tuple[str, int] | None:
    """The combination to aim at: the best points per missing card."""
    best, best_v = None, -1.0
    for _lv, hits, points in combos:
        d = distance(hand, hits)
        v = points / ((1 + d) * (1 + d))
        if v > best_v:
            best, best_v = (hits, d), v
    return best


def _missing(hand: str, hits: str) -> str:
    """The styles ``hand`` lacks for ``hits``, Dragons covering the first ones."""
    out = ""
    for c in sorted(set(hits)):
        short = hits.count(c) - hand.count(c)
        if short > 0:
            out += c * short
    return out[hand.count(WILD) :]


def _surplus(hand: str, hits: str) -> str:
    """Cards of ``hand`` that ``hits`` does not need (never a Dragon)."""
    out = ""
    for c in sorted(set(hand)):
        if c == WILD:
            continue
        extra = hand.count(c) - hits.count(c)
        if extra > 0:
            out += c * extra
    return out


def _after(hand: str, gives: str, gets: str) -> str:
    for c in gives:
        k = hand.rfind(c)
        if k < 0:
            return ""
        hand = hand[:k] + hand[k + 1 :]
    return hand + gets


def _incoming(obs: dict[str, Any], seat: int, ids: list[str]) -> list[dict[str, Any]]:
    return [
        o for o in obs["offers"] if o["from"] != seat and f"decline:{o['id']}" in ids
    ]


class Planner:
    """The heuristic bot's strategy for this game (see the module docstring)."""

    name = "planner"

    def choose(self, ctx: DecisionContext) -> str:
        return choose(ctx, make_rng(ctx.seed))


def choose(ctx: DecisionContext, rng: random.Random) -> str:
    """The planner's intent for ``ctx`` (``META.heuristic``)."""
    ids = ctx.legal_ids
    obs = ctx.observation
    if ids[0] != PASS:
        return ids[0]  # a forced choice (severe punishment): the default
    hand = obs["hand"] or ""
    combos = _face_up(obs)
    claim = _claimable(obs, ids)
    if claim:
        return claim
    fit = _fit(obs, ids)
    if fit:
        return fit
    now = hand_value(hand, combos)
    target = _target(hand, combos)
    if target is None:
        return PASS
    hits, dist = target
    # Nothing within reach: a slow vote for an impasse (all must agree).
    if dist >= 1 and not obs["votes"][ctx.seat] and rng.random() < 0.02:  # noqa: SIM102
        if "impasse" in ids:
            return "impasse"
    for o in _incoming(obs, ctx.seat, ids):
        got = o["cards"] if o["cards"] is not None else o["declared"]
        after = _after(hand, o["want"], got)
        if after and f"accept:{o['id']}" in ids:
            v = hand_value(after, combos)
            # Better: take it. As good: take it half of the time (cards moving
            # around the table is what unlocks other players' trades too).
            if v > now + 1e-9 or (v > now - 1e-9 and rng.random() < 0.5):
                return f"accept:{o['id']}"
        return f"decline:{o['id']}"
    missing = _missing(hand, hits)
    surplus = _surplus(hand, hits)
    mine = [o for o in obs["offers"] if o["from"] == ctx.seat]
    for o in mine:
        # Stale: it asks for a card no longer missing, or gives a needed one.
        if not set(o["want"]) <= set(missing) or not set(o["cards"] or "") <= set(
            surplus
        ):
            return f"withdraw:{o['id']}"
    draft = obs["draft"]
    # Two for two when two or more cards are missing, else one for one.
    size = max(1, min(2 if dist >= 2 else 1, len(missing), len(surplus)))
    if draft is not None:
        spare = _after(surplus, draft["give"], "") if draft["give"] else surplus
        if len(draft["give"]) < size and spare:
            aid = f"give:{spare[int(rng.random() * len(spare))]}"
            if aid in ids:
                return aid
        if len(draft["want"]) < size and missing:
            asked = {c for o in mine for c in o["want"]} | set(draft["want"])
            fresh = [c for c in missing if c not in asked] or list(missing)
            aid = f"want:{fresh[int(rng.random() * len(fresh))]}"
            if aid in ids:
                return aid
        if "send" in ids and draft["give"] and draft["want"]:
            return "send"
        return "cancel"
    if dist > 0 and missing and surplus and len(mine) < MAX_OFFERS:
        asked = {c for o in mine for c in o["want"]}
        if any(c not in asked for c in missing) and "to:all" in ids:
            return "to:all"
    return PASS


class GreedyCollector:
    """Asks for everything it misses at once (see the module docstring)."""

    name = "greedy"

    def choose(self, ctx: DecisionContext) -> str:
        ids = ctx.legal_ids
        obs = ctx.observation
        rng = make_rng(ctx.seed)
        if ids[0] != PASS:
            return ids[0]
        claim = _claimable(obs, ids)
        if claim:
            return claim
        fit = _fit(obs, ids)
        if fit:
            return fit
        hand = obs["hand"] or ""
        combos = _face_up(obs)
        target = _target(hand, combos)
        if target is None:
            return PASS
        hits, dist = target
        if dist >= 2 and not obs["votes"][ctx.seat] and rng.random() < 0.02:  # noqa: SIM102
            if "impasse" in ids:
                return "impasse"
        missing = _missing(hand, hits)
        surplus = _surplus(hand, hits)
        for o in _incoming(obs, ctx.seat, ids):
            got = o["cards"] if o["cards"] is not None else o["declared"]
            if set(got) & set(missing) and f"accept:{o['id']}" in ids:
                return f"accept:{o['id']}"
        mine = [o for o in obs["offers"] if o["from"] == ctx.seat]
        draft = obs["draft"]
        if draft is not None:
            for c in surplus:
                if draft["give"].count(c) < surplus.count(c) and len(
                    draft["give"]
                ) < len(missing):
                    aid = f"give:{c}"
                    if aid in ids:
                        return aid
            for c in missing:
                if draft["want"].count(c) < missing.count(c):
                    aid = f"want:{c}"
                    if aid in ids:
                        return aid
            return "send" if "send" in ids else "cancel"
        if missing and not mine and "to:all" in ids:
            return "to:all"
        if mine and rng.random() < 0.05:
            return f"withdraw:{mine[0]['id']}"
        return PASS


class RandomTrader:
    """Random trading, but it claims what it has (see the module docstring)."""

    name = "trader"

    def choose(self, ctx: DecisionContext) -> str:
        ids = ctx.legal_ids
        obs = ctx.observation
        rng = make_rng(ctx.seed)
        if ids[0] != PASS:
            return ids[int(rng.random() * len(ids))]
        claim = _claimable(obs, ids)
        if claim:
            return claim
        fit = _fit(obs, ids)
        if fit:
            return fit
        if rng.random() < 0.5:
            return PASS
        if not obs["votes"][ctx.seat] and rng.random() < 0.03 and "impasse" in ids:
            return "impasse"
        trades = [
            a
            for a in ids
            if a.split(":", 1)[0]
            in ("to", "give", "want", "send", "accept", "decline", "withdraw")
        ]
        if obs["draft"] is not None and rng.random() < 0.3:
            trades = [a for a in ("send", "cancel") if a in ids]
        if not trades:
            return PASS
        aid = trades[int(rng.random() * len(trades))]
        if aid.count(":") == 2 and rng.random() < 0.75:
            # A card declared as another style (``give:C:T``) has four menu
            # entries per style to the honest one's one: cheat now and then,
            # not on most cards.
            aid = aid.rsplit(":", 1)[0]
        return aid


#: Built-in strategies of this game by bot name (the tick driver takes any).
STRATEGIES: dict[str, type[Bot]] = {
    "trader": RandomTrader,
    "greedy": GreedyCollector,
    "planner": Planner,
}
