"""Kung Fu (2019), the dice game: decisions, defaults and refusals (the timeout
defaults, the menus, the exact solver behind ``auto`` and ``best``, taking a
set back), from stacked decks and dice. The rules themselves, one test each,
are in ``test_kungfu2019_rules.py``.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from gameplay.rules import IllegalAction, InvalidConfig
from gameplay.rules.kungfu2019 import assignment as A
from gameplay.rules.kungfu2019 import cards as C
from gameplay.rules.kungfu2019 import engine as E
from gameplay.rules.kungfu2019 import rounds as R
from tests.rules.kungfu2019_helpers import (
    CROSS,
    DEF_456,
    DUMMY_CARDS,
    GAME,
    GUARD_CROSS,
    HIT_1,
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

# -- decisions, defaults, refusals ------------------------------------------------


def test_auto_is_the_timeout_default_and_applies_the_proposal() -> None:
    rolls = [[5, 5, 6, 6, 4, 4, 1], [3] * 7, [3] * 7]
    s = attack_by([PAIR_ATK, DEF_456, YY], rolls)
    assert GAME.timeout_action(s, 0) == "auto" == GAME.legal_action_ids(s, 0)[0]
    proposal = E.proposal(s, 0)
    s2, _ev = GAME.apply(s, 0, "auto")
    asg = s2["fight"]["asg"][0]
    assert asg["done"] and asg["sets"] == [[a, b, list(d)] for a, b, d, _ in proposal]
    assert [asg["v"][i] for st in asg["sets"] for i in st[2]] == [
        x for *_, f in proposal for x in f
    ]
    assert GAME.actors(s2) == [1, 2]


def test_draft_and_play_timeouts_take_the_first_card_of_the_menu() -> None:
    s = GAME.setup({"players": 2}, seed=5)
    pack = GAME.observe(s, 1)["draft"]["pack"]
    assert GAME.timeout_action(s, 1) == f"pick:{pack[0]}"
    s = deal(three_hands())
    hand = GAME.observe(s, 2)["hand"]
    assert GAME.timeout_action(s, 2) == f"play:{hand[0]}"


def test_illegal_actions_are_refused_and_the_state_is_untouched() -> None:
    s = deal(three_hands())
    frozen = json.dumps(s, sort_keys=True)
    with pytest.raises(IllegalAction, match="not legal"):
        GAME.apply(s, 0, f"play:{PAIR_ATK}")  # in seat 1's hand
    with pytest.raises(IllegalAction, match="malformed"):
        GAME.apply(s, 0, 3)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="no seat"):
        GAME.apply(s, 5, f"play:{YY}")
    s2, _ = commit(s, [[YY, DEF_456, HIT_1], None, None])
    with pytest.raises(IllegalAction, match="no decision"):
        GAME.apply(s2, 0, f"play:{s2['hands'][0] and E.CODE[s2['hands'][0][0]]}")
    with pytest.raises(IllegalAction):
        GAME.timeout_action(s2, 0)
    assert json.dumps(s, sort_keys=True) == frozen


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"players": 1}, "2 to 5 players"),
        ({"players": 6}, "2 to 5 players"),
        ({"draft": "no"}, "draft must be"),
        ({"deck": ["c01", "c01"]}, "twice"),
        ({"deck": ["x99"]}, "card codes"),
        ({"dice": [[1, 2, 3]]}, "7 values"),
        ({"dice": [[0, 1, 1, 1, 1, 1, 1]]}, "7 values"),
        ({"colour": 1}, "unknown option"),
    ],
)
def test_bad_configs_are_refused_clearly(config: dict, message: str) -> None:
    with pytest.raises(InvalidConfig, match=message):
        GAME.setup(config, seed=1)


def test_menus_describe_every_id_in_order() -> None:
    rolls = [[5, 5, 6, 6, 4, 4, 1], [3] * 7, [3] * 7]
    s = attack_by([PAIR_ATK, DEF_456, YY], rolls, tracks={(0, "hit"): 2})
    s, _ = act(s, 0, f"set:{slot_of(s, 0, PAIR_ATK)}:0", "die:6")
    for seat in (0, 1):
        menu = GAME.legal_actions(s, seat)
        assert [a["id"] for a in menu] == GAME.legal_action_ids(s, seat)
        assert all(a["label"] and a["type"] for a in menu)
    assert {a["type"] for a in GAME.legal_actions(s, 0)} >= {
        "auto",
        "die",
        "up",
        "cancel",
    }


def test_auto_uses_the_exact_solver_with_the_track_budget() -> None:
    solver = pytest.importorskip("gameplay.rules.kungfu2019.solver")
    cross_avo = "c05"  # red cross: +1 AVO
    assert not combo(cross_avo, 1).needs_dice and combo(cross_avo, 1).effect.avo
    rolls = [[1] * 7, [4, 4, 1, 2, 3, 5, 2], [1] * 7]
    s = attack_by(
        [LOW, YY, HIT_1],
        rolls,
        others=([cross_avo, DEF_456, "c29"], ["c69", "c68", "c66"]),
        tracks={(1, "avo"): 2},
    )
    assert s["fight"]["asg"][1]["bud"] == 2 * STEP["avo"] + 1
    options = A._options(s["played"][1])
    expected = solver.best_assignment(rolls[1], options, 2 * STEP["avo"], "def")
    assert E.proposal(s, 1) == [tuple(x) for x in expected]


def test_the_solver_answers_are_legal_assignments_in_real_fights() -> None:
    solver = pytest.importorskip("gameplay.rules.kungfu2019.solver")
    checked = 0
    for seed in range(12):
        s = GAME.setup({"players": 2 + seed % 4, "draft": False}, seed=seed)
        while not GAME.is_over(s):
            seat = GAME.actors(s)[0]
            if s["phase"] == "assign":
                f = s["fight"]
                for i in f["f"]:
                    role = A._role(f, i)
                    played = s["played"][i]
                    track = f["asg"][i]["bud"] - sum(
                        E.CROSS[c][role][1] for c in played
                    )
                    sets = solver.best_assignment(
                        f["dice"][i], A._options(played), track, role
                    )
                    assert A._check_assignment(
                        played, role, f["dice"][i], f["asg"][i]["bud"], sets
                    ), (played, f["dice"][i], sets)
                    checked += 1
            s, _ = GAME.apply(s, seat, GAME.legal_action_ids(s, seat)[0])
    assert checked > 100


def test_a_fighter_with_no_dice_combination_for_its_role_is_done_at_the_roll() -> None:
    crosses_only = [LOW, GUARD_CROSS, CROSS]  # defence: red crosses only
    assert all(
        not c.needs_dice
        for code in crosses_only
        for c in C.COMBOS[code]
        if c.effect.active_in("def")
    )
    rolls = [[2] * 7, [3] * 7, [4] * 7]
    s = attack_by(
        ["c04", "c05", "c06"],
        rolls,
        others=(crosses_only, ["c69", "c68", "c66"]),
    )
    assert 1 not in GAME.actors(s) and GAME.legal_action_ids(s, 1) == []
    assert s["fight"]["asg"][1]["done"]


def test_zero_hp_eliminates() -> None:
    rolls = [[5, 5, 6, 6, 4, 4, 2], [1] * 7, [1] * 7]
    s = attack_by([PAIR_ATK, DEF_456, "c04"], rolls, hp={2: 100})
    s, _ = act(s, 0, "auto")
    _, ev = finish_fight(s)
    damage = of_type(ev, "fight")[0]["public"]["defenders"][1]["damage"]
    assert damage > 0
    s = attack_by([PAIR_ATK, DEF_456, "c04"], rolls, hp={2: damage})
    s, _ = act(s, 0, "auto")
    s, ev = finish_fight(s)
    assert s["hp"][2] == 0 and s["elim"][2]


def test_played_and_dummy_cards_leave_the_game_face_up_after_the_round() -> None:
    hands = [[LOW, YY, DEF_456], ["c04", "c05", "c02"]]
    s = deal(hands, dummy=DUMMY_CARDS)
    for seat in (0, 1):
        s = set_hp(s, seat, 500)
    s, _ = commit(s, hands)
    while s["phase"] == "assign":
        s, _ = finish_fight(s)
    assert s["round"] == 2
    assert sorted(GAME.observe(s, None)["discard"]) == sorted(
        hands[0] + hands[1] + DUMMY_CARDS
    )
    assert GAME.observe(s, 0)["hand_sizes"] == [7, 7]
    assert GAME.observe(s, 0)["deck_size"] == 74 - 20 - 3


def test_determinize_keeps_each_other_seats_icon_counts_after_the_draft() -> None:
    s = GAME.setup({"players": 4, "draft": False}, seed=9)
    s, _ = act(s, 1, GAME.legal_action_ids(s, 1)[0])
    for k in range(5):
        d = GAME.determinize(s, 0, k)
        assert d["hands"][0] == s["hands"][0]
        for seat in (1, 2, 3):
            mine = Counter(E.ICON[c] for c in s["hands"][seat] + s["commit"][seat])
            theirs = Counter(E.ICON[c] for c in d["hands"][seat] + d["commit"][seat])
            assert mine == theirs
            assert len(d["commit"][seat]) == len(s["commit"][seat])
        assert GAME.observe(d, 0) == GAME.observe(s, 0)
    assert any(GAME.determinize(s, 0, k)["hands"][1] != s["hands"][1] for k in range(5))


def test_the_greedy_fallback_is_always_a_legal_assignment() -> None:
    rnd = random.Random(4)
    for _ in range(3000):
        played = "".join(rnd.sample(E.ALPHABET, 3))
        role = rnd.choice(["atk", "def"])
        rolled = [rnd.randint(1, 6) for _ in range(7)]
        sets = A._greedy(played, role, rolled)
        assert A._check_assignment(played, role, rolled, 0, sets) is not None
        used = [i for _, _, dice, _ in sets for i in dice]
        # Greedy stops only when no usable combination fits the free dice.
        free = [i for i in range(7) if i not in used]
        for ch in played:
            for _k, c in E.USABLE[ch][role]:
                e = c.effect
                if (e.atk + e.hp if role == "atk" else e.def_ + e.yy) > 0:
                    assert A._find(c, rolled, free) is None


def test_best_loads_the_proposal_to_adjust_and_drop_takes_a_set_back() -> None:
    rolls = [[5, 5, 6, 6, 4, 4, 1], [3] * 7, [3] * 7]
    s = attack_by([PAIR_ATK, DEF_456, YY], rolls, tracks={(0, "hit"): 0})
    ids = GAME.legal_action_ids(s, 0)
    assert ids[:3] == ["auto", "done", "best"]
    proposal = E.proposal(s, 0)
    s, _ = act(s, 0, "best")
    asg = s["fight"]["asg"][0]
    assert not asg["done"] and len(asg["sets"]) == len(proposal) >= 2
    assert GAME.actors(s)[0] == 0
    drops = [a for a in GAME.legal_action_ids(s, 0) if a.startswith("drop:")]
    assert drops == [f"drop:{j}" for j in range(len(asg["sets"]))]
    first = asg["sets"][0]
    s, _ = act(s, 0, "drop:0")
    asg = s["fight"]["asg"][0]
    assert first not in asg["sets"] and len(asg["sets"]) == len(proposal) - 1
    assert all(asg["v"][i] == rolls[0][i] for i in first[2])


def test_a_set_whose_hit_paid_for_a_later_set_cannot_be_taken_back() -> None:
    rolls = [[1, 2, 3, 6, 6, 4, 5], [1] * 7, [1] * 7]
    s = attack_by([HIT_1, PAIR_ATK, YY], rolls, tracks={(0, "hit"): 0})
    pair = slot_of(s, 0, PAIR_ATK)
    hit = slot_of(s, 0, HIT_1)
    s, _ = act(s, 0, f"set:{hit}:0", "die:0", f"set:{pair}:0", "die:1", "die:2")
    s, _ = act(s, 0, "up:1")  # paid with the HIT the first set gained
    assert len(s["fight"]["asg"][0]["sets"]) == 2
    ids = GAME.legal_action_ids(s, 0)
    assert "drop:0" not in ids and "drop:1" in ids
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, "drop:0")
    s, _ = act(s, 0, "drop:1")
    asg = s["fight"]["asg"][0]
    assert asg["spent"] == 0 and asg["v"] == rolls[0]
    assert "drop:0" in GAME.legal_action_ids(s, 0)


def test_a_drop_gives_what_the_full_check_of_the_other_sets_gives() -> None:
    """``drop:j`` computes the assignment left directly (``_dropped``) instead
    of checking the other sets again (``_without``): both must agree on every
    set that random fights (bought dice, loaded proposals, drops) let go."""
    rnd = random.Random(2019)
    seen = 0
    for g in range(60):
        s = GAME.setup({"players": 2 + g % 4, "draft": g % 2 == 0}, 900 + g)
        while (who := GAME.actors(s)) and seen < 400:
            seat = who[0]
            if s["phase"] == E.ASSIGN:
                asg = s["fight"]["asg"][seat]
                if asg["open"] is None:
                    for j in range(len(asg["sets"])):
                        reference = A._without(s, seat, j)
                        if not A._droppable(s, seat, j):
                            assert reference is None
                            continue
                        seen += 1
                        assert reference is not None
                        assert A._dropped(s, seat, j) == reference
            ids = GAME.legal_action_ids(s, seat)
            # Prefer the steps that build and pay for sets, so that fights
            # hold several closed sets, some bought with HIT/AVO.
            pool = [a for a in ids if a not in ("auto", "done")] or ids
            s, _ = GAME.apply(s, seat, rnd.choice(pool))
    assert seen >= 100


def test_the_roll_tables_read_seven_base_six_digits_lowest_first() -> None:
    """``_roll`` reads its dice from two tables instead of seven divisions."""
    for x in [
        0,
        1,
        5,
        6,
        1295,
        1296,
        6**7 - 1,
        *random.Random(7).sample(range(6**7), 500),
    ]:
        digits = []
        y = x
        for _ in range(E.DICE):
            y, d = divmod(y, 6)
            digits.append(d + 1)
        assert [*R._ROLL_LOW[x % 1296], *R._ROLL_HIGH[x // 1296]] == digits
