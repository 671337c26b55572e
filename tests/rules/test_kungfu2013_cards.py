"""Kung Fu (2013): the card list, and one test per icon from stacked positions."""

from __future__ import annotations

from gameplay.rules.kungfu2013 import cards as C
from gameplay.rules.kungfu2013 import engine as E
from tests.rules.kungfu2013_helpers import GAME, hand, make_state, play, types

V = {E.CODE[ch]: E.VALUE[ch] for ch in E.CARDS}


def _find(**want: object) -> list[str]:
    return [
        c["code"] for c in E.CARDS.values() if all(c[k] == v for k, v in want.items())
    ]


def test_sixty_cards_thirty_per_colour_unique_names_values_0_to_6() -> None:
    assert len(C.ATTACK_CARDS) == len(C.BLOCK_CARDS) == 30
    cards = list(E.CARDS.values())
    assert len({c["name"] for c in cards}) == 60
    assert len({c["code"] for c in cards}) == 60
    for c in cards:
        assert 0 <= c["value"] <= 6
        assert c["rise"] is None or c["value"] < c["rise"] <= 6
        assert (c["cost"] is None) == (c["rise"] is None and c["effect"] is None)
        assert not c["on_hit"] or (c["colour"] == "red" and c["effect"])
        assert c["effect"] is None or c["effect"] in C.EFFECTS
    names = {c["name"] for c in cards}
    assert {"Drunken Master", "Bridge of Heaven"} <= names


def test_the_list_stays_within_the_rulebooks_icons() -> None:
    # The value-rise icon shows "1 -> 3, 3 -> 6" and nothing else, and an
    # effect is activated by discarding coin cards: every cost is at least one.
    cards = list(E.CARDS.values())
    assert {(c["value"], c["rise"]) for c in cards if c["rise"]} == {(1, 3), (3, 6)}
    assert all(c["cost"] is None or c["cost"] >= 1 for c in cards)


def test_every_icon_is_used_alone_and_combined() -> None:
    cards = list(E.CARDS.values())
    used = {c["effect"] for c in cards} - {None}
    assert used == set(C.EFFECTS)
    assert any(c["coins"] for c in cards)
    assert {(c["value"], c["rise"]) for c in cards} >= {(1, 3), (3, 6)}
    assert any(c["rise"] and c["effect"] for c in cards)  # rise + bottom frame
    assert any(c["on_hit"] for c in cards)
    assert all(c["colour"] == "red" for c in cards if c["effect"] == "nullify")


# -- each icon ----------------------------------------------------------------------


def test_value_rise_only_when_activated() -> None:
    s = make_state((["r16", "r01"], ["b01", "b02"]), front=(["r11"], []))
    s, _ = play(s, "attack:r16", "face:up", "block:b01", "effect:use")
    rise = E.RISE[E.BY_CODE["r16"]]
    assert rise is not None
    assert s["life"][1] == 10 - (rise - V["b01"])
    s2 = make_state((["r16", "r01"], ["b01", "b02"]), front=(["r11"], []))
    s2, _ = play(s2, "attack:r16", "face:up", "block:b01", "effect:skip")
    assert s2["life"][1] == 10 - max(0, V["r16"] - V["b01"])


def test_value_rise_and_bottom_frame_effect_happen_together() -> None:
    card = "r18"  # Leopard Pounce: rise + draw three
    assert E.RISE[E.BY_CODE[card]] and E.EFFECT[E.BY_CODE[card]] == "draw3"
    cost = E.COST[E.BY_CODE[card]]
    s = make_state(
        ([card, "r01"], ["b01", "b02"]),
        front=(["r09"] if cost <= 3 else ["r09", "r10"], []),
        red=["r02", "r03", "r04"],
        blue=["b03", "b04", "b05"],
    )
    s, _ = play(s, "initiative:keep", f"attack:{card}", "face:up", "block:b01")
    s, _ = play(s, "effect:use")
    assert s["phase"] == "draw" and GAME.actors(s) == [0]
    s, _ev = play(s, "draw:red", "draw:red", "draw:blue")
    rise = E.RISE[E.BY_CODE[card]]
    assert rise is not None
    assert s["life"][1] == 10 - (rise - V["b01"])
    assert hand(s, 0) == ["b03", "r01", "r02", "r03"]


def test_opponent_loses_a_life_triggers_the_effect_beside_the_arrow() -> None:
    card = "r28"  # Mantis Hook: on hit, two random cards of the opponent go
    assert E.ON_HIT[E.BY_CODE[card]] and E.EFFECT[E.BY_CODE[card]] == "discard2"
    assert V["b11"] < V[card]  # a weaker block: the attack hits
    s = make_state(([card, "r01"], ["b11", "b05", "b06", "b07"]), front=(["r09"], []))
    s, ev = play(s, f"attack:{card}", "face:up", "block:b11", "effect:use")
    assert "hand_discard" in types(ev) and "on_hit" in types(ev)
    assert len(s["hands"][1]) == 1


