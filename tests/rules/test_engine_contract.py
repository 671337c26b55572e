"""The engine contract, checked for every game in the registry.

Each game is found through ``gameplay.rules.available_games()``, its table sizes
from the engine and its configs from the public table options of its
``GameMeta``, so a fifth game runs this suite the moment it is registered. Seeded
random games (any seat that may act, a uniform choice from its menu, the table's
step when no seat may act) check at every step what the platform relies on:

- termination: a turn-based game ends by play; a real-time one (``realtime``)
  ends by play or by the table's ``end`` step when its time is up;
- ``apply`` never changes the state passed in, the menu (``legal_actions``) and
  the ids agree, and states, events, observations and results survive a JSON
  round trip (they are stored and sent as JSON);
- replay: the config, the seed and the applied ids rebuild every state and event;
- observation safety: a seat's observation is the same for the real state and for
  any determinization of it (which re-deals exactly what the seat cannot see),
  and a seat sees only its own private part of the events;
- refusals: an unknown id, a wrong seat and any move after the end raise
  ``IllegalAction`` and change nothing.

What is only one game's (the cards it conserves, how to swap what a seat cannot
see, its illegal inputs) stays in that game's ``test_<game>_*.py``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gameplay.rules import (
    Game,
    IllegalAction,
    available_games,
    game_meta,
    get_game,
    ticks,
    view_events,
)
from tests.rules.properties import Step, any_actor, assert_replay_reproduces

GAMES = available_games()
GAMES_PER_TEST = 6  # seeded random games per game and check
MAX_STEPS = 20_000  # a turn-based game still going after this fails
REALTIME_STEPS = 400  # random steps of a real-time game before its time is up


def random_config(game_id: str, rnd: random.Random) -> dict[str, Any]:
    """A table size within the engine's range and a value for each public option."""
    game = get_game(game_id)
    config: dict[str, Any] = {
        "players": rnd.randint(game.min_players, game.max_players)
    }
    for option in game_meta(game_id).table_options:
        if option.kind == "choice":
            config[option.key] = rnd.choice([value for value, _ in option.choices])
        elif option.kind == "bool":
            config[option.key] = rnd.random() < 0.5
        elif option.kind == "int":
            config[option.key] = rnd.randint(option.min_value, option.max_value)
    return config


def playout(
    game: Game, config: dict[str, Any], seed: int
) -> tuple[list[Step], dict[str, Any]]:
    """Every step of one seeded random game, and its final (finished) state."""
    rnd = random.Random(seed)
    realtime = getattr(game, "realtime", False)
    state = game.setup(config, seed)
    steps: list[Step] = []
    limit = REALTIME_STEPS if realtime else MAX_STEPS
    while not game.is_over(state) and len(steps) < limit:
        actors = game.actors(state)
        seat = any_actor(actors, rnd) if actors else None
        ids = game.legal_action_ids(state, seat)
        assert ids, f"seat {seat} may act (or the table must) but has no menu"
        aid = ids[rnd.randrange(len(ids))]
        new, events = game.apply(state, seat, aid)
        steps.append((state, seat, aid, new, events))
        state = new
    if realtime and not game.is_over(state):
        # Time is up: the platform's closing steps (the table's ``end``), logged.
        closing: list[str] = []
        ticks.time_up(game, state, closing.append)
        for step in closing:
            new, events = game.apply(state, None, step)
            steps.append((state, None, step, new, events))
            state = new
    assert game.is_over(state), f"game did not end in {limit} steps"
    return steps, state


def games_of(game_id: str) -> list[tuple[dict[str, Any], int]]:
    rnd = random.Random(f"contract:{game_id}")
    return [
        (random_config(game_id, rnd), rnd.getrandbits(63))
        for _ in range(GAMES_PER_TEST)
    ]


def round_trips(value: Any) -> bool:
    return json.loads(json.dumps(value)) == value


