"""Kung Fu (2019)'s front-end files, built from the engine and its card data.

* ``fixtures/kungfu2019.json``: real engine frames for the board's node tests
  (tests/frontend/kungfu2019.test.js): one seat frame per decision (draft pick,
  card commit, the dice tray with and without a set being built, a die that can
  be turned), a seat waiting on the others, a spectator mid-fight, a 2-player
  fight against the dummy, and one event of every type.
* ``static/js/boards/data/kungfu2019-cards.js``: the card catalogue the board draws
  cards from (frames carry card codes only).
* ``templates/gameplay/rules/_kungfu2019_cards.html``: the rules page's card
  table rows.

Run ``python -m tests.frontend.kungfu2019_fixture`` after changing the cards,
the engine's observation or its events; tests/frontend/test_kungfu2019_fixture.py
fails when a committed file is stale.
"""

from __future__ import annotations

import html
import json
import random
from pathlib import Path
from typing import Any

from gameplay.rules import get_game
from gameplay.rules.kungfu2019.catalogue import catalogue

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).parent / "fixtures" / "kungfu2019.json"
CARDS_JS = ROOT / "static" / "js" / "boards" / "data" / "kungfu2019-cards.js"
RULES_ROWS = ROOT / "templates" / "gameplay" / "rules" / "_kungfu2019_cards.html"
NAMES = ["Ana", "Bo", "Chen", "Dara", "Eli"]
# Seat frames the node tests look at; games are played until all have been seen.
REQUIRED = {
    "draft",
    "play",
    "assign",
    "assign_open",
    "assign_adjust",
    "waiting",
    "play_more",
    "draft_waiting",
    "assign_done",
    "spectator",
    "dummy",
}


def _frame(game, state, seat, version: int, events=None) -> dict[str, Any]:
    n = state["n"]
    actors = game.actors(state)
    return {
        "type": "state",
        "status": "active",
        "version": version,
        "seat": seat,
        "seats": [{"name": NAMES[i]} for i in range(n)],
        "view": game.observe(state, seat),
        "actors": actors,
        "legal": game.legal_actions(state, seat) if seat in actors else [],
        # As gameplay.selectors sends them: a seat's take-backs of its hidden
        # commits while the others still choose.
        "retract": [] if seat is None else game.retract_actions(state, seat),
        "events": events or [],
    }


def _choose(rnd: random.Random, phase: str, ids: list[str]) -> str:
    if phase != "assign":
        return rnd.choice(ids)
    # A random walk through the dice steps would rarely finish: mostly build
    # sets and turn dice, sometimes finish.
    r = rnd.random()
    if r < 0.12:
        return "auto"
    if r < 0.2 and "done" in ids:
        return "done"
    steps = [i for i in ids if i.split(":")[0] in ("set", "die", "up", "down")]
    return rnd.choice(steps or ids)


def build() -> dict[str, Any]:
    game = get_game("kungfu2019")
    frames: dict[str, dict[str, Any]] = {}
    events: dict[str, dict[str, Any]] = {}
    configs = [{"players": 3}, {"players": 2}, {"players": 4}, {"players": 5}]
    for seed in range(40):
        config = configs[seed % len(configs)]
        rnd = random.Random(seed)
        state = game.setup(config, seed)
        version = 0
        while not game.is_over(state):
            actors = game.actors(state)
            phase = state["phase"]
            seat = actors[rnd.randrange(len(actors))]
            n = state["n"]
            if n == 3:
                key = phase
                if phase == "assign":
                    mine = game.observe(state, seat)["fight"]["mine"]
                    if mine["open"] is not None:
                        ids = game.legal_action_ids(state, seat)
                        key = (
                            "assign_adjust"
                            if any(i[:3] in ("up:", "dow") for i in ids)
                            else "assign_open"
                        )
                if phase == "play" and state["commit"][seat]:
                    key = "play_more"  # a card committed, take-backs offered
                frames.setdefault(key, _frame(game, state, seat, version))
                waiting = [i for i in range(n) if i not in actors]
                if phase == "play" and waiting and len(actors) < n:
                    frames.setdefault(
                        "waiting", _frame(game, state, waiting[0], version)
                    )
                if phase == "draft" and waiting:
                    frames.setdefault(
                        "draft_waiting", _frame(game, state, waiting[0], version)
                    )
                if phase == "assign":
                    frames.setdefault("spectator", _frame(game, state, None, version))
                    if waiting and len(actors) > 0:
                        done = [i for i in waiting if i in state["fight"]["f"]]
                        if done:
                            frames.setdefault(
                                "assign_done", _frame(game, state, done[0], version)
                            )
            if n == 2 and phase == "assign" and state["dummy"]:
                frames.setdefault("dummy", _frame(game, state, seat, version))
            aid = _choose(rnd, phase, game.legal_action_ids(state, seat))
            # Now and then a person changes their mind (a take-back).
            sorry = [i for i in range(n) if game.retract_actions(state, i)]
            if sorry and rnd.random() < 0.04:
                seat = rnd.choice(sorry)
                aid = rnd.choice(game.retract_actions(state, seat))["id"]
            state, evs = game.apply(state, seat, aid)
            version += 1
            for ev in evs:
                events.setdefault(ev["type"], ev)
            if n == 3 and game.is_over(state) and "over" not in frames:
                frames["over"] = _frame(game, state, 0, version, evs)
        if set(frames) >= REQUIRED | {"over"} and len(events) >= 15:  # every event type
            break
    return {"seat_frames": frames, "events": events, "names": NAMES}


def cards_js() -> str:
    data = json.dumps(catalogue(), indent=1, sort_keys=True)
    return (
        "// GENERATED by tests/frontend/kungfu2019_fixture.py from\n"
        "// gameplay/rules/kungfu2019/catalogue.py (the cards are data in cards.py):\n"
        "// do not edit; run python -m tests.frontend.kungfu2019_fixture.\n"
        "// Kung Fu (2019)'s public card list for boards/kungfu2019.js: the browser\n"
        "// gets window.KfaKungfu2019Cards, node a CommonJS module.\n"
        "(function (root) {\n"
        '  "use strict";\n'
        f"  var data = {data};\n"
        '  if (typeof module === "object" && module.exports) module.exports = data;\n'
        "  else root.KfaKungfu2019Cards = data;\n"
        '})(typeof self !== "undefined" ? self : this);\n'
    )


ICON_NAMES = {"hp": "HP", "atk": "ATK", "def": "DEF", "hit": "HIT", "avo": "AVO"}
ROLE_NAMES = {"atk": "attack", "def": "defence", "both": "both", None: "-"}


def rules_rows() -> str:
    lines = [
        "{% comment %}GENERATED by tests/frontend/kungfu2019_fixture.py from "
        "gameplay/rules/kungfu2019/cards.py: do not edit.{% endcomment %}"
    ]
    for card in catalogue()["cards"]:
        combos = "<br>".join(
            html.escape(
                ("red cross" if c["kind"] == "cross" else c["label"])
                + ": "
                + c["effect_label"]
                + f" ({ROLE_NAMES[c['role']]})"
            )
            for c in card["combos"]
        )
        lines.append(
            f"<tr><td>{html.escape(card['name'])}</td>"
            f'<td class="num">{card["initiative"]}</td>'
            f"<td>{ICON_NAMES[card['icon']]}</td><td>{combos}</td></tr>"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    OUT.write_text(json.dumps(build(), indent=1, sort_keys=True) + "\n")
    CARDS_JS.write_text(cards_js())
    RULES_ROWS.write_text(rules_rows())


if __name__ == "__main__":
    main()
