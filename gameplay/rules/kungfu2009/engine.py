"""Kung Fu (Kuznia Gier, 2009): the real-time trading game as a state machine.

There are no turns. Every seat in play may act at any moment; the server (or, in
bot matches, the virtual clock of :mod:`gameplay.rules.ticks`) stamps each intent
and applies the intents one at a time in stamp order. The engine never reads a
clock: rules that speak of time become explicit intents (an impasse vote) or table
steps (checking a claim, the end of the match's time).

Representation, chosen for speed and a lossless JSON round trip:

* A hit card is one letter of ``STYLES`` (cards of one style are identical, so
  they carry no ids). A hand is a string read left to right: its arrangement.
* The hit pile is a string whose top card is the last character; the discard
  pile (face up) a string.
* Combination cards are codes (``E01``, ``N07``, ``D03``); each pile is a list of
  codes, top last, with its face-up card in ``up``.
* Offers are small dicts replaced, never edited, when they change; every list the
  engine edits in place is copied by :meth:`KungFu2009Game.clone` (which every
  handler that edits one runs first). Arranging a hand, building an offer and a
  claim copy only the lists they change and share the others with the state
  before, so no list is edited once a state holding it has been returned.

The pause: a "KUNG FU" claim puts the claimed cards on the table and the game in
phase ``paused``. Nobody may act then (``actors`` is empty); trades, arrangements
and votes are refused with the reason, and a claim that arrives during the pause
(shouted at the same moment) queues behind the one being checked. The table (seat
``None``) takes the one step that moves a pause on: ``check`` resolves the claim at
the head of the queue. The server applies it once people have seen the cards, the
tick driver at the next tick. Refilled cards stay unseen by their owners until play
resumes.

This module is the engine object, :class:`KungFu2009Game`, and the package's
face: the registry and other code import from here. The rules live beside it:
:mod:`.constants` (limits, timers, phases, action ids), :mod:`.hands` (what a
hand can make), :mod:`.offers` (trade offers), :mod:`.menus` (each seat's
menu and its labels), :mod:`.handlers` (one handler an intent), :mod:`.table`
(draws, claims checked, the impasse, the end), :mod:`.config` (table
options), :mod:`.observation` (what a seat may know) and :mod:`.native` (the
optional C extension).

Every reading of an ambiguous rule is listed, with the rulebook words it reads,
in ``docs/rules/kungfu2009.md``; comments in these modules name the reading
briefly.
"""

from __future__ import annotations

from typing import Any

from gameplay.rules import rng as _rng
from gameplay.rules.base import Action, EngineBase, Event, State
from gameplay.rules.errors import IllegalAction
from gameplay.rules.kungfu2009 import handlers as _handlers
from gameplay.rules.kungfu2009.cards import LEVEL_ORDER, PILE_CODES, removal
from gameplay.rules.kungfu2009.config import _validate
from gameplay.rules.kungfu2009.constants import (
    ANSWER_S,
    BUILD_S,
    CHECK,
    END,
    FORFEIT_ID,
    FORFEIT_S,
    FULL_DECK,
    HAND,
    LEVEL_OF,
    MAX_OFFERS,
    OVER,
    PASS,
    PAUSED,
    PLAY,
    POINTS,
    RULES_VERSION,
    SHOW_CLAIM_S,
)
from gameplay.rules.kungfu2009.handlers import _clone
from gameplay.rules.kungfu2009.hands import _remove
from gameplay.rules.kungfu2009.menus import (
    _STATIC_LABELS,
    _legal_ids,
    _menu_entry,
)
from gameplay.rules.kungfu2009.native import NATIVE, _native_observe
from gameplay.rules.kungfu2009.observation import _SEAT_FACTS, _SEATS, observe_py
from gameplay.rules.kungfu2009.table import _check, _finish, _settle_forfeit

