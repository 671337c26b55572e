"""One test per card effect and per rulebook note (section "The Cards")."""

from __future__ import annotations

import pytest

from tests.rules.duelo_helpers import (
    GAME,
    duel_result,
    hand,
    make_state,
    of_type,
    run,
    seen_by,
    top_first,
)

FILLER = [1] * 12  # plenty of cards to draw, all Disciples


# -- Disciple -----------------------------------------------------------------


def test_disciple_discard_reveal_copies_the_top_cards_discard_effect() -> None:
    state = make_state([[1, 5], [6], [7]], [3, *FILLER])
    state, events = run(state, "card:1", "face:up")
    assert state["phase"] == "u_disciple"
    assert GAME.observe(state, 0)["private"] == {"peek": 3, "source": "deck"}
    assert GAME.observe(state, 1)["private"] == {}
    state, events = run(state, "reveal:yes")
    # Copied Crane Style: protected until seat 0's next turn...
    assert state["crane"][0] is True
    # ...and the revealed card stays on top of the deck (drawn next by seat 1).
    assert of_type(events, "disciple_reveal")[0]["public"]["card"] == 3
    assert hand(state, 1) == [3, 6]


def test_disciple_discard_not_revealing_has_no_effect() -> None:
    state = make_state([[1, 5], [6], [7]], [3, *FILLER])
    state, events = run(state, "card:1", "face:up", "reveal:no")
    assert state["crane"][0] is False
    assert not of_type(events, "disciple_reveal")
    assert state["discard"] == "1"


def test_disciple_discard_revealing_a_disciple_has_no_effect() -> None:
    state = make_state([[1, 5], [6], [7]], [1, *FILLER])
    state, events = run(state, "card:1", "face:up", "reveal:yes")
    assert state["phase"] == "card" and state["turn"] == 1
    types = [e["type"] for e in events]
    reveal = types.index("disciple_reveal")
    assert types[reveal + 1 : reveal + 3] == ["turn", "draw"]


def test_disciple_discard_copies_tiger_targeting_effect() -> None:
    state = make_state([[1, 5], [6], [7]], [6, *FILLER])
    state, _ = run(state, "card:1", "face:up", "reveal:yes")
    assert state["phase"] == "tiger_target"
    state, _ = run(state, "tiger:2")
    assert state["tiger"][0] == 2


def test_disciple_combat_copies_focus_not_ability() -> None:
    # Top card is Snake (4): copying its Focus against Monkey (5, odd) loses,
    # because Snake's "defeat odd" ability is not copied.
    state = make_state([[1, 2], [5], [7]], [4, *FILLER])
    state, events = run(state, "card:1", "face:down", "target:1", "answer:5")
    assert state["phase"] == "c_disciple"
    state, more = run(state, "reveal:yes", "monkey:skip")
    res = duel_result(events + more)
    assert res["focus"] == [4, 5]
    assert res["winner"] == 1


def test_disciple_combat_reveal_wins_with_a_high_top_card() -> None:
    state = make_state([[1, 2], [6], [7]], [7, *FILLER])
    state, events = run(
        state, "card:1", "face:down", "target:1", "answer:6", "reveal:yes"
    )
    res = duel_result(events)
    assert res["winner"] == 0 and res["focus"] == [7, 6]


def test_disciple_combat_not_revealing_keeps_focus_one() -> None:
    state = make_state([[1, 2], [6], [7]], [7, *FILLER])
    state, events = run(
        state, "card:1", "face:down", "target:1", "answer:6", "reveal:no"
    )
    assert duel_result(events)["winner"] == 1


def test_two_disciples_always_tie_without_any_decision() -> None:
    state = make_state([[1, 2], [1], [7]], [8, *FILLER])
    state, events = run(state, "card:1", "face:down", "target:1", "answer:1")
    res = duel_result(events)
    assert res["tie"] is True and res["reason"] == "same_name"
    assert not of_type(events, "disciple_look")


def test_disciple_looks_at_the_set_aside_card_when_the_deck_is_empty() -> None:
    state = make_state([[1, 2], [6], [7]], [], aside=8)
    state, events = run(state, "card:1", "face:down", "target:1", "answer:6")
    assert GAME.observe(state, 0)["private"] == {"peek": 8, "source": "set_aside"}
    state, more = run(state, "reveal:yes")
    assert duel_result(events + more)["winner"] == 0
    # The winner must then draw from the empty deck: the round ends.
    assert GAME.is_over(state)


