"""Kung Fu (2013): the playout policy in C (``_fastplay.policy_playout``) plays
exactly rollout.py's Python twin (``policy_chooser`` on the engine's
``playout``): from thousands of states, whole games and playouts cut off as
ISMCTS cuts them, both leave identical states (life, hands, decks, piles, coin
cards, the game's RNG, the task stack), the same number of decisions and so the
same cut-off estimate. ISMCTS and the analysis play the policy through
``rollout.playout``, so their results must not depend on whether the kernel was
compiled: a search is checked with and without it. Kernel tests are skipped
only when the optional extension is not built; the rest run either way."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from gameplay.rules import game_meta, get_game
from gameplay.rules import rng as R
from gameplay.rules.bots import decision_context
from gameplay.rules.bots.ismcts import ISMCTSBot, playout_for
from gameplay.rules.kungfu2013 import engine as E
from gameplay.rules.kungfu2013 import rollout
from tests.rules.kungfu2013_helpers import GAME, corner_states, make_state

native = pytest.mark.skipif(
    not E.native_policy(),
    reason="the C kernel _fastplay (with the policy) is not built",
)
CONFIGS: list[dict[str, Any]] = [
    {},
    {"start": 1, "life": 5},
    {"max_rounds": 4},
    {"life": 1},
    {"red_deck": ["r18", "r19", "r28"], "blue_deck": ["b20", "b27"], "start": 0},
]
#: ISMCTS's cut-off for this game after its heuristic plies, and other lengths.
TUNED = game_meta("kungfu2013").ismcts
CUTS = [None, 1, 2, 7, TUNED["max_rollout_steps"] - TUNED["heuristic_plies"]]


def _both(state: dict[str, Any], seed: int, max_steps: int | None) -> dict[str, Any]:
    """Play copies in C and in Python on one stream; assert they agree."""
    fast = copy.deepcopy(state)
    slow = copy.deepcopy(state)
    n_fast = GAME.native_policy_playout(fast, seed, max_steps)
    n_slow = GAME.playout(slow, rollout.policy_chooser(seed), max_steps)
    assert (n_fast, fast) == (n_slow, slow)
    if max_steps is not None and not GAME.is_over(fast):
        assert n_fast == max_steps
    if not GAME.is_over(fast):
        assert rollout.evaluate(fast) == rollout.evaluate(slow)
    return fast


def test_below_stream_is_the_randbelow_stream() -> None:
    """The int-counter stream draws what rng.randbelow draws (the kernels'
    ``randbelow``), whatever the bounds."""
    bounds = random.Random(3)
    for seed in (0, 1, 2**63 - 1, 2**64 + 5, -7):
        below = R.below_stream(seed)
        state = R.seed_state(seed)
        for _ in range(200):
            n = bounds.randrange(1, 70)
            state, expected = R.randbelow(state, n)
            assert below(n) == expected


@native
@pytest.mark.parametrize(
    "block", [*range(2), *(pytest.param(b, marks=pytest.mark.slow) for b in (2, 3))]
)
def test_native_policy_games_end_exactly_as_python_ones(block: int) -> None:
    reasons: Counter[str] = Counter()
    for seed in range(block * 400, (block + 1) * 400):
        state = GAME.setup(CONFIGS[seed % len(CONFIGS)], seed)
        final = _both(state, seed ^ 0x9011C7, None)
        reasons[final["result"]["reason"]] += 1
    assert reasons["knockout"] > 0 and reasons["round_limit"] > 0


@native
@pytest.mark.parametrize("block", range(3))
def test_native_policy_from_every_kind_of_mid_game_state(block: int) -> None:
    """Entry at every decision point (each phase, a face-up and a face-down
    attack to block, coins to pay, targets to pick), whole or cut off."""
    phases: Counter[str] = Counter()
    rnd = random.Random(block)
    for game in range(block * 50, (block + 1) * 50):
        state = GAME.setup(CONFIGS[game % len(CONFIGS)], 20_000 + game)
        while GAME.actors(state):
            phase = state["phase"]
            if phase == E.BLOCK:
                phase += ":" + state["b"]["face"]
            phases[phase] += 1
            if rnd.random() < 0.3:
                _both(state, rnd.getrandbits(64), rnd.choice(CUTS))
            (seat,) = GAME.actors(state)
            ids = GAME.legal_action_ids(state, seat)
            state, _ = GAME.apply(state, seat, ids[int(rnd.random() * len(ids))])
        _both(state, 1, None)  # a finished game: nothing to play
    kinds = set(E.PROMPTS) - {E.OVER, E.BLOCK} | {"block:u", "block:d"}
    assert set(phases) == kinds


@native
def test_native_policy_stacked_positions_match() -> None:
    """Hand-made corners (``corner_states``)."""
    positions = corner_states()
    for i, state in enumerate(positions):
        for seed in range(200):
            _both(state, seed * 31 + i, CUTS[seed % len(CUTS)])


def test_policy_plays_its_rules() -> None:
    """What the policy is for, on the engine's real menus: a face-up attack is
    blocked with the weakest card that stops it (else the menu's last card),
    an effect is always used, the reward draws from a difference of two, the
    initiative is kept about 17 times in 20, a forced move takes no draw."""
    below = R.below_stream(5)
    # r08 (value 6) face up: of b10 (0), b11 (2), b09 (6) only b09 stops it.
    state = _blocking(["b10", "b11", "b09"], attack="r08", face="up")
    menu = GAME.legal_action_ids(state, 1)
    assert rollout.choose(state, menu, below) == "block:b09"
    state = _blocking(["b10", "b11", "b03"], attack="r08", face="up")
    menu = GAME.legal_action_ids(state, 1)
    assert rollout.choose(state, menu, below) == menu[-1]
    effect = ["effect:skip", "effect:use"]
    assert rollout.choose({"phase": "effect"}, effect, below) == "effect:use"
    reward = ["reward:draw", "reward:initiative"]
    for bv, want in ((5, "reward:draw"), (4, "reward:initiative")):
        state = {"phase": "reward", "b": {"av": 3, "bv": bv}}
        assert rollout.choose(state, reward, below) == want
    initiative = ["initiative:keep", "initiative:pass"]
    kept = sum(
        rollout.choose({"phase": "initiative"}, initiative, below) == initiative[0]
        for _ in range(4000)
    )
    assert 0.82 < kept / 4000 < 0.88
    chooser = rollout.policy_chooser(9)
    twin = R.below_stream(9)
    assert chooser({"phase": "attack"}, 0, ["attack:r01"]) == "attack:r01"
    first = twin(3)
    second = twin(3)
    picks = ["attack:r01", "attack:r02", "attack:r03"]
    assert chooser({"phase": "attack"}, 0, picks) == picks[max(first, second)]


def _blocking(blues: list[str], *, attack: str, face: str) -> dict[str, Any]:
    """Seat 1 about to block ``attack`` played ``face`` by seat 0."""
    state = make_state((["r01", attack], [*blues, "r02"]), red=["r03"], blue=["b04"])
    for aid in ("initiative:keep", f"attack:{attack}", f"face:{face}"):
        state, _ = GAME.apply(state, GAME.actors(state)[0], aid)
    assert state["phase"] == E.BLOCK and state["actor"] == 1
    return state


class _OldKernel:
    """A kernel built before ``policy_playout`` existed (not rebuilt)."""

    playout = staticmethod(lambda fields, choice, max_steps: (fields, choice, 0))


def test_a_kernel_without_the_policy_falls_back_to_python(monkeypatch) -> None:
    """An extension not rebuilt since the policy was added: ISMCTS's
    playouts still run, in Python, with the same results."""
    state = GAME.setup({}, 4)
    expected = copy.deepcopy(state)
    steps = GAME.playout(expected, rollout.policy_chooser(4), 36)
    monkeypatch.setattr(E, "_native", _OldKernel())
    assert not E.native_policy()
    assert rollout.playout(state, 4, 36) == steps
    assert state == expected


def test_python_fallback_plays_the_same_twin(monkeypatch) -> None:
    """Without the kernel ``rollout.playout`` is the Python twin."""
    monkeypatch.setattr(E, "NATIVE", False)
    assert not E.native_policy()
    for seed in range(20):
        a = GAME.setup(CONFIGS[seed % len(CONFIGS)], seed)
        b = copy.deepcopy(a)
        assert rollout.playout(a, seed, 36) == GAME.playout(
            b, rollout.policy_chooser(seed), 36
        )
        assert a == b


@native
@pytest.mark.parametrize("seed", [3, 8])
def test_search_is_the_same_with_or_without_the_kernel(monkeypatch, seed) -> None:
    """ISMCTS (the bot and the analysis) plays this game's playouts through
    the hook: the root's statistics are identical whether the policy runs in
    C or in Python."""
    assert playout_for("kungfu2013") is rollout.playout
    game = get_game("kungfu2013")
    state = game.setup({}, seed)
    for _ in range(9):  # into the game, a few battles on
        (seat,) = game.actors(state)
        state, _ = game.apply(state, seat, game.legal_action_ids(state, seat)[-1])
    (seat,) = game.actors(state)
    bot = ISMCTSBot(iterations=60, heuristic_margin=0.0)

    def stats() -> dict[Any, tuple[int, float]]:
        root = bot.search(decision_context(game, state, seat, seed))
        return {k: (n.visits, n.reward) for k, n in root.children.items()}

    native_stats = stats()
    monkeypatch.setattr(E, "NATIVE", False)
    assert not E.native_policy()
    assert stats() == native_stats
    assert len(native_stats) > 1
