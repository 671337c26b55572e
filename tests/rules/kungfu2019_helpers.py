"""Helpers to build Kung Fu (2019) positions from stacked decks and stacked dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gameplay.rules import get_game
from gameplay.rules.kungfu2019 import KungFu2019Game
from gameplay.rules.kungfu2019 import cards as C
from gameplay.rules.kungfu2019 import engine as E

_GAME = get_game("kungfu2019")
assert isinstance(_GAME, KungFu2019Game)  # its take-backs are beside the protocol
GAME: KungFu2019Game = _GAME

State = dict[str, Any]


def fillers(exclude: set[str], count: int) -> list[str]:
    """``count`` card codes not in ``exclude`` (the highest codes first)."""
    out = [c for c in reversed(E.CODES) if c not in exclude]
    return out[:count]


def deal(
    hands: list[list[str]],
    *,
    dice: list[list[int]] | None = None,
    dummy: list[str] | None = None,
    seed: int = 7,
) -> State:
    """A no-draft game whose seat i is dealt ``hands[i]`` (padded to 10 cards).

    The deck is stacked so that the deal gives exactly those hands (seat 0 first),
    followed by ``dummy`` (the 2-player dummy's first three cards). ``dice`` are
    the rolls, in the order the fighters roll (seat order, attack by attack).
    """
    used = {c for h in hands for c in h} | set(dummy or [])
    pad = iter(fillers(used, 10 * len(hands)))
    full = [h + [next(pad) for _ in range(10 - len(h))] for h in hands]
    deck = [c for h in full for c in h] + list(dummy or [])
    cfg = {"players": len(hands), "draft": False, "deck": deck, "dice": dice or []}
    return GAME.setup(cfg, seed=seed)


def commit(state: State, plays: Sequence[list[str] | None]) -> tuple[State, list]:
    """Every seat commits its three cards (one commit each), seat by seat."""
    events: list = []
    for seat, cards in enumerate(plays):
        for code in cards or []:
            state, ev = GAME.apply(state, seat, f"play:{code}")
            events += ev
    return state, events


def act(state: State, seat: int, *ids: str) -> tuple[State, list]:
    events: list = []
    for aid in ids:
        state, ev = GAME.apply(state, seat, aid)
        events += ev
    return state, events


def finish_fight(state: State) -> tuple[State, list]:
    """Every fighter still assigning finishes as it stands ("done"): one attack."""
    events: list = []
    count = state["nfight"]
    while state["phase"] == E.ASSIGN and state["nfight"] == count:
        seat = GAME.actors(state)[0]
        ids = GAME.legal_action_ids(state, seat)
        aid = "done" if "done" in ids else "cancel"
        state, ev = GAME.apply(state, seat, aid)
        events += ev
    return state, events


def of_type(events: list, type_: str) -> list[dict]:
    return [e for e in events if e["type"] == type_]


def combo(code: str, k: int) -> Any:
    return C.COMBOS[code][k]


def slot_of(state: State, seat: int, code: str) -> int:
    return state["played"][seat].index(E.BY_CODE[code])


def set_track(state: State, seat: int, stat: str, spaces: int) -> State:
    """A copy of ``state`` with one status track moved (a test shortcut)."""
    s = GAME.clone(state)
    s["tracks"] = [t[:] for t in state["tracks"]]
    s["tracks"][seat][E.STAT.index(stat)] = spaces
    return s


def set_hp(state: State, seat: int, hp: int) -> State:
    s = GAME.clone(state)
    s["hp"][seat] = hp
    return s


# Cards and positions the rules tests share (test_kungfu2019_rules.py and
# test_kungfu2019_decisions.py).
INIT = C.INITIATIVE
STEP = C.TRACK_STEP
# Cards the tests lean on, checked against the table so a retuned list fails here
# with a clear message instead of deep inside a test.
PAIR_ATK = "c27"  # pair: +ATK; 4/5/6: +DEF
DEF_456 = "c07"  # 4/5/6: +ATK; 4/5/6: +DEF
YY = "c03"  # 4/5/6: +ATK; a 1: yin-yang
CROSS = "c17"  # red cross +ATK; red cross +DEF
HIT_1 = "c02"  # a 1: +HIT; pair: +DEF
HEAL = "c45"  # pair: +HP; 2 dice > 9: +DEF
COSTLY = "c55"  # three of a kind: +ATK, -HP
LOW = "c01"
GUARD_CROSS = "c09"  # 5/6: +ATK; red cross +DEF
DUMMY_CARDS = ["c72", "c73", "c74"]


def three_hands() -> list[list[str]]:
    return [[YY, DEF_456, HIT_1], [PAIR_ATK, "c23", "c29"], ["c53", "c57", "c60"]]


def attack_by(
    seat0_cards: list[str],
    rolls: list[list[int]],
    *,
    others: tuple[list[str], list[str]] = (
        ["c72", "c71", "c70"],
        ["c69", "c68", "c66"],
    ),
    tracks: dict[tuple[int, str], int] | None = None,
    hp: dict[int, int] | None = None,
) -> dict:
    """Three players; seat 0 (lowest initiative) attacks first with ``rolls``."""
    hands = [seat0_cards, list(others[0]), list(others[1])]
    s = deal(hands, dice=rolls)
    for (seat, stat), spaces in (tracks or {}).items():
        s = set_track(s, seat, stat, spaces)
    for seat, value in (hp or {}).items():
        s = set_hp(s, seat, value)
    s, _ = commit(s, hands)
    assert s["fight"]["a"] == 0
    return s
