"""Kung Fu (2019)'s phases (which decision is pending) and their prompts."""

from __future__ import annotations

# Phases: which decision is pending.
DRAFT = "draft"  # every seat keeps one card of its pack (simultaneous)
PLAYING = "play"  # every living seat commits its three cards, one at a time
ASSIGN = "assign"  # every fighter assigns its dice (simultaneous)
OVER = "over"

PROMPTS = {
    DRAFT: "keep one card of your pack (the rest passes to your left)",
    PLAYING: "choose the cards you play this round (three, one at a time)",
    ASSIGN: "assign your dice to the combinations on your three cards",
    OVER: "the game is over",
}

DUMMY = -1  # the 2-player dummy in attack orders

PHASES = (DRAFT, PLAYING, ASSIGN, OVER)  # the kernel's phase numbers
