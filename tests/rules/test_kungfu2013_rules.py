"""Kung Fu (2013): one test per rule of the rulebook, from stacked positions.

Card numbers come from the engine's table (``V``) so the tests state the rule,
not the current tuning of our card list.
"""

from __future__ import annotations

import json

import pytest

from gameplay.rules import IllegalAction, InvalidConfig
from gameplay.rules.kungfu2013 import engine as E
from tests.rules.kungfu2013_helpers import GAME, hand, make_state, play, types

V = {E.CODE[ch]: E.VALUE[ch] for ch in E.CARDS}


# -- set up ---------------------------------------------------------------------


def test_setup_deals_three_of_each_colour_and_ten_life() -> None:
    s = GAME.setup({}, seed=4)
    for seat in (0, 1):
        cards = hand(s, seat)
        assert sum(c[0] == "r" for c in cards) == 3
        assert sum(c[0] == "b" for c in cards) == 3
    assert len(s["rdeck"]) == len(s["bdeck"]) == 24
    assert s["life"] == [10, 10]
    assert GAME.actors(s) == [s["starter"]] and s["phase"] == "initiative"


def test_start_seat_and_stacked_decks() -> None:
    s = GAME.setup({"start": 1, "red_deck": ["r08", "r01"]}, seed=1)
    assert s["init"] == 1 == s["starter"]
    # The starting player is dealt first: the top red card, then the next.
    assert {"r01", "r08"} <= set(hand(s, 1))
    assert s["rdeck"][-1] != E.BY_CODE["r08"]


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"players": 3}, "exactly 2 players"),
        ({"start": 2}, "start must be"),
        ({"life": 0}, "life must be"),
        ({"red_deck": ["b01"]}, "only red cards"),
        ({"blue_deck": ["b01", "b01"]}, "twice"),
        ({"red_deck": "r01"}, "list of red card codes"),
        ({"colour": 1}, "unknown option"),
    ],
)
def test_bad_configs_are_refused_clearly(config: dict, message: str) -> None:
    with pytest.raises(InvalidConfig, match=message):
        GAME.setup(config, seed=1)


# -- phase A: change of initiative ---------------------------------------------


def test_keeping_the_initiative_leads_to_the_attack() -> None:
    s = make_state((["r04", "b05"], ["b07"]), red=["r01"], blue=["b01"])
    s, _ev = play(s, "initiative:keep")
    assert s["phase"] == "attack" and GAME.actors(s) == [0]
    assert GAME.legal_action_ids(s, 0) == ["attack:r04"]


def test_passing_makes_the_new_defender_draw_three_each_from_a_chosen_deck() -> None:
    s = make_state(
        (["r04"], ["r03", "b05"]),
        red=["r01", "r02", "r05"],
        blue=["b01", "b02", "b03"],
    )
    s, _ = play(s, "initiative:pass")
    assert s["init"] == 1
    # Seat 0 (the new defender) draws three, one decision per card.
    assert s["phase"] == "draw" and GAME.actors(s) == [0]
    s, ev = play(s, "draw:red", "draw:blue", "draw:red")
    assert hand(s, 0) == ["b01", "r01", "r02", "r04"]
    assert [e["public"]["deck"] for e in ev if e["type"] == "draw"] == [
        "red",
        "blue",
        "red",
    ]
    # The new attacker may change the initiative again ("and so on").
    assert s["phase"] == "initiative" and GAME.actors(s) == [1]
    s, _ = play(s, "initiative:pass")
    assert s["init"] == 0 and GAME.actors(s) == [1] and s["phase"] == "draw"


def test_an_attacker_without_an_attack_card_passes_the_initiative_back() -> None:
    s = make_state((["b05"], ["r04", "b02"]), red=["r01"], blue=["b01", "b03"])
    # Seat 0 holds no attack card: the initiative changes at once, seat 0 draws.
    assert s["init"] == 1
    assert s["phase"] == "draw" and GAME.actors(s) == [0]


def test_no_voluntary_change_when_nothing_is_left_to_draw() -> None:
    s = make_state((["r04"], ["b05"]))
    assert s["phase"] == "attack"  # straight to the attack: no menu to pass


