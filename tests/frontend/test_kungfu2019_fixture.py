"""Kung Fu (2019)'s node test fixture matches the engine, and the observations
the board is drawn from hold nothing the seat may not know."""

from __future__ import annotations

import json
import random

from gameplay.rules import get_game
from gameplay.rules.kungfu2019.engine import CODE
from tests.frontend import kungfu2019_fixture as fx

HINT = "run python -m tests.frontend.kungfu2019_fixture"


def test_fixture_is_current() -> None:
    committed = json.loads(fx.OUT.read_text())
    assert committed == json.loads(json.dumps(fx.build())), HINT


def test_fixture_covers_every_event_type_and_decision() -> None:
    data = json.loads(fx.OUT.read_text())
    assert set(data["seat_frames"]) >= fx.REQUIRED | {"over"}
    assert set(data["events"]) == {
        "pick", "draft_pass", "status", "round", "commit", "reveal", "attack",
        "assign", "fight", "eliminated", "round_end", "game_over",
        "unpick", "uncommit", "reopen",
    }  # fmt: skip


def _hidden_from(state: dict, seat: int | None) -> set[str]:
    """Card codes only other seats may know now: hands, packs, picks, commits."""
    out: set[str] = set()
    for other in range(state["n"]):
        if other == seat:
            continue
        for key in ("hands", "packs", "picks", "commit"):
            out.update(CODE[c] for c in state[key][other])
    out.update(CODE[c] for c in state["deck"])
    return out


def test_observations_the_board_gets_name_no_hidden_card_or_choice() -> None:
    """What the page is drawn from: every seat's and the spectator's view at
    every step of seeded games names no card hidden from it, and shows no other
    fighter's unfinished or unrevealed dice assignment."""
    game = get_game("kungfu2019")
    checked = 0
    for seed, players in ((1, 3), (2, 2), (3, 4), (4, 5), (5, 3)):
        rnd = random.Random(seed)
        state = game.setup({"players": players}, seed)
        while not game.is_over(state):
            for seat in [None, *range(players)]:
                view = game.observe(state, seat)
                text = json.dumps(view)
                leaked = {c for c in _hidden_from(state, seat) if f'"{c}"' in text}
                assert not leaked, (seed, seat, state["phase"], leaked)
                fight = view["fight"]
                if fight is not None:
                    assert (fight["mine"] is None) == (
                        seat is None or seat not in fight["fighters"]
                    )
                checked += 1
            actors = game.actors(state)
            seat = actors[rnd.randrange(len(actors))]
            ids = game.legal_action_ids(state, seat)
            state, _ = game.apply(state, seat, ids[rnd.randrange(len(ids))])
    assert checked > 300
