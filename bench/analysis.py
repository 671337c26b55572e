"""Post-game analysis: CPU seconds per typical game, and agreement vs budget.

1. Cost: for each turn-based game, ``--games`` seeded two-player games
   (the heuristic against random play, a typical finished game) are analysed
   at ``--iterations`` (the default budget) on one core; reported: decisions,
   searched decisions, CPU seconds per game (``time.process_time``), mean and
   max.
2. Agreement: on the exact test sets (``EXACT_SETS``: Duelo endgames, seeds
   1-60, rest at most 6 plies; Kung Fu (2013) endgames of short games, rest
   at most 8 plies) the exact values (max^n over consistent deals) against
   the analysis's values at each budget in ``--budgets``: share of positions
   whose analysed best is an exact best (within 0.05), the same among the
   positions where the choice matters (exact values 0.1 or more apart), mean
   and max absolute error of the action values. ``--agree`` picks the games.
   Kung Fu (2019): its dice assignments in the last fight of seeded games
   (``DICE_SEEDS``), exact values by enumeration (``kungfu2019/exact.py``).

Prints JSON; docs/analysis.md records the numbers.

    nice -n 10 .venv/bin/python bench/analysis.py --games 2
    .venv/bin/python bench/analysis.py --only kungfu2019 --games 1 --budgets ''
    .venv/bin/python bench/analysis.py --games 0 --budgets 25,50,100,200,400
    .venv/bin/python bench/analysis.py --games 0 --agree kungfu2013
    .venv/bin/python bench/analysis.py --games 0 --agree kungfu2019
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.rules import get_game
from gameplay.rules.analysis import (
    DEFAULT_ITERATIONS,
    Step,
    action_values,
    analyse_game,
)
from gameplay.rules.bots import decision_context, get_bot
from gameplay.rules.exact import TooDeep, endgame_positions, exact_values

GAMES = ("duelo", "kungfu2013", "kungfu2019")


def _typical(game_id: str, seed: int) -> list[Step]:
    game = get_game(game_id)
    state = game.setup({"players": 2}, seed)
    bots = [get_bot("heuristic"), get_bot("random")]
    steps: list[Step] = []
    while not game.is_over(state):
        seat = game.actors(state)[0]
        ctx = decision_context(game, state, seat, len(steps))
        aid = bots[seat].choose(ctx)
        state, _ = game.apply(state, seat, aid)
        steps.append(Step(version=len(steps) + 1, seat=seat, action_id=aid))
    return steps


def cost(game_id: str, games: int, iterations: int) -> dict:
    game = get_game(game_id)
    rows = []
    for seed in range(1, games + 1):
        steps = _typical(game_id, seed)
        started = time.process_time()
        result = analyse_game(
            game=game,
            config={"players": 2},
            seed=seed,
            steps=steps,
            iterations=iterations,
        )
        spent = time.process_time() - started
        searched = sum(1 for d in result["decisions"] if d["grade"] != "only")
        rows.append({"seed": seed, "decisions": len(steps), "searched": searched,
                     "cpu_s": round(spent, 2)})  # fmt: skip
    cpu = [r["cpu_s"] for r in rows]
    return {
        "game": game_id,
        "iterations": iterations,
        "games": rows,
        "cpu_s_mean": round(sum(cpu) / len(cpu), 2),
        "cpu_s_max": max(cpu),
    }


#: The exact test sets (tests/rules/test_analysis.py): per game, table options,
#: the two bots playing the seeded games, seeds, plies left at most (depth)
#: and how many last decisions to look in.
EXACT_SETS: dict[str, list[dict]] = {
    "duelo": [{"config": {"players": 2}, "bots": ("heuristic", "random"),
               "seeds": range(1, 61), "depth": 6, "last": 6}],
    # Short games by the table options: one life and two rounds, or two lives
    # and three rounds, so the last decisions are a few plies from the end.
    "kungfu2013": [
        {"config": {"players": 2, "life": 1, "max_rounds": 2},
         "bots": ("heuristic", "heuristic"), "seeds": range(1, 81), "depth": 8,
         "last": 12},
        {"config": {"players": 2, "life": 2, "max_rounds": 3},
         "bots": ("heuristic", "random"), "seeds": range(1, 81), "depth": 8,
         "last": 12},
    ],
}  # fmt: skip


def exact_rows(game_id: str) -> list[tuple]:
    game = get_game(game_id)
    rows = []
    for spec in EXACT_SETS[game_id]:
        for _, state, seat in endgame_positions(
            game=game, seeds=spec["seeds"], depth=spec["depth"], last=spec["last"],
            config=spec["config"], bots=spec["bots"],
        ):  # fmt: skip
            try:
                exact = exact_values(
                    game=game, state=state, seat=seat, samples=100,
                    depth=spec["depth"] + 2,
                )  # fmt: skip
            except TooDeep:
                continue
            rows.append((state, seat, exact))
    return rows


def agreement(game_id: str, budgets: list[int]) -> dict:
    game = get_game(game_id)
    rows = exact_rows(game_id)
    matters = [
        max(e.values.values()) - min(e.values.values()) > 0.1 for _, _, e in rows
    ]
    out = []
    for budget in budgets:
        agree, agree_nt, errors = 0, 0, []
        started = time.process_time()
        for (state, seat, exact), nontrivial in zip(rows, matters, strict=True):
            menu, best = action_values(
                game=game, state=state, seat=seat, iterations=budget, seed=7
            )
            ok = exact.values[best] >= max(exact.values.values()) - 0.05
            agree += ok
            agree_nt += ok and nontrivial
            errors += [abs(m["value"] - exact.values[m["id"]])
                       for m in menu if m["value"] is not None]  # fmt: skip
        out.append({"iterations": budget, "agreement": round(agree / len(rows), 3),
                    "agreement_nontrivial": round(agree_nt / max(1, sum(matters)), 3),
                    "mae": round(sum(errors) / len(errors), 4),
                    "max_error": round(max(errors), 4),
                    "cpu_s": round(time.process_time() - started, 2)})  # fmt: skip
    return {"game": game_id, "positions": len(rows), "nontrivial": sum(matters),
            "deals_per_position": 100, "budgets": out}  # fmt: skip


#: Kung Fu (2019) dice assignments (tests/rules/test_analysis_kungfu2019.py):
#: the last fights of these seeded games (``dice_positions``).
DICE_SEEDS = range(1, 41)


def _scores(rows: list[dict[str, float]], menus: list[tuple]) -> dict:
    """Agreement, agreement where the choice matters (exact values 0.1 or more
    apart), mean and max absolute error of the analysis's ``menus`` against
    the exact ``values`` of ``rows``."""
    agree, agree_nt, nontrivial, errors = 0, 0, 0, []
    for values, (menu, best) in zip(rows, menus, strict=True):
        top = max(values.values())
        ok = values[best] >= top - 0.05
        matters = top - min(values.values()) > 0.1
        agree += ok
        nontrivial += matters
        agree_nt += ok and matters
        errors += [abs(m["value"] - values[m["id"]])
                   for m in menu if m["value"] is not None]  # fmt: skip
    return {"agreement": round(agree / len(rows), 3),
            "agreement_nontrivial": round(agree_nt / max(1, nontrivial), 3),
            "nontrivial": nontrivial,
            "mae": round(sum(errors) / len(errors), 4),
            "max_error": round(max(errors), 4)}  # fmt: skip


def dice_agreement(budgets: list[int]) -> dict:
    """Kung Fu (2019)'s last-fight dice assignments against their exact values:
    the opponent answering with its best (max^n), the same without taking
    anything back (``monotone``), and the opponent answering with ``auto``."""
    from gameplay.rules.kungfu2019.exact import dice_positions, exact_assignment_values

    game = get_game("kungfu2019")
    positions = dice_positions(game=game, seeds=DICE_SEEDS)
    started = time.process_time()
    best = [exact_assignment_values(game=game, state=st, seat=seat)
            for _, st, seat in positions]  # fmt: skip
    auto = [exact_assignment_values(game=game, state=st, seat=seat, answer="auto")
            for _, st, seat in positions]  # fmt: skip
    exact_cpu = time.process_time() - started
    out = []
    for budget in budgets:
        started = time.process_time()
        menus = [action_values(game=game, state=st, seat=seat, iterations=budget,
                               seed=7) for _, st, seat in positions]  # fmt: skip
        spent = time.process_time() - started
        out.append({"iterations": budget,
                    **_scores([e.values for e in best], menus),
                    "monotone": _scores([e.monotone for e in best], menus),
                    "answer_auto": _scores([e.values for e in auto], menus),
                    "cpu_s": round(spent, 2)})  # fmt: skip
    second = sum(1 for _, st, _ in positions
                 if any(a and a["done"] for a in st["fight"]["asg"]))  # fmt: skip
    return {"game": "kungfu2019", "positions": len(positions),
            "second_to_assign": second, "exact_cpu_s": round(exact_cpu, 2),
            "budgets": out}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--budgets", default="25,50,100,200,400")
    parser.add_argument("--only", choices=GAMES, default=None)
    parser.add_argument(
        "--agree", default="duelo", help="games of the agreement part (comma list)"
    )
    args = parser.parse_args()
    if args.games < 0:
        parser.error("--games must be at least 0 (0: agreement only)")
    budgets = [int(b) for b in args.budgets.split(",") if b]
    games = [args.only] if args.only else list(GAMES)
    if args.games == 0:
        games = []
    print(json.dumps({
        "cost": [cost(g, args.games, args.iterations) for g in games],
        "agreement": [
            dice_agreement(budgets) if g == "kungfu2019" else agreement(g, budgets)
            for g in args.agree.split(",")
            if g
        ]
        if budgets
        else None,
    }, indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
