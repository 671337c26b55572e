"""Duelo's decision points: the phases of the state machine and their prompts.

Every decision is its own small menu, and the state records whose decision it
is in ``phase``/``actor``/``ctx``. These names, the rules version and the
keys of events' private parts are shared by the menus (:mod:`.menus`), the
handlers (:mod:`.effects`), the observation (:mod:`.observation`) and the C
code, whose phases :mod:`.native` checks against :data:`PHASES` on import.
"""

from __future__ import annotations

RULES_VERSION = "duelo-1"


KEY = [str(i) for i in range(8)]  # seat -> key of an event's private part

# Phases. The actor of each phase is stored in state["actor"].
CARD = "card"  # active player chooses the card to play
FACE = "face"  # ... then face up or face down
TARGET = "target"  # ... then, face down, the opponent to duel
ANSWER = "answer"  # the challenged opponent answers face down
C_DISCIPLE = "c_disciple"  # combat Disciple: reveal the top card to copy its Focus?
C_MONKEY = "c_monkey"  # combat Monkey: put the hand under the deck and redraw?
C_MONKEY_ORDER = "c_monkey_order"  # ... which card goes under next
DRAGON_DRAW = "dragon_draw"  # Dragon won or tied: draw one card or two?
U_DISCIPLE = "u_disciple"  # discard Disciple: reveal the top card to copy its effect?
DRUNK_PUT = "drunk_put"  # Drunken Fists: which card goes back on top next
SNAKE_TARGET = "snake_target"  # Snake: which opponent separates a card
SNAKE_SEPARATE = "snake_separate"  # ... that opponent chooses the card
SNAKE_GUESS = "snake_guess"  # ... the active player guesses odd or even
MONKEY_A = "monkey_a"  # Monkey: first of the two players who swap hands
MONKEY_B = "monkey_b"  # ... second player
TIGER_TARGET = "tiger_target"  # Tiger: whose hand to look at next turn
DRAGON_PEEK = "dragon_peek"  # Dragon: keep the top card on top or move it under
OVER = "over"

PHASES = (
    CARD,
    FACE,
    TARGET,
    ANSWER,
    C_DISCIPLE,
    C_MONKEY,
    C_MONKEY_ORDER,
    DRAGON_DRAW,
    U_DISCIPLE,
    DRUNK_PUT,
    SNAKE_TARGET,
    SNAKE_SEPARATE,
    SNAKE_GUESS,
    MONKEY_A,
    MONKEY_B,
    TIGER_TARGET,
    DRAGON_PEEK,
)

PROMPTS = {
    CARD: "choose the card to play",
    FACE: "play the card face up (discard effect) or face down (duel)",
    TARGET: "choose the opponent to duel",
    ANSWER: "answer the duel with a face-down card",
    C_DISCIPLE: "Disciple: reveal the top card to copy its Focus?",
    C_MONKEY: "Monkey Style: put your hand under the deck and redraw (Focus 1)?",
    C_MONKEY_ORDER: "Monkey Style: choose the next card to put under the deck",
    DRAGON_DRAW: "Dragon Style: draw one card or two?",
    U_DISCIPLE: "Disciple: reveal the top card to copy its discard effect?",
    DRUNK_PUT: "Drunken Fists: choose a card to put on top of the deck",
    SNAKE_TARGET: "Snake Style: choose the opponent who separates a card",
    SNAKE_SEPARATE: "Snake Style: separate one card from your hand",
    SNAKE_GUESS: "Snake Style: guess whether the separated card is odd or even",
    MONKEY_A: "Monkey Style: choose the first player whose hand is swapped",
    MONKEY_B: "Monkey Style: choose the second player whose hand is swapped",
    TIGER_TARGET: "Tiger Style: choose the opponent whose hand you look at next turn",
    DRAGON_PEEK: "Dragon Style: keep the top card on top or put it under the deck?",
    OVER: "the game is over",
}

# Phases of a face-up play (the played card is on the table, face up) and of a
# revealed duel, used by observe() to describe the table.
_UP_PHASES = frozenset(
    {
        U_DISCIPLE,
        DRUNK_PUT,
        SNAKE_TARGET,
        SNAKE_SEPARATE,
        SNAKE_GUESS,
        MONKEY_A,
        MONKEY_B,
        TIGER_TARGET,
        DRAGON_PEEK,
    }
)
_DUEL_PHASES = frozenset({C_DISCIPLE, C_MONKEY, C_MONKEY_ORDER, DRAGON_DRAW})
_PEEK_PHASES = frozenset({C_DISCIPLE, U_DISCIPLE, DRAGON_PEEK})
