"""The built-in Kung Fu (2009) bots: legal intents only, each one's rule of thumb."""

from __future__ import annotations

from gameplay.rules.bots import Bot, decision_context, get_bot
from gameplay.rules.kungfu2009.strategies import (
    STRATEGIES,
    GreedyCollector,
    Planner,
    hand_value,
)
from tests.rules.kungfu2009_helpers import GAME, act, make_state, offer

UP = {"easy": "E01", "normal": "N01", "difficult": "D01"}


def ctx(state: dict, seat: int, seed: int = 1):
    return decision_context(GAME, state, seat, seed)


def test_every_bot_only_sends_intents_from_its_menu() -> None:
    state = GAME.setup({"players": 5}, 4)
    bots: list[Bot] = [
        STRATEGIES[n]() for n in ("trader", "greedy", "planner", "trader")
    ]
    bots.append(get_bot("heuristic"))
    for step in range(400):
        if GAME.is_over(state):
            break
        who = GAME.actors(state)
        if not who:
            state, _ = GAME.apply(state, None, "check")
            continue
        seat = who[step % len(who)]
        aid = bots[seat].choose(ctx(state, seat, step))
        assert aid in GAME.legal_action_ids(state, seat)
        state, _ = GAME.apply(state, seat, aid)


def test_bots_claim_the_most_valuable_combination_their_hand_makes() -> None:
    # TTTMC makes E01 (its first four cards) and N01: the normal one is worth 2.
    s = make_state(["TTTMC", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    lineup: tuple[Bot, ...] = (Planner(), GreedyCollector(), STRATEGIES["trader"]())
    for bot in lineup:
        assert bot.choose(ctx(s, 0)) == "claim:normal"
    s["up"]["normal"] = "N02"
    assert Planner().choose(ctx(s, 0)) == "claim:easy"


def test_bots_arrange_before_claiming() -> None:
    s = make_state(["MTCTT", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    assert Planner().choose(ctx(s, 0)) == "fit:normal"


def test_planner_accepts_an_offer_that_brings_it_closer_and_declines_a_bad_one() -> (
    None
):
    s = make_state(["TTRMC", "MMTRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = offer(s, 1, 0, "give:T", "want:R")  # TTRMC -> TTMCT: E01 in reach
    assert Planner().choose(ctx(s, 0)) == "accept:1"
    s, _ = act(s, 0, "decline:1")
    s, _ = offer(s, 1, 0, "give:R", "want:T")  # gives away a needed Tiger
    assert Planner().choose(ctx(s, 0)) == "decline:2"


def test_planner_offers_unneeded_cards_for_missing_ones() -> None:
    s = make_state(["TTRRC", "MMCRR", "CCCCC", "RRRRR"], up={"easy": "E01"})
    s["up"]["normal"] = s["up"]["difficult"] = None
    planner = Planner()
    for _ in range(6):
        aid = planner.choose(ctx(s, 0))
        if aid == "pass" or aid == "impasse":
            break
        s, _ = act(s, 0, aid)
    # E01 (TTTM) misses a Tiger and a Monkey: two unneeded cards for those two.
    (o,) = s["offers"]
    assert o["to"] == -1 and sorted(o["want"]) == ["M", "T"]
    assert len(o["give"]) == 2 and set(o["give"]) <= set("RC")


def test_greedy_asks_for_everything_it_misses_at_once() -> None:
    s = make_state(["TRRCC", "MMCRR", "CCCCC", "RRRRR"], up={"easy": "E01"})
    s["up"]["normal"] = s["up"]["difficult"] = None
    greedy = GreedyCollector()
    for _ in range(10):
        aid = greedy.choose(ctx(s, 0))
        if aid == "pass":
            break
        s, _ = act(s, 0, aid)
    (o,) = s["offers"]
    assert sorted(o["want"]) == ["M", "T", "T"] and len(o["give"]) == 3


def test_hand_value_grows_as_a_combination_comes_within_reach() -> None:
    combos = [("easy", "TTTM", 1), ("difficult", "TTTTT", 4)]
    assert hand_value("TTTM", combos) > hand_value("TTRM", combos)
    assert hand_value("TTTTD", combos) > hand_value("TTTMC", combos)
