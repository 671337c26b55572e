"""Property tests over thousands of seeded random Kung Fu (2013) games.

A uniform-random playout drives each game; hypothesis picks the options and
seeds. Checked at every step: every one of the 60 cards is in exactly one place,
only the seat to act has a menu, lives stay in range, observations do not
change when the cards hidden from that seat are swapped, and a determinization
looks exactly like the real state to its seat.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.rules import view_events
from gameplay.rules.kungfu2013 import engine as E
from tests.budget import split_examples
from tests.rules.kungfu2013_helpers import GAME
from tests.rules.properties import Step, random_playout

MAX_STEPS = 20_000
PROPS = settings(
    deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
configs = st.fixed_dictionaries(
    {
        "start": st.sampled_from(["random", 0, 1]),
        "life": st.integers(1, 10),
        "max_rounds": st.sampled_from([5, 50, 200]),
    }
)
seeds = st.integers(0, 2**64 - 1)


def playout(config: dict[str, Any], seed: int, pick: int) -> Iterator[Step]:
    return random_playout(GAME, config, seed, pick, max_steps=MAX_STEPS)


def all_cards(s: dict[str, Any]) -> Counter:
    b = s["b"]
    places = [s["rdeck"], s["bdeck"], s["rdisc"], s["bdisc"], b["ac"], b["bc"]]
    return Counter("".join(places + s["hands"] + s["front"]))


FULL = Counter(E.ALPHABET)


def _games_conserve_cards_and_only_the_seat_to_act_has_a_menu(
    config: dict, seed: int, pick: int
) -> None:
    for state, seat, _aid, new, _events in playout(config, seed, pick):
        assert all_cards(new) == FULL
        assert seat is not None
        assert GAME.legal_action_ids(state, 1 - seat) == []
        # No upper bound: a heal gives two life at full life too (reading 14).
        assert new["life"][0] >= 0 and new["life"][1] >= 0
    assert GAME.is_over(new)
    r = GAME.result(new)
    assert r is not None and r["winners"]


@split_examples(default=250, slow=1000)
def test_games_conserve_cards_and_only_the_seat_to_act_has_a_menu(
    examples: int,
) -> None:
    """(Termination, JSON, replays: tests/rules/test_engine_contract.py.)"""
    run = given(config=configs, seed=seeds, pick=st.integers(0, 2**32))(
        _games_conserve_cards_and_only_the_seat_to_act_has_a_menu
    )
    settings(PROPS, max_examples=examples)(run)()


def _swap_hidden(s: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any]:
    """Shuffle the cards hidden from ``seat`` among their places, per colour."""
    t = copy.deepcopy(s)
    b = t["b"]
    opp = 1 - seat
    hidden_attack = (
        bool(b["ac"]) and seat != b["a"] and not (b["face"] == "u" or b["blocked"])
    )
    for colour, deck in (("r", "rdeck"), ("b", "bdeck")):
        is_colour = (
            (lambda c: c < E.FIRST_BLUE)
            if colour == "r"
            else (lambda c: c >= E.FIRST_BLUE)
        )
        opp_cards = [c for c in t["hands"][opp] if is_colour(c)]
        pool = opp_cards + list(t[deck])
        if colour == "r" and hidden_attack:
            pool.append(b["ac"])
        rnd.shuffle(pool)
        n = len(opp_cards)
        others = [c for c in t["hands"][opp] if not is_colour(c)]
        t["hands"][opp] = "".join(pool[:n] + others)
        rest = pool[n:]
        if colour == "r" and hidden_attack:
            b["ac"] = rest.pop()
        t[deck] = "".join(rest)
    t["rng"] = format(rnd.getrandbits(64), "016x")
    return t


def _observations_ignore_swapped_hidden_cards_and_determinizations(
    config: dict, seed: int, pick: int
) -> None:
    rnd = random.Random(pick)
    for k, (_state, seat, _aid, new, events) in enumerate(playout(config, seed, pick)):
        if k % 3:
            continue
        for viewer in (0, 1, None):
            obs = GAME.observe(new, viewer)
            if viewer is None:
                continue
            swapped = _swap_hidden(new, viewer, rnd)
            assert all_cards(swapped) == FULL
            assert GAME.observe(swapped, viewer) == obs
            sample = GAME.determinize(new, viewer, rnd.getrandbits(63))
            assert all_cards(sample) == FULL
            assert GAME.observe(sample, viewer) == obs
            # The sample is a legal state the engine can play on.
            who = GAME.actors(sample)
            if who:
                ids = GAME.legal_action_ids(sample, who[0])
                GAME.apply(sample, who[0], ids[-1])
        # Events: a seat never sees the other's private part.
        for viewer in (0, 1):
            for ev in view_events(events, viewer):
                assert set(ev["private"]) <= {"card"}
        for ev in events:
            assert set(ev["private"]) <= {str(seat), "0", "1"}
            if ev["type"] == "draw":
                assert list(ev["private"]) == [str(ev["public"]["seat"])]


@split_examples(default=50, slow=150)
def test_observations_ignore_swapped_hidden_cards_and_determinizations(
    examples: int,
) -> None:
    run = given(config=configs, seed=seeds, pick=st.integers(0, 2**32))(
        _observations_ignore_swapped_hidden_cards_and_determinizations
    )
    settings(PROPS, max_examples=examples)(run)()


@pytest.mark.slow  # a statistic over 300 games
def test_random_games_end_within_the_round_limit_over_many_seeds() -> None:
    reasons: Counter = Counter()
    for seed in range(300):
        *_, (_, _, _, last, _) = playout({}, seed, seed)
        result = GAME.result(last)
        assert result is not None
        reasons[result["reason"]] += 1
    assert reasons["knockout"] >= 290
