"""Kung Fu (2013): the playout paths (``apply_in_place``, ``playout``) give exactly
``apply``'s states, and ``apply`` never changes its input."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from gameplay.rules import IllegalAction, get_game
from gameplay.rules.kungfu2013 import KungFu2013Game
from gameplay.rules.rng import uniform_chooser

_GAME = get_game("kungfu2013")
assert isinstance(_GAME, KungFu2013Game)  # the fast paths are beside the protocol
GAME: KungFu2013Game = _GAME
CONFIGS: list[dict[str, Any]] = [
    {},
    {"start": 1, "life": 5},
    {"max_rounds": 4},
    {"red_deck": ["r18", "r19", "r28"], "blue_deck": ["b20", "b27"], "start": 0},
]


def _game_log(seed: int, config: dict) -> list[tuple[int, str]]:
    """A random game through ``apply``, checking each step against the fast paths."""
    rnd = random.Random(seed)
    state = GAME.setup(config, seed)
    fast = GAME.clone(state)
    log = []
    while GAME.actors(state):
        (seat,) = GAME.actors(state)
        ids = GAME.legal_action_ids(state, seat)
        aid = ids[int(rnd.random() * len(ids))] if seed % 2 else ids[-1]
        before = copy.deepcopy(state)
        new, _ = GAME.apply(state, seat, aid)
        assert state == before  # apply never mutates its input
        GAME.apply_in_place(fast, seat, aid)
        assert fast == new
        log.append((seat, aid))
        state = new
    return log


@pytest.mark.parametrize("seed", range(40))
def test_apply_in_place_and_playout_match_apply(seed: int) -> None:
    config = CONFIGS[seed % len(CONFIGS)]
    log = _game_log(seed, config)
    final = GAME.setup(config, seed)
    for seat, aid in log:
        final, _ = GAME.apply(final, seat, aid)
    for cut in (None, len(log) // 3, 0):
        state = GAME.setup(config, seed)
        moves = iter(log)

        def choose(s: dict, seat: int, ids: tuple[str, ...], moves=moves) -> str:
            want_seat, aid = next(moves)
            assert seat == want_seat
            assert list(ids) == GAME.legal_action_ids(s, seat)
            return aid

        steps = GAME.playout(state, choose, cut)
        assert steps == (len(log) if cut is None else cut)
        expected = GAME.setup(config, seed)
        for seat, aid in log[:steps]:
            expected, _ = GAME.apply(expected, seat, aid)
        assert state == expected
    assert state == GAME.setup(config, seed)  # max_steps=0 changes nothing
    assert GAME.is_over(final)


def test_fast_paths_refuse_like_apply_and_change_nothing() -> None:
    state = GAME.setup({"start": 0}, 3)
    before = copy.deepcopy(state)
    # The last one is a number where an action id belongs, on purpose.
    cases: list[tuple[int, Any]] = [
        (1, "initiative:keep"),
        (0, "attack:r01"),
        (0, "x"),
        (0, 7),
    ]
    for seat, aid in cases:
        with pytest.raises(IllegalAction) as slow:
            GAME.apply(state, seat, aid)
        with pytest.raises(IllegalAction) as fast:
            GAME.apply_in_place(state, seat, aid)
        assert str(fast.value) == str(slow.value)
        assert state == before
    with pytest.raises(IllegalAction, match="not legal"):
        GAME.playout(state, lambda s, seat, ids: "draw:green")
    assert state == before


@pytest.mark.parametrize("mode", ["apply_in_place", "playout", "random_playout"])
def test_in_place_play_on_a_state_from_apply_leaves_earlier_states(mode: str) -> None:
    """``apply`` shares ``life``, ``front`` and ``noblk`` with the state before
    (copy-on-write), so the in-place paths must replace those lists, never edit
    them: every state of the game so far keeps its JSON."""
    for seed in range(12):
        rnd = random.Random(seed)
        state = GAME.setup(CONFIGS[seed % len(CONFIGS)], seed)
        kept = [(state, json.dumps(state, sort_keys=True))]
        # Half the game through apply (damage, coins and effects included) ...
        for _ in range(130):
            if not GAME.actors(state):
                break
            (seat,) = GAME.actors(state)
            ids = GAME.legal_action_ids(state, seat)
            state, _ = GAME.apply(state, seat, ids[int(rnd.random() * len(ids))])
            kept.append((state, json.dumps(state, sort_keys=True)))
        # ... the rest in place on the last state apply returned.
        if mode == "apply_in_place":
            while GAME.actors(state):
                (seat,) = GAME.actors(state)
                ids = GAME.legal_action_ids(state, seat)
                GAME.apply_in_place(state, seat, ids[int(rnd.random() * len(ids))])
        elif mode == "playout":
            GAME.playout(state, uniform_chooser(seed))
        else:
            GAME.random_playout(state, seed)
        assert GAME.is_over(state)
        for earlier, dumped in kept[:-1]:
            assert json.dumps(earlier, sort_keys=True) == dumped
