"""The random-game driver and the replay check every game's property tests share.

Each game's ``test_<game>_properties.py`` keeps what is its own (configs, the
cards it conserves, how to shuffle what a seat cannot see) and plays its games
through :func:`random_playout`, so "a seeded random game" means the same thing
for all four engines.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

# (state before, seat, action id, state after, events)
Step = tuple[dict, "int | None", str, dict, list]


def uniform(ids: list[str], rnd: random.Random) -> str:
    return ids[rnd.randrange(len(ids))]


def first_actor(actors: list[int], rnd: random.Random) -> int:
    """Turn-based games: the one seat to act."""
    return actors[0]


def any_actor(actors: list[int], rnd: random.Random) -> int:
    """Simultaneous or real-time games: any seat that may act, at random."""
    return actors[rnd.randrange(len(actors))]


def random_playout(
    game: Any,
    config: dict[str, Any],
    seed: int,
    pick: int,
    *,
    max_steps: int,
    choose: Callable[[list[str], random.Random], str] = uniform,
    pick_seat: Callable[[list[int], random.Random], int] = first_actor,
    table_seat: bool = False,
    must_end: bool = True,
) -> Iterator[Step]:
    """Yield every step of a seeded random game until it ends.

    ``pick`` seeds the choices (the engine's ``seed`` its chance). With
    ``table_seat`` a state where no seat may act but the game goes on is the
    table's step (seat None: a real-time game checking a claim). A game still
    going after ``max_steps`` fails, unless ``must_end`` is False (games whose
    random play need not end, checked for a prefix only).
    """
    rnd = random.Random(pick)
    state = game.setup(config, seed)
    for _ in range(max_steps):
        if game.is_over(state):
            return
        actors = game.actors(state)
        if actors:
            seat = pick_seat(actors, rnd)
        elif table_seat:
            seat = None
        else:
            raise AssertionError("nobody may act in a game that is not over")
        aid = choose(game.legal_action_ids(state, seat), rnd)
        new, events = game.apply(state, seat, aid)
        yield state, seat, aid, new, events
        state = new
    if must_end and not game.is_over(state):
        raise AssertionError(f"game did not end in {max_steps} steps")


def assert_replay_reproduces(
    game: Any, config: dict[str, Any], seed: int, steps: list[Step]
) -> None:
    """Config, seed and the logged actions rebuild every state and event."""
    state = game.setup(config, seed)
    for before, seat, aid, after, events in steps:
        assert state == before
        state, replayed = game.apply(state, seat, aid)
        assert state == after and replayed == events


def native_matches_python(
    game: Any, state: dict[str, Any], seed: int, max_steps: int | None = None
) -> tuple[dict[str, Any], int]:
    """Play a copy with the game's native kernel (``random_playout``) and one
    with its Python ``playout`` on the same choice stream
    (``rng.uniform_chooser``); assert they end identically. Returns the final
    state and the number of decisions."""
    from gameplay.rules.rng import uniform_chooser

    fast = copy.deepcopy(state)
    slow = copy.deepcopy(state)
    n_fast = game.random_playout(fast, seed, max_steps)
    n_slow = game.playout(slow, uniform_chooser(seed), max_steps)
    assert n_fast == n_slow
    assert fast == slow
    return fast, n_fast


def states_in_play(
    game: Any, configs: list[dict[str, Any]], count: int, seed: int
) -> Iterator[dict[str, Any]]:
    """Every state of ``count`` seeded uniform random games of a turn-based
    engine, in play order (game ``i`` with ``configs[i % len(configs)]``): what
    the tests of a C ``observe`` compare with the Python one."""
    rnd = random.Random(seed)
    for index in range(count):
        state = game.setup(configs[index % len(configs)], seed * 1000 + index)
        while True:
            yield state
            who = game.actors(state)
            if not who:
                break
            ids = game.legal_action_ids(state, who[0])
            state, _ = game.apply(state, who[0], ids[int(rnd.random() * len(ids))])


def observe_as_python(game: Any, state: Any, seat: Any) -> None:
    """``game.observe`` does with ``state`` what its Python reference
    ``_observe_py`` does (an engine whose C ``observe`` declined it): the same
    observation as JSON, or an error of the same type."""
    import pytest

    try:
        expected = json.dumps(game._observe_py(state, seat))
    except Exception as exc:  # the reference's error, whatever it is
        with pytest.raises(type(exc)):
            game.observe(state, seat)
    else:
        assert json.dumps(game.observe(state, seat)) == expected
