"""Post-game analysis: what the ISMCTS search thinks of every decision.

Pure Python, no Django (the ``analysis`` app stores and serves the result).
For every decision of a finished game the deciding seat's position is rebuilt
from the game's seed and action log, and the project's ISMCTS searches it from
that seat's *information set*: ``decision_context`` hands the search only the
seat's observation, its menu and a sampler of deals consistent with what the
seat has seen, never the true hidden cards. The search's root statistics give
the estimated win share of each legal action (a shared win of k counts 1/k, as
in the bot), the best action (the most visited, as the bot plays), and the loss
of the action taken (best value minus taken value, never below zero).

Deterministic: the search of a decision is seeded from the analysis seed and
the decision's version, so the same game, budget and seed give the same
analysis on any machine (the search uses a fixed iteration count, never a
clock).
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gameplay.rules import game_meta
from gameplay.rules.base import Game, State
from gameplay.rules.bots.base import MASK63, decision_context
from gameplay.rules.bots.ismcts import ISMCTSBot

#: Bump when the method or budget changes: results are stored per version.
ANALYSIS_VERSION = 3
#: ISMCTS iterations per decision (at least ``MIN_PER_ACTION`` per legal action).
DEFAULT_ITERATIONS = 200
MIN_PER_ACTION = 12
#: Loss thresholds (win share, 0..1): below the first is "best", then
#: "inaccuracy", then "mistake"; from the last on a "blunder".
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("best", 0.03),
    ("inaccuracy", 0.08),
    ("mistake", 0.20),
)
BLUNDER = "blunder"
ONLY = "only"  # one legal action: never a mistake

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Step:
    """One logged step: ``seat`` None is a step of the table (no decision);
    ``at_ms``: when the server applied it, from the start (real time)."""

    version: int
    seat: int | None
    action_id: str
    at_ms: int | None = None


def classify(loss: float) -> str:
    """Best / inaccuracy / mistake / blunder by the loss thresholds."""
    for name, limit in THRESHOLDS:
        if loss < limit:
            return name
    return BLUNDER


def decision_seed(analysis_seed: int, version: int) -> int:
    """The search seed of one decision: a hash of the analysis seed and version,
    identical on every machine (no ``hash()``, which is salted per process)."""
    digest = hashlib.sha256(f"analysis:{analysis_seed}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MASK63


def analysis_seed_for(match_seed: int) -> int:
    """The analysis seed derived from the match's own seed."""
    return decision_seed(match_seed, -1)


def action_values(
    *, game: Game, state: State, seat: int, iterations: int, seed: int
) -> tuple[list[dict[str, Any]], str]:
    """Each legal action's estimated win share for ``seat`` and the best id.

    The search sees only ``seat``'s information set (``decision_context``).
    Every legal action is tried at least once at the root before any is
    repeated, so each gets a value when the budget covers the menu.
    """
    ctx = decision_context(game, state, seat, seed)
    budget = max(iterations, MIN_PER_ACTION * len(ctx.legal_actions))
    bot = ISMCTSBot(iterations=budget, heuristic_margin=0.0)
    root = bot.search(ctx)
    menu: list[dict[str, Any]] = []
    best, best_key = ctx.legal_ids[0], (-1, -1.0)
    for action in ctx.legal_actions:
        aid = action["id"]
        child = root.children.get((seat, aid))
        visits = child.visits if child is not None else 0
        value = child.reward / visits if child is not None and visits else None
        menu.append(
            {
                "id": aid,
                "label": action.get("label") or aid,
                "action": _fields(action),
                "value": None if value is None else round(value, 4),
                "visits": visits,
            }
        )
        key = (visits, value if value is not None else -1.0)
        if key > best_key:  # most visited, then best mean; menu order breaks ties
            best, best_key = aid, key
    return menu, best


def _fields(action: dict[str, Any]) -> dict[str, Any]:
    """An action's structured fields (its type, card, ...): what its English
    label says, for a page to word in its reader's language (docs/i18n.md)."""
    return {k: v for k, v in action.items() if k not in ("id", "label")}