def test_a_chain_where_nobody_can_ever_attack_ends_the_game_on_life() -> None:
    s = make_state((["b05"], ["b02"]), life=(7, 4))
    assert GAME.is_over(s)
    r = GAME.result(s)
    assert r is not None
    assert r["winners"] == [0] and r["reason"] == "no_attack_possible"


def test_chain_without_attack_cards_continues_while_cards_can_be_drawn() -> None:
    s = make_state((["b05"], ["b02"]), red=["r04"])
    # Seat 0 has no attack: seat 1 gets the initiative, seat 0 draws (only the
    # red deck has cards, so the draw is automatic) and now holds r04; seat 1
    # has no attack either, so the initiative comes back to seat 0.
    assert s["init"] == 0 and hand(s, 0) == ["b05", "r04"]
    assert s["phase"] == "attack"


# -- phase B: attack -------------------------------------------------------------


def test_face_up_attack_is_public_and_gives_no_card() -> None:
    s = make_state((["r04"], ["b05", "b07"]))
    s, _ev = play(s, "attack:r04", "face:up")
    assert s["phase"] == "block"
    assert GAME.observe(s, 1)["battle"]["attack"]["code"] == "r04"
    assert len(s["hands"][1]) == 2


def test_face_down_attack_makes_the_defender_draw_and_stays_hidden() -> None:
    s = make_state((["r04"], ["b05"]), red=["r01"], blue=["b01"])
    s, _ = play(s, "initiative:keep", "attack:r04", "face:down")
    assert s["phase"] == "draw" and GAME.actors(s) == [1]
    s, ev = play(s, "draw:blue")
    assert hand(s, 1) == ["b01", "b05"]
    for seat in (1, None):
        battle = GAME.observe(s, seat)["battle"]
        assert battle["attack"] is None and battle["face"] == "down"
        assert "r04" not in json.dumps(GAME.observe(s, seat))
    assert GAME.observe(s, 0)["battle"]["attack"]["code"] == "r04"
    s, ev = play(s, "block:b05")
    reveal = [e for e in ev if e["type"] == "reveal"]
    assert reveal and reveal[0]["public"]["card"]["code"] == "r04"


def test_face_down_attack_event_hides_the_card_from_the_defender() -> None:
    s = make_state((["r04"], ["b05"]))
    s, ev = play(s, "attack:r04", "face:down")
    attack = next(e for e in ev if e["type"] == "attack")
    assert attack["public"]["card"] is None
    assert attack["private"] == {"0": {"card": E.view(E.BY_CODE["r04"])}}


# -- phase C: block ----------------------------------------------------------------


def test_the_defender_must_block_when_holding_a_block_card() -> None:
    s = make_state((["r04"], ["b05", "b07", "r01"]))
    s, _ = play(s, "attack:r04", "face:up")
    ids = GAME.legal_action_ids(s, 1)
    assert sorted(ids) == ["block:b05", "block:b07"]  # no way to skip


def test_without_a_block_card_the_defence_is_zero() -> None:
    s = make_state((["r04"], ["r01"]))
    s, ev = play(s, "attack:r04", "face:up")
    assert "no_block_played" in types(ev)
    assert s["life"][1] == 10 - V["r04"]


# -- phase D: outcome ------------------------------------------------------------


def test_attacker_wins_defender_loses_the_difference() -> None:
    s = make_state((["r08", "r01"], ["b05", "b01"]))
    s, _ev = play(s, "attack:r08", "face:up", "block:b05")
    assert s["life"] == [10, 10 - (V["r08"] - V["b05"])]
    assert s["init"] == 0  # the attacker keeps the initiative


def test_equal_values_have_no_effect_and_the_attacker_keeps_the_initiative() -> None:
    a, b = "r04", "b04"
    assert V[a] == V[b]
    s = make_state(([a, "r01"], [b, "b01"]))
    s, ev = play(s, f"attack:{a}", "face:up", f"block:{b}")
    assert s["life"] == [10, 10] and s["init"] == 0
    assert next(e for e in ev if e["type"] == "outcome")["public"]["winner"] is None


