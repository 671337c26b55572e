"""The bot page's head-to-head table and per-version record."""

from __future__ import annotations

import pytest
from django.urls import reverse

from bots import selectors
from tests.factories import (
    BotFactory,
    BotVersionFactory,
    UserFactory,
    finished_match,
)

pytestmark = pytest.mark.django_db


def test_head_to_head_per_opponent_across_versions(client) -> None:
    bot = BotFactory(name="Tiger")
    v1 = BotVersionFactory(bot=bot, number=1)
    v2 = BotVersionFactory(bot=bot, number=2)
    rival = BotFactory(name="Crane")
    r1 = BotVersionFactory(bot=rival, number=1)
    r2 = BotVersionFactory(bot=rival, number=2)
    person = UserFactory(username="monk")
    # Against the rival bot (both of its versions count as one opponent).
    won = finished_match([v1.agent, r1.agent], [1, 2])
    finished_match([r2.agent, v2.agent], [1, 2])
    finished_match([v2.agent, r2.agent], [1, 1])
    # Against a built-in bot and a person.
    finished_match([v2.agent, "builtin:random"], [1, 2])
    finished_match([person, v1.agent], [1, 2])
    # A table of three: ahead of one, behind the other.
    finished_match([v2.agent, "builtin:heuristic", person], [2, 3, 1], game="duelo")
    # A scrimmage against itself is not an opponent.
    finished_match([v1.agent, v2.agent], [1, 2])

    rows = {row.key: row for row in selectors.bot_head_to_head(bot=bot)}
    crane = rows[f"bot:{rival.pk}"]
    assert (crane.name, crane.won, crane.drawn, crane.lost) == ("Crane", 1, 1, 1)
    assert crane.games == 3 and crane.replays is not None and won in crane.replays
    assert (rows["builtin:random"].won, rows["builtin:random"].lost) == (1, 0)
    assert (rows["builtin:heuristic"].won, rows["builtin:heuristic"].lost) == (1, 0)
    monk = rows[f"user:{person.pk}"]
    assert (monk.won, monk.drawn, monk.lost) == (0, 0, 2)
    assert f"bot:{bot.pk}" not in rows

    page = client.get(reverse("bots:detail", args=[bot.pk])).content.decode()
    assert f'data-opponent="bot:{rival.pk}"' in page
    assert reverse("gameplay:replay", args=[won.public_id]) in page
    body = client.get(reverse("api-bot", args=[bot.pk])).json()
    crane_api = next(h for h in body["head_to_head"] if h["bot"] == rival.pk)
    assert (crane_api["won"], crane_api["drawn"], crane_api["lost"]) == (1, 1, 1)
    # Every version's own record.
    records = {v["number"]: (v["games"], v["wins"]) for v in body["versions"]}
    # (A shared first place counts: placement 1.)
    assert records == {1: (3, 2), 2: (5, 2)}
