"""Information-set Monte Carlo tree search (ISMCTS) with one tree per seat.

Cowling, Powley and Whitehouse (2012). Each iteration:

1. *determinize*: draw a full state from ``ctx.sample_state`` (consistent with what
   this seat observes, and nothing more);
2. *select* with UCB1 in the tree of the seat to act, considering only children
   whose action is legal in this determinization and counting how often each was
   available (the availability count replaces the parent visit count in UCB, so
   rarely-legal moves are not over-explored);
3. *expand* one untried legal action;
4. *roll out* to the end of the game: the first ``heuristic_plies`` decisions by
   the game's heuristic strategy (each seat reading only its own observation of the
   sample), the rest by a cheap per-game policy (uniform random for games without
   one), cut off after ``max_rollout_steps`` decisions and scored by the game's
   estimate; a game with a whole-playout hook (``META.playout``) plays the
   policy's part in one call, natively when its kernel is built;
5. *back up*: every edge earns the reward of the seat that chose it (a win shared
   by k players is worth 1/k), so each player maximizes its own share.

Opponents' decisions inside the tree are made by the game's heuristic reading the
opponent's own observation of the sample (``opponent_model="heuristic"``, the
default when the game has a heuristic). With a small budget an opponent node is
visited a handful of times, so UCB there replies almost at random and the search
overrates bold plays; a heuristic reply is realistic from the first visit. The
seat's own decisions, including multi-step ones, are searched with UCB.
``opponent_model="search"`` searches opponents' decisions with UCB in their own
trees instead (textbook MO-ISMCTS).

``variant="mo"`` (the default) is multiple-observer ISMCTS: each seat has its own
tree, and a move enters a seat's tree as that seat saw it: its own moves by id,
other seats' moves by the public part of the events they produced. An opponent
answering a duel therefore cannot "know" which face-down card it is answering, and
this seat cannot plan on the card an opponent put back on the deck. ``"so"`` is
single-observer ISMCTS (one tree keyed by action ids), kept for comparison: it was
measurably weaker (docs/bots-builtin.md). Either way every player's decision
points, including several decisions in a row by one player, are ordinary levels of
the trees.

The budget is an iteration count (deterministic: tests and simulations) and/or a
wall-clock limit (live play only; a clock makes choices depend on machine speed).
"""

from __future__ import annotations

import importlib
import math
import random
import time
from collections.abc import Callable
from typing import Any

from gameplay.rules import game_meta
from gameplay.rules.base import Game, State
from gameplay.rules.bots.base import MASK63, DecisionContext, check_options, make_rng
from gameplay.rules.bots.heuristic import Strategy, strategy_for

RolloutPolicy = Callable[[State, int, list[str], random.Random], str]
Evaluator = Callable[[State], dict[int, float]]
#: ``playout(state, seed, max_steps) -> decisions made`` (``META.playout``).
Playout = Callable[[State, int, int], int]


def _uniform(state: State, seat: int, ids: list[str], rng: random.Random) -> str:
    return ids[int(rng.random() * len(ids))]


DEFAULT_MAX_ROLLOUT_STEPS = 2000
DEFAULT_HEURISTIC_PLIES = 8


def evaluator_for(game_id: str) -> Evaluator | None:
    """The game's cut-off estimate (``META.evaluate``), or None: a playout cut
    short then counts as a loss for everyone."""
    module = game_meta(game_id).evaluate
    if module is None:
        return None
    evaluate: Evaluator = importlib.import_module(module).evaluate
    return evaluate


def rollout_policy_for(game_id: str) -> RolloutPolicy:
    """The game's playout policy (``META.rollout``); uniform random if it has none."""
    module = game_meta(game_id).rollout
    if module is None:
        return _uniform
    policy: RolloutPolicy = importlib.import_module(module).policy
    return policy


def playout_for(game_id: str) -> Playout | None:
    """The game's whole-playout policy (``META.playout``), or None: its
    playouts then call the per-decision policy (``META.rollout``)."""
    module = game_meta(game_id).playout
    if module is None:
        return None
    playout: Playout = importlib.import_module(module).playout
    return playout