def test_disciple_discard_copies_the_set_aside_card_when_the_deck_is_empty() -> None:
    state = make_state([[1, 2], [6], [7]], [], aside=3)
    state, _ = run(state, "card:1", "face:up", "reveal:yes")
    assert state["crane"][0] is True


# -- Drunken Fists --------------------------------------------------------------


def test_drunken_fists_discard_draws_two_and_puts_any_two_back_in_order() -> None:
    state = make_state([[2, 8], [6], [7]], [5, 4, *FILLER])
    state, _ = run(state, "card:2", "face:up")
    assert hand(state, 0) == [4, 5, 8]
    # Put back the Master first, then the Snake: the Snake ends on top.
    state, events = run(state, "put:8", "put:4")
    assert hand(state, 1)[-1] == 6 and 4 in hand(state, 1)  # seat 1 drew the Snake
    assert top_first(state)[0] == 8
    # Only the player knows which cards went back.
    assert all("card" not in e["public"] for e in of_type(events, "put_on_top"))
    assert of_type(seen_by(events, 0), "put_on_top")[0]["private"] == {"card": 8}
    assert of_type(seen_by(events, 1), "put_on_top")[0]["private"] == {}


def test_drunken_fists_combat_lowest_focus_wins() -> None:
    state = make_state([[2, 3], [8], [7]], FILLER)
    state, events = run(state, "card:2", "face:down", "target:1", "answer:8")
    res = duel_result(events)
    assert res["winner"] == 0 and res["reason"] == "lowest_focus"


def test_drunken_fists_effect_is_not_optional_disciple_beats_it() -> None:
    state = make_state([[2, 3], [1, 5], [7]], [1, *FILLER])
    state, events = run(
        state, "card:2", "face:down", "target:1", "answer:1", "reveal:no"
    )
    assert duel_result(events)["winner"] == 1


def test_monkey_must_use_its_effect_to_beat_drunken_fists() -> None:
    base = make_state([[2, 3], [5, 4], [7]], FILLER)
    state, _events = run(base, "card:2", "face:down", "target:1", "answer:5")
    _, skip = run(state, "monkey:skip")
    assert duel_result(skip)["winner"] == 0
    _used, more = run(state, "monkey:use", "bottom:4")
    assert duel_result(more)["winner"] == 1


# -- Crane Style -----------------------------------------------------------------


def test_crane_discard_protects_from_duels_and_discard_effects() -> None:
    state = make_state([[3, 5], [6, 6], [7, 7]], FILLER)
    state, _ = run(state, "card:3", "face:up")
    assert state["crane"][0] is True and state["turn"] == 1
    state["hands"][1] = "46"
    state, _ = run(state, "card:4", "face:down")
    assert GAME.legal_action_ids(state, 1) == ["target:2"]
    state = make_state([[3, 5], [6, 6], [7, 7]], FILLER)
    state, _ = run(state, "card:3", "face:up")
    state["hands"][1] = "45"
    state, _ = run(state, "card:5", "face:up")
    assert GAME.legal_action_ids(state, 1) == ["swap:1", "swap:2"]


def test_crane_protection_ends_at_its_owners_next_turn() -> None:
    state = make_state([[3, 5], [6, 6]], FILLER)
    state, _ = run(state, "card:3", "face:up")
    assert state["crane"][0] is True
    state, events = run(state, "card:6", "face:up")  # seat 1 Tiger: no target
    assert of_type(events, "fizzles")
    assert state["turn"] == 0 and state["crane"][0] is False
    assert of_type(events, "protection_ends")


def test_only_opponent_protected_active_must_play_face_up_and_effect_fizzles() -> None:
    state = make_state([[3, 5], [4, 6]], FILLER)
    state, _ = run(state, "card:3", "face:up")
    state, _ = run(state, "card:4")
    assert GAME.legal_action_ids(state, 1) == ["face:up"]
    state, events = run(state, "face:up")
    assert of_type(events, "fizzles")[0]["public"] == {"seat": 1, "card": 4}
    assert state["turn"] == 0


