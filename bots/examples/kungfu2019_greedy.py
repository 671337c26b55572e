"""Example Kung Fu (2019) bot: greedy on the numbers printed on the cards.

Most decisions are simultaneous (``turn.actors`` lists every seat choosing
now). The menus describe each card in their labels, e.g. "Keep Turtle Elbow
(initiative 2, ATK; 1/2/3: +1 HP; 5/6: +3 DEF)", so this bot reads the
bonuses there:

* **draft** (``pick:<code>``) and **play** (``play:<code>``): the card whose
  bonuses add up to the most;
* **assign** (the dice): ``auto``, the platform's exact best assignment of
  the roll, which also finishes the fight's choice.

Try it locally: ``python manage.py botmatch bots/examples/kungfu2019_greedy.py
--vs random,heuristic``. The menus and the observation are described in
docs/rules/kungfu2019.md.
"""

import re

import kungfu_bot

GAME = "kungfu2019"

BONUS = re.compile(r"\+(\d+)")


def worth(action: dict) -> int:
    """The sum of the card's printed bonuses ("+2 ATK", "+1 HP", ...)."""
    return sum(int(n) for n in BONUS.findall(action.get("label", "")))


def choose(turn: kungfu_bot.Turn) -> str:
    phase = turn.observation.get("phase")
    if phase in ("draft", "play"):
        cards = [a for a in turn.legal if a["id"].startswith(("pick:", "play:"))]
        if cards:
            return max(cards, key=worth)["id"]
    if "auto" in turn.legal_ids:
        return "auto"
    return turn.legal_ids[0]  # the menu's first entry: its timeout default


kungfu_bot.run(choose)
