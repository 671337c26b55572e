"""Kung Fu (2009)'s node test fixture matches the engine, the board's offer plan
is legal step by step, and the observations the board is drawn from hold nothing
the seat may not know."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from django.template.loader import render_to_string

from gameplay.rules import get_game
from gameplay.rules.kungfu2009.cards import COMBINATIONS
from tests.frontend import kungfu2009_fixture as fx
from tests.frontend.node import NODE

HINT = "run python -m tests.frontend.kungfu2009_fixture"
# Every field of an observation (the engine's allow-list): the board reads these.
VIEW_KEYS = {
    "game", "rules_version", "seat", "players", "phase", "actors", "hand", "unseen",
    "draft", "hand_sizes", "in_play", "owes_forfeit", "face_up", "piles", "removed",
    "deck", "discard", "won", "points", "offers", "votes", "impasses",
    "impasse_limit", "severe", "claims", "result",
}  # fmt: skip


def test_fixture_is_current() -> None:
    committed = json.loads(fx.OUT.read_text())
    assert committed == json.loads(json.dumps(fx.build())), HINT


def test_fixture_covers_every_event_type_and_situation() -> None:
    data = json.loads(fx.OUT.read_text())
    assert set(data["seat_frames"]) >= fx.REQUIRED
    assert set(data["events"]) == fx.EVENTS | {"trade_cheated"}
    frames = data["seat_frames"]
    assert frames["unseen"]["view"]["unseen"] > 0
    assert len(frames["queued"]["view"]["claims"]) >= 2
    assert (
        frames["draft_cheat"]["view"]["draft"]["say"]
        != (frames["draft_cheat"]["view"]["draft"]["give"])
    )
    assert frames["spectator"]["view"]["hand"] is None


def test_rules_page_lists_the_52_combinations_from_the_card_data() -> None:
    page = render_to_string("gameplay/rules/kungfu2009.html")
    for code, card in COMBINATIONS.items():
        assert f"<code>{code}</code>" in page
        assert card["label"] in page
    assert page.count("<tr><td><code>") == 52
    assert "our own design" in page


def _allowed(state: dict, seat: int | None, view: dict) -> None:
    """What a seat's view may hold: its own seen cards, sizes, public offers."""
    assert set(view) == VIEW_KEYS
    n = state["n"]
    if seat is None:
        assert view["hand"] is None and view["draft"] is None and view["unseen"] == 0
    else:
        hand = state["hands"][seat]
        fresh = state["fresh"][seat]
        assert view["hand"] == hand[: len(hand) - fresh]
        assert view["unseen"] == fresh
        assert view["draft"] == state["drafts"][seat]
    assert view["hand_sizes"] == [len(h) for h in state["hands"]]
    assert len(view["hand_sizes"]) == n
    real = {o["id"]: o for o in state["offers"]}
    for o in view["offers"]:
        shown = o["cards"]
        if o["open"] or o["from"] == seat:
            assert shown == real[o["id"]]["give"]
        else:
            assert shown is None, (seat, o)
        assert o["declared"] == real[o["id"]]["say"]


def test_observations_the_board_gets_hold_no_hidden_card() -> None:
    """What the page is drawn from: at every step of seeded games, each seat's
    and the spectator's view holds only its own seen cards, other hands as
    sizes, other offers' real cards only when open, drafts only its own, and
    cards drawn during a pause only as a count."""
    game = get_game("kungfu2009")
    checked = 0
    for seed, players in ((1, 4), (2, 3), (3, 5), (4, 8)):
        rnd = random.Random(seed)
        state = game.setup({"players": players, "severe": True}, seed)
        for _ in range(400):
            if game.is_over(state):
                break
            for seat in [None, *range(players)]:
                _allowed(state, seat, game.observe(state, seat))
                checked += 1
            if state["phase"] == "paused":
                state, _ = game.apply(state, None, "check")
                continue
            seat = rnd.choice(game.actors(state))
            ids = game.legal_action_ids(state, seat)
            state, _ = game.apply(state, seat, ids[rnd.randrange(len(ids))])
    assert checked > 3000


ROOT = Path(__file__).resolve().parents[2]
PLAN_JS = (
    "import { offerPlan } from './static/js/boards/kungfu2009.js';"
    "const [st, hand] = JSON.parse(process.argv[1]);"
    "console.log(JSON.stringify(offerPlan(st, hand)));"
)


def _plan(composer: dict, hand: str) -> list[str]:
    assert NODE is not None
    out = subprocess.run(
        [NODE, "--input-type=module", "-e", PLAN_JS, json.dumps([composer, hand])],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(out.stdout)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_composers_offer_is_sent_as_steps_the_engine_takes_in_order() -> None:
    """The board's plan for a composed offer (board.offerPlan) is legal step by
    step, as the live page sends it, and makes exactly the offer composed:
    innocent cheating on one card, open cards, a plea to everyone."""
    game = get_game("kungfu2009")
    state = game.setup({"players": 4}, 7)
    hand = state["hands"][0]
    other = next(s for s in "TMCRD" if s != hand[0])
    cases = [
        ({"to": "1", "give": [0, 2], "say": {"0": other}, "want": "DT", "open": False},
         {"to": 1, "give": hand[0] + hand[2], "say": other + hand[2], "want": "DT"}),
        ({"to": "all", "give": [], "say": {}, "want": "C", "open": True},
         {"to": -1, "give": "", "say": "", "want": "C", "open": True}),
    ]  # fmt: skip
    for composer, made in cases:
        ids = _plan(composer, hand)
        s = state
        for aid in ids:
            assert aid in game.legal_action_ids(s, 0), (aid, ids)
            s, _ = game.apply(s, 0, aid)
        offer = s["offers"][-1]
        want = {"open": False, **made}
        assert {k: offer[k] for k in want} == want, ids
        assert s["drafts"][0] is None


def test_board_template_loads_its_css_and_the_board_module_its_card_list() -> None:
    """What the match page needs once the game is launched (it includes the
    board template inside the table, and imports the board module, which
    imports the card list)."""
    from django.contrib.staticfiles import finders

    html = render_to_string(
        "gameplay/boards/kungfu2009.html", {"part": "table", "match": None}
    )
    assert "css/boards/kungfu2009.css" in html
    for role in ("opponents", "center", "you"):
        assert f'data-role="{role}"' in html
    ref = render_to_string("gameplay/boards/kungfu2009.html", {"part": "reference"})
    assert 'data-role="card-reference"' in ref
    board_js = finders.find("js/boards/kungfu2009.js")
    assert board_js
    assert finders.find("js/boards/data/kungfu2009-cards.js")
    board = Path(board_js).read_text()
    assert 'import DATA from "./data/kungfu2009-cards.js";' in board