def test_defender_wins_and_draws_the_difference() -> None:
    s = make_state(
        (["r03", "r01"], ["b09", "b01"]),
        red=["r02", "r05", "r06"],
        blue=["b02", "b03", "b04"],
    )
    s, _ = play(s, "initiative:keep", "attack:r03", "face:up", "block:b09")
    assert s["phase"] == "reward" and GAME.actors(s) == [1]
    assert GAME.legal_action_ids(s, 1) == ["reward:draw", "reward:initiative"]
    diff = V["b09"] - V["r03"]
    s, ev = play(s, "reward:draw", *["draw:red"] * diff)
    assert s["life"] == [10, 10]  # the attacker never loses life
    assert sum(e["type"] == "draw" for e in ev) == diff
    assert s["init"] == 0


def test_defender_wins_and_takes_the_initiative_opponent_draws_three() -> None:
    s = make_state(
        (["r03", "r01"], ["b09", "r02"]),
        red=["r04", "r05", "r06"],
        blue=["b02", "b03", "b04"],
    )
    s, _ = play(s, "initiative:keep", "attack:r03", "face:up", "block:b09")
    s, _ev = play(s, "reward:initiative", "draw:red", "draw:red", "draw:blue")
    assert s["init"] == 1 and s["life"] == [10, 10]
    assert hand(s, 0) == ["b02", "r01", "r04", "r05"]
    assert s["phase"] == "initiative" and GAME.actors(s) == [1]


def test_played_cards_are_discarded_and_coin_cards_stay_in_front() -> None:
    s = make_state((["r12", "r01"], ["b03", "b01"]))  # Jade Fist has a coin
    s, _ev = play(s, "attack:r12", "face:up", "block:b03")
    if s["phase"] == "reward":
        s, _ = play(s, "reward:draw")
    assert E.CODE[s["front"][0]] == "r12"
    assert "b03" in [E.CODE[c] for c in s["bdisc"]]
    obs = GAME.observe(s, None)
    assert obs["front"][0][0]["code"] == "r12" and obs["coins"][0] == 1


def test_values_of_coin_cards_in_front_do_not_count() -> None:
    s = make_state((["r04", "r01"], ["b05", "b01"]), front=(["r14"], ["b15"]))
    s, _ = play(s, "attack:r04", "face:up", "block:b05")
    assert s["life"] == [10, 10]  # 4 against 4: the cards in front add nothing


# -- special effects: paying ------------------------------------------------------


def test_effects_are_paid_with_coin_cards_in_front_several_and_excess_lost() -> None:
    # Rising Dragon costs 2: pay with two one-coin cards, then the rise is on.
    s = make_state((["r17", "r01"], ["b05", "b01"]), front=(["r11", "r12", "r10"], []))
    s, _ = play(s, "attack:r17", "face:up", "block:b05", "effect:use")
    assert s["phase"] == "pay"
    ids = GAME.legal_action_ids(s, 0)
    assert ids[0] in ("pay:r11", "pay:r12")  # smallest coin card first
    assert set(ids) == {"pay:r10", "pay:r11", "pay:r12"}
    s, _ = play(s, "pay:r11")
    assert s["phase"] == "pay"  # one coin paid, one still due
    s, _ev = play(s, "pay:r10")  # two coins for one due: the excess is lost
    assert s["front"][0] == E.BY_CODE["r12"]
    rise = E.RISE[E.BY_CODE["r17"]]
    assert rise is not None
    assert s["life"][1] == 10 - (rise - V["b05"])


def test_an_unaffordable_effect_is_not_offered() -> None:
    s = make_state((["r17", "r01"], ["b05", "b01"]), front=(["r11"], []))
    s, _ev = play(s, "attack:r17", "face:up", "block:b05")
    assert GAME.is_over(s) or s["phase"] != "effect"
    assert s["life"][1] == 10 - max(0, V["r17"] - V["b05"])


def test_a_special_card_may_be_played_without_paying() -> None:
    s = make_state((["r17", "r01"], ["b05", "b01"]), front=(["r13"], []))
    s, _ = play(s, "attack:r17", "face:up", "block:b05", "effect:skip")
    assert E.CODE[s["front"][0]] == "r13"  # nothing paid


