"""Kung Fu (2009): one test per rule of the rulebook and per race, from stacked
positions. Styles: T Tiger, M Monkey, C Crab, R Crane, D Dragon (wild).

Combinations used: E01 = TTTM, E05 = TMCR (easy), N01 = TTTMC (normal), D01 =
TTTTT, D02 = TTCTT (difficult).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from gameplay.rules import IllegalAction, InvalidConfig, view_events
from gameplay.rules.kungfu2009 import cards as C
from gameplay.rules.kungfu2009 import engine as E
from tests.rules.kungfu2009_helpers import (
    FULL_COMBINATIONS,
    FULL_DECK,
    GAME,
    act,
    all_cards,
    all_combinations,
    make_state,
    offer,
    types,
)

UP = {"easy": "E01", "normal": "N01", "difficult": "D01"}


# -- cards ------------------------------------------------------------------------


def test_hit_deck_has_68_cards_16_per_style_and_4_dragons() -> None:
    assert len(E.FULL_DECK) == 68
    assert Counter(E.FULL_DECK) == {"T": 16, "M": 16, "C": 16, "R": 16, "D": 4}


def test_combination_cards_keep_every_count_and_constraint_of_the_rulebook() -> None:
    levels = Counter(c["level"] for c in C.COMBINATIONS.values())
    assert levels == {"easy": 24, "normal": 20, "difficult": 8}
    assert len({c["hits"] for c in C.COMBINATIONS.values()}) == 52
    for c in C.COMBINATIONS.values():
        hits = Counter(c["hits"])
        assert "D" not in hits  # a Dragon is a wild card, never printed
        if c["level"] == "easy":
            assert len(c["hits"]) == 4 and c["points"] == 1
        elif c["level"] == "normal":
            assert len(c["hits"]) == 5 and c["points"] == 2
            assert len(hits) >= 3 and max(hits.values()) <= 3
        else:
            assert len(c["hits"]) == 5 and c["points"] == 4
            assert max(hits.values()) >= 4


def test_combination_list_splits_evenly_over_the_four_styles() -> None:
    for level, per_style in (("easy", 6), ("normal", 5), ("difficult", 2)):
        rows = [c["hits"] for c in C.COMBINATIONS.values() if c["level"] == level]
        lead = Counter(Counter(h).most_common(1)[0][0] for h in rows)
        assert set(lead.values()) == {per_style}
        used = Counter("".join(rows))
        assert len(set(used.values())) == 1  # every style printed equally often


def test_dragon_replaces_any_hit_and_order_is_read_left_to_right() -> None:
    assert C.matches("TTTM", "TTTM")
    assert C.matches("TDTM", "TTTM")
    assert C.matches("DDDD", "TMCR")
    assert not C.matches("MTTT", "TTTM")  # right cards, wrong order
    assert not C.matches("TTT", "TTTM")
    assert not C.matches("TTTMC", "TTTM")


def test_removal_follows_the_2_2_1_proportion() -> None:
    assert C.removal(2) == {"easy": 4, "normal": 4, "difficult": 2}
    s = GAME.setup({"players": 5, "remove": 2}, seed=3)
    assert [len(s["piles"][lv]) + 1 for lv in C.LEVEL_ORDER] == [20, 16, 6]
    assert len(s["box"]) == 10
    assert all_combinations(s) == FULL_COMBINATIONS


# -- set up -----------------------------------------------------------------------


def test_setup_deals_five_each_and_reveals_one_combination_per_pile() -> None:
    s = GAME.setup({"players": 6}, seed=5)
    assert [len(h) for h in s["hands"]] == [5] * 6
    assert len(s["deck"]) == 68 - 30
    assert all(s["up"][lv] in C.PILE_CODES[lv] for lv in C.LEVEL_ORDER)
    assert [len(s["piles"][lv]) for lv in C.LEVEL_ORDER] == [23, 19, 7]
    assert all_cards(s) == FULL_DECK
    assert GAME.actors(s) == [0, 1, 2, 3, 4, 5]
    assert json.loads(json.dumps(s)) == s


def test_three_player_variant_plays_with_two_removals_by_default() -> None:
    s = GAME.setup({"players": 3}, seed=1)
    assert s["cfg"]["remove"] == 2 and len(s["box"]) == 10
    assert GAME.setup({"players": 3, "remove": 0}, seed=1)["box"] == []


def test_stacked_deck_deals_round_robin_from_the_top() -> None:
    deck = "TMCRD" + "T" * 15 + "M" * 15 + "C" * 15 + "R" * 15 + "DDD"
    s = GAME.setup({"players": 4, "deck": deck}, seed=1)
    assert [h[0] for h in s["hands"]] == ["T", "M", "C", "R"]
    assert s["hands"][0][1] == "D"


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"players": 2}, "players must be from 3 to 8"),
        ({"players": 9}, "players must be from 3 to 8"),
        ({"remove": 8}, "remove must be"),
        ({"severe": 1}, "severe must be"),
        ({"impasse_limit": 0}, "impasse_limit"),
        ({"deck": "TTTT"}, "all 68 hit cards"),
        ({"speed": 1}, "unknown option"),
    ],
)
def test_bad_configs_are_refused_clearly(config: dict, message: str) -> None:
    with pytest.raises(InvalidConfig, match=message):
        GAME.setup(config, seed=1)


# -- trading ----------------------------------------------------------------------


def test_one_for_one_trade_between_two_players() -> None:
    s = make_state(["TTMCR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, ev = offer(s, 0, 1, "give:R", "want:M")
    (o,) = s["offers"]
    assert (o["from"], o["to"], o["say"], o["want"]) == (0, 1, "R", "M")
    assert "accept:1" in GAME.legal_action_ids(s, 1)
    assert "accept:1" not in GAME.legal_action_ids(s, 2)  # addressed to seat 1
    s, ev = act(s, 1, "accept:1")
    assert s["hands"][0] == "TTMCM" and s["hands"][1] == "MCRRR"
    assert s["offers"] == [] and types(ev) == ["trade"]
    assert ev[0]["private"]["1"] == {
        "received": "R",
        "declared": "R",
        "cheated": False,
        "gave": "M",
    }


def test_gifts_one_for_several_and_several_for_several() -> None:
    s = make_state(["TTMCR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = offer(s, 0, 2, "give:T")  # a gift
    s, _ = act(s, 2, "accept:1")
    assert s["hands"][0] == "TMCR" and s["hands"][2] == "CCCCCT"
    s, _ = offer(s, 1, 3, "give:M", "want:R", "want:R")  # one for several
    s, _ = act(s, 3, "accept:2")
    assert s["hands"][1] == "MCRRRR" and s["hands"][3] == "RRRM"
    s, _ = offer(s, 1, 0, "give:R", "give:R", "want:T", "want:C")  # several/several
    s, _ = act(s, 0, "accept:3")
    assert Counter(s["hands"][1]) == Counter("MCRRTC")
    assert Counter(s["hands"][0]) == Counter("MRRR")


def test_an_offer_may_ask_without_giving_but_must_name_some_card() -> None:
    s = make_state(["TTMCR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = act(s, 0, "to:1")
    assert "send" not in GAME.legal_action_ids(s, 0)
    with pytest.raises(IllegalAction, match="at least one card"):
        GAME.apply(s, 0, "send")
    s, _ = act(s, 0, "want:M", "send")
    s, _ = act(s, 1, "accept:1")
    assert s["hands"][0] == "TTMCRM"


def test_building_an_offer_is_private_until_it_is_sent() -> None:
    s = make_state(["TTMCR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, ev = act(s, 0, "to:all", "give:T", "want:C")
    assert all(e["public"] == {} for e in ev)
    assert GAME.observe(s, 1)["draft"] is None
    assert GAME.observe(s, 0)["draft"]["want"] == "C"
    assert GAME.observe(s, 1)["offers"] == []


def test_innocent_cheating_the_receiver_learns_it_when_the_trade_completes() -> None:
    s = make_state(["TTMCR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, ev = offer(s, 0, 1, "give:C:T", "want:M")
    # Everyone, the partner included, hears "a Tiger"; only the giver knows.
    for viewer in (1, 2, None):
        (o,) = GAME.observe(s, viewer)["offers"]
        assert o["declared"] == "T" and o["cards"] is None
    assert GAME.observe(s, 0)["offers"][0]["cards"] == "C"
    assert ev[-1]["public"]["cards"] is None
    assert view_events(ev, 1)[-1]["private"] == {}
    s, ev = act(s, 1, "accept:1")
    assert s["hands"][1] == "MCRRC"  # a Crab, not the Tiger promised
    mine = view_events(ev, 1)[0]["private"]
    assert mine["received"] == "C" and mine["declared"] == "T" and mine["cheated"]
    assert view_events(ev, 2)[0]["private"] == {}
    assert "C" not in json.dumps(ev[0]["public"])


def _seen_by_others(
    steps: Sequence[tuple[int | None, str]], hands: list[str], maker: int
) -> list[tuple[list, dict]]:
    """What every seat but ``maker``, and a spectator, sees after each step."""
    s = make_state(hands, up=UP)
    seen = []
    for seat, aid in steps:
        s, ev = GAME.apply(s, seat, aid)
        for v in (None, *(t for t in range(s["n"]) if t != maker)):
            seen.append((view_events(ev, v), GAME.observe(s, v)))
    return seen


def test_a_cheating_offer_voided_by_a_claim_proves_nothing_to_anyone() -> None:
    """Issue 26 §2 (a): a Crane declared as a Tiger, then a claim with no Tiger
    in it. Closing only the offers whose real cards left the hand closed the
    cheating offer and kept the honest one, which proved the cheat to all."""
    hands = ["MCRMT", "MMCRR", "CCCCC", "RRRRR"]
    honest = [(0, "to:1"), (0, "give:T"), (0, "want:M"), (0, "send")]
    cheat = [(0, "to:1"), (0, "give:R:T"), (0, "want:M"), (0, "send")]
    claim = [(0, "claim:easy"), (None, "check")]  # MCRM: the Crane, no Tiger
    assert _seen_by_others(honest + claim, hands, 0) == _seen_by_others(
        cheat + claim, hands, 0
    )
    s, _ = act(make_state(hands, up=UP), 0, *(a for _, a in cheat))
    s, ev = act(s, 0, "claim:easy")
    assert types(ev) == ["claim", "offer_void"] and s["offers"] == []


def test_a_cheating_offer_voided_by_another_trade_proves_nothing() -> None:
    """The same when the real card leaves by another trade of the maker's."""
    hands = ["MCRMT", "MMCRR", "CCCCC", "RRRRR"]
    trade = [(0, "to:2"), (0, "give:R"), (0, "send"), (2, "accept:2")]
    honest = [(0, "to:1"), (0, "give:T"), (0, "send"), *trade]
    cheat = [(0, "to:1"), (0, "give:R:T"), (0, "send"), *trade]
    assert _seen_by_others(honest, hands, 0) == _seen_by_others(cheat, hands, 0)
    s = make_state(hands, up=UP)
    s, ev = act(s, 0, *(a for _, a in honest[:3]))
    s, ev = act(s, 0, "to:2", "give:R", "send")
    s, ev = act(s, 2, "accept:2")
    assert types(ev) == ["trade", "offer_void"]  # the honest Tiger closes too
    assert s["closed"]["1"] == "seat 0 traded the cards away"


