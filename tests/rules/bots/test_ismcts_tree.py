"""Shape of the ISMCTS trees: other seats' decisions inside, hidden moves merged."""

from __future__ import annotations

from gameplay.rules.bots import Bot, decision_context, get_bot
from gameplay.rules.bots.ismcts import ISMCTSBot, Node

from .helpers import GAME


def _walk(node: Node, depth: int = 0):
    for key, child in node.children.items():
        yield depth, key, child
        yield from _walk(child, depth + 1)


def test_mo_tree_searches_opponents_without_seeing_their_hidden_moves() -> None:
    state = GAME.setup({"players": 2, "start": 0}, seed=9)
    ctx = decision_context(GAME, state, 0, seed=1)
    bot = _ismcts(iterations=300, opponent_model="search")
    root = bot.search(ctx)
    nodes = list(_walk(root))
    assert sum(c.visits for c in root.children.values()) == 300
    # Own moves are keyed by action id, several levels deep (card, then face...).
    assert {k[1] for d, k, _ in nodes if d == 0} == set(ctx.legal_ids)
    assert any(k[0] == 0 and k[1].startswith("face:") for d, k, _ in nodes if d == 1)
    # The opponent's decisions are in the tree...
    theirs = [(d, k) for d, k, _ in nodes if k[0] == 1]
    assert theirs
    # ...but seat 0 sees them only through public events: never which card seat
    # 1 picked or answered with before it was revealed.
    assert not any(k[1].startswith(("card:", "answer:")) for _, k in theirs)


def test_so_tree_keys_every_move_by_its_id() -> None:
    state = GAME.setup({"players": 2, "start": 0}, seed=9)
    ctx = decision_context(GAME, state, 0, seed=1)
    bot = _ismcts(iterations=300, variant="so", opponent_model="search")
    keys = [k for _, k, _ in _walk(bot.search(ctx))]
    assert any(k[0] == 1 and k[1].startswith("answer:") for k in keys)


def test_rewards_back_up_to_the_seat_that_chose_each_edge() -> None:
    state = GAME.setup({"players": 3, "start": 0}, seed=2)
    ctx = decision_context(GAME, state, 0, seed=4)
    root = _ismcts(iterations=120).search(ctx)
    for _, key, child in _walk(root):
        assert child.seat == key[0]
        assert 0.0 <= child.reward <= child.visits


def test_heuristic_margin_defers_to_the_heuristic_only_within_the_margin() -> None:
    from .helpers import decision_points

    heuristic = get_bot("heuristic")
    plain = _ismcts(iterations=40, heuristic_margin=0.0)
    trusting = _ismcts(iterations=40, heuristic_margin=0.999)
    differed = 0
    for _state, _seat, ctx, _aid in decision_points(2, 5, heuristic.choose):
        advice = heuristic.choose(ctx)
        # Every root move is tried at least once in 40 iterations, and 0.1% of
        # at most 40 visits is below one: the heuristic's move always qualifies.
        assert trusting.choose(ctx) == advice
        differed += plain.choose(ctx) != advice
    assert differed > 0, "without the margin the search makes its own choices"


def test_heuristic_margin_is_validated() -> None:
    import pytest

    with pytest.raises(ValueError, match="heuristic_margin"):
        get_bot("ismcts", heuristic_margin=1.0)


def _ismcts(**options: object) -> ISMCTSBot:
    bot: Bot = get_bot("ismcts", **options)
    assert isinstance(bot, ISMCTSBot)
    return bot
