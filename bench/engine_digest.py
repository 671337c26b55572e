"""Digest of an engine's behaviour over seeded random games, to compare versions.

Run ``python bench/engine_digest.py --game duelo`` before and after a change
meant to make an engine faster without changing what it does: the printed
SHA-256 covers, at every step of seeded uniform random games at every table
size, every seat's observation (and the spectator's), the acting seat's menu
(``legal_actions``), the events, the state after ``apply`` and the result, all
as canonical JSON. Equal digests say the two versions behaved identically on
those games; one line per table size shows where they differ. It also checks
that no two observations of a step share a list (an observation's lists are
its own: docs/engine.md, "Observations").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.rules import available_games, get_game


def _lists(obs: dict[str, Any]) -> list[list[Any]]:
    """The lists an observation must own (docs/engine.md, "Observations"): its
    top-level lists and the lists inside them. Dicts below the top level (a
    card, a seat's public part, a battle) may be shared read-only views, so
    what they hold is not collected."""
    out: list[list[Any]] = []
    todo = [v for v in obs.values() if isinstance(v, list)]
    while todo:
        value = todo.pop()
        out.append(value)
        todo.extend(v for v in value if isinstance(v, list))
    return out


def digest_game(
    game_id: str, players: int, games: int, seed: int, config: dict[str, Any]
) -> str:
    game = get_game(game_id)
    h = hashlib.sha256()
    rnd = random.Random(seed)
    dump = json.dumps
    realtime = getattr(game, "realtime", False)
    for index in range(games):
        state = game.setup({**config, "players": players}, seed * 100_000 + index)
        h.update(dump(state, sort_keys=True).encode())
        while True:
            who = game.actors(state)
            if not who and (not realtime or game.is_over(state)):
                break
            seat = who[int(rnd.random() * len(who))] if who else None
            # Every seat's observation (kept alive, so that no id is reused)
            # and its own lists: none may be another observation's.
            shown = [game.observe(state, x) for x in [*range(players), None]]
            owners: dict[int, int] = {}
            for k, obs in enumerate(shown):
                h.update(dump(obs).encode())
                for lst in _lists(obs):
                    if owners.setdefault(id(lst), k) != k:
                        raise SystemExit(f"{game_id}: observations share a list")
            h.update(dump(game.legal_actions(state, seat)).encode())
            ids = game.legal_action_ids(state, seat)
            h.update(dump(ids).encode())
            state, events = game.apply(state, seat, ids[int(rnd.random() * len(ids))])
            h.update(dump(events).encode())
            h.update(dump(state, sort_keys=True).encode())
        h.update(dump(game.result(state)).encode())
        for x in range(players):
            h.update(dump(game.observe(state, x)).encode())
    return h.hexdigest()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=available_games(), required=True)
    parser.add_argument("--games", type=int, default=300, help="games per table size")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--config", default="{}", help="options as JSON, e.g. '{\"rounds\": 3}'"
    )
    args = parser.parse_args(argv)
    game = get_game(args.game)
    total = hashlib.sha256()
    for players in range(game.min_players, game.max_players + 1):
        d = digest_game(
            args.game, players, args.games, args.seed, json.loads(args.config)
        )
        total.update(d.encode())
        print(f"{args.game} {players}p {d}")
    print(f"{args.game} all {total.hexdigest()}")


if __name__ == "__main__":
    main()