def test_disciple_copying_crane_protects_too() -> None:
    state = make_state([[1, 5], [6, 6]], [3, *FILLER])
    state, _ = run(state, "card:1", "face:up", "reveal:yes")
    assert state["crane"][0] is True


@pytest.mark.parametrize("other", [1, 2, 4, 5, 6, 7])
def test_crane_combat_ignores_the_opponents_combat_effect(other: int) -> None:
    state = make_state([[3, 3], [other], [8]], [8, *FILLER])
    state, events = run(state, "card:3", "face:down", "target:1", f"answer:{other}")
    # No Disciple look, no Monkey redraw, no Drunken/Snake rule, no Tiger look,
    # no Dragon extra draw: plain Focus decides.
    assert not of_type(events, "disciple_look")
    assert state["phase"] not in ("c_disciple", "c_monkey", "dragon_draw")
    res = duel_result(events)
    assert res["reason"] == "highest_focus"
    assert res["winner"] == (0 if other < 3 else 1)
    assert not of_type(events, "tiger_look")


# -- Snake Style -----------------------------------------------------------------


def test_snake_discard_target_separates_then_guess_and_discard_when_right() -> None:
    state = make_state([[4, 2], [7, 6], [1, 1]], FILLER)
    state, events = run(state, "card:4", "face:up", "snake:1")
    assert GAME.actors(state) == [1]
    state, more = run(state, "separate:7")
    events += more
    # The target knows its own separated card; the guesser does not yet.
    assert GAME.observe(state, 1)["private"] == {"separated": 7}
    assert GAME.observe(state, 0)["private"] == {}
    state, more = run(state, "guess:odd")
    events += more
    assert hand(state, 1) == [1, 6]  # the 1 is seat 1's turn draw
    assert state["discard"].endswith("74")
    guess = of_type(events, "snake_guess")[0]
    assert guess["public"]["correct"] is True and guess["public"]["card"] == 7


def test_snake_wrong_guess_card_seen_only_by_guesser_and_kept() -> None:
    state = make_state([[4, 2], [7, 6], [1, 1]], FILLER)
    state, events = run(state, "card:4", "face:up", "snake:1", "separate:6")
    state, more = run(state, "guess:odd")
    events += more
    assert hand(state, 1) == [1, 6, 7]  # kept, plus seat 1's turn draw
    guess = of_type(events, "snake_guess")[0]
    assert "card" not in guess["public"] and guess["public"]["correct"] is False
    assert of_type(seen_by(more, 0), "snake_guess")[0]["private"] == {"card": 6}
    assert of_type(seen_by(more, 2), "snake_guess")[0]["private"] == {}


def test_snake_discarding_the_master_eliminates_its_holder() -> None:
    state = make_state([[4, 2], [8, 6], [1, 1]], FILLER)
    state, _events = run(state, "card:4", "face:up", "snake:1", "separate:8")
    state, more = run(state, "guess:even")
    elim = of_type(more, "eliminated")[0]["public"]
    assert elim == {"seat": 1, "reason": "master_discarded", "hand": [6]}
    assert state["alive"] == [True, False, True]


def test_snake_combat_defeats_odd_focus() -> None:
    state = make_state([[4, 2], [7], [1]], FILLER)
    state, events = run(state, "card:4", "face:down", "target:1", "answer:7")
    res = duel_result(events)
    assert res["winner"] == 0 and res["reason"] == "snake"


# -- Monkey Style ----------------------------------------------------------------


def test_monkey_discard_swaps_any_two_players_including_self() -> None:
    state = make_state([[5, 2], [7, 6], [1, 3]], FILLER)
    state, events = run(state, "card:5", "face:up", "swap:0", "swap:2")
    assert state["hands"][0] == "13" and state["hands"][2] == "2"
    state = make_state([[5, 2], [7, 6], [1, 3]], FILLER)
    state, events = run(state, "card:5", "face:up", "swap:1", "swap:2")
    # Seat 1 received [1, 3] and then drew its turn card (a 1).
    assert hand(state, 1) == [1, 1, 3] and hand(state, 2) == [6, 7]
    swapped = of_type(events, "hands_swapped")[0]
    assert swapped["public"]["seats"] == [1, 2]
    assert of_type(seen_by(events, 0), "hands_swapped")[0]["private"] == {}


