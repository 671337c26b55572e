"""Kung Fu (2019): seat and card balance with the heuristic bot in every seat.

For each player count (2-5) plays ``--games`` games, every seat played by the
heuristic strategy (``gameplay/rules/kungfu2019/heuristic.py``: draft and play by
card values, dice by the exact solver), and reports:

* each seat's win rate with a 95% Wilson interval, against the target band
  0.9x-1.1x of the fair share 1/n (a win shared by k players counts 1/k);
* per card, how often the hands holding it (the ten cards a player drafted) win,
  as a ratio to the fair share 1/n: a ratio above 1.5 would mean the card is in
  more than 1.5x its share of winning hands. The worst cards are listed with
  their Wilson intervals (over all player counts and per count).

Bots read only their own observation (the same as ``HeuristicBot``; the bench
calls the strategy directly to skip building labelled menus). Seeds derive from
``--seed``, so a run is reproducible for any ``--workers``. Prints JSON on
stdout, progress on stderr; docs/rules/kungfu2019.md records the runs.

    nice -n 10 .venv/bin/python bench/kungfu2019_balance.py --games 2000 --workers 2
    nice -n 19 .venv/bin/python bench/kungfu2019_balance.py --players 4,5 \
        --seeds 2019,2020,2021,2022 --workers 2   # per seed, then pooled
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gameplay.rules import get_game
from gameplay.rules.kungfu2019 import cards as _cards
from gameplay.rules.simulate import derive_seed, wilson

# Imported in main(), after any --cards override.
engine: Any = None
H: Any = None
DRAFT = True  # --no-draft: the first-game deal (ten random cards each)


def patch_cards(changes: dict[str, list]) -> None:
    """Replace cards' combinations before the engine reads the list (tuning).

    ``{"c15": [["cross", {"atk": 4}], ["face456", {"def": 2}]]}``: the card's new
    combinations, in the form of cards.py rows.
    """
    from gameplay.rules.kungfu2019.combos import Effect, parse

    for code, combos in changes.items():
        if code not in _cards.COMBOS:
            raise SystemExit(f"--cards: unknown card {code}")
        _cards.COMBOS[code] = tuple(parse(c, Effect.from_json(e)) for c, e in combos)


def play(job: tuple[int, int, int]) -> dict:
    """One heuristic-only game: winners, each seat's drafted hand, final HP."""
    players, seed, g = job
    game = get_game("kungfu2019")
    config = {"players": players, "draft": DRAFT}
    s = game.setup(config, derive_seed(seed, players, g))
    hands = None
    while not game.is_over(s):
        if hands is None and s["phase"] != "draft":
            hands = [[engine.CODE[c] for c in h] for h in s["hands"]]
        seat = game.actors(s)[0]
        ids = game.legal_action_ids(s, seat)
        a = ids[0] if len(ids) == 1 else H.choose_from(game.observe(s, seat), ids)
        s, _ = game.apply(s, seat, a)
    result = game.result(s)
    assert result is not None  # the game is over
    return {"winners": result["winners"], "hands": hands, "hp": result["scores"]["hp"]}


