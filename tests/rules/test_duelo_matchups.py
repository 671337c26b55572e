"""The rulebook's matchup lists as a table, checked against the engine.

Every pair of cards is dueled with both seat orders, every top card of the deck
and every optional choice (Disciple reveal, Monkey redraw). The expected winner
comes from the printed "Beats / Loses to / Can beat" lists and the conditions
their asterisks point to; the general rule (equal Focus ties) fills the cases
the lists leave out, each marked below.
"""

from __future__ import annotations

from itertools import product

import pytest

from tests.rules.duelo_helpers import GAME, duel_result, make_state

# As printed, section "The Cards". Starred entries are conditional.
PRINTED = {
    1: {"beats": {2}, "loses": {3, 8}, "can_beat": {4, 5, 6, 7}},
    2: {"beats": {4, 6, 7, 8}, "loses": {1, 3, 5}},
    3: {"beats": {1, 2}, "loses": {4, 5, 6, 7, 8}},
    4: {"beats": {1, 3, 5, 7}, "loses": {1, 2, 6, 8}},
    5: {"beats": {1, 2, 3}, "loses": {1, 4, 6, 7, 8}},
    6: {"beats": {1, 3, 4, 5}, "loses": {1, 2, 7, 8}},
    7: {"beats": {1, 3, 5, 6}, "loses": {1, 2, 4, 8}},
    8: {"beats": {1, 3, 4, 5, 6, 7}, "loses": {2}},
}
# "* The Disciple only beats X if the top card of the deck is ..."
DISCIPLE_BEATS_WITH_TOP = {4: {6, 8}, 5: {6, 7, 8}, 6: {7, 8}, 7: {8}}

TIE = "tie"


def book_winner(x: int, y: int, top: int, choice: dict[int, bool]) -> int | str:
    """Expected winner (a card) of x against y from the printed lists and notes.

    ``choice[card]`` is whether that card's optional effect is used (Disciple
    reveals, Monkey redraws).
    """
    if x == y:
        return TIE  # "if both cards have the same name"
    if y == 1:
        x, y = y, x
    if x == 1:
        reveal = choice.get(1, False)
        if y == 3 or y == 8:
            return y  # "Loses to: 3 and 8"
        if y == 2:
            # "the Disciple will always beat Drunken Fists (unless the player
            # prefers to reveal a card of higher Focus)"; equal Focus ties.
            if not reveal or top < 2:
                return 1
            return TIE if top == 2 else 2
        if y == 5 and choice.get(5, False):
            # Not in the lists (they assume Monkey keeps Focus 5): a redrawing
            # Monkey has Focus 1, so the general rule decides.
            return 1 if reveal and top > 1 else TIE
        if reveal and top in DISCIPLE_BEATS_WITH_TOP[y]:
            return 1  # the starred "Can beat"
        if reveal and top == y and y != 4:
            return TIE  # equal Focus after effects (general rule)
        if reveal and top == 4 and y == 4:
            return TIE  # copying an even 4 is not defeated by Snake; equal Focus
        return y
    if {x, y} == {2, 5}:
        # "The Monkey Style only beats Drunken Fists if it activates its effect"
        return 5 if choice.get(5, False) else 2
    if y in PRINTED[x]["beats"]:
        assert x in PRINTED[y]["loses"], (x, y)
        return x
    assert y in PRINTED[x]["loses"] and x in PRINTED[y]["beats"], (x, y)
    return y


def test_printed_lists_describe_every_pair() -> None:
    for x, lists in PRINTED.items():
        described = set().union(*lists.values())
        assert described == set(range(1, 9)) - {x}, x


def play_duel(
    attacker: int, defender: int, top: int, choice: dict[int, bool]
) -> int | str:
    state = make_state([[attacker], [defender]], [top, 1, 1, 1, 1])
    state, events = GAME.apply(state, 0, f"card:{attacker}")
    for aid in ("face:down", "target:1"):
        state, more = GAME.apply(state, 0, aid)
    state, events = GAME.apply(state, 1, f"answer:{defender}")
    while state["phase"] in ("c_disciple", "c_monkey", "dragon_draw"):
        seat = state["actor"]
        card = attacker if seat == 0 else defender
        if state["phase"] == "c_disciple":
            assert card == 1 and 1 in choice, "unexpected Disciple decision"
            aid = "reveal:yes" if choice[1] else "reveal:no"
        elif state["phase"] == "c_monkey":
            assert card == 5 and 5 in choice, "unexpected Monkey decision"
            aid = "monkey:use" if choice[5] else "monkey:skip"
        else:
            aid = "dragon:one"
        state, more = GAME.apply(state, seat, aid)
        events += more
    res = duel_result(events)
    if res["tie"]:
        return TIE
    return attacker if res["winner"] == 0 else defender


PAIRS = [(x, y) for x in range(1, 9) for y in range(x, 9)]


@pytest.mark.parametrize(("x", "y"), PAIRS, ids=[f"{x}v{y}" for x, y in PAIRS])
def test_matchup_table(x: int, y: int) -> None:
    # An optional effect is offered unless the opponent is Crane Style (which
    # ignores it) or both cards are Disciples (always a tie).
    optional = []
    for card, other in ((x, y), (y, x)):
        if card == 1 and other != 3 and other != 1:
            optional.append(1)
        if card == 5 and other != 3:
            optional.append(5)
    optional = sorted(set(optional))
    for top in range(1, 9):
        if 8 in (x, y) and top == 8:
            continue  # only one Master exists: it cannot be on the deck too
        for used in product((False, True), repeat=len(optional)):
            choice = dict(zip(optional, used, strict=True))
            expected = book_winner(x, y, top, choice)
            for attacker, defender in ((x, y), (y, x)):
                got = play_duel(attacker, defender, top, choice)
                assert got == expected, (attacker, defender, top, choice)
