"""Example Duelo bot: a few plain rules read off the observation.

* duel with strong cards (Focus 6 and up) and use weak ones for their effects;
* answer a duel with the strongest card in hand;
* challenge the opponent holding the fewest cards;
* otherwise take the first option (the game's default).

About as strong as the built-in ``heuristic`` bot's simplest ideas, and a
starting point: ``python manage.py botmatch bots/examples/duelo_heuristic.py
--vs random,heuristic --games 100`` shows how it fares.
"""

import kungfu_bot

GAME = "duelo"


def choose(turn: kungfu_bot.Turn) -> str:
    legal = turn.legal
    kind = legal[0].get("type")
    if kind in ("card", "answer"):
        return max(legal, key=lambda a: a.get("card", 0))["id"]
    if kind == "face":
        play = turn.observation.get("play") or {}
        card = play.get("card") if isinstance(play, dict) else None
        wanted = "down" if isinstance(card, int) and card >= 6 else "up"
        for action in legal:
            if action.get("face") == wanted:
                return action["id"]
    if kind == "target":
        counts = {s["seat"]: s["hand_count"] for s in turn.observation["seats"]}
        return min(legal, key=lambda a: counts.get(a.get("seat"), 99))["id"]
    return legal[0]["id"]


kungfu_bot.run(choose)