# Assigned, not imported: CPython 3.11 compiles ``NAME.method(...)`` on a name
# the module imports as an attribute load and a call (a bound method made per
# call), and on any other name as a method call (none); ``apply`` runs
# ``_HANDLERS.get`` at every intent.
_HANDLERS = _handlers._HANDLERS

# The names other code imports from here, wherever they are defined now.
__all__ = [
    "FULL_DECK",
    "MAX_OFFERS",
    "NATIVE",
    "PAUSED",
    "RULES_VERSION",
    "KungFu2009Game",
]


class KungFu2009Game(EngineBase):
    """Kung Fu (Kuznia Gier, 2009): 4-8 players (3 as our variant), real time.

    Timeout default (each menu's first entry): "pass" (do nothing), or for a
    severe punishment the completed combination worth least.
    """

    id = "kungfu2009"
    name = "Kung Fu (Kuznia Gier, 2009)"
    min_players = 3
    max_players = 8
    rules_version = RULES_VERSION
    #: Real time: every seat in ``actors`` may act at once, "pass" heads every
    #: menu, and the table (seat None) checks claims. Drivers read this flag.
    realtime = True
    #: Events whose public part the other seats' tables leave out (another
    #: seat rearranging its hand or building an offer): a live table sends
    #: no frame to a seat for whom a step made only these (docs/engine.md).
    quiet_events = frozenset({"arrange", "draft"})
    #: Events after which the server's timers and whether each one's action
    #: is legal stand as they were (rearranging a hand: a third of the
    #: intents at the benchmark's tables): the live owner skips working them
    #: out again for such a step (docs/engine.md).
    timer_quiet_events = frozenset({"arrange"})

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Normalized config (every option present) or InvalidConfig."""
        return _validate(config)

    def setup(self, config: dict[str, Any], seed: int) -> State:
        """Shuffle the piles, remove 2-2-1 units, deal 5 each, reveal three."""
        cfg = self._setup_config(config, seed)
        n = cfg["players"]
        r = _rng.seed_state(seed)
        if cfg["deck"] is not None:
            deck = cfg["deck"][::-1]
        else:
            r, deck = _rng.shuffled(r, FULL_DECK)
        piles: dict[str, list[str]] = {}
        box: list[str] = []
        up: dict[str, str | None] = {}
        cut = removal(cfg["remove"])
        for lv in LEVEL_ORDER:
            codes = PILE_CODES[lv]
            # Shuffle the pile's indices (at most 24, one character each).
            r, order = _rng.shuffled(r, "".join(chr(65 + i) for i in range(len(codes))))
            pile = [codes[ord(ch) - 65] for ch in order]
            k = cut[lv]
            box += pile[len(pile) - k :] if k else []
            pile = pile[: len(pile) - k]
            up[lv] = pile[-1]
            piles[lv] = pile[:-1]
        hands = [""] * n
        for _ in range(HAND):
            for t in range(n):
                hands[t] += deck[-1]
                deck = deck[:-1]
        return {
            "game": self.id,
            "rules_version": RULES_VERSION,
            "cfg": cfg,
            "rng": r,
            "n": n,
            "hands": hands,
            "fresh": [0] * n,
            "out": [False] * n,
            "owe": [False] * n,
            "won": [[] for _ in range(n)],
            "deck": deck,
            "disc": "",
            "piles": piles,
            "up": up,
            "box": sorted(box),
            "offers": [],
            "closed": {},
            "drafts": [None] * n,
            "next_offer": 1,
            "votes": [False] * n,
            "impasses": 0,
            "claims": [],
            "phase": PLAY,
            "result": None,
        }

    # -- queries -----------------------------------------------------------

    def actors(self, state: State) -> list[int]:
        """Every seat that may act now: all seats in play, plus a punished seat
        choosing the combination it loses; nobody while a claim is checked."""
        if state["phase"] != PLAY:
            return []
        # Nobody out is most steps of play; else the answer per out and owe
        # flags (``actors`` runs at every step, and its answer is in every
        # observation).
        out = state["out"]
        if True not in out:
            return [*_SEATS[state["n"]]]
        return [*_SEAT_FACTS[(*out, *state["owe"])][0]]

    # The seat's menu (``_legal_ids``): the function itself, not a method
    # that calls it, since every decision asks for a menu.
    legal_action_ids = staticmethod(_legal_ids)

    def legal_actions(self, state: State, seat: int | None) -> list[Action]:
        # Most entries are the same for every state (``_STATIC_LABELS``):
        # copied here, without a call per entry (a live table builds a
        # changed menu of about forty entries at most steps).
        static = _STATIC_LABELS.get
        menu: list[Action] = []
        for aid in self.legal_action_ids(state, seat):
            entry = static(aid)
            menu.append(
                entry.copy() if entry is not None else _menu_entry(state, seat, aid)
            )
        return menu

    def menu_key(self, state: State, seat: int) -> tuple[Any, ...]:
        """What ``legal_actions(state, seat)`` gives, named cheaply: two
        states with one key give the seat the same menu (ids and labels), so
        a live table rebuilds only the menus whose key changed
        (``gameplay.frames.seat_menu``). Server-side only; never sent.

        The seat's menu ids, and the face-up codes when the menu claims or
        fits (their labels name the combinations). The ids alone name every
        other label: an offer's number is never reused (``next_offer``) and
        what its label shows (from, gives, asks) is fixed when it is made.
        Not a copy of what the ids read (every offer, the offerers' whole
        hands): another seat's move or offer then changed every seat's key,
        and a key changed for about one seat in five per step where a menu
        changed for one in twenty (seeded random play, 8 seats); the ids
        cost less than half of that copy.
        ``tests/rules/test_kungfu2009_menu_key.py`` checks one key, one menu.
        """
        if type(seat) is not int or not 0 <= seat < state["n"]:
            return ()
        ids = _legal_ids(state, seat)
        if not ids or ids[0] != PASS:  # no claim or fit: no face-up label
            return tuple(ids)
        up = state["up"]
        return (up["easy"], up["normal"], up["difficult"], *ids)

    # -- transitions ---------------------------------------------------------

    def apply(
        self, state: State, seat: int | None, action_id: str
    ) -> tuple[State, list[Event]]:
        """Apply one intent; never mutates ``state``.

        Validation happens before any copy is made, so a refused intent costs
        nothing and leaves the caller's state exactly as it was.
        """
        if (
            type(state) is not dict
            or "rules_version" not in state
            or state["rules_version"] != RULES_VERSION
        ):
            self._check(state)
        if type(action_id) is not str:
            raise IllegalAction(
                "malformed_action",
                f"malformed intent {action_id!r}: an intent is its string id, "
                "e.g. 'to:2' or 'claim:easy'",
                action=str(action_id)[:80],
            )
        phase = state["phase"]
        if phase == OVER:
            raise IllegalAction(
                "game_over", "the game is over; no more intents are accepted"
            )
        if seat is None:
            return self._table(state, action_id)
        if type(seat) is not int or not 0 <= seat < state["n"]:
            raise IllegalAction(
                "no_such_seat", f"seat {seat!r} is not a seat at this table"
            )
        head, sep, arg = action_id.partition(":")
        if sep and not arg:
            raise IllegalAction(
                "malformed_action",
                f"malformed intent {action_id!r}",
                action=action_id[:80],
            )
        if phase == PAUSED and head != "claim":
            who = state["claims"][0]["seat"]
            raise IllegalAction(
                "paused",
                f"the game is paused while seat {who}'s KUNG FU is checked: "
                "no trading, arranging or voting until it resumes",
                player=who,
            )
        if state["owe"][seat]:
            if head != "forfeit":
                raise IllegalAction(
                    "choose_forfeit",
                    "you are out of play: choose the completed combination you "
                    "lose (severe punishment)",
                )
            if arg not in state["won"][seat]:
                raise IllegalAction(
                    "no_completed", f"you have no completed combination {arg!r}"
                )
            s = _clone(state)
            ev: list[Event] = []
            _settle_forfeit(s, ev, seat, arg, "chosen")
            return s, ev
        if state["out"][seat]:
            raise IllegalAction(
                "out_of_play",
                f"seat {seat} is out of play (punished) until another player "
                "completes a combination",
            )
        if action_id == PASS:
            return state, []
        handler = _HANDLERS.get(head)
        if handler is None or (not arg and head not in _NO_ARG):
            raise IllegalAction(
                "malformed_action",
                f"unknown intent {action_id!r}; intents: pass, to:<seat>|all, "
                "give:<style>[:<declared>], want:<style>, open, send, cancel, "
                "accept:<offer>, decline:<offer>, withdraw:<offer>, "
                "move:<from>:<to>, fit:<level>, claim:<level>, impasse, impasse:no",
                action=action_id[:80],
            )
        return handler(state, seat, arg)

    def _table(self, state: State, action_id: str) -> tuple[State, list[Event]]:
        """The table's own steps (the sequencer's, never a player's)."""
        phase = state["phase"]
        s = _clone(state)
        ev: list[Event] = []
        if action_id == CHECK and phase == PAUSED:
            _check(s, ev)
        elif action_id == END and phase == PLAY:
            _finish(s, ev, "time")
        else:
            raise IllegalAction(
                "not_legal",
                f"the table may not {action_id!r} now; table steps: "
                + (", ".join(self.legal_action_ids(state, None)) or "none"),
                action=action_id[:80],
            )
        return s, ev

    def timers(self, state: State) -> list[dict[str, Any]]:
        """The server-side timers this state calls for (the live platform's
        driver applies them; the engine itself never reads a clock).

        Each is ``{"key", "seat", "action", "delay"}``: ``action`` is applied
        for ``seat`` (None: the table) once the timer with that ``key`` has
        been listed, without a break, for ``delay`` seconds, and only when the
        action is legal then (a timer due during a pause waits for the
        resume). A key that changes (a draft's next step, the next claim in
        line) starts a new timer. Docs: "Timeouts and defaults".
        """
        if state["phase"] == OVER:
            return []
        n = state["n"]
        out = []
        minutes = state["cfg"].get("minutes")
        if minutes:
            out.append(
                {"key": "end", "seat": None, "action": END, "delay": 60.0 * minutes}
            )
        claims = state["claims"]
        if claims:
            c = claims[0]
            out.append(
                {
                    "key": f"check:{c['seat']}:{c['level']}",
                    "seat": None,
                    "action": CHECK,
                    "delay": SHOW_CLAIM_S,
                }
            )
        out_of_play = state["out"]
        for o in state["offers"]:
            oid = o["id"]
            to, declined = o["to"], o["declined"]
            # ``_addressed`` for every seat, spelt out: asked at every step.
            for t in range(n) if to < 0 else (to,) if to < n else ():
                if (
                    t != o["from"]
                    and not out_of_play[t]
                    and (to >= 0 or t not in declined)
                ):
                    out.append(
                        {
                            "key": f"decline:{oid}:{t}",
                            "seat": t,
                            "action": f"decline:{oid}",
                            "delay": ANSWER_S,
                        }
                    )
        for t, d in enumerate(state["drafts"]):
            if d is not None:
                step = f"{d['to']}:{d['give']}:{d['say']}:{d['want']}:{d['open']}"
                out.append(
                    {
                        "key": f"cancel:{t}:{step}",
                        "seat": t,
                        "action": "cancel",
                        "delay": BUILD_S,
                    }
                )
        for t in range(n):
            if state["owe"][t]:
                won = min(state["won"][t], key=lambda c: (POINTS[c], c))
                out.append(
                    {
                        "key": f"forfeit:{t}",
                        "seat": t,
                        "action": FORFEIT_ID[won],
                        "delay": FORFEIT_S,
                    }
                )
        return out

    def clone(self, state: State) -> State:
        """A copy the engine may mutate: the dict and the lists edited in place."""
        return _clone(state)

    # -- information ---------------------------------------------------------

    def observe(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now, built field by field from an allow-list.

        Hidden: other hands (their sizes are public), the seat's own cards drawn
        during a pause (until play resumes), other seats' offers being built,
        the real cards of other seats' offers not played open, the order of the
        hit pile and of the combination piles, the removed combinations, and the
        RNG state. The discard pile is face up.

        Built in C when the optional ``_fastplay`` extension is there (it was
        about a third of a step of the public API in Python, issue 33 §2):
        the same fields from the same allow-list as :meth:`_observe_py`, the
        reference, which builds it otherwise and whenever the C code declines
        (a finished or malformed state, an invalid seat: the errors are
        raised there). tests/rules/test_kungfu2009_native.py holds the two
        equal.
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

        Kept: everything in the seat's observation. Re-dealt at random: the other
        hands (keeping the real cards of their open offers), the seat's unseen
        cards, the hit pile, the combination piles' order together with the
        removed cards; other seats' closed offers get real cards drawn from their
        new hands, their drafts are dropped. The RNG is reseeded.
        """
        s = _clone(state)
        r = _rng.seed_state(rng_seed)
        n = s["n"]
        hands = s["hands"]
        keep = [""] * n
        for o in s["offers"]:
            t = o["from"]
            if t != seat and o["open"]:
                # The open cards must stay in that hand (the largest need counts).
                need = keep[t]
                for c in set(o["give"]):
                    extra = o["give"].count(c) - need.count(c)
                    if extra > 0:
                        need += c * extra
                keep[t] = need
        pool = s["deck"]
        sizes = [0] * n
        for t in range(n):
            if t == seat:
                k = s["fresh"][t]
                if k:
                    pool += hands[t][len(hands[t]) - k :]
                continue
            rest = _remove(hands[t], keep[t])
            sizes[t] = len(rest)
            pool += rest
        r, pool = _rng.shuffled(r, "".join(sorted(pool)))
        for t in range(n):
            if t == seat:
                k = s["fresh"][t]
                if k:
                    hands[t] = hands[t][: len(hands[t]) - k] + pool[:k]
                    pool = pool[k:]
                continue
            hands[t] = keep[t] + pool[: sizes[t]]
            pool = pool[sizes[t] :]
            s["drafts"][t] = None
        s["deck"] = pool
        offers = []
        for o in s["offers"]:
            if o["from"] != seat and not o["open"]:
                h = hands[o["from"]]
                r, mixed = _rng.shuffled(r, h)
                o = {**o, "give": mixed[: len(o["give"])]}
            offers.append(o)
        s["offers"] = offers
        # Combination piles: face-down cards and the box, re-split by counts.
        hidden = sorted(s["box"] + [c for lv in LEVEL_ORDER for c in s["piles"][lv]])
        r, order = _rng.shuffled(r, "".join(chr(48 + i) for i in range(len(hidden))))
        codes = [hidden[ord(ch) - 48] for ch in order]
        piles: dict[str, list[str]] = {lv: [] for lv in LEVEL_ORDER}
        box: list[str] = []
        want = {lv: len(s["piles"][lv]) for lv in LEVEL_ORDER}
        for code in codes:
            lv = LEVEL_OF[code]
            if len(piles[lv]) < want[lv]:
                piles[lv].append(code)
            else:
                box.append(code)
        s["piles"] = piles
        s["box"] = sorted(box)
        s["rng"] = r
        return s


_NO_ARG = frozenset({"open", "send", "cancel", "impasse"})
