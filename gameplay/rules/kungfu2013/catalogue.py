"""The 60 cards as plain data, for pages to draw from.

The frames carry every card the viewer may see as a full card dict, so the
board needs no card list to draw a battle; what it takes from here is the
reference under the table (the effect icons in the rulebook's words and the
whole list, for a player who wants to know what is still in the decks) and
the rules page's card tables. ``cards.py`` stays the single source:
``manage.py build_board_data`` writes ``catalogue()`` into
``static/js/boards/data/kungfu2013-cards.js`` and ``rules_rows()`` into
``templates/gameplay/rules/_kungfu2013_cards.html``; a test fails when either
is stale. Everything here is public (the list is printed in the rules).
"""

from __future__ import annotations

import html
from typing import Any

from gameplay.rules.kungfu2013 import cards as _cards

_FIELDS = ("code", "name", "value", "rise", "coins", "effect", "cost", "on_hit")


def card_entries() -> list[dict[str, Any]]:
    """Every card in code order (red first): the fields of ``cards.py``."""
    entries = []
    for colour, rows in (("red", _cards.ATTACK_CARDS), ("blue", _cards.BLOCK_CARDS)):
        for row in rows:
            entries.append({"colour": colour, **dict(zip(_FIELDS, row, strict=True))})
    return entries


def catalogue() -> dict[str, Any]:
    """The cards and the effect texts (one per icon of the rulebook)."""
    return {"cards": card_entries(), "effects": dict(_cards.EFFECTS)}


def effect_text(card: dict[str, Any]) -> str:
    """What activating the card does, with its coin cost ("-" for none)."""
    parts = []
    if card["rise"] is not None:
        parts.append(f"value rises to {card['rise']}")
    if card["effect"] is not None:
        text = _cards.EFFECTS[card["effect"]]
        parts.append(("if the opponent loses life: " if card["on_hit"] else "") + text)
    if not parts:
        return "—"
    return "; ".join(parts) + f" (costs {card['cost']})"


def _row(card: dict[str, Any]) -> str:
    value = (
        card["value"] if card["rise"] is None else f"{card['value']} → {card['rise']}"
    )
    cells = (card["name"], value, card["coins"] or "—", effect_text(card))
    return "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + "</tr>"


def rules_rows() -> list[str]:
    """The rules page's two card tables (attack, then block), as HTML lines."""
    lines: list[str] = []
    for colour, title in (("red", "Red attack cards"), ("blue", "Blue block cards")):
        lines += [
            f'<h3>{{% translate "{title}" %}}</h3>',
            '<div class="table-scroll">',
            '<table class="rules-cards">',
            "<thead><tr>"
            + "".join(
                f'<th>{{% translate "{name}" %}}</th>'
                for name in (
                    "Card",
                    "Value",
                    "Power coins",
                    "Special effect (coin cost)",
                )
            )
            + "</tr></thead>",
            "<tbody>",
        ]
        lines += [_row(c) for c in card_entries() if c["colour"] == colour]
        lines += ["</tbody>", "</table>", "</div>"]
    return lines
