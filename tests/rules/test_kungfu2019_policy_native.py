"""Kung Fu (2019): the playout policy in C (``_fastplay.policy_playout``) plays
exactly rollout.py's Python twin (``policy_chooser`` on the engine's
``playout``): from setup at 2-5 players and from states in every phase, whole
games and playouts cut off, both leave identical states (result, HP,
eliminations, tracks, hands, deck, the fight in progress, the game's RNG), the
same number of decisions and so the same cut-off estimate. ISMCTS and the
analysis play the policy through ``rollout.playout``, so their results must
not depend on whether the kernel was compiled: a search is checked with and
without it. Kernel tests are skipped only when the optional extension is not
built; the rest run either way."""

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
from gameplay.rules.kungfu2019 import engine as E
from gameplay.rules.kungfu2019 import heuristic, rollout
from tests.rules.kungfu2019_helpers import GAME

native = pytest.mark.skipif(
    not E.native_policy(),
    reason="the C kernel _fastplay (with the policy) is not built",
)
#: ISMCTS's cut-off for this game after its heuristic plies, and other lengths.
TUNED = game_meta("kungfu2019").ismcts
CUTS = [None, 1, 2, 9, TUNED["max_rollout_steps"] - TUNED["heuristic_plies"]]


def _config(players: int, seed: int) -> dict[str, Any]:
    """Mostly drafts; some first games (no draft) and stacked dice."""
    if seed % 4 == 1:
        return {"players": players, "draft": False}
    if seed % 4 == 2:
        rnd = random.Random(seed)
        rolls = [[rnd.randint(1, 6) for _ in range(7)] for _ in range(4)]
        return {"players": players, "dice": rolls}
    return {"players": players}


def _both(state: dict[str, Any], seed: int, max_steps: int | None) -> dict[str, Any]:
    """Play copies in C and in Python on one stream; assert they agree."""
    fast = copy.deepcopy(state)
    slow = copy.deepcopy(state)
    assert rollout._kernel_values()
    n_fast = GAME.native_policy_playout(fast, seed, max_steps)
    n_slow = GAME.playout(slow, rollout.policy_chooser(seed), max_steps)
    assert (n_fast, fast) == (n_slow, slow)
    if max_steps is not None and not GAME.is_over(fast):
        assert n_fast == max_steps
    if not GAME.is_over(fast):
        assert rollout.evaluate(fast) == rollout.evaluate(slow)
    return fast


@native
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_native_policy_games_end_exactly_as_python_ones(players: int) -> None:
    reasons: Counter[str] = Counter()
    for seed in range(60):
        state = GAME.setup(_config(players, seed), seed)
        final = _both(state, seed ^ 0x2019, None)
        reasons[final["result"]["reason"]] += 1
    assert sum(reasons.values()) == 60


@native
@pytest.mark.parametrize("players", [2, 4, 5])
def test_native_policy_from_every_kind_of_mid_game_state(players: int) -> None:
    """Entry at decision points of every phase (a pick, a commit, a dice
    decision with or without an open set), whole or cut off."""
    phases: Counter[str] = Counter()
    rnd = random.Random(players)
    for game in range(6):
        state = GAME.setup(_config(players, game), 30_000 + game)
        while GAME.actors(state):
            phase = state["phase"]
            if phase == "assign":
                seat = GAME.actors(state)[0]
                phase += ":open" if state["fight"]["asg"][seat]["open"] else ""
            phases[phase] += 1
            if rnd.random() < 0.15:
                _both(state, rnd.getrandbits(64), rnd.choice(CUTS))
            seat = GAME.actors(state)[0]
            ids = GAME.legal_action_ids(state, seat)
            state, _ = GAME.apply(state, seat, ids[int(rnd.random() * len(ids))])
        _both(state, 1, None)  # a finished game: nothing to play
    assert set(phases) == {"draft", "play", "assign", "assign:open"}


def test_policy_plays_its_rules() -> None:
    """On the engine's real menus: ``auto`` for the dice, the best card by the
    heuristic's values 3 times in 4 (else a uniform one), and a forced move
    takes no draw."""
    state = GAME.setup({"players": 3}, 9)
    ids = GAME.legal_action_ids(state, 0)
    best = max(ids, key=lambda a: heuristic.worth(a[5:], 3))
    below = R.below_stream(4)
    picks = Counter(rollout.choose(state, ids, below) for _ in range(4000))
    assert 0.75 < picks[best] / 4000 < 0.85  # 3/4 + 1/4 * 1/len(ids)
    assert set(picks) == set(ids)
    chooser = rollout.policy_chooser(9)
    twin = R.below_stream(9)
    assert chooser(state, 0, ids[:1]) == ids[0]
    greedy = twin(4) < 3
    if greedy:
        assert chooser(state, 0, ids) == best
    else:
        assert chooser(state, 0, ids) == ids[twin(len(ids))]
    assign = {"phase": "assign"}
    assert rollout.choose(assign, ["auto", "done", "best"], below) == "auto"


class _OldKernel:
    """A kernel built before ``policy_playout`` existed (not rebuilt)."""

    playout = staticmethod(lambda fields, choice, max_steps: (fields, choice, 0, 0))


def test_a_kernel_without_the_policy_falls_back_to_python(monkeypatch) -> None:
    """An extension not rebuilt since the policy was added: ISMCTS's
    playouts still run, in Python, with the same results."""
    state = GAME.setup({"players": 4}, 4)
    expected = copy.deepcopy(state)
    steps = GAME.playout(expected, rollout.policy_chooser(4), 60)
    monkeypatch.setattr(E, "_native", _OldKernel())
    assert not E.native_policy()
    assert rollout.playout(state, 4, 60) == steps
    assert state == expected


def test_python_fallback_plays_the_same_twin(monkeypatch) -> None:
    """Without the kernel ``rollout.playout`` is the Python twin."""
    monkeypatch.setattr(E, "NATIVE", False)
    assert not E.native_policy()
    for seed in range(6):
        a = GAME.setup(_config(2 + seed % 4, seed), seed)
        b = copy.deepcopy(a)
        assert rollout.playout(a, seed, 60) == GAME.playout(
            b, rollout.policy_chooser(seed), 60
        )
        assert a == b


@native
@pytest.mark.parametrize("seed", [3, 8])
def test_search_is_the_same_with_or_without_the_kernel(monkeypatch, seed) -> None:
    """ISMCTS (the bot and the analysis) plays this game's playouts through
    the hook: the root's statistics are identical whether the policy runs in
    C or in Python."""
    assert playout_for("kungfu2019") is rollout.playout
    game = get_game("kungfu2019")
    state = game.setup({"players": 3}, seed)
    for _ in range(31):  # past the draft, into the commits
        seat = game.actors(state)[0]
        state, _ = game.apply(state, seat, game.legal_action_ids(state, seat)[-1])
    seat = game.actors(state)[0]
    bot = ISMCTSBot(iterations=30, heuristic_margin=0.0)

    def stats() -> dict[Any, tuple[int, float]]:
        root = bot.search(decision_context(game, state, seat, seed))
        return {k: (n.visits, n.reward) for k, n in root.children.items()}

    native_stats = stats()
    monkeypatch.setattr(E, "NATIVE", False)
    assert stats() == native_stats
    assert len(native_stats) > 1