def test_monkey_combat_redraw_order_hand_count_shown_focus_one() -> None:
    state = make_state([[5, 8, 3], [6], [1]], [7, 7, *FILLER])
    state, _events = run(state, "card:5", "face:down", "target:1", "answer:6")
    state, more = run(state, "monkey:use")
    assert of_type(more, "monkey_redraw")[0]["public"] == {"seat": 0, "hand_count": 2}
    state, more2 = run(state, "bottom:8", "bottom:3")
    # The last card chosen is the very bottom card of the deck.
    assert top_first(state)[-2:] == [8, 3]
    assert hand(state, 0) == [7, 7]
    res = duel_result(more2)
    assert res["focus"] == [1, 6] and res["winner"] == 1


# -- Tiger Style -----------------------------------------------------------------


def test_tiger_discard_looks_at_the_hand_at_the_start_of_the_next_turn() -> None:
    state = make_state([[6, 2], [7, 3], [1, 1]], FILLER)
    state, events = run(state, "card:6", "face:up", "tiger:1")
    assert state["tiger"][0] == 1 and not of_type(events, "tiger_look")
    assert GAME.observe(state, 2)["seats"][0]["tiger_target"] == 1
    state, events = run(state, "card:7", "face:up", "peek:keep")  # seat 1
    state, events = run(state, "card:1", "face:up", "reveal:no")  # seat 2
    look = of_type(events, "tiger_look")[0]
    assert look["public"] == {"seat": 0, "target": 1}
    # Seat 1 kept its 3, drew a 1 for its turn and a 1 with Dragon Style.
    assert of_type(seen_by(events, 0), "tiger_look")[0]["private"]["hand"] == [1, 1, 3]
    assert of_type(seen_by(events, 1), "tiger_look")[0]["private"] == {}


def test_tiger_look_is_stopped_by_the_targets_crane() -> None:
    state = make_state([[6, 2], [3, 5], [1, 1]], FILLER)
    state, _ = run(state, "card:6", "face:up", "tiger:1")
    state, _ = run(state, "card:3", "face:up")  # seat 1 protects itself
    state, events = run(state, "card:1", "face:up", "reveal:no")
    assert not of_type(events, "tiger_look") and of_type(events, "tiger_fizzles")


@pytest.mark.parametrize(
    ("answer", "looks"), [(5, True), (6, True), (7, False)], ids=["win", "tie", "lose"]
)
def test_tiger_combat_looks_after_a_win_or_tie_only(answer: int, looks: bool) -> None:
    state = make_state([[6, 2], [answer, 3], [1]], FILLER)
    state, events = run(state, "card:6", "face:down", "target:1", f"answer:{answer}")
    if answer == 5:
        state, more = run(state, "monkey:skip")
        events += more
    look = of_type(seen_by(events, 0), "tiger_look")
    assert bool(look) is looks
    if looks:
        assert look[0]["private"]["hand"] == [3]


# -- Dragon Style ----------------------------------------------------------------


def test_dragon_discard_peek_bottom_then_draw() -> None:
    state = make_state([[7, 2], [6], [1]], [8, 4, *FILLER])
    state, _events = run(state, "card:7", "face:up")
    assert GAME.observe(state, 0)["private"] == {"peek": 8, "source": "deck"}
    state, _ = run(state, "peek:bottom")
    assert hand(state, 0) == [2, 4] and top_first(state)[-1] == 8


def test_dragon_discard_peek_keep_then_draw_that_card() -> None:
    state = make_state([[7, 2], [6], [1]], [8, 4, *FILLER])
    state, _ = run(state, "card:7", "face:up", "peek:keep")
    assert hand(state, 0) == [2, 8]


@pytest.mark.parametrize(("draws", "cards"), [("one", 2), ("two", 3)])
def test_dragon_combat_winner_chooses_one_or_two_draws(draws: str, cards: int) -> None:
    state = make_state([[7, 2], [6, 3], [1]], [4, 5, *FILLER])
    state, _events = run(state, "card:7", "face:down", "target:1", "answer:6")
    assert state["phase"] == "dragon_draw" and GAME.actors(state) == [0]
    # The choice is made before drawing the first card.
    assert len(state["hands"][0]) == 1
    state, _ = run(state, f"dragon:{draws}")
    assert len([e for e in _ if e["type"] == "draw" and e["public"]["seat"] == 0])
    assert len(state["hands"][0]) == cards or GAME.actors(state) == [1]


