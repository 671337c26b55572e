"""Duelo's cards: eight kinds, one character each (``"1"``..``"8"``, the Focus).

Copies of a card are indistinguishable at the table, so cards carry no
identity: a pile is a string of these characters.
"""

from __future__ import annotations

NAMES = {
    "1": "Disciple",
    "2": "Drunken Fists",
    "3": "Crane Style",
    "4": "Snake Style",
    "5": "Monkey Style",
    "6": "Tiger Style",
    "7": "Dragon Style",
    "8": "Master of Kung Fu",
}
FOCUS = {k: int(k) for k in NAMES}
KINDS = "12345678"
# One box (24 cards) and two boxes without the second Master (47 cards).
BASE_DECK = "111111222333444555666778"
DOUBLE_DECK = "1" * 12 + "2" * 6 + "3" * 6 + "4" * 6 + "5" * 6 + "6" * 6 + "7777" + "8"
MAX_ROUNDS = 12  # the box holds 12 Victory Markers
