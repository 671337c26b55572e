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

This module is the engine object, :class:`DueloGame`, and the package's face:
the registry and other code import from here. The rules live beside it:
:mod:`.cards` (the eight kinds, the decks), :mod:`.phases` (decision points
and prompts), :mod:`.menus` (action ids and each phase's legal ids),
:mod:`.effects` (the turn, duels, discard effects: one handler a phase),
:mod:`.rounds` (dealing, scoring, the match), :mod:`.config` (table
options), :mod:`.observation` (what a seat may know) and :mod:`.native` (the
optional C extension).

Every reading of an ambiguous rule is listed, with the rulebook section it
interprets, in ``docs/rules/duelo.md``; comments in these modules name the
reading briefly.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import Action, EngineBase, Event, State
from gameplay.rules.duelo.cards import BASE_DECK, DOUBLE_DECK, FOCUS
from gameplay.rules.duelo.config import _validate
from gameplay.rules.duelo.effects import _HANDLERS, _peek, _RoundOver
from gameplay.rules.duelo.menus import _IDS, ACTION_ARG, ACTION_INFO
from gameplay.rules.duelo.native import NATIVE, _native_observe
from gameplay.rules.duelo.observation import observe_py
from gameplay.rules.duelo.phases import (
    _PEEK_PHASES,
    ANSWER,
    C_MONKEY_ORDER,
    DRUNK_PUT,
    FACE,
    OVER,
    PHASES,
    PROMPTS,
    RULES_VERSION,
    SNAKE_GUESS,
    TARGET,
)
from gameplay.rules.duelo.rounds import _end_round, _start_round
from gameplay.rules.errors import IllegalAction

# The names other code imports from here, wherever they are defined now.
__all__ = [
    "ACTION_INFO",
    "BASE_DECK",
    "DOUBLE_DECK",
    "NATIVE",
    "OVER",
    "PHASES",
    "RULES_VERSION",
    "DueloGame",
]


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

    # The reference in Python (.observation), as a method: tests and the
    # property checks call ``game._observe_py`` for every engine.
    _observe_py = observe_py

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