def test_a_cheating_offer_takes_as_many_steps_as_an_honest_one() -> None:
    """Issue 26 §2 (b): declaring a card as another style is part of its
    ``give`` step, so nobody can count one step more for a cheating offer."""
    hands = ["TMCRR", "MMCRR", "CCCCC", "RRRRR"]
    honest = [(0, "to:all"), (0, "give:T"), (0, "give:R"), (0, "want:M")]
    cheat = [(0, "to:all"), (0, "give:C:T"), (0, "give:R"), (0, "want:M")]
    send = [(0, "send")]
    assert len(honest) == len(cheat)
    assert _seen_by_others(honest + send, hands, 0) == _seen_by_others(
        cheat + send, hands, 0
    )
    s, _ = act(make_state(hands, up=UP), 0, *(a for _, a in cheat + send))
    assert s["offers"][0]["give"] == "CR" and s["offers"][0]["say"] == "TR"
    assert not any(a.startswith("say") for a in GAME.legal_action_ids(s, 0))


def test_give_as_another_style_is_refused_clearly() -> None:
    s = make_state(["TMCRR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = act(s, 0, "to:1")
    menu = GAME.legal_action_ids(s, 0)
    assert "give:C:T" in menu and "give:C:C" not in menu and "give:D:T" not in menu
    for aid, why in [
        ("give:C:C", "declared as what it is is 'give:C'"),
        ("give:C:X", "unknown style 'X'"),
        ("give:X:T", "unknown style 'X'"),
        ("give:D:T", "no other Dragon card"),
        ("say:T", "unknown intent"),
    ]:
        with pytest.raises(IllegalAction, match=why):
            GAME.apply(s, 0, aid)
    (entry,) = [a for a in GAME.legal_actions(s, 0) if a["id"] == "give:C:T"]
    assert entry["style"] == "C" and entry["declared"] == "T"
    assert "innocent cheating" in entry["label"]


def test_open_cards_show_the_real_cards_before_acceptance() -> None:
    s = make_state(["TTMCR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = offer(s, 0, 1, "give:C:T", "open", "want:M")
    for viewer in (1, 3, None):
        (o,) = GAME.observe(s, viewer)["offers"]
        assert o["open"] and o["cards"] == "C" and o["declared"] == "T"


def test_offer_to_all_any_player_may_take_it_declines_hide_it_one_by_one() -> None:
    s = make_state(["TTMCR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = offer(s, 0, "all", "give:T")
    assert all("accept:1" in GAME.legal_action_ids(s, t) for t in (1, 2, 3))
    s, _ = act(s, 1, "decline:1")
    assert "accept:1" not in GAME.legal_action_ids(s, 1)
    with pytest.raises(IllegalAction, match="declined already"):
        GAME.apply(s, 1, "decline:1")
    s, _ = act(s, 2, "decline:1")
    assert len(s["offers"]) == 1
    s, _ = act(s, 3, "decline:1")  # everyone declined: the offer closes
    assert s["offers"] == []


def test_declining_a_direct_offer_closes_it_and_withdraw_takes_it_back() -> None:
    s = make_state(["TTMCR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = offer(s, 0, 1, "give:T")
    s, ev = act(s, 1, "decline:1")
    assert s["offers"] == [] and types(ev) == ["offer_declined"]
    s, _ = offer(s, 0, 2, "give:T")
    assert "withdraw:2" in GAME.legal_action_ids(s, 0)
    s, ev = act(s, 0, "withdraw:2")
    assert s["offers"] == [] and types(ev) == ["offer_withdrawn"]
    with pytest.raises(IllegalAction, match="never made"):
        GAME.apply(s, 0, "withdraw:9")


def test_race_accept_after_withdraw_is_refused_and_changes_nothing() -> None:
    s = make_state(["TTMCR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = offer(s, 0, 1, "give:T", "want:M")
    s, _ = act(s, 0, "withdraw:1")  # arrived first
    frozen = json.dumps(s, sort_keys=True)
    with pytest.raises(IllegalAction, match=r"offer 1 is not open \(withdrawn"):
        GAME.apply(s, 1, "accept:1")
    assert json.dumps(s, sort_keys=True) == frozen


def test_race_a_card_offered_twice_goes_to_the_first_acceptor_only() -> None:
    s = make_state(["TMCRR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = offer(s, 0, 1, "give:T")  # the only Tiger, to seat 1...
    s, _ = offer(s, 0, 2, "give:T")  # ... and to seat 2
    s, ev = act(s, 2, "accept:2")  # seat 2's acceptance arrives first
    assert s["hands"][2] == "CCCCCT"
    assert types(ev) == ["trade", "offer_void"] and s["offers"] == []
    with pytest.raises(IllegalAction, match="offer 1 is not open"):
        GAME.apply(s, 1, "accept:1")


def test_an_acceptor_must_hold_the_cards_asked_for() -> None:
    s = make_state(["TTMCR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = offer(s, 0, 2, "give:T", "want:M")
    assert "accept:1" not in GAME.legal_action_ids(s, 2)
    assert "decline:1" in GAME.legal_action_ids(s, 2)
    with pytest.raises(IllegalAction, match="do not hold"):
        GAME.apply(s, 2, "accept:1")


def test_offer_steps_refuse_cards_not_held_and_stale_drafts_cannot_be_sent() -> None:
    s = make_state(["TMCRR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = act(s, 0, "to:1", "give:T")
    assert "give:T" not in GAME.legal_action_ids(s, 0)
    with pytest.raises(IllegalAction, match="no other Tiger"):
        GAME.apply(s, 0, "give:T")
    with pytest.raises(IllegalAction, match="already being built"):
        GAME.apply(s, 0, "to:2")
    # Meanwhile the Tiger goes away in another trade: the draft goes stale.
    s2 = GAME.clone(s)
    s2["hands"][0] = "MCRR"
    assert "send" not in GAME.legal_action_ids(s2, 0)
    with pytest.raises(IllegalAction, match="no longer hold"):
        GAME.apply(s2, 0, "send")
    s2, _ = act(s2, 0, "cancel")
    assert s2["drafts"][0] is None


def test_at_most_three_open_offers_per_player() -> None:
    s = make_state(["TTMCR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    for _ in range(E.MAX_OFFERS):
        s, _ = offer(s, 0, "all", "want:C")
    assert not any(a.startswith("to:") for a in GAME.legal_action_ids(s, 0))
    with pytest.raises(IllegalAction, match="open offers already"):
        GAME.apply(s, 0, "to:1")


# -- arranging ----------------------------------------------------------------------


def test_move_rearranges_the_hand_and_fit_arranges_it_for_a_combination() -> None:
    s = make_state(["MTTDR", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, ev = act(s, 0, "move:0:4")
    assert s["hands"][0] == "TTDRM"
    assert ev[0]["public"] == {"seat": 0} and ev[0]["private"]["0"]["hand"] == "TTDRM"
    assert "fit:easy" in GAME.legal_action_ids(s, 0)  # TTTM with the Dragon
    assert "fit:normal" not in GAME.legal_action_ids(s, 0)
    s, _ = act(s, 0, "fit:easy")
    assert C.matches(s["hands"][0][:4], "TTTM") and s["hands"][0] == "TTDMR"
    assert "fit:easy" not in GAME.legal_action_ids(s, 0)  # already arranged
    with pytest.raises(IllegalAction, match="malformed move"):
        GAME.apply(s, 0, "move:0:5")


# -- KUNG FU --------------------------------------------------------------------


def test_a_correct_claim_pauses_scores_discards_refills_and_reveals() -> None:
    s = make_state(
        ["TTTMC", "MMC", "CC", "RRRRRR"], up=UP, deck="MMMMCCCCRRRR" + "T" * 9
    )
    next_easy = s["piles"]["easy"][-1]
    s, ev = act(s, 0, "claim:easy")
    assert s["phase"] == "paused" and GAME.actors(s) == []
    assert ev[0]["public"]["cards"] == "TTTM" and s["hands"][0] == "C"
    assert GAME.legal_action_ids(s, None) == ["check"]
    s, ev = act(s, None, "check")
    assert s["won"][0] == ["E01"] and s["disc"] == "TTTM"
    # The claimant first, then the others in seat order, up to 5; seat 3 keeps 6.
    assert s["hands"][0] == "CMMMM" and s["hands"][1] == "MMCCC"
    assert s["hands"][2] == "CCCCR" and s["hands"][3] == "RRRRRR"
    assert s["up"]["easy"] == next_easy
    assert types(ev) == [
        "claim_correct",
        "draw",
        "draw",
        "draw",
        "reveal",
        "resume",
    ]
    assert ev[-1]["private"]["1"] == {"cards": "CC"}
    assert s["phase"] == "play" and GAME.actors(s) == [0, 1, 2, 3]


def test_race_trades_arranging_and_votes_are_refused_during_the_pause() -> None:
    s = make_state(["TTTMC", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = offer(s, 1, 2, "give:M")
    s, _ = act(s, 0, "claim:easy")
    for seat, intent in ((2, "accept:1"), (1, "to:3"), (3, "move:0:1"), (2, "impasse")):
        with pytest.raises(IllegalAction, match="paused while seat 0's KUNG FU"):
            GAME.apply(s, seat, intent)
    assert all(GAME.legal_action_ids(s, t) == [] for t in range(4))


def test_race_two_claims_back_to_back_the_second_waits_and_is_checked_after() -> None:
    s = make_state(["TTTMC", "TMCRM", "CCCCC", "RRRRR"], up=UP, deck="RRRRRRRR")
    s, _ = act(s, 0, "claim:easy")  # arrived first
    s, ev = act(s, 1, "claim:easy")  # the same moment, a little later
    assert ev[0]["public"]["queued"] and ev[0]["public"]["position"] == 2
    with pytest.raises(IllegalAction, match="already waiting"):
        GAME.apply(s, 1, "claim:normal")
    s, ev = act(s, None, "check")
    assert s["won"][0] == ["E01"] and s["phase"] == "paused"
    # Seat 1 put TMCR down: with M left it counts as 5, so it draws nothing.
    assert s["hands"][1] == "M"
    # Refilled cards stay unseen while the second claim is checked.
    obs = GAME.observe(s, 0)
    assert obs["hand"] == "C" and obs["unseen"] == 4 and obs["hand_sizes"][0] == 5
    s, ev = act(s, None, "check")
    # E01 was taken meanwhile: the second claim is void, not wrong.
    assert types(ev) == ["claim_void", "resume"]
    assert s["hands"][1] == "TMCRM" and not s["out"][1]
    assert ev[-1]["private"]["0"] == {"cards": "RRRR"}
    assert GAME.observe(s, 0)["unseen"] == 0


def test_a_queued_claim_on_another_combination_is_checked_on_its_own() -> None:
    s = make_state(
        ["TTTMC", "TTTMCR", "CCCCC", "RRRRR"],
        up={"easy": "E01", "normal": "N01"},
        deck="R" * 10,
    )
    s, _ = act(s, 0, "claim:easy")
    s, _ = act(s, 1, "claim:normal")
    s, _ = act(s, None, "check", "check")
    assert s["won"][0] == ["E01"] and s["won"][1] == ["N01"]
    assert s["phase"] == "play"


def test_a_wrong_claim_punishes_discards_all_and_others_do_not_draw() -> None:
    s = make_state(["TTMTC", "MMCR", "CCCCC", "RRRRR"], up=UP)
    s, _ = offer(s, 0, "all", "give:C")
    s, _ = offer(s, 2, 0, "give:C")
    s, ev = act(s, 0, "claim:easy")  # TTMT is not TTTM
    assert types(ev) == ["claim", "offer_void"]  # cards left its hand (reading 5)
    s, ev = act(s, None, "check")
    assert types(ev) == ["offer_void", "claim_wrong", "resume"]  # the offer to it
    assert s["out"][0] and s["hands"][0] == "" and s["disc"] == "TTMTC"
    assert s["hands"][1] == "MMCR"  # fewer than 5, no draw after a wrong claim
    assert GAME.actors(s) == [1, 2, 3]
    assert s["offers"] == []  # its offers and the offers to it are gone
    with pytest.raises(IllegalAction, match="out of play"):
        GAME.apply(s, 0, "impasse")
    assert not any(a.startswith("to:0") for a in GAME.legal_action_ids(s, 1))


def test_a_punished_player_returns_when_another_completes_a_combination() -> None:
    s = make_state(["TTMTC", "TTTMR", "CCCCC", "RRRRR"], up=UP, deck="M" * 12)
    s, _ = act(s, 0, "claim:easy")
    s, _ = act(s, None, "check")
    assert s["out"][0]
    s, _ = act(s, 1, "claim:easy")
    s, ev = act(s, None, "check")
    assert "back_in_play" in types(ev)
    assert not s["out"][0] and s["hands"][0] == "MMMMM"
    assert GAME.actors(s) == [0, 1, 2, 3]


def test_severe_punishment_the_punished_chooses_the_combination_lost() -> None:
    s = make_state(
        ["TTMTC", "MMCRR", "CCCCC", "RRRRR"],
        up=UP,
        won=[["E02", "N05"], [], [], []],
        severe=True,
    )
    s, _ = act(s, 0, "claim:easy")
    s, _ = act(s, None, "check")
    assert GAME.actors(s) == [0, 1, 2, 3]
    assert GAME.legal_action_ids(s, 0) == ["forfeit:E02", "forfeit:N05"]
    assert GAME.timeout_action(s, 0) == "forfeit:E02"  # the least valuable
    s, _ = act(s, 0, "forfeit:N05")
    assert s["won"][0] == ["E02"] and "N05" in s["box"]
    assert GAME.actors(s) == [1, 2, 3]


def test_severe_punishment_default_applies_if_play_resumes_before_choosing() -> None:
    s = make_state(
        ["TTMTC", "TTTMR", "CCCCC", "RRRRR"],
        up=UP,
        won=[["E02", "N05"], [], [], []],
        severe=True,
        deck="M" * 10,
    )
    s, _ = act(s, 0, "claim:easy")
    s, _ = act(s, None, "check")
    s, _ = act(s, 1, "claim:easy")
    s, ev = act(s, None, "check")
    (f,) = [e for e in ev if e["type"] == "forfeit"]
    assert f["public"]["reason"] == "default" and s["won"][0] == ["N05"]


ISSUE26_DECK = "TTRCMTRCCCRCRCRRCMRRRCMMTDTMCRRRCTTMMTDMMDCRMTCMCTDMCTTMCRRMTCTTRMTM"


def test_severe_punishment_is_paid_before_scoring_when_the_game_ends_first() -> None:
    """Issue 26 §2: the game ended by the impasse limit while seat 0 still owed
    its discard, and seat 0 won with the combination it should have lost."""
    cfg = {"players": 4, "severe": True, "impasse_limit": 1, "deck": ISSUE26_DECK}
    s = GAME.setup(cfg, 15118)
    assert s["up"]["easy"] == "E05" and s["hands"][0] == "TMCRC"
    s, _ = act(s, 0, "claim:easy")  # correct: TMCR
    s, _ = act(s, None, "check")
    assert s["won"][0] == ["E05"]
    s, _ = act(s, 0, "claim:easy")  # wrong: CRCM is not E12 (MMTT)
    s, ev = act(s, None, "check")
    assert s["owe"][0] and "claim_wrong" in types(ev)
    s, _ = act(s, 1, "impasse")
    s, _ = act(s, 2, "impasse")
    s, ev = act(s, 3, "impasse")
    assert types(ev)[-2:] == ["forfeit", "game_over"]
    assert ev[-2]["public"]["reason"] == "default"
    assert s["won"][0] == [] and "E05" in s["box"] and s["owe"] == [False] * 4
    assert s["result"]["scores"]["points"] == [0, 0, 0, 0]
    assert s["result"]["winners"] == [0, 1, 2, 3]
    assert ev[-1]["public"]["points"] == [0, 0, 0, 0]
    assert all_combinations(s) == FULL_COMBINATIONS


def test_severe_punishment_is_paid_when_the_time_limit_ends_the_game() -> None:
    s = make_state(
        ["TTMTC", "MMCRR", "CCCCC", "RRRRR"],
        up=UP,
        won=[["E02", "N05"], ["E03"], [], []],
        severe=True,
    )
    s, _ = act(s, 0, "claim:easy")
    s, _ = act(s, None, "check")
    assert s["owe"][0]
    s, ev = act(s, None, "end")
    (f,) = [e for e in ev if e["type"] == "forfeit"]
    assert f["public"]["seat"] == 0 and f["public"]["reason"] == "default"
    assert s["won"][0] == ["N05"]  # the least valuable (E02) is lost
    assert s["result"]["scores"]["points"] == [2, 1, 0, 0]


def test_when_everyone_is_out_of_play_everyone_returns_with_five_cards() -> None:
    s = make_state(["TTMTC", "CCCCC", "RRRRR"], up=UP, deck="M" * 30)
    s["out"] = [False, True, True]
    s["hands"][1] = s["hands"][2] = ""
    s, _ = act(s, 0, "claim:easy")
    s, ev = act(s, None, "check")
    assert "all_out" in types(ev)
    assert s["out"] == [False] * 3 and [len(h) for h in s["hands"]] == [5, 5, 5]


# -- impasse, reshuffle, the end ----------------------------------------------------


def test_impasse_by_vote_of_every_player_in_play() -> None:
    s = make_state(["TTMTC", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s["out"][3] = True
    hands = list(s["hands"])
    bottom = {lv: s["piles"][lv][-1] for lv in C.LEVEL_ORDER}
    s, _ = act(s, 0, "impasse")
    s, _ = act(s, 1, "impasse", "impasse:no", "impasse")
    assert s["impasses"] == 0
    s, ev = act(s, 2, "impasse")
    assert types(ev) == ["impasse_vote", "impasse"] and s["impasses"] == 1
    assert s["hands"] == hands  # hit cards only put aside for a while
    for lv in C.LEVEL_ORDER:
        assert s["piles"][lv][0] == UP[lv]  # to the bottom
        assert s["up"][lv] == bottom[lv]  # a new one from the top
    assert s["votes"] == [False] * 4


def test_our_rule_the_exam_ends_after_the_impasse_limit() -> None:
    s = make_state(["TTMTC", "MMCRR", "CCCCC"], up=UP, impasse_limit=2)
    for _ in range(2):
        s, _ = act(s, 0, "impasse")
        s, _ = act(s, 1, "impasse")
        s, _ = act(s, 2, "impasse")
    assert GAME.is_over(s) and _result(s)["reason"] == "impasse_limit"


def test_a_completed_combination_resets_the_impasse_count() -> None:
    s = make_state(["TTTMC", "MMCRR", "CCCCC"], up=UP, impasse_limit=2)
    s["impasses"] = 1
    s, _ = act(s, 0, "claim:easy")
    s, _ = act(s, None, "check")
    assert s["impasses"] == 0


def test_reshuffle_of_the_discard_pile_when_the_hit_pile_runs_out() -> None:
    s = make_state(["TTTMC", "MM", "CCCCC", "RRRRR"], up=UP, deck="R", disc="DDDD")
    s, ev = act(s, 0, "claim:easy")
    s, ev = act(s, None, "check")
    assert "reshuffle" in types(ev)
    # Seat 0 takes the R and 3 of the reshuffled 8 (DDDD + TTTM), seat 1 three.
    assert len(s["hands"][0]) == 5 and len(s["hands"][1]) == 5
    assert len(s["deck"]) == 2 and s["disc"] == ""
    assert all_cards(s) == Counter("TTTMC" + "MM" + "CCCCC" + "RRRRR" + "R" + "DDDD")


def test_the_game_ends_when_the_last_combination_of_a_pile_is_completed() -> None:
    s = make_state(["TTTTT", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s["piles"]["difficult"] = []
    s, _ = act(s, 0, "claim:difficult")
    s, ev = act(s, None, "check")
    assert GAME.is_over(s) and types(ev)[-1] == "game_over"
    r = GAME.result(s)
    assert r is not None
    assert r["reason"] == "pile_completed" and r["winners"] == [0]
    assert s["up"]["difficult"] is None


def test_scoring_and_tiebreaks_most_difficult_then_most_normal_then_shared() -> None:
    s = make_state(["", "", "", "", ""], up=UP)
    s["won"] = [
        ["D01"],  # 4 points, 1 difficult
        ["N01", "N02"],  # 4 points, 2 normal
        ["N03", "E01", "E02"],  # 4 points, 1 normal
        ["D02"],  # 4 points, 1 difficult
        ["E03"],
    ]
    s, _ = act(s, None, "end")
    r = GAME.result(s)
    assert r is not None
    assert r["scores"]["points"] == [4, 4, 4, 4, 1]
    assert r["winners"] == [0, 3] and r["placements"] == [1, 3, 4, 1, 5]
    assert r["reason"] == "time"
    assert GAME.actors(s) == [] and GAME.legal_action_ids(s, None) == []


def test_unknown_malformed_and_misplaced_intents_are_refused_clearly() -> None:
    s = make_state(["TTMTC", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    for intent, message in (
        ("fly", "unknown intent"),
        ("give:T", "no offer is being built"),
        ("accept:x", "malformed offer number"),
        ("accept:01", "malformed offer number"),
        ("to:1", "not another seat"),
        ("to:7", "not another seat"),
        ("claim:", "malformed intent"),
        ("claim:hard", "no face-up"),
        ("impasse:no", "not voted"),
        ("check", "unknown intent"),
    ):
        with pytest.raises(IllegalAction, match=message):
            GAME.apply(s, 1, intent)
    with pytest.raises(IllegalAction, match="table may not"):
        GAME.apply(s, None, "check")
    with pytest.raises(IllegalAction, match="not a seat"):
        GAME.apply(s, 4, "pass")
    assert GAME.apply(s, 1, "pass") == (s, [])
    assert GAME.timeout_action(s, 1) == "pass"


def test_menus_hold_labels_and_structured_fields() -> None:
    s = make_state(["TTTMC", "MMCRR", "CCCCC", "RRRRR"], up=UP)
    s, _ = offer(s, 1, 0, "give:M")
    menu = {a["id"]: a for a in GAME.legal_actions(s, 0)}
    assert (
        menu["claim:easy"]["code"] == "E01" and "KUNG FU" in menu["claim:easy"]["label"]
    )
    assert menu["accept:1"]["offer"] == 1 and "seat 1" in menu["accept:1"]["label"]
    assert menu["move:0:1"]["from"] == 0 and menu["move:0:1"]["to"] == 1
    assert GAME.legal_action_ids(s, 0)[0] == "pass"


def _result(state: dict[str, Any]) -> dict[str, Any]:
    """The finished game's result (None only while it is still going)."""
    result = GAME.result(state)
    assert result is not None, "the game is not over"
    return result
