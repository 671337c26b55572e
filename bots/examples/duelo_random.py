"""Example Duelo bot: a uniformly random legal action at every decision.

Upload this file as is, or try it locally first:
``python manage.py botmatch bots/examples/duelo_random.py --vs random``.
"""

import random

import kungfu_bot

GAME = "duelo"


def choose(turn: kungfu_bot.Turn) -> str:
    return random.choice(turn.legal_ids)


kungfu_bot.run(choose)
