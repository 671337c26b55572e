"""Kung Fu (2019) bots: the heuristic, the playout policy and the cut-off estimate."""

from __future__ import annotations

import pytest

from gameplay.rules import game_meta, get_game
from gameplay.rules.bots import decision_context, get_bot
from gameplay.rules.kungfu2019 import heuristic, rollout
from gameplay.rules.simulate import simulate

GAME = get_game("kungfu2019")


def test_meta_names_the_bot_modules():
    meta = game_meta("kungfu2019")
    assert meta.heuristic == "gameplay.rules.kungfu2019.heuristic"
    assert meta.playout == meta.evaluate == "gameplay.rules.kungfu2019.rollout"
    assert meta.rollout is None  # ISMCTS plays whole playouts through ``playout``


def test_card_values_cover_every_card_and_both_sides():
    values = heuristic.card_values()
    assert len(values) == 74
    assert all(a >= 0 and d >= 0 for a, d in values.values())
    # Cards differ: a draft that cannot tell them apart would be random.
    assert len({round(a + d, 3) for a, d in values.values()}) > 20


@pytest.mark.parametrize("players", [2, 3, 5])
def test_heuristic_plays_whole_games_legally(players):
    bot = get_bot("heuristic")
    state = GAME.setup({"players": players}, 5)
    steps = 0
    while not GAME.is_over(state):
        seat = GAME.actors(state)[0]
        ctx = decision_context(GAME, state, seat, steps)
        aid = bot.choose(ctx)
        assert aid in ctx.legal_ids
        if state["phase"] == "assign":
            assert aid == "auto"  # the exact solver's assignment
        state, _ = GAME.apply(state, seat, aid)
        steps += 1
    assert GAME.result(state)["winners"]


def test_heuristic_keeps_the_best_card_and_plays_its_best_three():
    state = GAME.setup({"players": 3}, 9)
    obs = GAME.observe(state, 0)
    ids = GAME.legal_action_ids(state, 0)
    pick = heuristic.choose_from(obs, ids)
    pack = [i[5:] for i in ids]
    assert pick[5:] == max(pack, key=lambda c: (heuristic.worth(c, 3), c))
    hand = ["c01", "c10", "c30", "c50", "c70"]
    best = heuristic.best_three(hand, [], 3)
    assert len(best) == 3 and set(best) <= set(hand)
    assert min(heuristic.play_value(c, 3) for c in best) >= max(
        heuristic.play_value(c, 3) for c in set(hand) - set(best)
    )
    assert heuristic.best_three(hand, ["c70"], 3)[0] == "c70"


def test_heuristic_beats_random():
    # 40 four-player games, the heuristic in one rotating seat: it won 38.5 of
    # 40 when measured; a bot no better than random would win about 10.
    summary = simulate(
        "kungfu2019", 4, ["heuristic", "random", "random", "random"], 40, seed=3
    )
    assert summary["bots_summary"]["heuristic"]["win_rate"] >= 0.6


def test_rollout_policy_is_legal_and_uses_the_solver():
    chooser = rollout.policy_chooser(1)
    state = GAME.setup({"players": 4}, 2)
    while not GAME.is_over(state):
        seat = GAME.actors(state)[0]
        ids = GAME.legal_action_ids(state, seat)
        aid = chooser(state, seat, ids)
        assert aid in ids
        if state["phase"] == "assign":
            assert aid == "auto"
        state, _ = GAME.apply(state, seat, aid)


def test_evaluate_is_a_distribution_favouring_hp():
    state = GAME.setup({"players": 3, "draft": False}, 4)
    share = rollout.evaluate(state)
    assert sum(share.values()) == pytest.approx(1.0)
    s = dict(state, hp=[40, 20, 30], elim=[0, 0, 0])
    share = rollout.evaluate(s)
    assert share[0] > share[2] > share[1]
    s = dict(state, hp=[40, -3, 30], elim=[0, 1, 0])
    assert 1 not in rollout.evaluate(s)


def test_ismcts_chooses_legal_moves_in_every_phase():
    bot = get_bot("ismcts", iterations=4)
    state = GAME.setup({"players": 3}, 12)
    seen = set()
    steps = 0
    while not GAME.is_over(state) and len(seen) < 3:
        seat = GAME.actors(state)[0]
        ids = GAME.legal_action_ids(state, seat)
        if state["phase"] not in seen and len(ids) > 1:
            seen.add(state["phase"])
            aid = bot.choose(decision_context(GAME, state, seat, steps))
            assert aid in ids
        else:
            aid = heuristic.choose_from(GAME.observe(state, seat), ids)
        state, _ = GAME.apply(state, seat, aid)
        steps += 1
    assert seen == {"draft", "play", "assign"}
