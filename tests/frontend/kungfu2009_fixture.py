"""Kung Fu (2009)'s node test fixture, built from the engine.

``fixtures/kungfu2009.json``: real engine frames for the board's node tests
  (tests/frontend/kungfu2009.test.js): a seat in play with offers to it and
  from it, a hand that the menu can arrange for a face-up combination, a hand
  ready to shout KUNG FU, an offer being built (honest and with innocent
  cheating), the pause while a claim is checked (and a second claim queued
  behind it, with cards drawn but unseen), a punished seat, a severe
  punishment choice, an impasse vote, a spectator and the end; and one event of
  every type (a trade with innocent cheating among them), and one action per
  kind of label the games met (tests/frontend/label_kinds.py). The card data the
  board draws from is the site's own (``manage.py build_board_data``).

The games are played by a simple player of this module's own (see
``_choose``), with a second seat shouting KUNG FU during some pauses, as the
live sequencer would apply it.

Run ``python -m tests.frontend.kungfu2009_fixture`` after changing the cards,
the engine's observation or its events; tests/frontend/test_kungfu2009_fixture.py
fails when the committed fixture is stale.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from gameplay.rules import get_game
from gameplay.rules.kungfu2009.cards import LEVEL_ORDER, matches
from tests.frontend import label_kinds

OUT = Path(__file__).parent / "fixtures" / "kungfu2009.json"
NAMES = ["Ana", "Bo", "Chen", "Dara", "Eli", "Fay", "Gus", "Hana"]
# Seat frames the node tests look at; games are played until all have been seen.
REQUIRED = {
    "play",
    "fit",
    "ready",
    "draft",
    "draft_cheat",
    "paused",
    "queued",
    "unseen",
    "punished",
    "forfeit",
    "voted",
    "spectator",
    "over",
}
EVENTS = {
    "draft", "arrange", "offer", "offer_void", "offer_declined", "offer_withdrawn",
    "trade", "claim", "claim_correct", "claim_wrong", "claim_void", "draw",
    "reveal", "reshuffle", "impasse_vote", "impasse", "forfeit", "back_in_play",
    "all_out", "game_over", "resume",
}  # fmt: skip


def _frame(game, state, seat, version: int, events=None) -> dict[str, Any]:
    """A state frame as gameplay.selectors builds it (seat or spectator)."""
    n = state["n"]
    actors = game.actors(state)
    return {
        "type": "state",
        "status": "active" if not game.is_over(state) else "finished",
        "version": version,
        "seat": seat,
        "seats": [{"name": NAMES[i]} for i in range(n)],
        "view": game.observe(state, seat),
        "actors": actors,
        "legal": game.legal_actions(state, seat) if seat in actors else [],
        "events": events or [],
    }


def _ready(view: dict[str, Any]) -> bool:
    hand = view["hand"] or ""
    for lv in LEVEL_ORDER:
        c = view["face_up"][lv]
        if c and matches(hand[: len(c["hits"])], c["hits"]):
            return True
    return False


def _note(frames, key, game, state, seat, version) -> None:
    if key not in frames:
        frames[key] = _frame(game, state, seat, version)


def _look(frames, game, state, version: int) -> None:
    """Keep the frames of the situations the tests need, first seen first kept."""
    n = state["n"]
    phase = state["phase"]
    for seat in range(n):
        view = game.observe(state, seat)
        ids = game.legal_action_ids(state, seat) if phase == "play" else []
        if phase == "paused":
            if len(state["claims"]) >= 2:
                _note(frames, "queued", game, state, seat, version)
            if view["unseen"] and view["hand"]:
                _note(frames, "unseen", game, state, seat, version)
            if all(c["seat"] != seat for c in state["claims"]):
                _note(frames, "paused", game, state, seat, version)
            continue
        if phase != "play":
            continue
        if view["owes_forfeit"][seat]:
            _note(frames, "forfeit", game, state, seat, version)
        elif not view["in_play"][seat]:
            _note(frames, "punished", game, state, seat, version)
            continue
        d = view["draft"]
        if d is not None and d["give"] and d["want"] and "send" in ids:
            key = "draft_cheat" if d["say"] != d["give"] else "draft"
            _note(frames, key, game, state, seat, version)
        mine = [o for o in view["offers"] if o["from"] == seat]
        accepts = any(i.startswith("accept:") for i in ids)
        full = len(view["hand"]) >= 5  # the arranging tests move card 3
        if d is None and mine and accepts and not view["votes"][seat] and full:
            _note(frames, "play", game, state, seat, version)
        if any(i.startswith("fit:") for i in ids):
            _note(frames, "fit", game, state, seat, version)
        if _ready(view):
            _note(frames, "ready", game, state, seat, version)
        if view["votes"][seat] and not all(view["votes"]):
            _note(frames, "voted", game, state, seat, version)
    if phase == "play" and state["offers"] and any(state["votes"]):
        _note(frames, "spectator", game, state, None, version)


def _choose(game, state, seat: int, rnd: random.Random) -> str:
    """A simple table player of this module's own (not the built-in bots, so a
    change to their strategies does not change the fixture): shouts KUNG FU
    when its hand makes a face-up combination, arranges for one it can make,
    answers offers, builds offers from random steps (cheating now and then),
    votes for impasses, and now and then does something odd (a wrong claim)."""
    ids = game.legal_action_ids(state, seat)
    if ids[0] != "pass":
        return rnd.choice(ids)  # a severe-punishment choice
    view = game.observe(state, seat)
    hand = view["hand"]
    for lv in LEVEL_ORDER:
        c = view["face_up"][lv]
        if c and f"claim:{lv}" in ids and matches(hand[: len(c["hits"])], c["hits"]):
            return f"claim:{lv}"
    r = rnd.random()
    fits = [i for i in ids if i.startswith("fit:")]
    if fits and r < 0.6:
        return rnd.choice(fits)
    if r < 0.04:
        return rnd.choice(ids)  # anything, a wrong claim included
    answers = [i for i in ids if i.startswith(("accept:", "decline:", "withdraw:"))]
    if answers and r < 0.5:
        return rnd.choice(answers)
    steps = [
        i
        for i in ids
        if i.split(":")[0] in ("to", "give", "want", "open", "send", "cancel")
    ]
    if "send" in ids and r < 0.55:
        return "send"
    if steps and r < 0.85:
        step = rnd.choice(steps)
        if step.count(":") == 2 and rnd.random() < 0.75:
            step = step.rsplit(":", 1)[0]  # cheat now and then, not on most cards
        return step
    if r < 0.9:
        return "impasse" if "impasse" in ids else "impasse:no"
    moves = [i for i in ids if i.startswith("move:")]
    return rnd.choice(moves) if moves else "pass"


def _extra_claim(game, state, rnd: random.Random) -> tuple[int, str] | None:
    """Another seat shouting KUNG FU during the pause, for the same combination."""
    first = state["claims"][0]
    if len(state["claims"]) > 1 or rnd.random() > 0.5:
        return None
    others = [
        t
        for t in range(state["n"])
        if t != first["seat"] and not state["out"][t] and state["hands"][t]
    ]
    if not others:
        return None
    return rnd.choice(others), "claim:" + first["level"]


def build() -> dict[str, Any]:
    game = get_game("kungfu2009")
    frames: dict[str, dict[str, Any]] = {}
    events: dict[str, dict[str, Any]] = {}
    labels: dict[str, dict[str, Any]] = {}
    configs = [
        {"players": 4, "severe": True},
        {"players": 3, "severe": True, "remove": 4},
        {"players": 5, "remove": 3},
    ]
    for seed in range(60):
        config = configs[seed % len(configs)]
        rnd = random.Random(seed)
        state = game.setup(config, seed)
        version = 0
        tick = 0
        while not game.is_over(state) and tick < 4000:
            tick += 1
            _look(frames, game, state, version)
            if state["phase"] == "paused":
                extra = _extra_claim(game, state, rnd)
                seat, aid = extra if extra else (None, "check")
            else:
                actors = game.actors(state)
                seat = actors[rnd.randrange(len(actors))]
                label_kinds.collect(labels, game.legal_actions(state, seat))
                aid = _choose(game, state, seat, rnd)
                if aid == "pass":
                    continue
            state, evs = game.apply(state, seat, aid)
            version += 1
            for ev in evs:
                key = ev["type"]
                if key == "trade" and ev["private"][str(ev["public"]["to"])]["cheated"]:
                    events.setdefault("trade_cheated", ev)
                events.setdefault(key, ev)
            if game.is_over(state) and "over" not in frames:
                frames["over"] = _frame(game, state, 0, version, evs)
        if game.is_over(state) is False and "over" not in frames:
            state, evs = game.apply(state, None, "end")
            version += 1
            for ev in evs:
                events.setdefault(ev["type"], ev)
            frames["over"] = _frame(game, state, 0, version, evs)
        if set(frames) >= REQUIRED and set(events) >= EVENTS | {"trade_cheated"}:
            break
    return {
        "seat_frames": frames,
        "events": events,
        "names": NAMES,
        "labels": label_kinds.ordered(labels),
    }


def main() -> None:
    OUT.write_text(json.dumps(build(), indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
