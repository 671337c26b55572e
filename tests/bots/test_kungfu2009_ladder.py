"""The bot ladder of a game whose smallest table is three (Kung Fu (2009)).

Ladder matches seat ``ladder_table_size`` entrants (two, or the game's
smallest table), near-rated ones together; duplicates play every rotation of
the seats on one deal; a newly validated bot debuts at one table with the
anchors. No code names the game.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots import enqueue, ladder
from bots.models import BotStatus
from gameplay.models import Match
from gameplay.rules import get_game
from tests.factories import BotFactory, BotVersionFactory

pytestmark = pytest.mark.django_db
GAME = "kungfu2009"
WHEN = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def active_bots(n: int):
    bots = []
    for _ in range(n):
        bot = BotFactory(game=GAME, status=BotStatus.ACTIVE)
        bot.active_version = BotVersionFactory(bot=bot, status="active")
        bot.save()
        bots.append(bot)
    return bots


def test_a_ladder_round_seats_tables_the_engine_can_play(
    monkeypatch, django_capture_on_commit_callbacks
):
    calls: list[list[int]] = []
    monkeypatch.setattr(enqueue, "play_matches", calls.append)
    bots = active_bots(4)  # + the two anchors: six entrants, two tables of three
    assert ladder.ladder_table_size(GAME) == 3
    with django_capture_on_commit_callbacks(execute=True):
        ladder_round = ladder.ladder_round_schedule(
            game=GAME, when=WHEN, duplicate=True
        )
    matches = list(Match.objects.filter(game=GAME).order_by("pk"))
    assert ladder_round.match_count == len(matches) == 6 and calls == [
        [m.pk for m in matches]
    ]
    engine = get_game(GAME)
    tables: dict[str, list[Match]] = {}
    for match in matches:
        tables.setdefault(match.context.rsplit(":", 1)[0], []).append(match)
        agents = [s.agent for s in match.seats.order_by("number")]
        assert len(agents) == 3 and len(set(agents)) == 3
        assert not all(a.startswith("builtin:") for a in agents)
        assert engine.actors(match.state) == [0, 1, 2]  # started, in play
    seated = Counter()
    for rotations in tables.values():
        # One deal, the seats rotated: every entrant sits in every seat once.
        assert len(rotations) == 3 and len({m.seed for m in rotations}) == 1
        orders = [[s.agent for s in m.seats.order_by("number")] for m in rotations]
        assert all(sorted(o) == sorted(orders[0]) for o in orders)
        assert {o[0] for o in orders} == set(orders[0])
        seated.update(orders[0])
    assert {b.active_version.agent for b in bots} <= set(seated)


def test_a_new_bot_debuts_at_one_table_with_the_anchors(monkeypatch):
    monkeypatch.setattr(enqueue, "play_matches", lambda ids: None)
    [bot] = active_bots(1)
    ids = ladder.bot_debut_schedule(version_id=bot.active_version_id)
    matches = Match.objects.filter(pk__in=ids)
    assert len(ids) == 3 and {m.seed for m in matches} != {None}
    for match in matches:
        agents = sorted(s.agent for s in match.seats.all())
        assert agents == sorted(
            [bot.active_version.agent, "builtin:heuristic", "builtin:random"]
        )
    assert ladder.bot_debut_schedule(version_id=bot.active_version_id) == []


@given(
    st.dictionaries(st.integers(0, 10_000), st.floats(800, 2400), max_size=40),
    st.integers(3, 8),
    st.integers(0, 2**32),
)
def test_tables_seat_everyone_once_at_least_and_nobody_twice_at_one(
    strengths, size, seed
):
    tables = ladder.ladder_pairings(strengths, rng=random.Random(seed), size=size)
    if len(strengths) < size:
        assert tables == []
        return
    assert all(len(t) == size and len(set(t)) == size for t in tables)
    assert {b for t in tables for b in t} == set(strengths)
    assert len(tables) == -(-len(strengths) // size)
