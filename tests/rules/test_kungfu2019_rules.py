"""Kung Fu (2019), the dice game: one test per rule, from stacked decks and dice.

Effect sizes and initiative values come from the card table, so the tests state
the rule, not the current tuning of our card list.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from gameplay.rules import view_events
from gameplay.rules.kungfu2019 import cards as C
from gameplay.rules.kungfu2019 import engine as E
from gameplay.rules.kungfu2019 import rounds as R
from tests.rules.kungfu2019_helpers import (
    COSTLY,
    CROSS,
    DEF_456,
    DUMMY_CARDS,
    GAME,
    GUARD_CROSS,
    HEAL,
    HIT_1,
    INIT,
    LOW,
    PAIR_ATK,
    STEP,
    YY,
    act,
    attack_by,
    combo,
    commit,
    deal,
    finish_fight,
    of_type,
    set_hp,
    slot_of,
    three_hands,
)


def test_the_cards_the_tests_use_have_the_expected_shapes() -> None:
    assert (combo(PAIR_ATK, 0).kind, combo(PAIR_ATK, 0).n) == ("kind", 2)
    assert combo(PAIR_ATK, 0).effect.atk > 0
    assert combo(DEF_456, 1).faces == (4, 5, 6) and combo(DEF_456, 1).effect.def_
    assert combo(YY, 1).faces == (1,) and combo(YY, 1).effect.yy == 1
    assert not combo(CROSS, 0).needs_dice and combo(CROSS, 0).effect.atk > 0
    assert not combo(CROSS, 1).needs_dice and combo(CROSS, 1).effect.def_ > 0
    assert not combo(GUARD_CROSS, 1).needs_dice and combo(GUARD_CROSS, 1).effect.def_
    assert combo(HIT_1, 0).faces == (1,) and combo(HIT_1, 0).effect.hit > 0
    assert combo(HEAL, 0).effect.hp > 0
    assert combo(COSTLY, 0).effect.hp < 0 and combo(COSTLY, 0).n == 3


# -- the card list ------------------------------------------------------------


def test_seventy_four_cards_with_one_bonus_icon_and_initiative_one_to_ten() -> None:
    assert len(C.CARDS) == 74 == len(set(C.NAME.values()))
    assert set(C.ICON.values()) == {"hp", "atk", "def", "hit", "avo"}
    assert all(1 <= v <= 10 for v in C.INITIATIVE.values())
    kinds = {c.kind for cs in C.COMBOS.values() for c in cs}
    assert kinds >= {"cross", "faces", "kind", "straight", "sum_over", "sum_under"}
    # Every card does something both when attacking and when defending.
    for code, cs in C.COMBOS.items():
        assert any(c.effect.active_in("atk") for c in cs), code
        assert any(c.effect.active_in("def") for c in cs), code


# -- learning phase -------------------------------------------------------------


def test_setup_deals_a_pack_of_ten_to_everyone_and_all_draft_at_once() -> None:
    s = GAME.setup({"players": 4}, seed=1)
    assert s["phase"] == "draft" and GAME.actors(s) == [0, 1, 2, 3]
    packs = [GAME.observe(s, i)["draft"]["pack"] for i in range(4)]
    assert all(len(p) == 10 for p in packs)
    assert len({c for p in packs for c in p}) == 40
    assert GAME.observe(s, 0)["deck_size"] == 34
    assert GAME.observe(s, None)["draft"]["pack"] is None


def test_a_draft_pick_is_hidden_and_packs_pass_left_when_all_have_picked() -> None:
    s = GAME.setup({"players": 3}, seed=2)
    packs = [GAME.observe(s, i)["draft"]["pack"] for i in range(3)]
    s, ev = GAME.apply(s, 0, f"pick:{packs[0][3]}")
    assert GAME.actors(s) == [1, 2] and GAME.legal_action_ids(s, 0) == []
    other = GAME.observe(s, 1)["draft"]
    assert other["picked"] == [True, False, False] and other["pick"] is None
    assert GAME.observe(s, 0)["draft"]["pick"] == packs[0][3]
    assert view_events(ev, 1)[0]["private"] == {}
    assert packs[0][3] not in json.dumps(view_events(ev, 1))
    s, _ = GAME.apply(s, 1, f"pick:{packs[1][0]}")
    s, ev = GAME.apply(s, 2, f"pick:{packs[2][0]}")
    # Passed to the left (seat + 1): seat 1 now holds what seat 0 left.
    assert GAME.observe(s, 1)["draft"]["pack"] == [
        c for c in packs[0] if c != packs[0][3]
    ]
    assert GAME.observe(s, 0)["draft"]["pack"] == packs[2][1:]
    assert GAME.observe(s, 0)["hand"] == [packs[0][3]]
    assert GAME.observe(s, 1)["hand_sizes"] == [1, 1, 1]
    assert GAME.actors(s) == [0, 1, 2]


def test_the_draft_ends_with_ten_cards_each_and_the_status_set() -> None:
    s = GAME.setup({"players": 2}, seed=3)
    for _ in range(10):
        for seat in (0, 1):
            s, _ = GAME.apply(s, seat, GAME.legal_action_ids(s, seat)[0])
    assert s["phase"] == "play" and s["round"] == 1
    for seat in (0, 1):
        hand = GAME.observe(s, seat)["hand"]
        assert len(hand) == 10
        icons = Counter(C.ICON[c] for c in hand)
        assert GAME.observe(s, None)["tracks"][seat] == {
            k: icons[k] for k in ("hp", "atk", "def", "hit", "avo")
        }


def test_the_first_game_option_deals_ten_cards_without_a_draft() -> None:
    hand = [f"c{i:02d}" for i in range(11, 21)]
    s = GAME.setup({"players": 2, "draft": False, "deck": hand}, seed=3)
    assert s["phase"] == "play" and GAME.observe(s, 0)["hand"] == hand


@pytest.mark.parametrize(("players", "base"), [(2, 30), (3, 30), (4, 45), (5, 60)])
def test_starting_hp_is_the_base_for_the_player_count_plus_the_hp_track(
    players: int, base: int
) -> None:
    s = GAME.setup({"players": players, "draft": False}, seed=players)
    obs = GAME.observe(s, None)
    for seat in range(players):
        hand = GAME.observe(s, seat)["hand"]
        hp_icons = sum(C.ICON[c] == "hp" for c in hand)
        assert obs["tracks"][seat]["hp"] == hp_icons
        assert obs["hp"][seat] == base + STEP["hp"] * hp_icons
        assert obs["status"][seat]["atk"] == STEP["atk"] * obs["tracks"][seat]["atk"]


# -- fighting phase: the three cards ---------------------------------------------


def test_three_one_card_commits_are_hidden_until_all_are_in() -> None:
    s = deal(three_hands())
    s, ev = act(s, 0, f"play:{YY}")
    assert GAME.observe(s, 1)["commits"] == {"counts": [1, 0, 0], "mine": []}
    assert GAME.observe(s, 0)["commits"]["mine"] == [YY]
    assert YY not in json.dumps(view_events(ev, 1))
    assert GAME.actors(s) == [0, 1, 2]
    s, _ = commit(s, [[DEF_456, HIT_1], None, None])
    assert GAME.actors(s) == [1, 2] and GAME.observe(s, 2)["played"] == [None] * 3
    s, ev = commit(s, [None, [PAIR_ATK, "c23", "c29"], ["c53", "c57", "c60"]])
    (reveal,) = of_type(ev, "reveal")
    assert reveal["public"]["played"] == [
        [YY, DEF_456, HIT_1],
        [PAIR_ATK, "c23", "c29"],
        ["c53", "c57", "c60"],
    ]
    assert s["phase"] == "assign"


def test_the_attack_order_is_by_total_initiative_lowest_first() -> None:
    s = deal(three_hands())
    s, ev = commit(s, [h[:3] for h in three_hands()][::-1][::-1])
    (reveal,) = of_type(ev, "reveal")
    totals = [sum(INIT[c] for c in h[:3]) for h in three_hands()]
    assert reveal["public"]["totals"] == totals
    assert reveal["public"]["order"] == sorted(range(3), key=lambda i: totals[i])
    assert reveal["public"]["tiebreak"] is None
    assert GAME.observe(s, None)["fight"]["attacker"] == reveal["public"]["order"][0]


def test_initiative_ties_are_broken_by_a_published_random_order() -> None:
    hands = [[YY, DEF_456, HIT_1], [LOW, "c04", "c05"], ["c53", "c57", "c60"]]
    assert sum(INIT[c] for c in hands[0]) == sum(INIT[c] for c in hands[1])
    firsts = set()
    for seed in range(12):
        s = deal(hands, seed=seed)
        s, ev = commit(s, hands)
        (reveal,) = of_type(ev, "reveal")
        tb = reveal["public"]["tiebreak"]
        order = reveal["public"]["order"]
        assert sorted(tb) == [0, 1, 2] and order[2] == 2
        assert order[:2] == [i for i in tb if i in (0, 1)]
        firsts.add(order[0])
    assert firsts == {0, 1}


def test_every_fighter_rolls_seven_dice_published_at_the_attack() -> None:
    rolls = [[1, 2, 3, 4, 5, 6, 6], [2, 2, 2, 3, 3, 3, 4], [6, 5, 4, 3, 2, 1, 1]]
    s = deal(three_hands(), dice=rolls)
    s, ev = commit(s, three_hands())
    (attack,) = of_type(ev, "attack")
    assert attack["public"]["dice"] == rolls
    assert GAME.observe(s, 1)["fight"]["dice"] == rolls
    # Without stacked dice the rolls come from the state's RNG: seeded, 1-6.
    s2 = deal(three_hands(), seed=11)
    s2, ev2 = commit(s2, three_hands())
    dice = of_type(ev2, "attack")[0]["public"]["dice"]
    assert all(len(d) == 7 and all(1 <= x <= 6 for x in d) for d in dice)
    _s3, ev3 = commit(deal(three_hands(), seed=11), three_hands())
    assert of_type(ev3, "attack")[0]["public"]["dice"] == dice


# -- fighting phase: assigning dice ----------------------------------------------


def test_a_set_activates_its_combination_once_and_a_card_takes_several_sets() -> None:
    rolls = [[2, 2, 5, 5, 1, 3, 6], [1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1]]
    s = attack_by([PAIR_ATK, YY, HIT_1], rolls, tracks={(0, "hit"): 0})
    slot = slot_of(s, 0, PAIR_ATK)
    s, _ = act(s, 0, f"set:{slot}:0", "die:0")
    assert s["fight"]["asg"][0]["open"] == [slot, 0, [0]]
    s, _ = act(s, 0, "die:1")  # a pair of 2s: the set closes by itself
    assert s["fight"]["asg"][0]["sets"] == [[slot, 0, [0, 1]]]
    s, _ = act(s, 0, f"set:{slot}:0", "die:2", "die:3")
    assert len(s["fight"]["asg"][0]["sets"]) == 2
    s, _ = act(s, 0, "done")
    s, ev = finish_fight(s)
    (fight,) = of_type(ev, "fight")
    base = STEP["atk"] * s["tracks"][0][1]
    assert fight["public"]["attack"] == base + 2 * combo(PAIR_ATK, 0).effect.atk


def test_dice_that_do_not_match_do_not_close_a_set() -> None:
    rolls = [[2, 3, 5, 6, 1, 4, 6], [1] * 7, [1] * 7]
    s = attack_by([PAIR_ATK, YY, HIT_1], rolls, tracks={(0, "hit"): 0})
    slot = slot_of(s, 0, PAIR_ATK)
    s, _ = act(s, 0, f"set:{slot}:0", "die:0", "die:1")
    asg = s["fight"]["asg"][0]
    assert asg["sets"] == [] and asg["open"] == [slot, 0, [0, 1]]
    ids = GAME.legal_action_ids(s, 0)
    assert ids == ["auto", "cancel"]  # no budget to adjust, no room for a die
    s, _ = act(s, 0, "cancel")
    assert s["fight"]["asg"][0]["open"] is None


def test_hit_moves_a_die_one_pip_per_point_and_a_one_into_a_six_costs_five() -> None:
    rolls = [[1, 6, 2, 3, 4, 5, 3], [1] * 7, [1] * 7]
    for budget, closes in ((5, True), (4, False)):
        s = attack_by([PAIR_ATK, YY, HIT_1], rolls, tracks={(0, "hit"): budget})
        slot = slot_of(s, 0, PAIR_ATK)
        s, _ = act(s, 0, f"set:{slot}:0", "die:0", "die:1")
        for _ in range(4):
            s, _ = act(s, 0, "up:0")
        asg = s["fight"]["asg"][0]
        assert asg["v"][0] == 5 and asg["spent"] == 4
        if closes:
            s, _ = act(s, 0, "up:0")
            asg = s["fight"]["asg"][0]
            assert asg["sets"] == [[slot, 0, [0, 1]]] and asg["spent"] == 5
        else:
            assert "up:0" not in GAME.legal_action_ids(s, 0)
            # Moving back towards the roll gives the point back.
            s, _ = act(s, 0, "down:0")
            assert s["fight"]["asg"][0]["spent"] == 3


def test_several_points_may_go_on_one_die_and_cancel_refunds_them() -> None:
    rolls = [[1, 3, 2, 2, 4, 5, 6], [1] * 7, [1] * 7]
    s = attack_by([PAIR_ATK, YY, HIT_1], rolls, tracks={(0, "hit"): 3})
    slot = slot_of(s, 0, PAIR_ATK)
    s, _ = act(s, 0, f"set:{slot}:0", "die:0", "die:1", "up:0")
    assert s["fight"]["asg"][0]["spent"] == 1 and s["fight"]["asg"][0]["v"][0] == 2
    s, _ = act(s, 0, "cancel")
    asg = s["fight"]["asg"][0]
    assert asg["spent"] == 0 and asg["v"] == rolls[0]


def test_hit_gained_from_a_set_pays_for_later_sets() -> None:
    rolls = [[1, 2, 3, 6, 6, 4, 5], [1] * 7, [1] * 7]
    s = attack_by([HIT_1, PAIR_ATK, YY], rolls, tracks={(0, "hit"): 0})
    pair = slot_of(s, 0, PAIR_ATK)
    hit = slot_of(s, 0, HIT_1)
    s, _ = act(s, 0, f"set:{pair}:0", "die:1", "die:2")
    assert "up:1" not in GAME.legal_action_ids(s, 0)  # no HIT yet
    s, _ = act(s, 0, "cancel", f"set:{hit}:0", "die:0")
    gain = combo(HIT_1, 0).effect.hit
    assert s["fight"]["asg"][0]["gain"] == gain
    s, _ = act(s, 0, f"set:{pair}:0", "die:1", "die:2", "up:1")
    assert len(s["fight"]["asg"][0]["sets"]) == 2


def test_defenders_use_only_defence_combinations_and_spend_avo() -> None:
    rolls = [[1] * 7, [4, 4, 1, 2, 3, 3, 2], [1] * 7]
    s = attack_by(
        [LOW, YY, HIT_1],
        rolls,
        others=([PAIR_ATK, DEF_456, "c29"], ["c69", "c68", "c66"]),
        tracks={(1, "avo"): 2, (1, "hit"): 0},
    )
    ids = GAME.legal_action_ids(s, 1)
    sets = {a for a in ids if a.startswith("set:")}
    played = s["played"][1]
    expected = {
        f"set:{slot}:{k}"
        for slot, ch in enumerate(played)
        for k, c in enumerate(C.COMBOS[E.CODE[ch]])
        if c.needs_dice and c.effect.active_in("def")
    }
    assert sets == expected
    assert f"set:{slot_of(s, 1, PAIR_ATK)}:0" not in ids  # the pair is attack-only
    assert s["fight"]["asg"][1]["bud"] == 2 * STEP["avo"]


def test_the_red_cross_is_active_without_dice() -> None:
    rolls = [[1] * 7, [2] * 7, [2] * 7]
    s = attack_by(
        [CROSS, LOW, "c04"],
        rolls,
        others=([GUARD_CROSS, "c23", "c29"], ["c69", "c68", "c66"]),
    )
    s, ev = finish_fight(s)
    (fight,) = of_type(ev, "fight")
    atk = STEP["atk"] * s["tracks"][0][1] + combo(CROSS, 0).effect.atk
    atk += sum(
        c.effect.atk
        for code in (LOW, "c04")
        for c in C.COMBOS[code]
        if not c.needs_dice
    )
    assert fight["public"]["attack"] == atk
    d1 = fight["public"]["defenders"][0]
    assert d1["seat"] == 1
    cross_def = combo(GUARD_CROSS, 1).effect.def_
    assert d1["defence"] == STEP["def"] * s["tracks"][1][2] + cross_def


def test_damage_is_attack_minus_defence_and_never_negative() -> None:
    rolls = [[5, 5, 6, 6, 4, 4, 1], [3] * 7, [3] * 7]
    s = attack_by([PAIR_ATK, DEF_456, YY], rolls)
    hp_before = list(s["hp"])
    s, _ = act(s, 0, "auto")
    s, ev = finish_fight(s)
    (fight,) = of_type(ev, "fight")
    atk = fight["public"]["attack"]
    for d in fight["public"]["defenders"]:
        assert d["damage"] == max(0, atk - d["defence"])
        assert d["hp"] == hp_before[d["seat"]] - d["damage"]
    # A defence above the attack costs nothing.
    s = attack_by(
        [LOW, "c04", "c05"], [[1] * 7, [6] * 7, [6] * 7], tracks={(0, "atk"): 0}
    )
    s, ev = finish_fight(s)
    assert all(d["damage"] == 0 for d in of_type(ev, "fight")[0]["public"]["defenders"])


def test_the_yin_yang_deals_one_damage_to_the_attacker_per_activation() -> None:
    rolls = [[2] * 7, [1, 1, 3, 3, 3, 3, 3], [3] * 7]
    s = attack_by(
        [LOW, "c04", "c05"],
        rolls,
        others=([YY, "c23", "c29"], ["c69", "c68", "c66"]),
        hp={0: 40, 1: 40},
    )
    yy = slot_of(s, 1, YY)
    s, _ = act(s, 1, f"set:{yy}:1", "die:0", f"set:{yy}:1", "die:1", "done")
    s, ev = finish_fight(s)
    (fight,) = of_type(ev, "fight")
    assert fight["public"]["yin_yang_damage"] == 2
    assert s["hp"][0] == 40 - 2 + fight["public"]["attacker_hp_change"]


def test_the_yin_yang_never_eliminates_the_attacker() -> None:
    rolls = [[2] * 7, [1, 1, 3, 3, 3, 3, 3], [3] * 7]
    s = attack_by(
        [LOW, "c04", "c05"],
        rolls,
        others=([YY, "c23", "c29"], ["c69", "c68", "c66"]),
        hp={0: 1, 1: 40},
    )
    yy = slot_of(s, 1, YY)
    s, _ = act(s, 1, f"set:{yy}:1", "die:0", f"set:{yy}:1", "die:1", "done")
    s, _ = finish_fight(s)
    assert s["hp"][0] == 1 and not s["elim"][0]


def test_the_yin_yang_has_no_effect_if_the_defender_is_eliminated() -> None:
    rolls = [[5, 5, 6, 6, 4, 4, 2], [1, 1, 3, 3, 3, 3, 3], [3] * 7]
    s = attack_by(
        [PAIR_ATK, DEF_456, "c04"],
        rolls,
        others=([YY, "c23", "c29"], ["c69", "c68", "c66"]),
        hp={0: 40, 1: 1},
        tracks={(1, "def"): 0},
    )
    s, _ = act(s, 0, "auto")
    yy = slot_of(s, 1, YY)
    s, _ = act(s, 1, f"set:{yy}:1", "die:0", f"set:{yy}:1", "die:1", "done")
    s, ev = finish_fight(s)
    (fight,) = of_type(ev, "fight")
    assert fight["public"]["defenders"][0]["eliminated"]
    assert fight["public"]["yin_yang_damage"] == 0
    assert of_type(ev, "eliminated")[0]["public"]["seat"] == 1


def test_attack_hp_effects_heal_the_attacker_or_cost_it_hp_but_never_below_one() -> (
    None
):
    rolls = [[3, 3, 1, 2, 4, 5, 6], [1] * 7, [1] * 7]
    s = attack_by([HEAL, LOW, "c04"], rolls, hp={0: 20})
    heal = slot_of(s, 0, HEAL)
    s, _ = act(s, 0, f"set:{heal}:0", "die:0", "die:1", "done")
    s, _ = finish_fight(s)
    assert s["hp"][0] == 20 + combo(HEAL, 0).effect.hp
    rolls = [[4, 4, 4, 1, 2, 5, 6], [1] * 7, [1] * 7]
    for start, after in ((20, 20 + combo(COSTLY, 0).effect.hp), (1, 1)):
        s = attack_by([COSTLY, LOW, "c04"], rolls, hp={0: start})
        k = slot_of(s, 0, COSTLY)
        s, _ = act(s, 0, f"set:{k}:0", "die:0", "die:1", "die:2", "done")
        s, _ = finish_fight(s)
        assert s["hp"][0] == after


def test_the_attackers_heal_and_the_yin_yang_damage_apply_as_one_change() -> None:
    """docs/rules/kungfu2019.md reading 8b: HP + heal - yin-yangs, floored at 1
    once. An attacker at 2 HP who heals 3 and takes 2 yin-yangs ends at 3;
    damage first (floored at 1, then healed) would give 4, heal last after a
    floor of 1 the same 4, so this pins the order."""
    rolls = [[3, 3, 1, 2, 4, 5, 6], [1, 1, 3, 3, 3, 3, 3], [3] * 7]
    s = attack_by(
        [HEAL, LOW, "c04"],  # initiative 9: the first attacker
        rolls,
        others=([YY, "c69", "c68"], ["c23", "c29", "c66"]),
        hp={0: 2, 1: 40},
    )
    heal = slot_of(s, 0, HEAL)
    s, _ = act(s, 0, f"set:{heal}:0", "die:0", "die:1", "done")
    yy = slot_of(s, 1, YY)
    s, _ = act(s, 1, f"set:{yy}:1", "die:0", f"set:{yy}:1", "die:1", "done")
    s, ev = finish_fight(s)
    (fight,) = of_type(ev, "fight")
    gain = combo(HEAL, 0).effect.hp
    assert gain == 3 and fight["public"]["attacker_hp_change"] == gain
    assert fight["public"]["yin_yang_damage"] == 2
    assert s["hp"][0] == fight["public"]["attacker_hp"] == 2 + gain - 2
    # The floor applies to the net change only: 1 HP, no heal, 2 yin-yangs.
    s = attack_by(
        [LOW, "c04", "c05"],
        [[2] * 7, [1, 1, 3, 3, 3, 3, 3], [3] * 7],
        others=([YY, "c23", "c29"], ["c69", "c68", "c66"]),
        hp={0: 1, 1: 40},
    )
    yy = slot_of(s, 1, YY)
    s, _ = act(s, 1, f"set:{yy}:1", "die:0", f"set:{yy}:1", "die:1", "done")
    s, _ = finish_fight(s)
    assert s["hp"][0] == 1


# -- elimination and the end --------------------------------------------------


def test_an_eliminated_player_no_longer_attacks_defends_or_plays() -> None:
    rolls = [[5, 5, 6, 6, 4, 4, 2], [1] * 7, [1] * 7] + [[1] * 7] * 20
    s = attack_by(
        [PAIR_ATK, DEF_456, "c04"],
        rolls,
        hp={2: 1},
        tracks={(2, "def"): 0},
    )
    s, _ = act(s, 0, "auto")
    s, _ev = finish_fight(s)
    assert s["elim"][2] and GAME.observe(s, None)["eliminated"] == [False, False, True]
    # The next attack skips seat 2 both as attacker and as defender.
    while s["phase"] == "assign":
        assert 2 not in s["fight"]["f"] and s["fight"]["a"] != 2
        s, _ = finish_fight(s)
    assert s["phase"] == "play" and GAME.actors(s) == [0, 1]
    assert GAME.legal_action_ids(s, 2) == []


def test_the_last_player_standing_wins_at_once() -> None:
    rolls = [[5, 5, 6, 6, 4, 4, 2], [1] * 7, [1] * 7]
    s = attack_by(
        [PAIR_ATK, DEF_456, "c04"],
        rolls,
        hp={1: 1, 2: 1},
        tracks={(1, "def"): 0, (2, "def"): 0},
    )
    s, _ = act(s, 0, "auto")
    s, _ev = finish_fight(s)
    assert GAME.is_over(s) and GAME.actors(s) == []
    r = GAME.result(s)
    assert r is not None
    assert r["winners"] == [0] and r["reason"] == "last_standing"
    assert r["placements"][0] == 1


def test_after_three_rounds_the_most_hp_wins_and_ties_share() -> None:
    s = deal(three_hands())
    for seat in range(3):
        s = set_hp(s, seat, 500)
    rounds = 0
    while not GAME.is_over(s):
        if s["phase"] == "play":
            rounds += s["commit"] == ["", "", ""]
            for seat in GAME.actors(s):
                while seat in GAME.actors(s):
                    s, _ = GAME.apply(s, seat, GAME.legal_action_ids(s, seat)[0])
        else:
            s, _ = finish_fight(s)
    assert rounds == 3
    r = GAME.result(s)
    assert r is not None
    assert r["reason"] == "rounds"
    best = max(s["hp"])
    assert r["winners"] == [i for i in range(3) if s["hp"][i] == best]
    tied = GAME.clone(s)
    tied["hp"] = [7, 9, 9]
    R._finish(tied, [], "rounds")
    assert tied["result"]["winners"] == [1, 2]
    assert tied["result"]["placements"] == [3, 1, 1]


# -- two players: the dummy ---------------------------------------------------------


def test_the_dummy_plays_three_deck_cards_and_attacks_with_their_initiative() -> None:
    hands = [[LOW, YY, DEF_456], ["c04", "c05", "c02"]]
    s = deal(hands, dummy=DUMMY_CARDS, dice=[[2] * 7] * 10)
    s, ev = commit(s, hands)
    (reveal,) = of_type(ev, "reveal")
    assert reveal["public"]["dummy"] == DUMMY_CARDS
    total = sum(INIT[c] for c in DUMMY_CARDS)
    assert reveal["public"]["dummy_total"] == total
    assert reveal["public"]["order"][-1] == E.DUMMY
    # The players' own attacks: the dummy is never a defender (it takes no damage).
    while s["fight"]["a"] != E.DUMMY:
        assert s["fight"]["f"] == [0, 1]
        s, _ = finish_fight(s)
    assert s["fight"]["f"] == [0, 1]  # both players defend against the dummy
    s, ev = finish_fight(s)
    (fight,) = of_type(ev, "fight")
    assert fight["public"]["attack"] == total
    assert fight["public"]["attacker_hp"] is None


def test_players_attack_before_the_dummy_on_an_initiative_tie() -> None:
    dummy = ["c08", "c09", "c10"]  # 2 + 2 + 2
    hands = [["c11", "c12", "c13"], [LOW, YY, DEF_456]]
    assert sum(INIT[c] for c in hands[0]) == sum(INIT[c] for c in dummy)
    s = deal(hands, dummy=dummy)
    s, ev = commit(s, hands)
    order = of_type(ev, "reveal")[0]["public"]["order"]
    assert order == [1, 0, E.DUMMY]


def test_if_the_dummy_eliminates_both_players_the_one_less_below_zero_wins() -> None:
    hands = [[LOW, YY, DEF_456], ["c04", "c05", "c02"]]
    s = deal(hands, dummy=DUMMY_CARDS, dice=[[2] * 7] * 10)
    s, _ = commit(s, hands)
    while s["fight"]["a"] != E.DUMMY:
        s, _ = finish_fight(s)
    s = set_hp(set_hp(s, 0, 3), 1, 5)
    s, _ev = finish_fight(s)
    assert s["elim"][0] and s["elim"][1]
    r = GAME.result(s)
    assert r is not None
    assert r["reason"] == "all_eliminated"
    assert s["hp"][0] != s["hp"][1]
    best = 0 if s["hp"][0] > s["hp"][1] else 1
    assert r["winners"] == [best] and r["placements"][best] == 1
    assert r["placements"][1 - best] == 2
