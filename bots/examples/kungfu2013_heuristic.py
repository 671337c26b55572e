"""Example Kung Fu (2013) bot: a few plain rules read off the observation.

The observation shows your hand as card objects (``code``, ``name``, ``colour``
red/blue, ``value``, ``rise``, ``coins``, ``effect``, ``cost``, ``on_hit``),
both players' life, coins and coin cards in front, the hand sizes per colour,
and the battle on the table (``battle.attack`` is null while a face-down attack
is hidden from you). Each decision's legal ids are listed in docs/protocol/bots.md.
Try it locally: ``python manage.py botmatch bots/examples/kungfu2013_heuristic.py
--vs random``.
"""

import kungfu_bot

GAME = "kungfu2013"


def value(card, coins):
    """The card's value, risen if we can pay for the rise."""
    if card.get("rise") is not None and coins >= (card.get("cost") or 0):
        return card["rise"]
    return card["value"]


def choose(turn: kungfu_bot.Turn) -> str:
    obs = turn.observation
    ids = turn.legal_ids
    me = obs["seat"]
    coins = obs["coins"][me]
    hand = {c["code"]: c for c in obs["hand"] or []}
    phase = obs["phase"]
    battle = obs.get("battle") or {}
    if phase == "initiative":
        strong = [c for c in hand.values() if c["colour"] == "red" and c["value"] >= 4]
        return "initiative:keep" if strong else "initiative:pass"
    if phase == "attack":
        # The strongest attack we have (ids look like "attack:r06").
        return max(ids, key=lambda a: value(hand[a.split(":")[1]], coins))
    if phase == "face":
        attack = battle.get("attack") or {}
        return "face:down" if attack.get("value", 0) >= 4 else "face:up"
    if phase == "block":
        attack = battle.get("attack")
        if attack is None:  # face down: block with a middling card
            ordered = sorted(ids, key=lambda a: hand[a.split(":")[1]]["value"])
            return ordered[len(ordered) // 2]
        need = attack["value"]
        stoppers = [a for a in ids if value(hand[a.split(":")[1]], coins) >= need]
        if stoppers:
            return min(stoppers, key=lambda a: hand[a.split(":")[1]]["value"])
        return max(ids, key=lambda a: hand[a.split(":")[1]]["value"])
    if phase == "effect":
        return "effect:use"  # only offered when we can pay for it
    if phase == "reward":
        return "reward:draw" if obs["pending"].get("difference", 0) >= 2 else ids[1]
    return ids[0]  # draws, payments, targets: the menu's first entry


kungfu_bot.run(choose)
