"""How far apart two built-in bots are in one game, in Elo: the anchors' figures.

Each game's built-in bots are fixed anchors of its bot pools
(``GameMeta.anchors``, docs/ratings.md). This measures the gap between two of
them the way the pools rate a match: a game of n players counts as n-1
pairwise results, so the score is how often the ``--strong`` bot finishes
above each ``--weak`` bot (a tie counts half), with the strong bot in one seat
(rotated every game) and weak bots in the others. Pure Python, no database;
real-time games run on the virtual clock, like bot matches. Example::

    python bench/anchors.py --game kungfu2009 --players 4 --games 400 --seed 25

The last stdout line is one JSON object: ``score`` (pairwise), ``ci95``
(Wilson, over the pairwise results, which are not independent at a table of
three or more, so read it as a rough interval), ``elo_gap``
(400 log10(score / (1 - score)); None when one bot won every comparison) and
``cpu_s``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gameplay.rules import get_game  # noqa: E402
from gameplay.rules.bots import decision_context, get_bot  # noqa: E402
from gameplay.rules.simulate import derive_seed, wilson  # noqa: E402
from gameplay.rules.ticks import run  # noqa: E402


def placements(game_id: str, lineup: list[str], seed: int) -> list[int]:
    """Play one game with ``lineup[s]`` in seat s; the placements (1 = best)."""
    game = get_game(game_id)
    bots = {name: get_bot(name) for name in set(lineup)}
    state = game.setup({"players": len(lineup)}, seed)
    if getattr(game, "realtime", False):
        state = run(game, state, [bots[name] for name in lineup], seed).state
    steps = 0
    while not game.is_over(state):
        seat = game.actors(state)[0]
        ids = game.legal_action_ids(state, seat)
        if len(ids) == 1:
            action = ids[0]
        else:
            ctx = decision_context(game, state, seat, derive_seed(seed, steps))
            action = bots[lineup[seat]].choose(ctx)
        state, _ = game.apply(state, seat, action)
        steps += 1
    result = game.result(state)
    assert result is not None
    return list(result["placements"])


def measure(
    game_id: str, players: int, games: int, seed: int, strong: str, weak: str
) -> dict:
    score = 0.0
    comparisons = 0
    start = time.process_time()
    for g in range(games):
        seat = g % players
        lineup = [weak] * players
        lineup[seat] = strong
        places = placements(game_id, lineup, derive_seed(seed, g))
        for other in range(players):
            if other != seat:
                comparisons += 1
                if places[seat] < places[other]:
                    score += 1.0
                elif places[seat] == places[other]:
                    score += 0.5
    share = score / comparisons
    low, high = wilson(score, comparisons)
    gap = 400 * math.log10(share / (1 - share)) if 0 < share < 1 else None
    return {
        "game": game_id,
        "players": players,
        "games": games,
        "seed": seed,
        "strong": strong,
        "weak": weak,
        "score": round(share, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "elo_gap": None if gap is None else round(gap, 1),
        "cpu_s": round(time.process_time() - start, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--strong", default="heuristic")
    parser.add_argument("--weak", default="random")
    args = parser.parse_args()
    print(
        json.dumps(
            measure(
                args.game, args.players, args.games, args.seed, args.strong, args.weak
            )
        )
    )


if __name__ == "__main__":
    main()
