"""What a Kung Fu (2009) hand holds and can make: small pure helpers.

A hand is a string of style letters read left to right (its arrangement);
Dragons (``WILD``) fill any gap of a combination.
"""

from __future__ import annotations

from gameplay.rules.kungfu2009.cards import WILD


def _holds(hand: str, cards: str) -> bool:
    """Does ``hand`` contain every card of ``cards`` (as a multiset)?"""
    if len(cards) <= 1:
        return not cards or cards in hand
    # A loop, not all(...): asked for every offer at every step.
    for c in set(cards):  # noqa: SIM110
        if hand.count(c) < cards.count(c):
            return False
    return True


def _remove(hand: str, cards: str) -> str:
    """``hand`` without ``cards``, taking the rightmost copies (the arranged
    left part of a hand survives a trade)."""
    for c in cards:
        k = hand.rindex(c)
        hand = hand[:k] + hand[k + 1 :]
    return hand


def can_fit(hand: str, hits: str) -> bool:
    """Can the cards of ``hand`` realize ``hits`` (Dragons filling any gap)?"""
    missing = 0
    for c in set(hits):
        short = hits.count(c) - hand.count(c)
        if short > 0:
            missing += short
    return missing <= hand.count(WILD)


def fit_order(hand: str, hits: str) -> str:
    """``hand`` rearranged so that its first cards spell ``hits`` (Dragons last
    resort), the rest kept in order. ``can_fit`` must hold."""
    rest = hand
    head = []
    for h in hits:
        k = rest.index(h) if h in rest else rest.index(WILD)
        head.append(rest[k])
        rest = rest[:k] + rest[k + 1 :]
    return "".join(head) + rest


def distance(hand: str, hits: str) -> int:
    """Cards missing from ``hand`` to realize ``hits`` (Dragons fill gaps)."""
    missing = 0
    for c in set(hits):
        short = hits.count(c) - hand.count(c)
        if short > 0:
            missing += short
    return max(0, missing - hand.count(WILD))