@pytest.mark.parametrize("game_id", GAMES)
def test_the_engine_is_a_game(game_id: str) -> None:
    game = get_game(game_id)
    assert isinstance(game, Game)
    assert game.id == game_id
    assert 1 <= game.min_players <= game.max_players


@pytest.mark.parametrize("game_id", GAMES)
def test_random_games_end_never_mutate_and_round_trip_json(game_id: str) -> None:
    game = get_game(game_id)
    for config, seed in games_of(game_id):
        steps, final = playout(game, config, seed)
        for state, seat, aid, new, events in steps:
            frozen = json.dumps(state, sort_keys=True)
            ids = game.legal_action_ids(state, seat)
            assert aid in ids
            if seat is not None:
                assert [a["id"] for a in game.legal_actions(state, seat)] == ids
            assert set(game.actors(new)) <= set(range(config["players"]))
            assert round_trips(new) and round_trips(events)
            assert json.dumps(state, sort_keys=True) == frozen, (seat, aid)
        result = game.result(final)
        assert result is not None and result["winners"], result
        assert len(result["placements"]) == config["players"]
        assert round_trips(result)


@pytest.mark.parametrize("game_id", GAMES)
def test_replay_from_config_seed_and_actions_reproduces_every_step(
    game_id: str,
) -> None:
    game = get_game(game_id)
    for config, seed in games_of(game_id):
        steps, _ = playout(game, config, seed)
        assert_replay_reproduces(game, config, seed, steps)


@pytest.mark.parametrize("game_id", GAMES)
def test_observations_and_events_show_nothing_hidden(game_id: str) -> None:
    game = get_game(game_id)
    for config, seed in games_of(game_id)[:3]:
        rnd = random.Random(seed)
        n = config["players"]
        steps, _ = playout(game, config, seed)
        for k, (_state, _seat, _aid, new, events) in enumerate(steps):
            for ev in events:
                assert set(ev["private"]) <= {str(i) for i in range(n)}, ev
            for seat in [None, *range(n)]:
                seen = view_events(events, seat)
                for mine, ev in zip(seen, events, strict=True):
                    own = ev["private"].get(str(seat), {})
                    assert mine == {
                        "type": ev["type"],
                        "public": ev["public"],
                        "private": own if seat is not None else {},
                    }
            if k % 7 and not game.is_over(new):
                continue
            for seat in [None, *range(n)]:
                obs = game.observe(new, seat)
                assert round_trips(obs)
                if seat is None or game.is_over(new):
                    continue
                twin = game.determinize(new, seat, rnd.getrandbits(63))
                assert game.observe(twin, seat) == obs, (seat, k)


@pytest.mark.parametrize("game_id", GAMES)
def test_refused_moves_raise_and_change_nothing(game_id: str) -> None:
    game = get_game(game_id)
    for config, seed in games_of(game_id)[:3]:
        rnd = random.Random(seed)
        n = config["players"]
        steps, final = playout(game, config, seed)
        for state, seat, _aid, _new, _events in rnd.sample(steps, min(40, len(steps))):
            frozen = json.dumps(state, sort_keys=True)
            attempts: list[tuple[Any, Any]] = [
                (seat, "no-such-action"),
                (seat, None),
                (n + 3, "pass"),
                (str(seat), game.legal_action_ids(state, seat)[0]),
            ]
            actors = game.actors(state)
            idle = [x for x in range(n) if x not in actors]
            if idle and seat is not None:
                attempts.append(
                    (rnd.choice(idle), game.legal_action_ids(state, seat)[0])
                )
            for who, aid in attempts:
                with pytest.raises(IllegalAction) as refusal:
                    game.apply(state, who, aid)
                assert str(refusal.value)
                assert json.dumps(state, sort_keys=True) == frozen
        with pytest.raises(IllegalAction):
            game.apply(final, 0, game.legal_action_ids(steps[-1][0], steps[-1][1])[0])