def test_on_hit_effect_is_lost_when_the_opponent_loses_no_life() -> None:
    card = "r28"
    s = make_state(([card, "r01"], ["b09", "b05", "b06", "b07"]), front=(["r09"], []))
    s, ev = play(s, f"attack:{card}", "face:up", "block:b09", "effect:use")
    assert "hand_discard" not in types(ev)
    assert s["front"][0] == ""  # paid all the same
    assert len(s["hands"][1]) == 3


def test_power_coins_card_stays_in_front_and_pays_later() -> None:
    s = make_state((["r09", "r17", "r01"], ["b05", "b06", "b07"]))
    s, _ = play(s, "attack:r09", "face:up", "block:b05")
    if s["phase"] == "reward":
        s, _ = play(s, "reward:draw")
    assert s["front"][0] == E.BY_CODE["r09"]
    s, ev = play(
        s, "initiative:keep", "attack:r17", "face:up", "block:b06", "effect:use"
    )
    assert "pay" in types(ev) and s["front"][0] == ""
    assert E.BY_CODE["r09"] in s["rdisc"]


def test_block_discarded_even_face_up_the_defender_still_blocks() -> None:
    card = "r22"  # Snake Strike
    s = make_state(([card, "r01"], ["b09", "b01"]), front=(["r09"], []))
    s, _ = play(s, f"attack:{card}", "face:up")
    assert s["phase"] == "block"  # the defender must still play a block
    s, ev = play(s, "block:b09", "effect:use")
    assert "block_discarded" in types(ev)
    assert s["life"][1] == 10 - V[card]
    assert E.BY_CODE["b09"] in s["bdisc"]


def test_initiative_changes_after_the_outcome() -> None:
    card = "r20"  # Drunken Master
    s = make_state(
        ([card, "r01"], ["b01", "r02"]),
        front=(["r11"], []),
        red=["r03", "r04", "r05"],
        blue=["b02", "b03", "b04"],
    )
    s, _ = play(s, "initiative:keep", f"attack:{card}", "face:up", "block:b01")
    s, ev = play(s, "effect:use")
    kinds = types(ev)
    assert kinds.index("outcome") < kinds.index("initiative")  # after the outcome
    assert s["phase"] == "draw" and GAME.actors(s) == [0]  # new defender draws
    s, ev = play(s, "draw:red", "draw:red", "draw:red")
    assert s["init"] == 1
    assert s["life"][1] == 10 - (V[card] - V["b01"])


def _draws(events: list[dict]) -> list[tuple[int, str]]:
    return [
        (e["public"]["seat"], e["private"][str(e["public"]["seat"])]["card"]["code"])
        for e in events
        if e["type"] == "draw"
    ]


def test_two_initiative_effects_change_it_once_the_old_attacker_draws() -> None:
    # Issue 26's sequence: Drunken Master against Turning the Tide, both used.
    # Both say "the initiative changes after the outcome of the battle": one
    # result, the battle's defender attacks next (reading 12). The old engine
    # changed it twice and seat 1 drew first; now seat 0, the new defender,
    # draws its three and seat 1 draws nothing.
    s = make_state(
        (["r20", "b05"], ["b21", "r02"]),
        front=(["r11"], ["b10"]),
        red=["r10", "r12", "r14", "r16", "r17", "r18"],
    )
    s, _ = play(s, "initiative:keep", "attack:r20", "face:up", "block:b21")
    s, ev = play(s, "effect:use", "effect:use")
    assert [e["public"] for e in ev if e["type"] == "initiative"] == [
        {"from": 0, "to": 1, "reason": "effect"}
    ]
    assert s["phase"] == "draw" and GAME.actors(s) == [0]
    s, ev = play(s, "draw:red", "draw:red", "draw:red")
    assert _draws(ev) == [(0, "r10"), (0, "r12"), (0, "r14")]
    assert s["init"] == 1
    assert s["phase"] == "initiative" and GAME.actors(s) == [1]
    assert hand(s, 1) == ["r02"]


def test_a_defender_who_takes_the_initiative_keeps_it_against_its_own_card() -> None:
    # "He takes the initiative and becomes the new attacker for the next
    # round": Turning the Tide, activated by the same defender, does not hand
    # it back (reading 12).
    s = make_state(
        (["r03", "r01"], ["b21", "r02"]),
        front=([], ["b10"]),
        red=["r04", "r05", "r06"],
    )
    s, _ = play(s, "initiative:keep", "attack:r03", "face:up", "block:b21")
    s, ev = play(s, "effect:use", "reward:initiative")
    s, ev2 = play(s, "draw:red", "draw:red", "draw:red")
    changes = [e["public"] for e in ev + ev2 if e["type"] == "initiative"]
    assert changes == [{"from": 0, "to": 1, "reason": "defence_won"}]
    assert [seat for seat, _card in _draws(ev + ev2)] == [0, 0, 0]
    assert s["init"] == 1
    assert s["phase"] == "initiative" and GAME.actors(s) == [1]


