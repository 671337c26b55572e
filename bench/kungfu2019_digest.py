"""Digest of Kung Fu (2019)'s public behaviour over seeded random games.

Why: speed work on the engine (issue 33 §2) must leave every observation,
menu, event, state and result exactly as before. This plays seeded uniform
random games through the public API (every seat's observation and menu at
every step, the events of each ``apply``, the state after it, the result),
hashes their JSON, and prints one hex digest; run it before and after a
change and compare. ``--games`` sets how many games per player count.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

# The checkout this script sits in, not whichever the editable install names:
# a before/after comparison run from a second worktree must hash its own code.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gameplay.rules import get_game
from gameplay.rules.kungfu2019.engine import KungFu2019Game


def digest(games: int) -> str:
    """The blake2b digest of ``games`` random games at 2, 3, 4 and 5 players
    (with and without the draft), every seat's view at every step."""
    game = get_game("kungfu2019")
    assert isinstance(game, KungFu2019Game)  # take-backs are this engine's
    h = hashlib.blake2b(digest_size=16)

    def put(x: object) -> None:
        h.update(json.dumps(x, separators=(",", ":")).encode())

    for players in (2, 3, 4, 5):
        for draft in (True, False):
            for g in range(games):
                rnd = random.Random(players * 100_003 + g * 2 + draft)
                state = game.setup({"players": players, "draft": draft}, g)
                while True:
                    who = game.actors(state)
                    put(who)
                    for seat in [None, *range(players)]:
                        put(game.observe(state, seat))
                        put(game.legal_action_ids(state, seat))
                    if not who:
                        break
                    seat = who[int(rnd.random() * len(who))]
                    ids = game.legal_action_ids(state, seat)
                    # A take-back now and then, so they stay covered too.
                    back = [a["id"] for a in game.retract_actions(state, seat)]
                    pool = ids + back if rnd.random() < 0.05 else ids
                    state, events = game.apply(state, seat, rnd.choice(pool))
                    put(events)
                    put(state)
                put(game.result(state))
    return h.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    print(digest(parser.parse_args().games))


if __name__ == "__main__":
    main()