def _entry(wins: float, n: int, fair: float) -> dict:
    lo, hi = wilson(wins, n)
    rate = wins / n if n else 0.0
    return {
        "wins": round(wins, 2),
        "games": n,
        "win_rate": round(rate, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "ratio_to_fair": round(rate / fair, 3),
        "in_band": 0.9 * fair <= rate <= 1.1 * fair,
    }


def series(players: int, games: int, seed: int, workers: int) -> tuple[dict, list]:
    jobs = [(players, seed, g) for g in range(games)]
    records = []
    start = time.perf_counter()
    cpu0 = time.process_time()
    step = max(1, games // 10)
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for rec in pool.imap(play, jobs, chunksize=10):
                records.append(rec)
                if len(records) % step == 0:
                    print(f"  {players}p {len(records)}/{games}", file=sys.stderr)
    else:
        for job in jobs:
            records.append(play(job))
            if len(records) % step == 0:
                print(f"  {players}p {len(records)}/{games}", file=sys.stderr)
    elapsed = time.perf_counter() - start
    fair = 1.0 / players
    seat_wins = [0.0] * players
    for r in records:
        for w in r["winners"]:
            seat_wins[w] += 1.0 / len(r["winners"])
    summary: dict[str, Any] = {
        "players": players,
        "games": games,
        "elapsed_s": round(elapsed, 1),
        "parent_cpu_s": round(time.process_time() - cpu0, 1),
        "seats": [_entry(seat_wins[i], games, fair) for i in range(players)],
    }
    summary["all_seats_in_band"] = all(x["in_band"] for x in summary["seats"])
    return summary, records


def card_table(records_by_n: dict[int, list]) -> dict:
    """Per card: win share of the hands holding it, as a ratio to 1/n."""
    held: dict[str, float] = {}  # expected wins under fairness (sum of 1/n)
    wins: dict[str, float] = {}
    count: dict[str, int] = {}
    for n, records in records_by_n.items():
        for r in records:
            for seat, hand in enumerate(r["hands"]):
                share = 1.0 / len(r["winners"]) if seat in r["winners"] else 0.0
                for code in hand:
                    held[code] = held.get(code, 0.0) + 1.0 / n
                    wins[code] = wins.get(code, 0.0) + share
                    count[code] = count.get(code, 0) + 1
    rows: list[dict[str, Any]] = []
    for code in sorted(count):
        n_held = count[code]
        fair = held[code] / n_held  # mean fair share of the games it was held in
        lo, hi = wilson(wins[code], n_held)
        rows.append(
            {
                "card": code,
                "hands": n_held,
                "win_rate": round(wins[code] / n_held, 4),
                "fair": round(fair, 4),
                "ratio": round(wins[code] / n_held / fair, 3),
                "ratio_ci95": [round(lo / fair, 3), round(hi / fair, 3)],
            }
        )
    rows.sort(key=lambda r: -r["ratio"])
    return {
        "max_ratio": rows[0]["ratio"] if rows else None,
        "cards_over_1_5": [r["card"] for r in rows if r["ratio"] > 1.5],
        "top": rows[:8],
        "bottom": rows[-5:],
        "all": rows,
    }


def pooled(n: int, per_seed: dict[int, list]) -> dict:
    """One player count over several seeds: the records together, as one run.

    A card's pooled ratio over k seeds of 2,000 games rests on k times the hands,
    so its interval is about 1/sqrt(k) as wide as one seed's; the per-seed ratios
    of the pooled top cards are listed beside it to show the spread between seeds.
    """
    records = [r for recs in per_seed.values() for r in recs]
    games = len(records)
    fair = 1.0 / n
    seat_wins = [0.0] * n
    for r in records:
        for w in r["winners"]:
            seat_wins[w] += 1.0 / len(r["winners"])
    seats = [_entry(seat_wins[i], games, fair) for i in range(n)]
    cards = card_table({n: records})
    del cards["bottom"]
    by_seed = {
        seed: {row["card"]: row["ratio"] for row in card_table({n: recs})["all"]}
        for seed, recs in per_seed.items()
    }
    for row in cards["top"]:
        row["per_seed"] = {
            str(seed): by_seed[seed].get(row["card"]) for seed in by_seed
        }
    del cards["all"]
    return {
        "players": n,
        "seeds": list(per_seed),
        "games": games,
        "seats": seats,
        "all_seats_in_band": all(x["in_band"] for x in seats),
        "cards": cards,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--players", default="2,3,4,5")
    p.add_argument("--seed", type=int, default=2019)
    p.add_argument(
        "--seeds",
        default="",
        help="comma-separated seeds (overrides --seed): each seed's run, then "
        "every player count pooled over the seeds",
    )
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--cards", default="", help="JSON card overrides (tuning)")
    p.add_argument(
        "--no-draft",
        action="store_true",
        help="first-game deal: random hands, so a card's figure is its strength "
        "alone, not where the draft puts it",
    )
    a = p.parse_args()
    global engine, H, DRAFT
    DRAFT = not a.no_draft
    if a.cards:
        patch_cards(json.loads(a.cards))
    from gameplay.rules.kungfu2019 import engine
    from gameplay.rules.kungfu2019 import heuristic as H

    seeds = [int(x) for x in a.seeds.split(",")] if a.seeds else [a.seed]
    H.card_values()  # computed once before forking
    out: dict[str, Any] = {
        "seed": a.seed if not a.seeds else None,
        "seeds": seeds,
        "cards_override": json.loads(a.cards) if a.cards else None,
        "draft": DRAFT,
        "load_start": os.getloadavg()[0],
        "series": [],
    }
    if len(seeds) > 1:
        out["pooled"] = []
    by_n: dict[int, list[dict[str, Any]]] = {}
    for n in (int(x) for x in a.players.split(",")):
        per_seed: dict[int, list[dict[str, Any]]] = {}
        for seed in seeds:
            summary, records = series(n, a.games, seed, a.workers)
            summary["seed"] = seed
            summary["load"] = os.getloadavg()[0]
            summary["cards"] = card_table({n: records})
            del summary["cards"]["bottom"], summary["cards"]["all"]
            out["series"].append(summary)
            per_seed[seed] = records
            print(json.dumps(summary), file=sys.stderr, flush=True)
        if len(seeds) > 1:
            pool = pooled(n, per_seed)
            out["pooled"].append(pool)
            print(json.dumps(pool), file=sys.stderr, flush=True)
        by_n[n] = [r for recs in per_seed.values() for r in recs]
    out["cards_all_counts"] = card_table(by_n)
    del out["cards_all_counts"]["all"]
    out["load_end"] = os.getloadavg()[0]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