def test_the_attackers_initiative_card_and_the_reward_change_it_once() -> None:
    s = make_state(
        (["r20", "r01"], ["b09", "r02"]),
        front=(["r11"], []),
        red=["r04", "r05", "r06", "r07"],
    )
    s, _ = play(s, "initiative:keep", "attack:r20", "face:up", "block:b09")
    # Only the red deck can give a card: the three draws are automatic.
    s, ev = play(s, "effect:use", "reward:initiative")
    assert [e["public"]["reason"] for e in ev if e["type"] == "initiative"] == [
        "defence_won"
    ]
    assert [seat for seat, _card in _draws(ev)] == [0, 0, 0]
    assert s["init"] == 1 and GAME.actors(s) == [1]


def test_draw_three_immediately() -> None:
    s = make_state(
        (["r04", "r01"], ["b22", "b01"]),
        front=([], ["r13"]),  # a red coin card: the payment leaves blue empty
        red=["r02", "r03"],
        blue=["b02", "b03"],
    )
    s, _ = play(s, "initiative:keep", "attack:r04", "face:up", "block:b22")
    # Two blue draws empty the blue deck (no blue discard yet): the third is red.
    s, ev = play(s, "effect:use", "draw:blue", "draw:blue")
    assert [e["public"]["deck"] for e in ev if e["type"] == "draw"] == [
        "blue",
        "blue",
        "red",
    ]
    assert hand(s, 1) == ["b01", "b02", "b03", "r02"]


def test_opponent_cannot_block_next_round() -> None:
    card = "r25"  # Thunder Palm
    s = make_state(([card, "r04"], ["b01", "b09", "b08"]), front=(["r09"], []))
    s, ev = play(s, f"attack:{card}", "face:up", "block:b01", "effect:use")
    assert "no_block" in types(ev)
    assert GAME.observe(s, 1)["no_block_round"] == [None, 2]
    s, ev = play(s, "initiative:keep", "attack:r04", "face:up")
    assert next(e for e in ev if e["type"] == "no_block_played")["public"] == {
        "seat": 1,
        "reason": "no_block_effect",
    }


def test_two_random_cards_from_the_opponents_hand_are_discarded() -> None:
    card = "r24"  # Monkey Steals Peach
    s = make_state(([card, "r01"], ["b05", "b06", "r05", "r06"]), front=(["r09"], []))
    s, ev = play(s, f"attack:{card}", "face:up", "block:b05", "effect:use")
    gone = next(e for e in ev if e["type"] == "hand_discard")["public"]["cards"]
    assert len(gone) == 2 and len(s["hands"][1]) == 1
    piles = s["rdisc"] + s["bdisc"]
    assert all(E.BY_CODE[c["code"]] in piles for c in gone)


def test_discard_a_coin_card_in_front_of_the_opponent() -> None:
    card = "r26"  # Heaven Splitter
    s = make_state(([card, "r01"], ["b05", "b01"]), front=(["r11"], ["b10", "b12"]))
    s, _ = play(s, f"attack:{card}", "face:up", "block:b05", "effect:use")
    assert s["phase"] == "target" and GAME.actors(s) == [0]
    assert GAME.legal_action_ids(s, 0) == ["target:b10", "target:b12"]
    s, _ev = play(s, "target:b12")
    assert s["front"][1] == E.BY_CODE["b10"]


def test_discard_a_coin_card_is_ignored_without_one() -> None:
    s = make_state((["r26", "r01"], ["b05", "b01"]), front=(["r11"], []))
    s, ev = play(s, "attack:r26", "face:up", "block:b05", "effect:use")
    assert "effect_ignored" in types(ev)


def test_gain_two_life_tokens_even_at_full_life() -> None:
    # Reading 14: "You immediately get two life tokens", with no cap: a player
    # at full life goes above the starting life.
    s = make_state((["r01", "r02"], ["b24", "b01"]), front=([], ["b12"]), life=(10, 5))
    s, ev = play(s, "attack:r01", "face:up", "block:b24", "effect:use")
    assert next(e for e in ev if e["type"] == "heal")["public"] == {
        "seat": 1,
        "gain": 2,
        "life": 7,
    }
    s = make_state((["r01", "r02"], ["b24", "b01"]), front=([], ["b12"]), life=(10, 10))
    s, ev = play(s, "attack:r01", "face:up", "block:b24", "effect:use")
    assert next(e for e in ev if e["type"] == "heal")["public"]["gain"] == 2
    assert GAME.observe(s, 0)["life"][1] == 12
