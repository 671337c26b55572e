"""Turn, duel, elimination, end of game, options and the match of several rounds."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from gameplay.rules import InvalidConfig
from tests.rules.duelo_helpers import (
    GAME,
    duel_result,
    hand,
    make_state,
    of_type,
    run,
    seen_by,
)

FILLER = [1] * 12


def test_turn_draw_then_play_face_up_ends_turn_and_passes_left() -> None:
    state = make_state([[3, 5], [6], [7]], FILLER)
    state, events = run(state, "card:3", "face:up")
    assert state["turn"] == 1 and hand(state, 1) == [1, 6]
    assert of_type(events, "play_up")[0]["public"] == {"seat": 0, "card": 3}


def test_face_down_card_is_hidden_until_the_answer() -> None:
    state = make_state([[6, 5], [4], [7]], FILLER)
    state, events = run(state, "card:6", "face:down", "target:1")
    assert GAME.observe(state, 1)["duel"]["cards"] == [None, None]
    assert GAME.observe(state, 0)["duel"]["cards"] == [6, None]
    assert of_type(seen_by(events, 1), "play_down")[0]["private"] == {}
    state, events = run(state, "answer:4")
    assert of_type(events, "duel_reveal")[0]["public"]["cards"] == [6, 4]


def test_duel_winner_takes_prize_discards_own_card_and_draws() -> None:
    state = make_state([[6, 5], [4, 2], [7]], [3, *FILLER])
    state, events = run(state, "card:6", "face:down", "target:1", "answer:4")
    assert duel_result(events)["winner"] == 0
    assert state["prizes"][0] == "4" and state["discard"] == "6"
    assert hand(state, 0) == [3, 5]  # drew the 3 as the winner
    assert state["turn"] == 1


def test_tie_by_equal_focus_both_take_prizes_and_draw_active_first() -> None:
    # Disciple copying a 6 against a Tiger: equal Focus after effects.
    state = make_state([[1, 5], [6, 2], [7]], [6, 3, 4, *FILLER])
    state, events = run(
        state, "card:1", "face:down", "target:1", "answer:6", "reveal:yes"
    )
    res = duel_result(events)
    assert res["tie"] is True and res["reason"] == "same_focus"
    assert state["prizes"][0] == "6" and state["prizes"][1] == "1"
    draws = [e for e in seen_by(events, None) if e["type"] == "draw"]
    assert [d["public"]["seat"] for d in draws[:2]] == [0, 1]
    assert hand(state, 0) == [5, 6]  # active drew the revealed 6 first


def test_tie_by_same_name_even_if_focus_changes() -> None:
    state = make_state([[5, 2], [5, 3], [7]], FILLER)
    state, events = run(
        state, "card:5", "face:down", "target:1", "answer:5", "monkey:use", "bottom:2"
    )
    state, more = run(state, "monkey:skip")
    res = duel_result(events + more)
    assert res["focus"] == [1, 5] and res["tie"] and res["reason"] == "same_name"


def test_player_without_cards_at_end_of_turn_is_eliminated() -> None:
    state = make_state([[6, 5], [4], [7]], FILLER)
    state, events = run(state, "card:6", "face:down", "target:1", "answer:4")
    elim = of_type(events, "eliminated")[0]["public"]
    assert elim == {"seat": 1, "reason": "no_cards", "hand": []}
    assert state["turn"] == 2  # the eliminated seat is skipped


def test_last_player_standing_wins() -> None:
    state = make_state([[6, 5], [4]], FILLER)
    state, _ = run(state, "card:6", "face:down", "target:1", "answer:4")
    assert GAME.result(state) == {
        "winners": [0],
        "placements": [1, 2],
        "scores": {"points": [1, 0], "prize_focus": [4, 0]},
        "reason": "last_standing",
    }


def test_deck_out_scoring_highest_card_face_down_points_then_focus() -> None:
    state = make_state([[3, 5], [7, 2], [6, 1]], [])
    state["prizes"] = ["4", "2", "11"]
    # Seat 0 plays Crane face up; seat 1 must then draw from an empty deck.
    state, events = run(state, "card:3", "face:up")
    over = of_type(events, "round_over")[0]["public"]
    assert over["hands"] == [[5], [2, 7], [1, 6]]
    # Seat 1 holds the highest card (7): it goes face down, worth 1 point, 0 Focus.
    assert over["face_down_prizes"] == [[], [7], []]
    assert over["points"] == [1, 2, 2]
    assert over["prize_focus"] == [4, 2, 2]
    # Seats 1 and 2 tie on points and on Focus: both win.
    assert _result(state)["winners"] == [1, 2]
    assert _result(state)["placements"] == [3, 1, 1]


def test_deck_out_focus_tiebreak() -> None:
    state = make_state([[3, 5], [2], [1]], [])
    state["prizes"] = ["6", "4", "1"]
    state, _ = run(state, "card:3", "face:up")
    # Seat 0's 5 is the highest card: points 2, 1, 1; seat 0 wins outright.
    assert _result(state)["winners"] == [0]
    state = make_state([[3, 1], [2], [5]], [])
    state["prizes"] = ["6", "4", "1"]
    state, _ = run(state, "card:3", "face:up")
    # Seat 2 gets the face-down 5: points 1, 1, 2.
    assert _result(state)["winners"] == [2]
    state = make_state([[3, 1], [2], [1]], [])
    state["prizes"] = ["6", "4", "1"]
    state, _ = run(state, "card:3", "face:up")
    # Seat 1 has the highest card (2): points 1, 2, 1.
    assert _result(state)["winners"] == [1]
    state = make_state([[3, 1], [1], [1]], [])
    state["prizes"] = ["6", "4", "1"]
    state, _ = run(state, "card:3", "face:up")
    # Everyone holds a 1: all place one face down; points 2,2,2; Focus 6,4,1.
    assert _result(state)["winners"] == [0]


def test_reshuffle_option_turns_the_discard_pile_into_a_new_deck_once() -> None:
    config = {"reshuffle_discard": True}
    state = make_state(
        [[3, 5], [7, 2], [6, 1], [1, 1]], [], discard=[6, 3], config=config
    )
    state, events = run(state, "card:3", "face:up")
    assert of_type(events, "reshuffle")[0]["public"] == {"deck_count": 3}
    # The Crane just played is in the discard pile and is shuffled in too.
    assert sorted(hand(state, 1)) in ([2, 3, 7], [2, 6, 7])
    assert not GAME.is_over(state) and state["reshuffled"] is True
    # Only the first time: the next draw from an empty deck ends the round.
    state["deck"] = ""
    state["discard"] = "55"
    state, _ = run(state, "card:2", "face:up")
    assert GAME.is_over(state) and _result(state)["reason"] == "deck_out"


def test_five_to_eight_players_use_the_doubled_deck_without_second_master() -> None:
    state = GAME.setup({"players": 5}, seed=1)
    total = Counter(
        state["deck"] + state["aside"] + "".join(state["hands"]) + state["table"]
    )
    assert sum(total.values()) == 47
    assert total["8"] == 1 and total["1"] == 12 and total["7"] == 4


def test_stacked_deck_order_top_first_first_card_is_set_aside() -> None:
    deck = [8, 1, 2, 3, 4, 5, 6, 7, 1, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]
    state = GAME.setup({"players": 2, "start": 1, "deck": deck}, seed=0)
    assert state["aside"] == "8"
    # The starter is dealt first, two cards at a time, then draws its turn card.
    assert hand(state, 1) == [1, 2, 5]
    assert hand(state, 0) == [3, 4]
    with pytest.raises(InvalidConfig, match="exactly the 24 cards"):
        GAME.setup({"players": 2, "deck": deck[:-1]}, seed=0)


def test_starting_player_explicit_random_and_highest_focus_draw() -> None:
    assert GAME.actors(GAME.setup({"players": 4, "start": 2}, seed=5)) == [2]
    starters = {GAME.actors(GAME.setup({"players": 4}, seed=s))[0] for s in range(40)}
    assert starters == {0, 1, 2, 3}
    for seed in range(30):
        state = GAME.setup({"players": 4, "start": "highest_focus"}, seed=seed)
        final = state["start_draw"][-1]
        best = max(f for _, f in final)
        assert [x for x, f in final if f == best] == GAME.actors(state)
        assert GAME.observe(state, None)["start_draw"] == state["start_draw"]


def test_same_seed_same_game_different_seed_different_deal() -> None:
    a = GAME.setup({"players": 3}, seed=11)
    b = GAME.setup({"players": 3}, seed=11)
    c = GAME.setup({"players": 3}, seed=12)
    assert a == b and a != c


def test_match_of_rounds_markers_and_winner_starts_next_round() -> None:
    state = GAME.setup({"players": 2, "rounds": 2, "start": 0}, seed=4)
    state["hands"] = ["65", "4"]
    state["phase"], state["actor"], state["ctx"] = "card", 0, {}
    state, events = run(state, "card:6", "face:down", "target:1", "answer:4")
    over = of_type(events, "round_over")[0]["public"]
    assert over["winners"] == [0] and state["markers"] == [1, 0]
    assert not GAME.is_over(state) and state["round"] == 2
    assert GAME.actors(state) == [0]  # the round's winner starts the next
    assert of_type(events, "round_start")
    assert sum(len(h) for h in state["hands"]) == 5
    # Win round 2 as well: the match ends.
    state["hands"] = ["65", "4"]
    state["phase"], state["actor"], state["ctx"] = "card", 0, {}
    state, _ = run(state, "card:6", "face:down", "target:1", "answer:4")
    result = GAME.result(state)
    assert result is not None
    assert result["winners"] == [0] and result["reason"] == "match"
    assert result["scores"]["markers"] == [2, 0]
    assert len(GAME.observe(state, 1)["rounds"]) == 2


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("players=4", "config must be a dict"),
        ({"players": 1}, "players must be an integer from 2 to 8"),
        ({"players": True}, "players must be an integer"),
        ({"start": 5}, "start seat must be from 0 to 1"),
        ({"start": "oldest"}, "start must be"),
        ({"reshuffle_discard": "yes"}, "reshuffle_discard must be true or false"),
        ({"rounds": 13}, "rounds"),
        ({"deck": [9]}, "deck must be a list of card Focus values"),
        ({"speed": 2}, "unknown option"),
    ],
)
def test_invalid_config_is_rejected_with_a_clear_message(
    config: object, message: str
) -> None:
    with pytest.raises(InvalidConfig, match=message):
        GAME.setup(config, seed=0)  # type: ignore[arg-type]


def test_validate_config_normalizes_defaults() -> None:
    assert GAME.validate_config({}) == {
        "players": 2,
        "start": "random",
        "reshuffle_discard": False,
        "rounds": 1,
        "deck": None,
    }


def test_timeout_defaults_are_cautious() -> None:
    state = make_state([[8, 5, 2], [6], [7]], FILLER)
    assert GAME.timeout_action(state, 0) == "card:2"
    state, _ = run(state, "card:5")
    assert GAME.timeout_action(state, 0) == "face:up"
    state, _ = run(state, "face:down")
    assert GAME.timeout_action(state, 0) == "target:1"
    state, _ = run(state, "target:2")
    assert GAME.timeout_action(state, 2) == "answer:7"
    state, _ = run(state, "answer:7")
    assert GAME.timeout_action(state, 0) == "monkey:skip"


def test_json_round_trip_of_a_fresh_state_is_lossless() -> None:
    state = GAME.setup({"players": 8, "rounds": 3, "reshuffle_discard": True}, 9)
    assert json.loads(json.dumps(state)) == state


def test_active_monkey_redraw_happens_before_the_opposing_disciple_looks() -> None:
    # Reading R8: active player first, so the Disciple sees the new top card.
    state = make_state([[5, 3], [1, 2], [7]], [8, *FILLER])
    state, _ = run(state, "card:5", "face:down", "target:1", "answer:1")
    state, _ = run(state, "monkey:use", "bottom:3")
    # The Monkey drew the 8 back; the Disciple now looks at a 1.
    assert hand(state, 0) == [8]
    assert GAME.observe(state, 1)["private"] == {"peek": 1, "source": "deck"}


def test_monkey_redraw_with_an_empty_hand_only_lowers_focus() -> None:
    state = make_state([[5], [2, 3], [7]], FILLER)
    state, events = run(
        state, "card:5", "face:down", "target:1", "answer:2", "monkey:use"
    )
    assert duel_result(events)["focus"] == [1, 2]
    assert duel_result(events)["winner"] == 0


def test_monkey_swap_fizzles_when_nobody_else_can_be_chosen() -> None:
    state = make_state([[3, 1], [5, 2]], FILLER)
    state, _ = run(state, "card:3", "face:up")
    state, events = run(state, "card:5", "face:up")
    assert of_type(events, "fizzles")[0]["public"] == {"seat": 1, "card": 5}


def test_dragon_face_up_with_empty_deck_ends_the_round() -> None:
    state = make_state([[7, 2], [6], [1]], [])
    state, events = run(state, "card:7", "face:up")
    assert of_type(events, "dragon_look")[0]["public"] == {"seat": 0, "empty": True}
    assert _result(state)["reason"] == "deck_out"


def test_shared_round_win_gives_markers_and_first_winner_clockwise_starts() -> None:
    state = GAME.setup({"players": 3, "rounds": 2, "start": 1}, seed=2)
    state["hands"] = ["1", "31", "1"]
    state["deck"] = ""
    state["phase"], state["actor"], state["turn"], state["ctx"] = "card", 1, 1, {}
    # Seat 1 plays Crane; seat 2 cannot draw: everyone holds a 1, points tie
    # (one face-down card each), Focus ties: a three-way shared round win.
    state, events = run(state, "card:3", "face:up")
    over = of_type(events, "round_over")[0]["public"]
    assert over["winners"] == [0, 1, 2]
    assert state["markers"] == [1, 1, 1] and state["round"] == 2
    assert GAME.actors(state) == [1]  # first winner clockwise from seat 1


DECLINE = {
    "face": "face:up",
    "c_disciple": "reveal:no",
    "u_disciple": "reveal:no",
    "c_monkey": "monkey:skip",
    "dragon_draw": "dragon:one",
    "snake_guess": "guess:odd",
    "dragon_peek": "peek:keep",
}
HAND_MENUS = {"card", "answer", "separate", "put", "bottom"}


def test_timeout_default_matches_the_documented_rule_at_every_decision() -> None:
    """docs/rules/duelo.md: lowest card (Master last), decline, next to the left."""
    import random

    seen = set()
    for seed in range(150):
        rnd = random.Random(seed)
        n = 2 + seed % 7
        state = GAME.setup({"players": n}, seed)
        while not GAME.is_over(state):
            (seat,) = GAME.actors(state)
            ids = GAME.legal_action_ids(state, seat)
            default = GAME.timeout_action(state, seat)
            phase = state["phase"]
            seen.add(phase)
            kind = default.split(":")[0]
            if phase in DECLINE:
                assert default == DECLINE[phase]
            elif kind in HAND_MENUS:
                cards = sorted({int(a.split(":")[1]) for a in ids})
                without_master = [c for c in cards if c != 8] or cards
                assert default == f"{kind}:{without_master[0]}"
            elif phase == "monkey_a" or (phase == "monkey_b" and f"swap:{seat}" in ids):
                assert default == f"swap:{seat}"
            else:
                seats = [int(a.split(":")[1]) for a in ids]
                nearest = min(seats, key=lambda o: (o - seat) % n or n)
                assert default == f"{kind}:{nearest}", (phase, ids)
            state, _ = GAME.apply(state, seat, rnd.choice(ids))
    assert len(seen) >= 15  # nearly every decision point was exercised


def _result(state: dict[str, Any]) -> dict[str, Any]:
    """The finished game's result (None only while it is still going)."""
    result = GAME.result(state)
    assert result is not None, "the game is not over"
    return result
