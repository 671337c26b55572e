"""Bots are reproducible and blind to everything their seat cannot see."""

from __future__ import annotations

import random

import pytest

from gameplay.rules.bots import decision_context, get_bot

from .helpers import GAME, decision_points

BOTS = {
    "random": {},
    "heuristic": {},
    "ismcts": {"iterations": 16},
}


def _contexts(players: int, seed: int, limit: int) -> list:
    rnd = get_bot("random")
    out = []
    for state, seat, ctx, _aid in decision_points(players, seed, rnd.choose):
        out.append((state, seat, ctx))
        if len(out) >= limit:
            break
    return out


@pytest.mark.parametrize("name", sorted(BOTS))
def test_same_seed_same_choice(name: str) -> None:
    for players in (2, 5):
        for state, seat, ctx in _contexts(players, 11, 15):
            first = get_bot(name, **BOTS[name]).choose(ctx)
            again = get_bot(name, **BOTS[name]).choose(
                decision_context(GAME, state, seat, ctx.seed)
            )
            assert first == again


def test_random_bot_depends_on_the_seed_not_the_global_generator() -> None:
    state = GAME.setup({"players": 4, "start": 0}, seed=3)
    bot = get_bot("random")
    random.seed(1)
    a = [bot.choose(decision_context(GAME, state, 0, s)) for s in range(60)]
    random.seed(2)
    b = [bot.choose(decision_context(GAME, state, 0, s)) for s in range(60)]
    assert a == b
    assert len(set(a)) == len(GAME.legal_action_ids(state, 0)) > 1


def _hidden_twin(state: dict, seat: int, seed: int) -> dict | None:
    """The same position with the cards hidden from ``seat`` dealt differently.

    Opponents' hands, the deck and the set-aside card are pooled and re-dealt
    (sizes kept). Returns None when the re-deal happens to change nothing.
    """
    twin = GAME.clone(state)
    others = [i for i in range(state["n"]) if i != seat]
    pool = list(state["deck"] + state["aside"])
    for i in others:
        pool += state["hands"][i]
    random.Random(seed).shuffle(pool)
    cards = "".join(pool)
    twin["deck"], cards = cards[: len(state["deck"])], cards[len(state["deck"]) :]
    twin["aside"], cards = cards[:1], cards[1:]
    for i in others:
        size = len(state["hands"][i])
        twin["hands"][i], cards = cards[:size], cards[size:]
    if twin == state:
        return None
    return twin


# Decisions where the seat sees no hidden card (no peek at the deck, no face-down
# card on the table), so re-dealing hidden cards cannot change its observation.
_BLIND_PHASES = {"card", "face", "target", "monkey_a", "monkey_b", "tiger_target"}


@pytest.mark.parametrize("name", sorted(BOTS))
def test_choices_ignore_hidden_cards(name: str) -> None:
    checked = 0
    differing = 0
    for players in (2, 4):
        for state, seat, ctx in _contexts(players, 21 + players, 40):
            if state["phase"] not in _BLIND_PHASES:
                continue
            twin = _hidden_twin(state, seat, checked)
            if twin is None:
                continue
            assert GAME.observe(twin, seat) == ctx.observation
            twin_ctx = decision_context(GAME, twin, seat, ctx.seed)
            bot = get_bot(name, **BOTS[name])
            assert bot.choose(ctx) == get_bot(name, **BOTS[name]).choose(twin_ctx)
            # The sampler the bots plan with must not tell the twins apart either.
            assert ctx.sample_state(7) == twin_ctx.sample_state(7)
            differing += twin["hands"] != state["hands"]
            checked += 1
    assert checked >= 10 and differing >= 5
