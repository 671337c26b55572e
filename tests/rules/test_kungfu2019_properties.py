"""Property tests over seeded random Kung Fu (2019) games.

A random playout drives each game, choosing a random seat among the actors (so
simultaneous choices arrive in every order); hypothesis picks the options and
seeds. Checked at every step: each of the 74 cards is in exactly one place, exactly
the seats that may act have a menu, the fast legality check agrees with the menus,
observations do not change when
what is hidden from that seat (other hands, packs, draft picks, uncommitted cards,
unfinished dice assignments, the deck order) is swapped, a determinization looks
exactly like the real state to its seat, and events show each seat only its own
private part.

The exact solver is slow next to the engine, so the playouts pick ``auto`` only
now and then (every other move is uniform among the rest).
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.rules import view_events
from gameplay.rules.kungfu2019 import engine as E
from gameplay.rules.kungfu2019 import handlers as H
from tests.rules.kungfu2019_helpers import GAME
from tests.rules.properties import (
    Step,
    any_actor,
    random_playout,
)

MAX_STEPS = 5_000
PROPS = settings(
    deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
configs = st.fixed_dictionaries({"players": st.integers(2, 5), "draft": st.booleans()})
seeds = st.integers(0, 2**64 - 1)


def choose(ids: list[str], rnd: random.Random) -> str:
    rest = [i for i in ids if i != "auto"]
    if not rest or rnd.random() < 0.03:
        return ids[0]
    return rest[rnd.randrange(len(rest))]


def playout(config: dict[str, Any], seed: int, pick: int) -> Iterator[Step]:
    return random_playout(
        GAME,
        config,
        seed,
        pick,
        max_steps=MAX_STEPS,
        choose=choose,
        pick_seat=any_actor,
    )


def all_cards(s: dict[str, Any]) -> Counter:
    places = [s["deck"], s["dummy"], s["discard"]]
    places += s["packs"] + s["picks"] + s["hands"] + s["commit"] + s["played"]
    return Counter("".join(places))


FULL = Counter(E.ALPHABET)


@settings(PROPS, max_examples=40)
@given(config=configs, seed=seeds, pick=st.integers(0, 2**32))
def test_games_conserve_cards_and_exactly_the_actors_have_menus(
    config: dict, seed: int, pick: int
) -> None:
    """(Termination, JSON, replays: tests/rules/test_engine_contract.py.)"""
    new = None
    for _state, _seat, _aid, new, _events in playout(config, seed, pick):
        assert all_cards(new) == FULL
        actors = GAME.actors(new)
        for other in range(new["n"]):
            if other not in actors:
                assert GAME.legal_action_ids(new, other) == []
            else:
                assert GAME.legal_action_ids(new, other)
    assert new is not None and GAME.is_over(new)


CANDIDATES = (
    ["auto", "done", "reset", "cancel", "up:9", "die:x", "set:3:0", "set:0"]
    + ["set:0:\u00b2", "die:\u0663", "up:-1", "set:0:9", "pick:", "play:zz", ""]
    + [f"set:{a}:{b}" for a in range(3) for b in range(4)]
    + ["best", "drop:0", "drop:1", "drop:2", "drop:6", "drop:7", "drop:x", "drop:"]
    + [f"{k}:{i}" for k in ("die", "up", "down") for i in range(7)]
    + [f"pick:{c}" for c in E.CODES[::5]]
    + [f"play:{c}" for c in E.CODES[::5]]
)


@settings(PROPS, max_examples=10)
@given(config=configs, seed=seeds, pick=st.integers(0, 2**32))
def test_the_fast_legality_check_agrees_with_the_menus(
    config: dict, seed: int, pick: int
) -> None:
    for _state, _seat, _aid, new, _events in playout(config, seed, pick):
        for seat in range(new["n"]):
            ids = GAME.legal_action_ids(new, seat)
            for aid in {*CANDIDATES, *ids}:
                assert H._is_legal(new, seat, aid) == (aid in ids), (seat, aid)
    r = GAME.result(new)
    assert r is not None
    assert r is not None and r["winners"]
    assert sorted(set(r["placements"]))[0] == 1
    alive = [i for i in range(new["n"]) if not new["elim"][i]]
    if len(alive) == 1:
        assert r["winners"] == alive


def _swap_hidden(s: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any]:
    """Shuffle what ``seat`` cannot see among its places, keeping every size."""
    t = copy.deepcopy(s)
    n = t["n"]
    others = [i for i in range(n) if i != seat]
    slots: list[tuple[str, int | None]] = [("deck", None)]
    for other in others:
        slots += [("hands", other), ("packs", other), ("picks", other)]
        slots.append(("commit", other))

    def get(key: str, i: int | None) -> str:
        return t[key] if i is None else t[key][i]

    pool = list("".join(get(k, i) for k, i in slots))
    rnd.shuffle(pool)
    for k, i in slots:
        size = len(get(k, i))
        part, pool = "".join(pool[:size]), pool[size:]
        if i is None:
            t[k] = part
        else:
            t[k][i] = part
    f = t["fight"]
    if f is not None:
        for i in f["f"]:
            if i != seat:
                a = f["asg"][i]
                a["v"] = [rnd.randint(1, 6) for _ in range(7)]
                a["sets"] = [[0, 0, [rnd.randrange(7)]]] if rnd.random() < 0.5 else []
                a["open"] = None
                a["gain"] = rnd.randrange(3)
                a["spent"] = rnd.randrange(3)
    t["rng"] = format(rnd.getrandbits(64), "016x")
    return t


@settings(PROPS, max_examples=15)
@given(config=configs, seed=seeds, pick=st.integers(0, 2**32))
def test_observations_hide_hands_picks_commits_and_assignments(
    config: dict, seed: int, pick: int
) -> None:
    rnd = random.Random(pick)
    for k, (_state, seat, _aid, new, events) in enumerate(playout(config, seed, pick)):
        n = new["n"]
        # Events: a seat sees only its own private part; hidden choices carry
        # no card in their public part.
        for ev in events:
            assert set(ev["private"]) <= {str(i) for i in range(n)}
            if ev["type"] in ("pick", "commit", "assign"):
                assert list(ev["private"]) == [str(seat)]
                assert set(ev["public"]) <= {"seat", "count", "done"}
        for viewer in range(n):
            for ev in view_events(events, viewer):
                if ev["type"] in ("pick", "commit", "assign") and viewer != seat:
                    assert ev["private"] == {}
        if k % 5:
            continue
        for viewer in [*range(n), None]:
            obs = GAME.observe(new, viewer)
            assert json.loads(json.dumps(obs)) == obs
            if viewer is None:
                # A spectator's view is every seat's view minus the private parts.
                assert obs["hand"] is None
                continue
            swapped = _swap_hidden(new, viewer, rnd)
            assert all_cards(swapped) == FULL
            assert GAME.observe(swapped, viewer) == obs
            sample = GAME.determinize(new, viewer, rnd.getrandbits(63))
            assert all_cards(sample) == FULL
            assert GAME.observe(sample, viewer) == obs
            who = GAME.actors(sample)
            if who:
                ids = GAME.legal_action_ids(sample, who[-1])
                GAME.apply(sample, who[-1], choose(ids, rnd))


@pytest.mark.slow  # a statistic over 40 games
def test_random_games_end_in_every_way_over_many_seeds() -> None:
    reasons: Counter = Counter()
    for seed in range(40):
        config = {"players": 2 + seed % 4, "draft": seed % 3 != 0}
        *_, (_, _, _, last, _) = playout(config, seed, seed)
        reasons[_result(last)["reason"]] += 1
    assert reasons["rounds"] and reasons["last_standing"]


def _result(state: dict[str, Any]) -> dict[str, Any]:
    """The finished game's result (None only while it is still going)."""
    result = GAME.result(state)
    assert result is not None, "the game is not over"
    return result