def test_the_attacker_decides_first_then_the_defender() -> None:
    s = make_state((["r17", "r01"], ["b18", "b01"]), front=(["r13"], ["b14"]))
    s, _ = play(s, "attack:r17", "face:up", "block:b18")
    assert s["phase"] == "effect" and GAME.actors(s) == [0]
    s, _ = play(s, "effect:use")
    assert s["phase"] == "effect" and GAME.actors(s) == [1]
    s, _ = play(s, "effect:use")
    # 6 against 6: no effect.
    assert s["life"] == [10, 10]


def test_coins_cannot_come_from_the_hand_or_from_this_rounds_card() -> None:
    # The coin card in hand and the coin card just played pay for nothing.
    s = make_state((["r15", "r10"], ["b05", "b01"]))
    s, _ev = play(s, "attack:r15", "face:up", "block:b05")
    assert "effect" not in [s["phase"]]


# -- empty decks, end ------------------------------------------------------------


def test_an_empty_deck_is_refilled_by_shuffling_its_discard_pile() -> None:
    s = make_state((["r04"], ["b05"]), blue=["b01"], red_discard=["r01", "r02", "r03"])
    s, ev = play(s, "initiative:pass", "draw:red")
    assert "reshuffle" in types(ev)
    assert next(e for e in ev if e["type"] == "reshuffle")["public"] == {
        "deck": "red",
        "cards": 3,
    }
    assert s["rdisc"] == "" and len(s["rdeck"]) == 2


def test_losing_the_last_life_ends_the_game() -> None:
    s = make_state((["r08", "r01"], ["b01"]), life=(10, 2))
    s, ev = play(s, "attack:r08", "face:up", "block:b01")
    assert GAME.is_over(s) and GAME.actors(s) == []
    r = GAME.result(s)
    assert r == {
        "winners": [0],
        "placements": [1, 2],
        "scores": {"life": [10, 0]},
        "reason": "knockout",
    }
    assert "game_over" in types(ev)


def test_the_round_limit_ends_the_game_on_life() -> None:
    assert V["r04"] == V["b04"]  # an equal battle: no reward decision
    s = make_state((["r04", "r01"], ["b04", "b01"]), max_rounds=1, life=(6, 6))
    s, _ = play(s, "attack:r04", "face:up", "block:b04")
    assert GAME.is_over(s)
    r = GAME.result(s)
    assert r is not None
    assert r["reason"] == "round_limit" and r["placements"] == [1, 1]


# -- bad input ---------------------------------------------------------------------


def test_illegal_out_of_turn_and_malformed_actions_change_nothing() -> None:
    s = make_state((["r04", "r01"], ["b05"]), red=["r02"], blue=["b01"])
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(IllegalAction, match="may not act now"):
        GAME.apply(s, 1, "initiative:keep")
    with pytest.raises(IllegalAction, match="not legal"):
        GAME.apply(s, 0, "attack:r04")
    with pytest.raises(IllegalAction, match="malformed"):
        GAME.apply(s, 0, ["initiative:keep"])  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="may not act now"):
        GAME.apply(s, "0", "initiative:keep")  # type: ignore[arg-type]
    assert json.dumps(s, sort_keys=True) == before


def test_timeout_defaults_are_the_first_menu_entries() -> None:
    s = make_state((["r04", "r01"], ["b05", "b01"]), red=["r02"], blue=["b03"])
    assert GAME.timeout_action(s, 0) == "initiative:keep"
    s, _ = play(s, "initiative:keep")
    assert GAME.timeout_action(s, 0) == "attack:r01"  # weakest attack
    s, _ = play(s, "attack:r04")
    assert GAME.timeout_action(s, 0) == "face:up"
    s, _ = play(s, "face:up")
    # Weakest block that stops a face-up 4 is b05 (4), not b01.
    assert GAME.timeout_action(s, 1) == "block:b05"
    with pytest.raises(IllegalAction):
        GAME.timeout_action(s, 0)