class Node:
    """Statistics of one edge (the action into this node) and its children."""

    __slots__ = ("avail", "children", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who chose the action leading here
        self.visits = 0
        self.reward = 0.0
        self.avail = 1
        self.children: dict[tuple[int, str], Node] = {}


def rewards(game: Game, state: State) -> dict[int, float]:
    """Each winner gets an equal share of one win (a shared win of k gives 1/k)."""
    result = game.result(state)
    assert result is not None, "rewards of a game that is not over"
    winners = result["winners"]
    share = 1.0 / len(winners) if winners else 0.0
    return dict.fromkeys(winners, share)


class ISMCTSBot:
    """ISMCTS with UCB1 and per-seat trees; see the module docstring."""

    name = "ismcts"
    #: Its playouts take turns: it does not play real-time games (``bot_plays``).
    plays_realtime = False
    #: A decision is a search (tenths of a second to seconds of CPU): when
    #: several seats choose at once, thinking in separate processes pays.
    thinks_long = True
    OPTIONS: dict[str, tuple[type, ...]] = {
        "iterations": (int,),
        "time_limit": (int, float),
        "exploration": (int, float),
        "max_rollout_steps": (int,),
        "variant": (str,),
        "heuristic_plies": (int,),
        "opponent_model": (str,),
        "opponent_noise": (int, float),
        "heuristic_margin": (int, float),
    }

    def __init__(
        self,
        *,
        iterations: int | None = 200,
        time_limit: float | None = None,
        exploration: float = 0.7,
        max_rollout_steps: int | None = None,
        variant: str = "mo",
        heuristic_plies: int | None = None,
        opponent_model: str = "heuristic",
        opponent_noise: float = 0.0,
        heuristic_margin: float = 0.3,
        **unknown: Any,
    ) -> None:
        opts = {
            k: v
            for k, v in {
                "iterations": iterations,
                "time_limit": time_limit,
                "exploration": exploration,
                "max_rollout_steps": max_rollout_steps,
                "variant": variant,
                "heuristic_plies": heuristic_plies,
                "opponent_model": opponent_model,
                "opponent_noise": opponent_noise,
                "heuristic_margin": heuristic_margin,
            }.items()
            if v is not None
            or k
            not in ("iterations", "time_limit", "max_rollout_steps", "heuristic_plies")
        }
        check_options(self.name, {**opts, **unknown}, self.OPTIONS)
        if iterations is not None and iterations < 1:
            raise ValueError(f"bot 'ismcts' iterations must be >= 1, got {iterations}")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"bot 'ismcts' time_limit must be > 0, got {time_limit}")
        if iterations is None and time_limit is None:
            raise ValueError("bot 'ismcts' needs iterations, time_limit or both")
        if exploration < 0:
            raise ValueError(
                f"bot 'ismcts' exploration must be >= 0, got {exploration}"
            )
        if max_rollout_steps is not None and max_rollout_steps < 1:
            raise ValueError("bot 'ismcts' max_rollout_steps must be >= 1")
        if variant not in ("mo", "so"):
            raise ValueError(
                f"bot 'ismcts' variant must be 'mo' or 'so', got {variant!r}"
            )
        if heuristic_plies is not None and heuristic_plies < 0:
            raise ValueError("bot 'ismcts' heuristic_plies must be >= 0")
        self.variant = variant
        if opponent_model not in ("heuristic", "search"):
            raise ValueError(
                "bot 'ismcts' opponent_model must be 'heuristic' or 'search', "
                f"got {opponent_model!r}"
            )
        self.heuristic_plies = heuristic_plies
        if not 0 <= opponent_noise <= 1:
            raise ValueError(
                f"bot 'ismcts' opponent_noise must be from 0 to 1, got {opponent_noise}"
            )
        if not 0 <= heuristic_margin < 1:
            raise ValueError(
                "bot 'ismcts' heuristic_margin must be from 0 to below 1, "
                f"got {heuristic_margin}"
            )
        self.heuristic_margin = float(heuristic_margin)
        self.opponent_model = opponent_model
        self.opponent_noise = float(opponent_noise)
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = float(exploration)
        self.max_rollout_steps = max_rollout_steps

    def choose(self, ctx: DecisionContext) -> str:
        if getattr(ctx.game, "realtime", False):
            # Its playouts take turns; a real-time game has no turns to take.
            raise ValueError(
                f"the ISMCTS bot does not play real-time games ({ctx.game.id})"
            )
        legal = ctx.legal_ids
        if len(legal) == 1:
            return legal[0]
        root = self.search(ctx)
        me = ctx.seat
        best, best_key = legal[0], (-1, -1.0)
        for aid in legal:  # most visited, then best mean; menu order breaks ties
            child = root.children.get((me, aid))
            if child is None:
                continue
            key = (child.visits, child.reward / child.visits if child.visits else 0.0)
            if key > best_key:
                best, best_key = aid, key
        if self.heuristic_margin and heuristic_strategy(ctx.game.id) is not None:
            # When the search cannot tell the heuristic's move from its own pick
            # (within the margin of visits), trust the rule of thumb: the search's
            # opponent model is the heuristic, so against careless players its
            # small preferences are noise while the heuristic's are not.
            from gameplay.rules.bots import get_bot

            preferred = get_bot("heuristic").choose(ctx)
            child = root.children.get((me, preferred))
            if (
                child is not None
                and child.visits >= (1 - self.heuristic_margin) * best_key[0]
            ):
                return preferred
        return best

    def search(self, ctx: DecisionContext) -> Node:
        """Run the iterations and return this seat's root (for tests and analysis)."""
        game = ctx.game
        rng = make_rng(ctx.seed)
        rollout = rollout_policy_for(game.id)
        fast = playout_for(game.id)
        # Options left unset take the game's tuning (META.ismcts), then the
        # global defaults: playouts that suit one game can be far too long or
        # too short for another.
        tuned = game_meta(game.id).ismcts
        plies = self.heuristic_plies
        if plies is None:
            plies = tuned.get("heuristic_plies", DEFAULT_HEURISTIC_PLIES)
        max_steps = self.max_rollout_steps
        if max_steps is None:
            max_steps = tuned.get("max_rollout_steps", DEFAULT_MAX_ROLLOUT_STEPS)
        evaluate = evaluator_for(game.id)
        strategy = heuristic_strategy(game.id)
        if strategy is None:
            plies = 0
        model = self.opponent_model == "heuristic" and strategy is not None
        me = ctx.seat
        noise = self.opponent_noise
        # One tree per seat; a game whose observation does not say how many seats
        # there are gets the maximum (unused trees only cost a little time).
        obs = ctx.observation
        players = obs.get("players") or len(obs.get("seats") or ()) or game.max_players
        mo = self.variant == "mo"
        trees = [Node(-1) for _ in range(players if mo else 1)]
        tree_of = list(range(players)) if mo else [0] * game.max_players
        c = self.exploration
        deadline = (
            time.perf_counter() + self.time_limit
            if self.time_limit is not None
            else None
        )
        is_over = game.is_over
        actors = game.actors
        legal_ids = game.legal_action_ids
        apply = game.apply
        # Playouts read only the states, never the events: an engine with an
        # in-place step (same rules, no copy, no events) plays them with it.
        step = getattr(game, "apply_in_place", None)
        log = math.log
        sqrt = math.sqrt
        ntrees = len(trees)
        it = 0
        while True:
            if self.iterations is not None and it >= self.iterations:
                break
            if deadline is not None and it and time.perf_counter() >= deadline:
                break
            it += 1
            state = ctx.sample_state(rng.getrandbits(63) & MASK63)
            cur = trees[:]
            paths = [[t] for t in trees]
            # Selection and expansion, in the acting seat's own tree. At the
            # root this seat chooses first even when others choose at the same
            # time (hidden simultaneous commits: the order changes nothing),
            # so its root holds its own actions whatever its seat number.
            root = True
            while not is_over(state):
                who = actors(state)
                seat = me if root and me in who else who[0]
                root = False
                ids = legal_ids(state, seat)
                if model and seat != me and len(ids) > 1:
                    # Opponents in the tree play the game's heuristic from their
                    # own observation: a realistic reply from the first visit,
                    # where UCB with a handful of visits would reply at random.
                    # A share ``opponent_noise`` of replies is uniform, so the plan
                    # also holds against players who do not think like it.
                    if rng.random() < noise:
                        aid = ids[int(rng.random() * len(ids))]
                    else:
                        aid = _heuristic_move(game, state, seat, ids, strategy, rng)
                    state, events = apply(state, seat, aid)
                    for t in range(ntrees):
                        key = (seat, aid if not mo or t == seat else _public(events))
                        node = cur[t].children.get(key)
                        if node is None:
                            node = cur[t].children[key] = Node(seat)
                        cur[t] = node
                        paths[t].append(node)
                    continue
                children = cur[tree_of[seat]].children
                untried = []
                best_id, best_u = "", -1.0
                for aid in ids:
                    child = children.get((seat, aid))
                    if child is None:
                        untried.append(aid)
                        continue
                    child.avail += 1
                    if untried:
                        continue
                    u = child.reward / child.visits + c * sqrt(
                        log(child.avail) / child.visits
                    )
                    if u > best_u:
                        best_id, best_u = aid, u
                expand = bool(untried)
                aid = untried[int(rng.random() * len(untried))] if expand else best_id
                state, events = apply(state, seat, aid)
                for t in range(ntrees):
                    # Each seat's tree follows the move as that seat saw it: its
                    # own moves by id, others' moves by their public events only,
                    # so no seat plans on a card it could not have seen.
                    key = (seat, aid if not mo or t == seat else _public(events))
                    node = cur[t].children.get(key)
                    if node is None:
                        node = cur[t].children[key] = Node(seat)
                    cur[t] = node
                    paths[t].append(node)
                if expand:
                    break
            # Rollout: the first plies by the game's heuristic (each seat seeing
            # only its own observation of the sample), the rest by the cheap policy.
            steps = 0
            while not is_over(state) and steps < max_steps:
                if fast is not None and steps >= plies:
                    # The policy's part in one call (in C when the game's
                    # kernel is built), forced decisions counted as here, on
                    # a choice stream seeded from this search's generator.
                    steps += fast(state, rng.getrandbits(63), max_steps - steps)
                    break
                seat = actors(state)[0]
                ids = legal_ids(state, seat)
                if len(ids) == 1:
                    aid = ids[0]
                elif steps < plies:
                    if seat != me and rng.random() < noise:
                        aid = ids[int(rng.random() * len(ids))]
                    else:
                        aid = _heuristic_move(game, state, seat, ids, strategy, rng)
                else:
                    aid = rollout(state, seat, ids, rng)
                if step is not None:
                    # ``state`` is this iteration's own: the selection loop
                    # above always ends on a fresh result of ``apply``.
                    step(state, seat, aid)
                else:
                    state, _ = apply(state, seat, aid)
                steps += 1
            if is_over(state):
                share = rewards(game, state)
            else:
                # Cut off: the game's estimate of each seat's chances, if any.
                share = evaluate(state) if evaluate is not None else {}
            # Backpropagation: every edge earns the reward of the seat that chose it.
            for path in paths:
                for n in path:
                    n.visits += 1
                    n.reward += share.get(n.seat, 0.0)
        return trees[tree_of[ctx.seat]]


def heuristic_strategy(game_id: str) -> Strategy | None:
    """The game's heuristic strategy, or None when it has none."""
    try:
        return strategy_for(game_id)
    except ValueError:
        return None


def _heuristic_move(
    game: Game,
    state: State,
    seat: int,
    ids: list[str],
    strategy: Strategy | None,
    rng: random.Random,
) -> str:
    """A playout move by the heuristic, from ``seat``'s observation of the sample."""
    ctx = DecisionContext(
        game=game,
        seat=seat,
        observation=game.observe(state, seat),
        legal_actions=[{"id": i} for i in ids],
        sample_state=_no_sampling,
        seed=0,
    )
    aid = strategy(ctx, rng)  # type: ignore[misc]
    return aid if aid in ids else ids[0]


def _no_sampling(rng_seed: int) -> State:
    raise RuntimeError("playout heuristics do not sample states")


def _public(events: list[dict[str, Any]]) -> str:
    """What every seat saw of a move: the public parts of its events."""
    return repr([(e["type"], e["public"]) for e in events])
