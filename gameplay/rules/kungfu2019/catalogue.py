"""The 74 cards and the board constants as plain data, for pages to draw from.

Observations, events and actions name cards by code (``"c17"``) only, so a
frame stays small and a bot reads the same thing a person's page does; the
page draws the cards from this catalogue instead. Everything here is public
(the card list is printed in the rules), so shipping it whole hides nothing.

``catalogue()`` is the single source: ``manage.py build_board_data`` writes it
into ``static/js/boards/data/kungfu2019-cards.js`` (the board module imports it)
and, through ``rules_rows()``, into the rules page's card table; a test fails
when either is stale.
"""

from __future__ import annotations

import html
from typing import Any

from gameplay.rules.kungfu2019 import cards as _cards
from gameplay.rules.kungfu2019.combos import ATTACK, DEFEND, Combo
from gameplay.rules.kungfu2019.engine import DICE, HAND, PLAY, ROUNDS


def combo_entry(combo: Combo) -> dict[str, Any]:
    """One combination: its JSON form, the printed texts and the role it works in."""
    roles = [r for r in (ATTACK, DEFEND) if combo.effect.active_in(r)]
    return {
        **combo.to_json(),
        "dice": combo.n,
        "label": combo.label(),
        "effect_label": combo.effect.label(),
        "role": roles[0] if len(roles) == 1 else "both" if roles else None,
    }


def card_entries() -> list[dict[str, Any]]:
    """Every card, in code order: code, name, initiative, icon, combinations."""
    return [
        {
            "code": code,
            "name": name,
            "initiative": initiative,
            "icon": icon,
            "combos": [combo_entry(c) for c in _cards.COMBOS[code]],
        }
        for code, name, initiative, icon, _combos in _cards.CARDS
    ]


def catalogue() -> dict[str, Any]:
    """The cards plus the numbers a board needs to explain the tracks and HP."""
    return {
        "cards": card_entries(),
        "icons": list(_cards.ICONS),
        "track_step": dict(_cards.TRACK_STEP),
        "start_hp": {str(k): v for k, v in _cards.START_HP.items()},
        "rounds": ROUNDS,
        "dice": DICE,
        "play": PLAY,
        "hand": HAND,
    }


ICON_NAMES = {"hp": "HP", "atk": "ATK", "def": "DEF", "hit": "HIT", "avo": "AVO"}
ROLE_NAMES = {"atk": "attack", "def": "defence", "both": "both", None: "-"}


def rules_rows() -> list[str]:
    """The rules page's table rows, one per card (HTML)."""
    rows = []
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
        rows.append(
            f"<tr><td>{html.escape(card['name'])}</td>"
            f'<td class="num">{card["initiative"]}</td>'
            f"<td>{ICON_NAMES[card['icon']]}</td><td>{combos}</td></tr>"
        )
    return rows
