"""Example Kung Fu (2009) bot: collect the cards of the nearest combination.

Kung Fu (2009) is played in real time: there are no turns, and you are asked at
every tick of the match's clock (``turn.tick``), at the same moment as every
other seat. ``kungfu_bot.PASS`` (do nothing this tick) is always legal. Your
intent is applied after those of the seats before you in the tick's order, so
it may have gone stale (the offer you accept was taken, a claim paused the
game): it is then refused, changes nothing, and ``turn.refused`` says so at
your next request. The observation is complete, so this bot keeps no memory.

Each tick, in order: shout KUNG FU when the first cards of the hand make a
face-up combination; arrange the hand for one it holds all the cards of
(``fit:<level>``: the engine puts them in front); join another seat's
impasse vote while its target is incomplete (an impasse needs every vote, and
a table where nobody can trade what the others need stalls without it);
accept an offer that brings a missing card for cards it does not need
(declining the others); withdraw its offers that went stale; build and send
an offer of one unneeded card for one missing card to everyone; else pass.
Hands are strings of styles (T Tiger, M Monkey, C Crab, R Crane, D Dragon,
which stands for any style). The legal ids and the observation are in
docs/protocol/bots.md ("Kung Fu (2009)"). Try it locally: ``python manage.py
botmatch bots/examples/kungfu2009_collector.py --vs heuristic --players 4``.
"""

import kungfu_bot

GAME = "kungfu2009"
WILD = "D"


def makes(cards, hits):
    """Do ``cards``, read left to right, realize ``hits`` (Dragons wild)?"""
    return len(cards) == len(hits) and all(
        c in (h, WILD) for c, h in zip(cards, hits, strict=True)
    )


def missing(hand, hits):
    """The styles ``hand`` lacks for ``hits`` once its Dragons fill gaps."""
    out = ""
    for style in sorted(set(hits)):
        short = hits.count(style) - hand.count(style)
        if short > 0:
            out += style * short
    return out[hand.count(WILD) :]


def surplus(hand, hits):
    """Cards of ``hand`` that ``hits`` does not need (never a Dragon)."""
    out = ""
    for style in sorted(set(hand) - {WILD}):
        extra = hand.count(style) - hits.count(style)
        if extra > 0:
            out += style * extra
    return out


def choose(turn: kungfu_bot.Turn) -> str:
    ids = turn.legal_ids
    obs = turn.observation
    if ids[0] != kungfu_bot.PASS:
        return ids[0]  # out of play, choosing the combination lost: the default
    me = obs["seat"]
    hand = obs["hand"] or ""
    combos = [c for c in obs["face_up"].values() if c is not None]
    # 1. KUNG FU for the most valuable combination the arranged hand makes.
    for combo in sorted(combos, key=lambda c: -c["points"]):
        claim = "claim:" + combo["level"]
        if makes(hand[: len(combo["hits"])], combo["hits"]) and claim in ids:
            return claim
    # 2. Arrange the hand for a combination whose cards it holds.
    for combo in sorted(combos, key=lambda c: -c["points"]):
        if "fit:" + combo["level"] in ids:
            return "fit:" + combo["level"]
    if not combos:
        return kungfu_bot.PASS
    # The target: fewest cards missing, then most points.
    target = min(combos, key=lambda c: (len(missing(hand, c["hits"])), -c["points"]))
    need = missing(hand, target["hits"])
    spare = surplus(hand, target["hits"])
    # Others want new combinations (an impasse needs every vote in play):
    # join them while ours is not complete, or the table may stall.
    if need and any(obs["votes"]) and "impasse" in ids:
        return "impasse"
    # 3. Offers to us: take one that brings a missing card for spare cards.
    for offer in obs["offers"]:
        if f"decline:{offer['id']}" not in ids:
            continue  # ours, or not addressed to us
        # An offer's real cards show only when it is played open; otherwise
        # trust what it declares (innocent cheating is allowed...).
        gets = offer["cards"] if offer["cards"] is not None else offer["declared"]
        asks = offer["want"]
        useful = any(c in need or c == WILD for c in gets)
        cheap = all(asks.count(c) <= spare.count(c) for c in set(asks))
        accept = f"accept:{offer['id']}"
        if useful and cheap and accept in ids:
            return accept
        return f"decline:{offer['id']}"
    # 4. Our offers that no longer fit the plan go.
    mine = [o for o in obs["offers"] if o["from"] == me]
    for offer in mine:
        if not set(offer["want"]) <= set(need) or not set(offer["cards"]) <= set(spare):
            return f"withdraw:{offer['id']}"
    # 5. One unneeded card for one missing card, to everyone.
    draft = obs["draft"]
    if draft is not None:
        if not draft["give"] and spare and "give:" + spare[0] in ids:
            return "give:" + spare[0]
        asked = {c for o in mine for c in o["want"]}
        fresh = [c for c in need if c not in asked] or list(need)
        if not draft["want"] and fresh and "want:" + fresh[0] in ids:
            return "want:" + fresh[0]
        return "send" if "send" in ids and draft["give"] else "cancel"
    asked = {c for o in mine for c in o["want"]}
    if need and spare and any(c not in asked for c in need) and "to:all" in ids:
        return "to:all"
    if turn.refused:
        last = turn.refused[-1]
        kungfu_bot.log("refused at tick", turn.tick, last["code"], last["reason"])
    return kungfu_bot.PASS


kungfu_bot.run(choose)
