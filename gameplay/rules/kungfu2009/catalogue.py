"""The styles, levels and 52 combination cards as plain data, for pages to draw from.

Frames name completed and face-up combinations by code (``"E01"``) only; the
board draws them from this catalogue. Everything here is public (the rules
print the cards), so shipping it whole hides nothing.

``manage.py build_board_data`` writes ``catalogue()`` into
``static/js/boards/data/kungfu2009-cards.js`` (the board module imports it) and
``rules_rows()`` into the rules page's card table; a test fails when either is
stale.
"""

from __future__ import annotations

import html
from typing import Any

from gameplay.rules.kungfu2009.cards import (
    COMBINATIONS,
    HIT_COUNTS,
    LEVEL_ORDER,
    LEVELS,
    STYLE_NAMES,
    STYLES,
    WILD,
)


def catalogue() -> dict[str, Any]:
    """The public card data the board needs (styles, levels, 52 combinations)."""
    return {
        "styles": list(STYLES),
        "style_names": dict(STYLE_NAMES),
        "wild": WILD,
        "hit_counts": dict(HIT_COUNTS),
        "levels": {
            lv: {"name": LEVELS[lv][0], "size": LEVELS[lv][1], "points": LEVELS[lv][2]}
            for lv in LEVEL_ORDER
        },
        "level_order": list(LEVEL_ORDER),
        "combinations": [dict(c) for c in COMBINATIONS.values()],
    }


def _style_icons(hits: str) -> str:
    return "".join(
        f'<span class="kf09-icon kf09-icon-{h} kf09-style-{h}" role="img" '
        f'aria-label="{STYLE_NAMES[h]}" title="{STYLE_NAMES[h]}"></span>'
        for h in hits
    )


def rules_rows() -> list[str]:
    """The rules page's table rows, one per combination card (HTML)."""
    return [
        f"<tr><td><code>{c['code']}</code></td>"
        f"<td>{LEVELS[c['level']][0]}</td>"
        f'<td class="num">{c["points"]}</td>'
        f'<td class="kf09-rule-hits">{_style_icons(c["hits"])}</td>'
        f"<td>{html.escape(c['label'])}</td></tr>"
        for c in COMBINATIONS.values()
    ]
