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

This module is the engine object, :class:`KungFu2013Game`, and the package's
face: the registry and other code import from here. The rules live beside it:
:mod:`.alphabet` (the cards as characters), :mod:`.phases` (decision points
and prompts), :mod:`.menus` (action ids and each phase's menu),
:mod:`.rounds` (the task loop: draws, the battle, the outcome),
:mod:`.handlers` (one handler a decision), :mod:`.config` (table options),
:mod:`.observation` (what a seat may know) and :mod:`.native` (the optional C
extensions).

Every reading of an ambiguous rule is listed, with the rulebook words it reads,
in ``docs/rules/kungfu2013.md``; comments in these modules name the reading
briefly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import Action, EngineBase, Event, State
from gameplay.rules.kungfu2013 import menus as _menus
from gameplay.rules.kungfu2013.alphabet import (
    ALPHABET,
    BLUE_DECK,
    BY_CODE,
    CARDS,
    CODE,
    COST,
    EFFECT,
    FIRST_BLUE,
    ON_HIT,
    RED_DECK,
    RISE,
    VALUE,
    _blues,
    _reds,
    view,
)
from gameplay.rules.kungfu2013.config import _stack, _validate
from gameplay.rules.kungfu2013.handlers import _ACT, _accept, _accept_slow
from gameplay.rules.kungfu2013.menus import _MENUS, ACTION_INFO
from gameplay.rules.kungfu2013.native import (
    NATIVE,
    _native,
    _native_fields,
    _native_legal,
    _native_observe,
    _native_store,
)
from gameplay.rules.kungfu2013.observation import observe_py
from gameplay.rules.kungfu2013.phases import (
    ATTACK,
    BLOCK,
    DRAW,
    INITIATIVE,
    OVER,
    PAY,
    PROMPTS,
    RULES_VERSION,
    TARGET,
)
from gameplay.rules.kungfu2013.rounds import _new_battle, _run
from gameplay.rules.rng import uniform_chooser

# Assigned, not imported: CPython 3.11 compiles ``NAME.method(...)`` on a name
# the module imports as an attribute load and a call (a bound method made per
# call), and on any other name as a method call (none);
# ``_legal_action_ids_py`` runs ``_FIXED.get`` at every menu it builds.
_FIXED = _menus._FIXED

# The names other code imports from here, wherever they are defined now.
__all__ = [
    "ACTION_INFO",
    "ALPHABET",
    "ATTACK",
    "BLOCK",
    "BY_CODE",
    "CARDS",
    "CODE",
    "COST",
    "DRAW",
    "EFFECT",
    "FIRST_BLUE",
    "INITIATIVE",
    "NATIVE",
    "ON_HIT",
    "OVER",
    "PAY",
    "PROMPTS",
    "RISE",
    "RULES_VERSION",
    "TARGET",
    "VALUE",
    "KungFu2013Game",
    "native_policy",
    "view",
]


def native_policy() -> bool:
    """Whether the kernel plays the playout policy (``native_policy_playout``).

    False without the kernel, and with one built before it had the policy (a
    checkout whose extension was not rebuilt): rollout.py then plays its
    Python twin, the same choices, only slower. Read per call from this
    module's ``NATIVE`` and ``_native`` (those of .native, imported), so
    switching them off here (tests, ``bench/ismcts.py --no-native``) takes
    effect.
    """
    return NATIVE and hasattr(_native, "policy_playout")


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
        # replace those lists when they change them (copy-on-write, rounds.py).
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

    # The reference in Python (.observation), as a method: tests and the
    # property checks call ``game._observe_py`` for every engine.
    _observe_py = observe_py

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
