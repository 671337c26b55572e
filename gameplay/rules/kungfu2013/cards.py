"""The 60 cards of Kung Fu (2013): OUR DESIGN, kept as data.

The rulebook gives the counts (30 red attack cards, 30 blue block cards) and the
icons, not the card list, so this list is ours (docs/rules/kungfu2013.md explains
the reasoning and records the balance runs it was tuned with). Every card has its
own name; the printed game's "Drunken Master" and "Bridge of Heaven" are attack
cards whose effect passes the initiative.

One row per card::

    (code, name, value, rise, coins, effect, cost, on_hit)

``value``   printed attack/defence value (0-6); with a value-rise icon, the
            lower number.
``rise``    the raised value when the card's special effect is activated (the
            "1 -> 3" / "3 -> 6" icon), else None.
``coins``   power coins in the bottom frame (the card then stays in front).
``effect``  the special effect (see EFFECTS) or None; with ``rise`` it is the
            bottom-frame effect activated together with the rise.
``cost``    coins to activate the special effects (the number on the right);
            None for a card without any special effect.
``on_hit``  True when the effect sits beside the "opponent loses a life" arrow:
            it only happens if the opponent loses life in this battle.
"""

from __future__ import annotations

# Effect keys, one per icon of the rulebook's overview (besides value rise, the
# power coins and the "opponent loses a life" trigger, which are columns).
EFFECTS: dict[str, str] = {
    "nullify": "the opponent's block is discarded without taking effect",
    "initiative": "the initiative changes after the outcome of the battle",
    "draw3": "draw three cards, each from a deck of your choice",
    "no_block": "your opponent cannot play a block next round",
    "discard2": "two random cards from your opponent's hand are discarded",
    "break_coin": "discard one card with power coins in front of your opponent",
    "heal2": "gain two life tokens",
}

# fmt: off
ATTACK_CARDS: tuple[tuple[str, str, int, int | None, int, str | None, int | None, bool], ...] = (  # noqa: E501
    # plain strikes
    ("r01", "Crane Beak", 1, None, 0, None, None, False),
    ("r02", "Willow Whip", 2, None, 0, None, None, False),
    ("r03", "Crane Kick", 3, None, 0, None, None, False),
    ("r04", "Iron Fist", 4, None, 0, None, None, False),
    ("r05", "Spinning Heel", 4, None, 0, None, None, False),
    ("r06", "Tiger Claw", 4, None, 0, None, None, False),
    ("r07", "Stone Breaker", 5, None, 0, None, None, False),
    ("r08", "Dragon Tail Whip", 6, None, 0, None, None, False),
    # power coins (stay in front after the battle)
    ("r09", "Temple Bell Strike", 0, None, 3, None, None, False),
    ("r10", "Golden Coin Jab", 1, None, 2, None, None, False),
    ("r11", "Merchant's Jab", 1, None, 1, None, None, False),
    ("r12", "Jade Fist", 2, None, 1, None, None, False),
    ("r13", "Bronze Knuckle", 2, None, 2, None, None, False),
    ("r14", "Silver Swallow", 2, None, 1, None, None, False),
    ("r15", "Lotus Kick", 1, 3, 1, None, 1, False),
    # value rise
    ("r16", "Phoenix Eye Fist", 1, 3, 0, None, 1, False),
    ("r17", "Rising Dragon", 3, 6, 0, None, 2, False),
    ("r18", "Leopard Pounce", 1, 3, 0, "draw3", 2, False),
    ("r19", "Storm of Fists", 3, 6, 0, "discard2", 3, False),
    # the initiative changes after the outcome
    ("r20", "Drunken Master", 4, None, 0, "initiative", 1, False),
    ("r21", "Bridge of Heaven", 2, None, 0, "initiative", 1, False),
    # the opponent's block is discarded
    ("r22", "Snake Strike", 2, None, 0, "nullify", 2, False),
    ("r23", "Shattering Palm", 3, None, 0, "nullify", 3, False),
    # other effects
    ("r24", "Monkey Steals Peach", 2, None, 0, "discard2", 3, False),
    ("r25", "Thunder Palm", 3, None, 0, "no_block", 2, False),
    ("r26", "Heaven Splitter", 2, None, 0, "break_coin", 1, False),
    ("r27", "Healing Breath", 2, None, 0, "heal2", 1, False),
    # the opponent loses a life -> the effect beside the arrow
    ("r28", "Mantis Hook", 3, None, 0, "discard2", 2, True),
    ("r29", "Whirlwind Kick", 4, None, 0, "draw3", 2, True),
    ("r30", "Scorpion Sting", 3, None, 0, "break_coin", 1, True),
)

BLOCK_CARDS: tuple[tuple[str, str, int, int | None, int, str | None, int | None, bool], ...] = (  # noqa: E501
    # plain guards
    ("b01", "Falling Leaf", 3, None, 0, None, None, False),
    ("b02", "Willow Parry", 4, None, 0, None, None, False),
    ("b03", "Bamboo Guard", 5, None, 0, None, None, False),
    ("b04", "Sweeping Arm", 4, None, 0, None, None, False),
    ("b05", "Cloud Hands", 5, None, 0, None, None, False),
    ("b06", "Horse Stance", 5, None, 0, None, None, False),
    ("b07", "Iron Shirt", 5, None, 0, None, None, False),
    ("b08", "Bear Embrace", 5, None, 0, None, None, False),
    ("b09", "Stone Wall", 6, None, 0, None, None, False),
    # power coins
    ("b10", "Monk's Bowl", 0, None, 3, None, None, False),
    ("b11", "Lucky Coin Guard", 2, None, 2, None, None, False),
    ("b12", "Copper Guard", 3, None, 2, None, None, False),
    ("b13", "Jade Shield", 3, None, 2, None, None, False),
    ("b14", "Bronze Gate", 3, None, 2, None, None, False),
    ("b15", "Silver Shield", 3, None, 2, None, None, False),
    ("b16", "Lotus Block", 1, 3, 1, None, 1, False),
    # value rise
    ("b17", "Turtle Shell", 1, 3, 0, None, 1, False),
    ("b18", "Mountain Stance", 3, 6, 0, None, 1, False),
    ("b19", "Golden Bell", 1, 3, 0, "heal2", 1, False),
    ("b20", "Great Wall", 3, 6, 0, "draw3", 2, False),
    # other effects
    ("b21", "Turning the Tide", 4, None, 0, "initiative", 1, False),
    ("b22", "Meditation", 2, None, 0, "draw3", 1, False),
    ("b23", "Empty Hand", 1, None, 0, "draw3", 1, False),
    ("b24", "Inner Peace", 3, None, 0, "heal2", 1, False),
    ("b25", "Spirit Ward", 4, None, 0, "heal2", 2, False),
    ("b26", "Deflecting Palm", 3, None, 0, "draw3", 1, False),
    ("b27", "Disarm", 3, None, 0, "break_coin", 1, False),
    ("b28", "Mirror Palm", 4, None, 0, "break_coin", 2, False),
    ("b29", "Binding Hands", 4, None, 0, "no_block", 1, False),
    ("b30", "Sticky Hands", 3, None, 0, "no_block", 1, False),
)
# fmt: on
