"""Property tests over seeded random Kung Fu (2009) games (sized for 2 cores).

A random playout picks, at each step, one seat among those that may act (or the
table while a claim is checked) and a uniform intent from its menu. Checked at
every step: the 68 hit cards and 52 combinations are each in exactly one place,
the menu is exactly what ``apply`` accepts, every open offer can be honoured,
tick-driver bot matches replay from their logs, and no observation or event
shows a hand, an unseen card or an offer's real cards to a seat that may not
know them. JSON round trips, unchanged inputs and replays of random playouts
are the engine contract's (tests/rules/test_engine_contract.py).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.rules import IllegalAction, ticks, view_events
from gameplay.rules.bots import get_bot
from gameplay.rules.kungfu2009 import engine as E
from gameplay.rules.kungfu2009.cards import COMBINATIONS, LEVEL_ORDER, STYLES
from gameplay.rules.kungfu2009.hands import _holds
from gameplay.rules.kungfu2009.strategies import STRATEGIES
from tests.rules.kungfu2009_helpers import (
    FULL_COMBINATIONS,
    FULL_DECK,
    GAME,
    all_cards,
    all_combinations,
)
from tests.rules.properties import (
    Step,
    any_actor,
    random_playout,
)

MAX_STEPS = 700
PROPS = settings(deadline=None, derandomize=True)
configs = st.fixed_dictionaries(
    {
        "players": st.integers(3, 8),
        "remove": st.integers(0, 3),
        "severe": st.booleans(),
        "impasse_limit": st.sampled_from([1, 3, 5]),
    }
)
seeds = st.integers(0, 2**64 - 1)


def playout(
    config: dict[str, Any], seed: int, pick: int, steps: int = MAX_STEPS
) -> Iterator[Step]:
    return random_playout(
        GAME,
        config,
        seed,
        pick,
        max_steps=steps,
        pick_seat=any_actor,
        table_seat=True,
        must_end=False,
    )


def universe(s: dict[str, Any], seat: int) -> list[str]:
    """Intents worth trying: every menu entry and its near misses."""
    n = s["n"]
    hand = len(s["hands"][seat])
    out = ["pass", "open", "send", "cancel", "impasse", "impasse:no", "to:all"]
    out += [f"to:{t}" for t in range(n + 1)]
    out += [f"{k}:{x}" for k in ("give", "say", "want") for x in STYLES + "X"]
    out += [f"give:{x}:{y}" for x in STYLES + "X" for y in STYLES + "X"]
    out += [f"{k}:{i}" for k in ("accept", "decline", "withdraw") for i in range(1, 4)]
    out += [f"{k}:{o['id']}" for o in s["offers"] for k in ("accept", "decline")]
    out += [f"withdraw:{o['id']}" for o in s["offers"]]
    out += [f"move:{i}:{j}" for i in range(hand + 1) for j in range(hand + 1)]
    out += [f"{k}:{lv}" for k in ("fit", "claim") for lv in LEVEL_ORDER]
    out += [f"forfeit:{c}" for c in ("E01", "N01", "D01", *s["won"][seat])]
    return out


def check_invariants(s: dict[str, Any]) -> None:
    assert all_cards(s) == FULL_DECK
    assert all_combinations(s) == FULL_COMBINATIONS
    for o in s["offers"]:
        assert _holds(s["hands"][o["from"]], o["give"])
        assert not s["out"][o["from"]]
    for t in range(s["n"]):
        assert sum(o["from"] == t for o in s["offers"]) <= E.MAX_OFFERS
        if s["out"][t]:
            assert s["hands"][t] == "" and not s["votes"][t]
            assert s["drafts"][t] is None
    if s["phase"] == "play":
        assert s["fresh"] == [0] * s["n"] and s["claims"] == []
    if s["phase"] == "paused":
        assert s["claims"] and GAME.actors(s) == []
    if s["phase"] == "over":  # an owed severe discard is paid before scoring
        assert s["owe"] == [False] * s["n"]


@settings(PROPS, max_examples=40)
@given(config=configs, seed=seeds, pick=st.integers(0, 2**32))
def test_cards_combinations_and_offers_stay_consistent(
    config: dict, seed: int, pick: int
) -> None:
    """(JSON round trips, menus and replays: tests/rules/test_engine_contract.py.)"""
    for _state, _seat, _aid, new, _events in playout(config, seed, pick):
        check_invariants(new)


@settings(PROPS, max_examples=25)
@given(config=configs, seed=seeds, pick=st.integers(0, 2**32))
def test_the_menu_is_exactly_what_apply_accepts(
    config: dict, seed: int, pick: int
) -> None:
    rnd = random.Random(pick)
    for k, (_state, _seat, _aid, new, _ev) in enumerate(playout(config, seed, pick)):
        if k % 7 or new["phase"] != "play":
            continue
        seat = rnd.randrange(new["n"])
        menu = set(GAME.legal_action_ids(new, seat))
        for aid in universe(new, seat):
            try:
                GAME.apply(new, seat, aid)
            except IllegalAction:
                assert aid not in menu, aid
            else:
                assert aid in menu, aid


@settings(PROPS, max_examples=6)
@given(seed=seeds, players=st.integers(3, 6), lineup=st.integers(0, 2**16))
def test_tick_matches_are_deterministic_and_replay_from_their_log(
    seed: int, players: int, lineup: int
) -> None:
    rnd = random.Random(lineup)
    kinds = ["trader", "greedy", "planner", "random"]
    names = [kinds[rnd.randrange(4)] for _ in range(players)]

    def bots() -> list:
        return [get_bot("random") if n == "random" else STRATEGIES[n]() for n in names]

    config = {"players": players}
    a = ticks.run(GAME, GAME.setup(config, seed), bots(), seed, max_ticks=150)
    b = ticks.run(GAME, GAME.setup(config, seed), bots(), seed, max_ticks=150)
    assert a.log == b.log and a.state == b.state and a.refused == b.refused
    assert GAME.is_over(a.state)
    assert ticks.replay(GAME, config, seed, a.log) == a.state
    log = json.loads(json.dumps(a.log))  # as stored
    assert ticks.replay(GAME, config, seed, log) == a.state
    for tick, seat, _aid in a.log:
        assert seat is None or 0 <= seat < players
        assert 0 <= tick <= a.ticks


def _scramble_hidden(
    s: dict[str, Any], seat: int, rnd: random.Random
) -> dict[str, Any]:
    """Everything ``seat`` may not know, replaced at random (sizes kept)."""
    t = copy.deepcopy(s)

    def junk(k: int) -> str:
        return "".join(rnd.choice(STYLES) for _ in range(k))

    for u in range(t["n"]):
        h = t["hands"][u]
        if u == seat:
            k = t["fresh"][u]
            if k:
                t["hands"][u] = h[: len(h) - k] + junk(k)
            continue
        t["hands"][u] = junk(len(h))
        if t["drafts"][u] is not None:
            t["drafts"][u] = {**t["drafts"][u], "give": junk(2), "want": junk(1)}
    t["offers"] = [
        o if o["open"] or o["from"] == seat else {**o, "give": junk(len(o["give"]))}
        for o in t["offers"]
    ]
    t["deck"] = junk(len(t["deck"]))
    for lv in LEVEL_ORDER:
        rnd.shuffle(t["piles"][lv])
    t["box"] = sorted(rnd.sample(list(COMBINATIONS), len(t["box"])))
    t["rng"] = format(rnd.getrandbits(64), "016x")
    return t


@settings(PROPS, max_examples=20)
@given(config=configs, seed=seeds, pick=st.integers(0, 2**32))
def test_no_observation_or_event_leaks_a_hand_or_an_offers_real_cards(
    config: dict, seed: int, pick: int
) -> None:
    rnd = random.Random(pick)
    for k, (_s, seat, _a, new, events) in enumerate(playout(config, seed, pick)):
        n = new["n"]
        for ev in events:
            assert set(ev["private"]) <= {str(t) for t in range(n)}
            if ev["type"] == "offer":
                assert ev["public"]["cards"] is None or ev["public"]["open"]
                assert list(ev["private"]) == [str(seat)]
            if ev["type"] == "trade":
                pub = ev["public"]
                assert set(ev["private"]) == {str(pub["from"]), str(pub["to"])}
                assert "received" not in pub and "gave" not in pub
            if ev["type"] in ("draft", "arrange"):
                assert list(ev["private"]) == [str(seat)]
                assert ev["public"] in ({}, {"seat": seat})
            if ev["type"] == "draw":
                assert ev["private"] == {}  # unseen until play resumes
        for viewer in range(n):
            for ev in view_events(events, viewer):
                if ev["type"] == "trade" and viewer not in (
                    ev["public"]["from"],
                    ev["public"]["to"],
                ):
                    assert ev["private"] == {}
        if k % 5:
            continue
        for viewer in [*range(n), None]:
            obs = GAME.observe(new, viewer)
            assert json.loads(json.dumps(obs)) == obs
            if viewer is None:
                assert obs["hand"] is None and obs["draft"] is None
                assert all(o["cards"] is None for o in obs["offers"] if not o["open"])
                continue
            scrambled = _scramble_hidden(new, viewer, rnd)
            assert GAME.observe(scrambled, viewer) == obs
            sample = GAME.determinize(new, viewer, rnd.getrandbits(63))
            assert all_cards(sample) == FULL_DECK
            assert all_combinations(sample) == FULL_COMBINATIONS
            assert GAME.observe(sample, viewer) == obs
            who = GAME.actors(sample)
            if who:  # the sample is a state the engine can play on
                ids = GAME.legal_action_ids(sample, who[0])
                GAME.apply(sample, who[0], ids[-1])


def _other_real_cards(s: dict[str, Any], o: dict[str, Any]) -> str | None:
    """Other real cards for offer ``o`` that its maker holds too, or None."""
    hand = s["hands"][o["from"]]
    for k in range(len(o["give"])):
        for x in sorted(set(hand)):
            if x == o["give"][k]:
                continue
            alt = o["give"][:k] + x + o["give"][k + 1 :]
            if _holds(hand, alt):
                return alt
    return None


def _outcome(s: dict[str, Any], seat: int | None, aid: str) -> Any:
    try:
        return GAME.apply(s, seat, aid)
    except IllegalAction as exc:
        return str(exc)


@settings(PROPS, max_examples=20)
@given(config=configs, seed=seeds, pick=st.integers(0, 2**32))
def test_an_offers_real_cards_change_nothing_others_see_until_it_is_accepted(
    config: dict, seed: int, pick: int
) -> None:
    """Issue 26 §2, innocent cheating: swap the real cards of an offer not
    played open for other cards its maker holds (a cheating offer and an
    honest one look alike to everyone else) and apply the same next intent,
    of any seat, the maker's too (a claim, another trade, a withdrawal): no
    other seat and no spectator may see any difference, except the seat that
    accepts that very offer (it touched the cards)."""
    rnd = random.Random(pick)
    for k, (_s, _seat, _a, new, _ev) in enumerate(playout(config, seed, pick, 300)):
        if k % 3 or new["phase"] == "over":
            continue
        hidden = [o for o in new["offers"] if not o["open"]]
        if not hidden:
            continue
        o = rnd.choice(hidden)
        alt_give = _other_real_cards(new, o)
        if alt_give is None:
            continue
        twin = copy.deepcopy(new)
        twin["offers"] = [
            {**x, "give": alt_give} if x["id"] == o["id"] else x for x in twin["offers"]
        ]
        maker, n = o["from"], new["n"]
        watchers = [None, *(t for t in range(n) if t != maker)]
        for v in watchers:
            assert GAME.observe(twin, v) == GAME.observe(new, v)
        seats = [*GAME.actors(new), None]
        for actor in seats:
            for aid in GAME.legal_action_ids(new, actor):
                a, b = _outcome(new, actor, aid), _outcome(twin, actor, aid)
                if actor == maker:
                    # Only its own refusals may differ (it knows its cards).
                    if isinstance(a, str) or isinstance(b, str):
                        assert isinstance(a, str) and isinstance(b, str), aid
                        continue
                elif isinstance(a, str):
                    assert a == b, aid
                    continue
                (sa, ea), (sb, eb) = a, b
                for v in watchers:
                    if v is not None and v == actor and aid == f"accept:{o['id']}":
                        continue  # the receiver learns the real cards
                    assert view_events(ea, v) == view_events(eb, v), (aid, v)
                    assert GAME.observe(sa, v) == GAME.observe(sb, v), (aid, v)
                    assert GAME.actors(sa) == GAME.actors(sb)
