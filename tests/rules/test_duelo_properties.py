"""Property tests over thousands of seeded random Duelo games (2-8 players).

A cheap uniform-random playout drives each game; hypothesis picks the table size,
options and seeds. Invariants checked at every step: every card is in exactly
one place, the observation has its documented keys and reveals nothing hidden,
illegal input changes nothing. Termination, JSON round trips and replays are
the engine contract's (tests/rules/test_engine_contract.py).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.rules import IllegalAction, view_events
from gameplay.rules.duelo import BASE_DECK, DOUBLE_DECK
from tests.budget import split_examples
from tests.rules.duelo_helpers import GAME
from tests.rules.properties import Step, random_playout

MAX_STEPS = 5000
PROPS = settings(
    deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)

configs = st.fixed_dictionaries(
    {
        "players": st.integers(2, 8),
        "reshuffle_discard": st.booleans(),
        "rounds": st.integers(1, 2),
        "start": st.sampled_from(["random", "highest_focus", 0, 1]),
    }
)
seeds = st.integers(0, 2**64 - 1)


def playout(config: dict[str, Any], seed: int, pick: int) -> Iterator[Step]:
    """Yield (state, seat, action id, next state, events) until the game ends."""
    return random_playout(GAME, config, seed, pick, max_steps=MAX_STEPS)


def all_cards(state: dict[str, Any]) -> Counter:
    return Counter(
        state["deck"]
        + state["aside"]
        + state["discard"]
        + state["table"]
        + "".join(state["hands"])
        + "".join(state["prizes"])
        + "".join(state["hidden"])
    )


def full_deck(n: int) -> Counter:
    return Counter(DOUBLE_DECK if n > 4 else BASE_DECK)


@settings(PROPS, max_examples=300)
@given(config=configs, seed=seeds, pick=st.integers(0, 2**32))
def test_games_conserve_cards_with_one_actor_and_a_timeout_default(
    config: dict[str, Any], seed: int, pick: int
) -> None:
    expected = full_deck(config["players"])
    last = None
    for state, seat, aid, new, _events in playout(config, seed, pick):
        assert GAME.actors(state) == [seat] and seat is not None
        assert [a["id"] for a in GAME.legal_actions(state, seat)] == (
            GAME.legal_action_ids(state, seat)
        )
        assert GAME.timeout_action(state, seat) in GAME.legal_action_ids(state, seat)
        assert all_cards(new) == expected, (aid, new)
        last = new
    assert last is not None and GAME.is_over(last)
    result = GAME.result(last)
    assert result is not None and result["winners"]
    assert len(result["placements"]) == config["players"]


@pytest.mark.slow  # a sweep over 2,000 games
def test_thousands_of_seeded_games_end_with_cards_conserved() -> None:
    """A plain sweep (cheaper than hypothesis) over 2,000 seeds and all sizes."""
    for seed in range(2000):
        players = 2 + seed % 7
        config = {"players": players, "reshuffle_discard": seed % 3 == 0}
        final = None
        for _, _, _, new, _ in playout(config, seed, seed):
            final = new
        assert final is not None and GAME.is_over(final)
        assert all_cards(final) == full_deck(players)


def perturb_hidden(state: dict[str, Any], seat: int, rnd: random.Random) -> dict:
    """Swap cards ``seat`` cannot see: another hand, the deck, the set-aside card.

    Written independently of ``determinize``: it knows only the rules of what is
    hidden, not how the engine builds observations.
    """
    s = GAME.clone(state)
    ph = s["phase"]
    deck = list(s["deck"])
    mine = s["actor"] == seat
    peeking = mine and ph in ("c_disciple", "u_disciple", "dragon_peek")
    usable = list(range(len(deck) - 1 if peeking and deck else len(deck)))
    if mine and ph == "drunk_put":  # it knows the cards it put back on top
        usable = usable[: len(deck) - len(s["ctx"].get("put", ""))]
    if mine and ph == "c_monkey_order":  # and the cards it put under the deck
        usable = usable[len(s["ctx"].get("under", "")) :]
    if not usable:
        return s
    for other in range(s["n"]):
        hand = list(s["hands"][other])
        if other == seat or not hand:
            continue
        if ph == "snake_guess" and other == s["ctx"]["target"]:
            continue  # the separated card must stay in that hand
        i = rnd.randrange(len(hand))
        j = rnd.choice(usable)
        hand[i], deck[j] = deck[j], hand[i]
        s["hands"][other] = "".join(hand)
    if not (peeking and not s["deck"]):
        j = rnd.choice(usable)
        deck[j], aside = s["aside"], deck[j]
        s["aside"] = aside
    if ph in ("face", "target", "answer") and seat != s["turn"]:
        j = rnd.choice(usable)
        deck[j], card = s["table"], deck[j]
        s["table"] = card
        s["ctx"]["card"] = card
    s["deck"] = "".join(deck)
    return s


OBS_KEYS = {
    "game",
    "rules_version",
    "seat",
    "players",
    "round",
    "rounds_to_win",
    "markers",
    "turn",
    "turns",
    "phase",
    "actors",
    "prompt",
    "deck_count",
    "discard",
    "reshuffle_available",
    "seats",
    "hand",
    "play",
    "duel",
    "private",
    "start_draw",
    "rounds",
    "result",
}
SECRET_EVENT_FIELDS = {
    "draw": "card",
    "play_down": "card",
    "put_on_top": "card",
    "put_under": "card",
    "snake_separated": "card",
    "tiger_look": "hand",
    "disciple_look": "card",
}


def _observations_and_events_show_nothing_hidden(
    config: dict[str, Any], seed: int, pick: int
) -> None:
    rnd = random.Random(pick)
    n = config["players"]
    for state, _, _, new, events in playout(config, seed, pick):
        for seat in [None, *range(n)]:
            obs = GAME.observe(new, seat)
            assert set(obs) == OBS_KEYS
            if seat is not None:
                assert obs["hand"] == sorted(int(c) for c in new["hands"][seat])
                twin = perturb_hidden(new, seat, rnd)
                assert GAME.observe(twin, seat) == obs
                det = GAME.determinize(new, seat, rnd.randrange(2**32))
                assert GAME.observe(det, seat) == obs
                assert all_cards(det) == all_cards(new)
            else:
                assert obs["hand"] is None and obs["private"] == {}
            seen = view_events(events, seat)
            for mine, ev in zip(seen, events, strict=True):
                own = ev["private"].get(str(seat), {}) if seat is not None else {}
                assert mine == {
                    "type": ev["type"],
                    "public": ev["public"],
                    "private": own,
                }
        for ev in events:
            field = SECRET_EVENT_FIELDS.get(ev["type"])
            if field:
                assert field not in ev["public"], ev
            assert set(ev["private"]) <= {str(i) for i in range(n)}
        del state


@split_examples(default=40, slow=120)
def test_observations_and_events_show_nothing_hidden(examples: int) -> None:
    run = given(config=configs, seed=seeds, pick=st.integers(0, 2**32))(
        _observations_and_events_show_nothing_hidden
    )
    settings(PROPS, max_examples=examples)(run)()


def _determinized_states_are_playable(
    config: dict[str, Any], seed: int, pick: int
) -> None:
    rnd = random.Random(pick)
    for state, seat, _, _, _ in playout(config, seed, pick):
        if rnd.random() < 0.2:
            assert seat is not None
            det = GAME.determinize(state, seat, rnd.randrange(2**32))
            while not GAME.is_over(det):
                (actor,) = GAME.actors(det)
                ids = GAME.legal_action_ids(det, actor)
                det, _ = GAME.apply(det, actor, rnd.choice(ids))
                assert all_cards(det) == full_deck(config["players"])


@split_examples(default=20, slow=60)
def test_determinized_states_are_playable(examples: int) -> None:
    run = given(config=configs, seed=seeds, pick=st.integers(0, 2**32))(
        _determinized_states_are_playable
    )
    settings(PROPS, max_examples=examples)(run)()


MALFORMED: list[Any] = [None, 3, b"card:1", ["card:1"], "", "card", "card:", "card:9"]


def _illegal_input_raises_and_leaves_state_unchanged(
    config: dict[str, Any], seed: int, pick: int
) -> None:
    rnd = random.Random(pick)
    n = config["players"]
    final = None
    for state, seat, _, new, _ in playout(config, seed, pick):
        final = new
        if rnd.random() > 0.3:
            continue
        frozen = json.dumps(state, sort_keys=True)
        legal = set(GAME.legal_action_ids(state, seat))
        wrong_phase = [
            "face:up",
            "card:1",
            "answer:1",
            "reveal:yes",
            "guess:odd",
            "target:0",
        ]
        attempts: list[tuple[Any, Any]] = [(seat, bad) for bad in MALFORMED]
        attempts += [(seat, aid) for aid in wrong_phase if aid not in legal]
        others = [x for x in range(n) if x != seat]
        attempts += [(rnd.choice(others), rnd.choice(sorted(legal)))]
        attempts += [(str(seat), rnd.choice(sorted(legal))), (n + 3, "card:1")]
        for who, aid in attempts:
            with pytest.raises(IllegalAction) as err:
                GAME.apply(state, who, aid)
            assert str(err.value)
            assert json.dumps(state, sort_keys=True) == frozen
    assert final is not None
    with pytest.raises(IllegalAction, match="game is over"):
        GAME.apply(final, 0, "card:1")


@split_examples(default=30, slow=80)
def test_illegal_input_raises_and_leaves_state_unchanged(examples: int) -> None:
    run = given(config=configs, seed=seeds, pick=st.integers(0, 2**32))(
        _illegal_input_raises_and_leaves_state_unchanged
    )
    settings(PROPS, max_examples=examples)(run)()
