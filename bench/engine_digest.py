"""Digest of an engine's behaviour over seeded random games, to compare versions.

Run ``python bench/engine_digest.py --game duelo`` before and after a change
meant to make an engine faster without changing what it does: the printed
SHA-256 covers, at every step of seeded uniform random games at every table
size, every seat's observation (and the spectator's), the acting seat's menu
(``legal_actions``), the events, the state after ``apply`` and the result, all
as canonical JSON. Equal digests say the two versions behaved identically on
those games; one line per table size shows where they differ. It also checks
that observations share no list or dict with the state or with each other
(an observation is a value the caller may edit).
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


def _containers(value: Any, out: dict[int, Any]) -> None:
    """The lists an observation must own (docs/engine.md, "Observations"), by
    identity: its lists, lists in them and the lists of its own dicts. A dict
    that is an item of a list (a card, a seat's public part) may be a shared
    read-only view, so what it holds is not collected."""
    if isinstance(value, list):
        out[id(value)] = value
        for v in value:
            if isinstance(v, list):
                _containers(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _containers(v, out)


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
            seen: dict[int, Any] = {}
            for x in [*range(players), None]:
                obs = game.observe(state, x)
                h.update(dump(obs).encode())
                mine: dict[int, Any] = {}
                _containers(obs, mine)
                shared = mine.keys() & seen.keys()
                if shared:
                    raise SystemExit(f"{game_id}: observations share a list: {shared}")
                seen.update(mine)
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