def test_dragon_combat_tie_also_allows_the_extra_draw() -> None:
    state = make_state([[7, 2], [7, 3], [1]], FILLER)
    state, events = run(state, "card:7", "face:down", "target:1", "answer:7")
    assert duel_result(events)["tie"] is True
    state, _ = run(state, "dragon:two")  # attacker first
    assert GAME.actors(state) == [1] and state["phase"] == "dragon_draw"
    state, _ = run(state, "dragon:one")
    # Seat 0: 2 + two draws; seat 1: 3 + one draw + its own turn draw.
    assert len(state["hands"][0]) == 3 and len(state["hands"][1]) == 3
    assert state["turn"] == 1


def test_dragon_combat_loser_gets_no_extra_draw() -> None:
    state = make_state([[7, 2], [8, 3], [1]], FILLER)
    state, events = run(state, "card:7", "face:down", "target:1", "answer:8")
    assert duel_result(events)["winner"] == 1 and state["phase"] == "card"


# -- Master of Kung Fu -----------------------------------------------------------


def test_master_played_face_up_eliminates_and_hand_goes_to_discard() -> None:
    state = make_state([[8, 2, 3], [6], [1]], FILLER)
    state, events = run(state, "card:8", "face:up")
    elim = of_type(events, "eliminated")[0]["public"]
    assert elim == {"seat": 0, "reason": "master_discarded", "hand": [2, 3]}
    assert sorted(state["discard"]) == ["2", "3", "8"]
    assert state["turn"] == 1


def test_master_lost_in_a_duel_eliminates_its_holder() -> None:
    state = make_state([[8, 2, 3], [2, 6], [1]], FILLER)
    state, events = run(state, "card:8", "face:down", "target:1", "answer:2")
    assert of_type(events, "eliminated")[0]["public"]["reason"] == "master_lost"
    assert state["prizes"][1] == "8" and not state["alive"][0]


def test_master_winning_a_duel_is_discarded_without_eliminating() -> None:
    state = make_state([[8, 2], [6, 6], [1]], FILLER)
    state, events = run(state, "card:8", "face:down", "target:1", "answer:6")
    assert duel_result(events)["winner"] == 0
    assert state["alive"][0] and state["discard"] == "8" and state["prizes"][0] == "6"


def test_master_last_opponent_eliminated_ends_the_game() -> None:
    state = make_state([[2, 3], [8, 6]], FILLER)
    state, _events = run(state, "card:2", "face:down", "target:1", "answer:8")
    result = GAME.result(state)
    assert result is not None
    assert result["winners"] == [0]
    assert result["reason"] == "last_standing"


def test_disciple_copying_the_master_does_nothing_and_eliminates_nobody() -> None:
    # Master notes: it has no discard effect; only discarding it eliminates.
    state = make_state([[1, 5], [6], [7]], [8, *FILLER])
    state, events = run(state, "card:1", "face:up", "reveal:yes")
    assert not of_type(events, "eliminated")
    assert state["alive"] == [True, True, True]
    assert hand(state, 1) == [6, 8]  # the Master stayed on top; seat 1 drew it


def test_cards_just_put_back_stay_known_to_their_player() -> None:
    state = make_state([[2, 8], [6], [7]], [5, 4, *FILLER])
    state, _ = run(state, "card:2", "face:up", "put:8")
    assert GAME.observe(state, 0)["private"] == {"put_back": [8]}
    assert GAME.observe(state, 1)["private"] == {}
    for seed in range(20):
        assert GAME.determinize(state, 0, seed)["deck"][-1] == "8"
    state = make_state([[5, 8, 3], [6], [1]], [7, 7, *FILLER])
    state, _ = run(state, "card:5", "face:down", "target:1", "answer:6")
    state, _ = run(state, "monkey:use", "bottom:8")
    assert GAME.observe(state, 0)["private"] == {"put_under": [8]}
    for seed in range(20):
        assert GAME.determinize(state, 0, seed)["deck"][0] == "8"
