"""Kung Fu (2013)'s decision points: the phases, their prompts, the event keys.

Shared by the menus (:mod:`.menus`), the rules (:mod:`.rounds`,
:mod:`.handlers`), the observation (:mod:`.observation`) and the C code, which
is handed :data:`PROMPTS` when it is imported (:mod:`.native`).
"""

from __future__ import annotations

from gameplay.rules.base import Event

RULES_VERSION = "kungfu2013-2"


# Phases: which decision is pending.
INITIATIVE = "initiative"  # the initiative holder keeps it or passes it
DRAW = "draw"  # draw one card: from the red or the blue deck?
ATTACK = "attack"  # the attacker chooses an attack card
FACE = "face"  # ... then face up or face down
BLOCK = "block"  # the defender must play a block card
EFFECT_PHASE = "effect"  # activate the special effect of your card?
PAY = "pay"  # ... discard which coin card in front of you next
TARGET = "target"  # which coin card in front of the opponent is discarded
REWARD = "reward"  # the defender won: draw the difference or take the initiative
OVER = "over"

PROMPTS = {
    INITIATIVE: "keep the initiative and attack, or pass it (you draw three)",
    DRAW: "draw a card from the red or the blue deck",
    ATTACK: "choose an attack card",
    FACE: "play the attack card face up or face down",
    BLOCK: "choose a block card",
    EFFECT_PHASE: "activate the special effect of your card?",
    PAY: "choose a power-coin card in front of you to pay with",
    TARGET: "choose the opponent's power-coin card to discard",
    REWARD: "you won the defence: draw the difference or take the initiative",
    OVER: "the game is over",
}

KEY = ("0", "1")  # seat -> key of an event's private part

# Where a helper appends its events: a list, or None in an in-place playout
# (``apply_in_place``), where nobody reads them and none are built. The rules
# are the same code either way; only the event dicts are skipped.
Events = list[Event] | None
