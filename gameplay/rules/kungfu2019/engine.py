"""Kung Fu (Good Game Studio, 2019), the dice game: the complete rules.

Representation, chosen for speed and a lossless JSON round trip:

* A card is one character of ``ALPHABET`` (card ``c01`` is its first character,
  ``c74`` its last, in ASCII order, so sorting characters sorts by code).
  Observations, events and action ids use the readable codes of ``cards.py``.
* Hands, packs, the deck and the committed cards are strings (immutable); the
  deck runs bottom to top (the top card is ``deck[-1]``).
* Simultaneous choices (each draft pick, each of the three cards played in a
  round, each fighter's dice assignment) are hidden per-seat slots: ``actors``
  lists every seat that still has to choose; the last choice in reveals them all
  in one event.
* A fight (one attacker against every other living player) keeps one small
  assignment record per fighter; each step replaces that record (copy-on-write),
  so :meth:`KungFu2019Game.clone` copies only a few lists.

This module is the engine object, :class:`KungFu2019Game`, and the package's
face: the registry and other code import from here. The rules live beside it:
:mod:`.alphabet` (the cards as characters and their tables), :mod:`.phases`,
:mod:`.actions` (action ids and events), :mod:`.assignment` (the dice
assignment, its menus and the best one), :mod:`.rounds` (rounds, the reveal,
the fights, the end), :mod:`.handlers` (one handler a phase, take-backs, the
draft's and play's menus), :mod:`.config` (table options), :mod:`.observation`
(what a seat may know), :mod:`.native` (the optional C extensions) and
:mod:`.fields` (the state as the kernel's fields).

Every reading of an ambiguous rule, quoting the rulebook, is listed in
``docs/rules/kungfu2019.md``; comments in these modules name the reading
briefly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import Action, EngineBase, Event, State
from gameplay.rules.errors import IllegalAction
from gameplay.rules.kungfu2019 import handlers as _handlers
from gameplay.rules.kungfu2019.actions import (
    PICK_ID,
    PLAY_ID,
    REOPEN,
    RETRACTS,
    STEP_ARG,
    UNPICK,
    UNPLAY_ARG,
)
from gameplay.rules.kungfu2019.alphabet import (
    ALPHABET,
    BY_CODE,
    CODE,
    CODES,
    COMBOS,
    CROSS,
    DICE,
    FULL_DECK,
    HAND,
    ICON,
    NAME,
    PLAY,
    ROUNDS,
    RULES_VERSION,
    STAT,
    STEP,
    USABLE,
    _label,
)
from gameplay.rules.kungfu2019.assignment import (
    _assign_ids,
    _assign_legal,
    _checked_proposal,
    proposal,
)
from gameplay.rules.kungfu2019.config import _validate
from gameplay.rules.kungfu2019.fields import _native_fields, _native_store
from gameplay.rules.kungfu2019.handlers import _h_retract, _ids, _is_legal, _retract_ids
from gameplay.rules.kungfu2019.native import (
    NATIVE,
    _native,
    _native_actors,
    _native_ids,
    _native_observe,
    _native_step,
)
from gameplay.rules.kungfu2019.observation import observe_py
from gameplay.rules.kungfu2019.phases import (
    ASSIGN,
    DRAFT,
    DUMMY,
    OVER,
    PHASES,
    PLAYING,
    PROMPTS,
)
from gameplay.rules.kungfu2019.rounds import _start_status
from gameplay.rules.rng import uniform_chooser

# Assigned, not imported: CPython 3.11 compiles ``NAME.method(...)`` on a name
# the module imports as an attribute load and a call (a bound method made per
# call), and on any other name as a method call; ``apply`` and ``playout`` read
# this table at every step. A global of this module, as before the split.
_HANDLERS = _handlers._HANDLERS

# The names other code imports from here, wherever they are defined now.
__all__ = [
    "ALPHABET",
    "ASSIGN",
    "BY_CODE",
    "CODE",
    "CODES",
    "COMBOS",
    "CROSS",
    "DICE",
    "DRAFT",
    "DUMMY",
    "FULL_DECK",
    "HAND",
    "ICON",
    "NATIVE",
    "PHASES",
    "PICK_ID",
    "PLAY",
    "PLAYING",
    "PLAY_ID",
    "ROUNDS",
    "RULES_VERSION",
    "STAT",
    "STEP",
    "STEP_ARG",
    "USABLE",
    "KungFu2019Game",
    "native_policy",
    "native_policy_values",
    "proposal",
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


def native_policy_values(
    worth: tuple[tuple[float, ...], ...], play: tuple[tuple[float, ...], ...]
) -> None:
    """Hand the kernel rollout.py's card values for ``policy_playout``: per
    player count 0-5, 128 floats by card character (``native_policy()`` only;
    the policy itself lives in rollout.py, which calls this on first use)."""
    _native.init_policy(worth, play)


# ---------------------------------------------------------------------------
# The engine object.


class KungFu2019Game(EngineBase):
    """Kung Fu (2019), the dice game, behind the engine contract.

    Timeout default (each menu's first entry): draft: keep the lowest-numbered
    card of the pack; play: the hand's lowest-numbered card; dice: the best
    assignment (``auto``).
    """

    id = "kungfu2019"
    name = "Kung Fu (2019)"
    min_players = 2
    max_players = 5
    rules_version = RULES_VERSION
    # ``random_playout`` runs in the C kernel (_fastplay.c) when it is built.
    native_playout = NATIVE
    # bench/engine.py's target for it: random 4-player games/s (issue 12).
    native_games_target = 1000

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Normalized config (every option present) or InvalidConfig."""
        return _validate(config)

    def setup(self, config: dict[str, Any], seed: int) -> State:
        """Shuffle the 74 cards and deal 10 to each player (the packs to draft)."""
        cfg = self._setup_config(config, seed)
        n = cfg["players"]
        r = _rng.seed_state(seed)
        top = "".join(BY_CODE[c] for c in cfg["deck"] or [])
        # (a stacked deck only in tests and tools: the usual setup skips the scan)
        rest = "".join(c for c in FULL_DECK if c not in top) if top else FULL_DECK
        r, rest = _rng.shuffled(r, rest)
        deck = rest + top[::-1]  # bottom -> top; the first listed is on top
        dealt = []
        for _ in range(n):  # ten cards each, seat 0 first, from the top
            dealt.append(deck[-HAND:][::-1])
            deck = deck[:-HAND]
        s: State = {
            "game": self.id,
            "rules_version": RULES_VERSION,
            "cfg": cfg,
            "rng": r,
            "n": n,
            "phase": DRAFT,
            "round": 0,
            "turn": 0,
            "deck": deck,
            "packs": dealt if cfg["draft"] else [""] * n,
            "picks": [""] * n,
            "hands": [""] * n if cfg["draft"] else dealt,
            "tracks": [[0] * 5 for _ in range(n)],
            "hp": [0] * n,
            "elim": [0] * n,
            "nfight": 0,
            "commit": [""] * n,
            "played": [""] * n,
            "dummy": "",
            "discard": "",
            "order": [],
            "oi": 0,
            "fight": None,
            "di": 0,
            "result": None,
        }
        if not cfg["draft"]:
            # The first-game option: the ten cards dealt are the hand.
            _start_status(s, [])
        return s

    # -- queries -----------------------------------------------------------

    def actors(self, state: State) -> list[int]:
        """Every seat that still has to choose now (several at once); [] = over."""
        # Loops, not comprehensions: on Python 3.11 a comprehension is a
        # function call of its own, which costs more than a few seats take
        # (``actors`` runs at every step, and again in ``observe``).
        # The dice assignment first: most steps are in it.
        if _native_actors is not None:  # the same list, built in C
            c_who = _native_actors(state)
            if c_who is not None:
                return c_who
        ph = state["phase"]
        who: list[int] = []
        if ph == ASSIGN:
            f = state["fight"]
            asg = f["asg"]
            for i in f["f"]:
                if not asg[i]["done"]:
                    who.append(i)
        elif ph == DRAFT:
            for i, pick in enumerate(state["picks"]):
                if not pick:
                    who.append(i)
        elif ph == PLAYING:
            commit = state["commit"]
            for i, out in enumerate(state["elim"]):
                if not out and len(commit[i]) < PLAY:
                    who.append(i)
        return who

    def legal_action_ids(self, state: State, seat: int | None) -> list[str]:
        """Fast path: just the ids, the first one being the timeout default."""
        if _native_ids is not None:  # every phase's menu, in C
            ids = _native_ids(state, seat)
            if ids is not None:
                return ids
        if type(seat) is not int or not 0 <= seat < state["n"]:
            return []
        if state["phase"] == ASSIGN:
            return _assign_ids(state, seat)
        return _ids(state, seat)

    def legal_actions(self, state: State, seat: int | None) -> list[Action]:
        """The menu for ``seat`` ([] when it has no decision now)."""
        if seat is None:
            return []  # the table has no steps of its own in this game
        return [
            self._describe(state, seat, i) for i in self.legal_action_ids(state, seat)
        ]

    def _describe(self, state: State, seat: int, aid: str) -> Action:
        kind, _, rest = aid.partition(":")
        if kind in ("pick", "play"):
            ch = BY_CODE[rest]
            verb = "Keep" if kind == "pick" else "Play"
            return {
                "id": aid,
                "type": kind,
                "card": rest,
                "label": f"{verb} {_label(ch)}",
            }
        if kind == "set":
            slot, k = (int(x) for x in rest.split(":"))
            ch = state["played"][seat][slot]
            c = COMBOS[ch][k]
            return {
                "id": aid,
                "type": "set",
                "card": CODE[ch],
                "slot": slot,
                "combo": k,
                "label": f"Assign dice to {NAME[ch]}: {c.label()} ({c.effect.label()})",
            }
        if kind == "drop":
            j = int(rest)
            slot, k, dice = state["fight"]["asg"][seat]["sets"][j]
            ch = state["played"][seat][slot]
            return {
                "id": aid,
                "type": "drop",
                "set": j,
                "card": CODE[ch],
                "combo": k,
                "dice": list(dice),
                "label": f"Take back the set on {NAME[ch]} "
                f"({COMBOS[ch][k].label()}, dice "
                f"{', '.join(str(i + 1) for i in dice)})",
            }
        if kind in ("die", "up", "down"):
            i = int(rest)
            value = state["fight"]["asg"][seat]["v"][i]
            label = {
                "die": f"Put die {i + 1} (showing {value}) into the set",
                "up": f"Spend a point: die {i + 1} from {value} to {value + 1}",
                "down": f"Spend a point: die {i + 1} from {value} to {value - 1}",
            }[kind]
            return {"id": aid, "type": kind, "die": i, "value": value, "label": label}
        labels = {
            "auto": "Use the best assignment and finish",
            "done": "Finish with the dice as assigned",
            "reset": "Start the assignment again from the roll",
            "best": "Load the best assignment (and keep adjusting it)",
            "cancel": "Drop the set being built",
        }
        return {"id": aid, "type": aid, "label": labels[aid]}

    # -- transitions ---------------------------------------------------------

    def apply(
        self, state: State, seat: int | None, action_id: str
    ) -> tuple[State, list[Event]]:
        """Apply one seat's decision; never mutates ``state``."""
        if _native_step is not None:  # most steps, in C
            done = _native_step(state, seat, action_id)
            if done is not None:
                return done
        if type(state) is not dict or state.get("rules_version") != RULES_VERSION:
            self._check(state)
        if type(action_id) is not str:
            raise IllegalAction(
                "malformed_action",
                f"malformed action {action_id!r}: an action is its string id, "
                "e.g. 'pick:c01'",
                action=str(action_id)[:80],
            )
        ph = state["phase"]
        if ph == OVER:
            raise IllegalAction(
                "game_over", "the game is over; no more actions are accepted"
            )
        if type(seat) is not int or not 0 <= seat < state["n"]:
            raise IllegalAction("no_such_seat", f"no seat {seat!r} in this game")
        if action_id in RETRACTS and action_id in _retract_ids(state, seat):
            s = state.copy()
            ev: list[Event] = []
            _h_retract(s, ev, seat, action_id)
            return s, ev
        # The dice steps (most steps) ask their check directly: one call less.
        if not (
            _assign_legal(state, seat, action_id)
            if ph == ASSIGN
            else _is_legal(state, seat, action_id)
        ):
            ids = _ids(state, seat)
            if not ids:
                raise IllegalAction(
                    "no_decision",
                    f"seat {seat} has no decision now (waiting for seats "
                    f"{self.actors(state)}: {PROMPTS[ph]})",
                )
            raise IllegalAction(
                "not_legal",
                f"action {action_id!r} is not legal for seat {seat} in phase "
                f"{ph!r} ({PROMPTS[ph]}); legal: " + ", ".join(ids),
                action=action_id,
            )
        # Copy-on-write: the handlers copy each list or record before they edit
        # it, so the top dict is all that is copied here.
        s = state.copy()
        ev = []
        _HANDLERS[ph](s, ev, seat, action_id)
        return s, ev

    def playout(
        self,
        state: State,
        choose: Callable[[State, int, list[str]], str],
        max_steps: int | None = None,
    ) -> int:
        """Play ``state`` on in place until the game ends (or ``max_steps``
        decisions): each time the first seat of ``actors`` decides,
        ``choose(state, seat, ids)`` picking among its legal ids (menu order, as
        ``legal_action_ids`` lists them).

        The same menus and handlers as ``apply`` (their events are dropped); an
        illegal choice raises IllegalAction, the state left after the last legal
        decision. Returns the number of decisions made. For simulations on a
        state the caller owns (``setup``, ``clone``, ``apply``...).
        """
        if type(state) is not dict or state.get("rules_version") != RULES_VERSION:
            self._check(state)
        actors = self.actors
        handlers = _HANDLERS
        steps = 0
        limit = -1 if max_steps is None else max_steps
        ev: list[Event] = []
        while steps != limit:
            who = actors(state)
            if not who:
                break
            seat = who[0]
            ids = _ids(state, seat)
            aid = choose(state, seat, ids)
            if type(aid) is not str or aid not in ids:
                raise IllegalAction(
                    "not_legal",
                    f"action {aid!r} is not legal for seat {seat} in phase "
                    f"{state['phase']!r}; legal: " + ", ".join(ids),
                    action=str(aid)[:80],
                )
            handlers[state["phase"]](state, ev, seat, aid)
            ev.clear()
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
        (rollout.py's ``playout`` picks between the two, and hands the kernel
        the policy's card values when it is imported); the policy's rules live
        in rollout.py, the kernel only repeats them.
        """
        if not native_policy():
            raise RuntimeError("the kungfu2019 kernel has no policy_playout")
        return self._native_playout(_native.policy_playout, state, seed, max_steps)

    def _native_playout(
        self,
        kernel: Callable[
            [tuple[Any, ...], int, int], tuple[tuple[Any, ...], int, int, int]
        ],
        state: State,
        seed: int,
        max_steps: int | None,
    ) -> int:
        if type(state) is not dict or state.get("rules_version") != RULES_VERSION:
            self._check(state)
        if state["phase"] == OVER or max_steps == 0:
            return 0
        fields, _, steps, reason = kernel(
            _native_fields(state),
            int(_rng.seed_state(seed), 16),
            -1 if max_steps is None else max_steps,
        )
        _native_store(state, fields, reason)
        return steps

    def retract_actions(self, state: State, seat: int) -> list[Action]:
        """Take-backs of ``seat``'s hidden commits while the others still choose.

        Not part of ``legal_actions`` (bots, simulations and timeouts never see
        them, and no clock runs for them): the platform offers them to people
        beside the menu. ``apply`` accepts them; taking a commit back makes the
        seat an actor again, with that decision open.
        """
        if state["phase"] == OVER or type(seat) is not int:
            return []
        if not 0 <= seat < state["n"]:
            return []
        out: list[Action] = []
        for aid in _retract_ids(state, seat):
            if aid == UNPICK:
                ch = state["picks"][seat]
                out.append(
                    {
                        "id": aid,
                        "type": "unpick",
                        "card": CODE[ch],
                        "label": f"Take back {NAME[ch]} (choose again)",
                    }
                )
            elif aid == REOPEN:
                out.append(
                    {
                        "id": aid,
                        "type": "reopen",
                        "label": "Change your dice assignment",
                    }
                )
            else:
                ch = UNPLAY_ARG[aid]
                out.append(
                    {
                        "id": aid,
                        "type": "unplay",
                        "card": CODE[ch],
                        "label": f"Take back {NAME[ch]}",
                    }
                )
        return out

    def clone(self, state: State) -> State:
        """A copy the engine may mutate: the dict and the lists it edits in place.

        The fight's per-seat records are replaced, never edited, and the fight
        dict itself is copied, so this is all it takes.
        """
        s = state.copy()
        s["packs"] = state["packs"][:]
        s["picks"] = state["picks"][:]
        s["hands"] = state["hands"][:]
        s["hp"] = state["hp"][:]
        s["elim"] = state["elim"][:]
        s["commit"] = state["commit"][:]
        f = state["fight"]
        if f is not None:
            s["fight"] = f.copy()
        return s

    # -- information ---------------------------------------------------------

    def observe(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now, built field by field from an allow-list.

        Hidden from others: hands, packs, draft picks, the cards committed before
        the reveal, an unfinished dice assignment, the deck order and the RNG.
        Public: the status tracks and HP (the boards are on the table), hand and
        pack sizes, who has chosen, the revealed plays, the dice rolled and every
        finished fight.

        Built in C when the optional ``_fastobserve`` extension is there (it was
        about 43% of a step of the public API in Python, issue 33 §2): the same
        fields from the same allow-list as :meth:`_observe_py`, the reference,
        which builds it otherwise and whenever the C code declines (a finished
        or malformed state, an invalid seat: the errors are raised there).
        tests/rules/test_kungfu2019_observe.py holds the two equal.
        """
        if _native_observe is not None:
            obs = _native_observe(state, seat)
            if obs is not None:
                return obs
        return self._observe_py(state, seat)

    # The Python reference (observation.py), a method as before: the
    # property checks call ``game._observe_py`` for every engine.
    _observe_py = observe_py

    def determinize(self, state: State, seat: int, rng_seed: int) -> State:
        """A full state ``seat`` cannot tell apart from ``state`` right now.

        Kept: everything in ``seat``'s observation. Re-dealt at random: the other
        seats' hands, packs, draft picks and unrevealed committed cards, and the
        deck. After the draft the other seats keep as many cards of each icon as
        they had (their tracks are public). Other fighters' unfinished dice
        assignments are reset to their rolls, finished ones replaced by the best
        assignment of their roll, ``auto``'s (the real sets are not shown to
        the seat). The RNG is reseeded, so future rolls, ties and the dummy's
        cards are unknown.
        """
        s = self.clone(state)
        n = s["n"]
        others = [i for i in range(n) if i != seat]
        r = _rng.seed_state(rng_seed)
        if s["phase"] == DRAFT:
            sizes = [
                (len(s["hands"][i]), len(s["packs"][i]), len(s["picks"][i]))
                for i in others
            ]
            pool = (
                "".join(s["hands"][i] + s["packs"][i] + s["picks"][i] for i in others)
                + s["deck"]
            )
            r, pool = _rng.shuffled(r, "".join(sorted(pool)))
            for i, (h, p, k) in zip(others, sizes, strict=True):
                s["hands"][i], pool = pool[:h], pool[h:]
                s["packs"][i], pool = pool[:p], pool[p:]
                s["picks"][i], pool = pool[:k], pool[k:]
            s["deck"] = pool
        else:
            by_icon: list[list[str]] = [[] for _ in STAT]
            need = []
            for i in others:
                hidden = s["hands"][i] + s["commit"][i]
                counts = [0] * 5
                for c in hidden:
                    counts[ICON[c]] += 1
                    by_icon[ICON[c]].append(c)
                need.append(counts)
            for c in s["deck"]:
                by_icon[ICON[c]].append(c)
            pools = []
            for icon in range(5):
                r, pile = _rng.shuffled(r, "".join(sorted(by_icon[icon])))
                pools.append(pile)
            for i, counts in zip(others, need, strict=True):
                got = ""
                for icon in range(5):
                    got += pools[icon][: counts[icon]]
                    pools[icon] = pools[icon][counts[icon] :]
                r, got = _rng.shuffled(r, got)
                k = len(s["commit"][i])
                s["commit"][i], s["hands"][i] = got[:k], got[k:]
            r, s["deck"] = _rng.shuffled(r, "".join(pools))
            f = s["fight"]
            if f is not None:
                f["asg"] = f["asg"][:]
                for i in f["f"]:
                    a = f["asg"][i]
                    if i == seat:
                        continue
                    b = dict(a, v=list(f["dice"][i]), sets=[], open=None, gain=0)
                    b["spent"] = 0
                    if a["done"]:
                        # Not the real (unseen) sets: the best assignment of
                        # the roll (``auto``, what the heuristic and the
                        # timeout play), the one a good player finishes with.
                        b["v"], b["sets"], b["gain"], b["spent"] = _checked_proposal(
                            s, i
                        )
                    f["asg"][i] = b
        s["rng"] = r
        return s