def analyse_game(
    *,
    game: Game,
    config: dict[str, Any],
    seed: int,
    steps: Sequence[Step],
    iterations: int = DEFAULT_ITERATIONS,
    analysis_seed: int | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Analyse a finished game given its config, seed and logged steps.

    Returns ``{"decisions": [...], "players": {...}, ...}`` (docs/analysis.md).
    A game with a review hook (``META.review``, real time) is reviewed by it
    instead: ``{"kind": "review", "review": {...}}``. Raises ``ValueError``
    for a real-time game without one or a log that does not replay.
    """
    review = game_meta(game.id).review
    if review is not None:
        module = importlib.import_module(review)
        return {
            "kind": "review",
            "version": ANALYSIS_VERSION,
            "players": int(config.get("players") or 0),
            "decisions": [],
            "summary": {},
            "review": module.review(game=game, config=config, seed=seed, steps=steps),
        }
    if getattr(game, "realtime", False):
        raise ValueError(f"{game.id} is played in real time: no per-decision search")
    if analysis_seed is None:
        analysis_seed = analysis_seed_for(seed)
    state = game.setup(config, seed)
    players = len(state.get("seats") or ()) or int(config.get("players") or 2)
    decisions: list[dict[str, Any]] = []
    total = sum(1 for s in steps if s.seat is not None)
    done = 0
    for step in steps:
        if step.seat is None:
            state, _ = game.apply(state, None, step.action_id)
            continue
        seat = step.seat
        legal = game.legal_actions(state, seat)
        ids = [a["id"] for a in legal]
        if step.action_id not in ids:
            raise ValueError(
                f"step {step.version}: {step.action_id!r} is not legal for seat {seat}"
            )
        labels = {a["id"]: a.get("label") or a["id"] for a in legal}
        taken = next(a for a in legal if a["id"] == step.action_id)
        entry: dict[str, Any] = {
            "version": step.version,
            "seat": seat,
            "taken": step.action_id,
            "taken_label": labels[step.action_id],
            "taken_action": _fields(taken),
        }
        if len(ids) == 1:
            entry.update(
                menu=[
                    {
                        "id": ids[0],
                        "label": labels[ids[0]],
                        "action": _fields(legal[0]),
                        "value": None,
                    }
                ],
                best=ids[0],
                value=None,
                taken_value=None,
                loss=0.0,
                grade=ONLY,
            )
        else:
            menu, best = action_values(
                game=game,
                state=state,
                seat=seat,
                iterations=iterations,
                seed=decision_seed(analysis_seed, step.version),
            )
            values = {m["id"]: m["value"] for m in menu}
            best_value = values[best] if values[best] is not None else 0.0
            taken_value = values[step.action_id]
            loss = (
                max(0.0, best_value - taken_value) if taken_value is not None else 0.0
            )
            entry.update(
                menu=menu,
                best=best,
                value=best_value,
                taken_value=taken_value,
                loss=round(loss, 4),
                grade=ONLY if len(ids) == 1 else classify(loss),
            )
        decisions.append(entry)
        state, _ = game.apply(state, seat, step.action_id)
        done += 1
        if progress is not None:
            progress(done, total)
    result = game.result(state)
    return {
        "kind": "search",
        "version": ANALYSIS_VERSION,
        "iterations": iterations,
        "analysis_seed": str(analysis_seed),
        "thresholds": {name: limit for name, limit in THRESHOLDS},
        "players": players,
        "decisions": decisions,
        "summary": summarize(decisions, players=players),
        "luck": luck_and_skill(decisions, players=players, result=result),
        "result": result,
    }


def summarize(decisions: Iterable[dict[str, Any]], *, players: int) -> dict[str, Any]:
    """Per seat: decisions searched, mean loss, grade counts, three worst."""
    per: dict[str, Any] = {}
    rows = list(decisions)
    for seat in range(players):
        mine = [d for d in rows if d["seat"] == seat and d["grade"] != ONLY]
        worst = sorted(
            (d for d in mine if d["loss"] > 0),
            key=lambda d: (-d["loss"], d["version"]),
        )[:3]
        grades = {name: 0 for name, _ in THRESHOLDS} | {BLUNDER: 0}
        for d in mine:
            grades[d["grade"]] += 1
        per[str(seat)] = {
            "decisions": len(mine),
            "mean_loss": round(sum(d["loss"] for d in mine) / len(mine), 4)
            if mine
            else None,
            "grades": grades,
            "worst": [
                {
                    "version": d["version"],
                    "loss": d["loss"],
                    "taken": d["taken_label"],
                    "best": _label(d, d["best"]),
                    "grade": d["grade"],
                }
                for d in worst
            ],
        }
    return per


def luck_and_skill(
    decisions: list[dict[str, Any]], *, players: int, result: dict[str, Any] | None
) -> dict[str, Any]:
    """Where each seat's result came from, in win share.

    From the even start (1/players) to the final share (a shared win of k:
    1/k), each seat's estimated chance moves by its own decisions (minus its
    losses), by the others' decisions (with two players the opponent's loss
    is this seat's gain) and by everything else: the deals, draws and dice,
    plus the estimates' own noise ("chance"). With three or more players the
    others' decisions cannot be told apart from chance and are counted in it.
    """
    winners = (result or {}).get("winners") or []
    out: dict[str, Any] = {}
    for seat in range(players):
        final = 1.0 / len(winners) if seat in winners else 0.0
        own = -sum(d["loss"] for d in decisions if d["seat"] == seat)
        others = (
            sum(d["loss"] for d in decisions if d["seat"] != seat)
            if players == 2
            else 0.0
        )
        start = 1.0 / players
        out[str(seat)] = {
            "start": round(start, 4),
            "final": round(final, 4),
            "own_decisions": round(own, 4),
            "opponent_decisions": round(others, 4) if players == 2 else None,
            "chance": round(final - start - own - others, 4),
        }
    return out


def _label(decision: dict[str, Any], aid: str) -> str:
    for m in decision["menu"]:
        if m["id"] == aid:
            return str(m["label"])
    return aid
