"""Hand-written strategy for Kung Fu (2019), computed from one seat's observation.

Three decisions, each by a rule of thumb:

* **Draft** (keep one card of the pack): the card with the best *worth*, its
  dice value in play plus its bonus icon's value over the game (below).
* **Play** (three cards a round, committed one at a time): the three cards of
  the hand with the best play value, the cards already committed this round
  kept. The bot holds no memory: each commit recomputes the same choice.
* **Dice**: ``auto``, the exact solver's best assignment (ATK + HP attacking,
  DEF + yin-yang defending; see ``solver.py``), which also finishes.

A card's play value is its expected solver value when it is played alone,
averaged over a fixed sample of rolls at a typical budget: the attack side
counts once per defender hit (an attack reaches every other player), the
defence side once per attack faced (every other player attacks, and the dummy
too at two players). Values are computed once per process (a fraction of a
second) from the card list, so they follow any change to ``cards.py``.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from gameplay.rules.bots.base import DecisionContext
from gameplay.rules.kungfu2019 import cards as _cards
from gameplay.rules.kungfu2019 import solver
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND

SAMPLE_ROLLS = 64
TYPICAL_BUDGET = 2
ROUNDS = 3
#: The share of an ATK (or DEF) point that turns into damage (or saves some): a
#: point counts only where ATK exceeds DEF. An HP gain or loss is sure.
HIT_RATE = 0.6


@lru_cache(maxsize=1)
def card_values() -> dict[str, tuple[float, float]]:
    """Per card code: (mean attack value, mean defence value) played alone.

    The attack side is ATK plus HP / ``HIT_RATE``: ATK and DEF points trade one
    for one and both convert only in part, but a gained HP is sure, so it is worth
    more than an ATK point (counted equal, the bot drafted the "pair: +3 HP" cards
    late while they won the most; docs/rules/kungfu2019.md, balance run 6). The
    solver still assigns the dice by ATK + HP, as the engine's ``auto`` does.
    """
    rng = random.Random(2019)
    rolls = [[rng.randint(1, 6) for _ in range(7)] for _ in range(SAMPLE_ROLLS)]
    out = {}
    for code, combos in _cards.COMBOS.items():
        options = [(0, k, c) for k, c in enumerate(combos)]
        attack = defence = 0.0
        for roll in rolls:
            effect = solver.solve(roll, options, TYPICAL_BUDGET, ATTACK).effect
            attack += effect.atk + effect.hp / HIT_RATE
            defence += solver.solve(roll, options, TYPICAL_BUDGET, DEFEND).value
        out[code] = (attack / SAMPLE_ROLLS, defence / SAMPLE_ROLLS)
    return out


def _multipliers(players: int) -> tuple[float, float]:
    """How often a card's attack and defence sides count in one round."""
    attack = players - 1  # defenders one attack reaches
    defence = players - 1 + (1 if players == 2 else 0)  # attacks faced (dummy)
    return float(attack), float(defence)


def play_value(code: str, players: int) -> float:
    a, d = card_values()[code]
    ma, md = _multipliers(players)
    return a * ma + d * md


def icon_value(code: str, players: int) -> float:
    """What the card's bonus icon is worth over a game, in HP-equivalent points."""
    icon = _cards.ICON[code]
    step = _cards.TRACK_STEP[icon]
    ma, md = _multipliers(players)
    # Track points beyond DEF/ATK convert to damage only part of the time.
    hit_rate = HIT_RATE
    if icon == "hp":
        return float(step)
    if icon == "atk":
        return step * ROUNDS * ma * hit_rate
    if icon == "def":
        return step * ROUNDS * md * hit_rate
    # A HIT/AVO point moves one die one pip: worth about half a point per fight.
    if icon == "hit":
        return step * ROUNDS * ma * 0.5 * hit_rate
    return step * ROUNDS * md * 0.5 * hit_rate


def worth(code: str, players: int) -> float:
    """A card's draft value: three rounds' share of play value plus its icon."""
    # A drafted card is played in one round of three (nine of the ten are).
    return play_value(code, players) * 0.9 + icon_value(code, players)


def best_three(hand: list[str], kept: list[str], players: int) -> list[str]:
    """The cards to play this round: ``kept`` plus the best of ``hand``."""
    rest = sorted(
        hand, key=lambda c: (-play_value(c, players), _cards.INITIATIVE[c], c)
    )
    return kept + rest[: max(0, 3 - len(kept))]


def choose(ctx: DecisionContext, rng: random.Random) -> str:
    obs = ctx.observation
    ids = ctx.legal_ids
    if len(ids) == 1:
        return ids[0]
    return choose_from(obs, ids)


def choose_from(obs: dict[str, Any], ids: list[str]) -> str:
    """The strategy on a plain observation and menu (the playout policy uses it)."""
    phase = obs["phase"]
    players = obs["players"]
    if phase == "draft":
        pack = [i.split(":", 1)[1] for i in ids if i.startswith("pick:")]
        if not pack:
            return ids[0]
        best = max(pack, key=lambda c: (worth(c, players), c))
        return f"pick:{best}"
    if phase == "play":
        hand = [i.split(":", 1)[1] for i in ids if i.startswith("play:")]
        if not hand:
            return ids[0]
        kept = list((obs.get("commits") or {}).get("mine") or [])
        want = best_three(hand, kept, players)
        for code in want:
            if f"play:{code}" in ids:
                return f"play:{code}"
        return ids[0]
    if "auto" in ids:
        return "auto"
    return ids[0]
