"""Ladder rounds: idempotent scheduling, near-rated pairs, rotation, duplicates."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots import enqueue, ladder
from bots.models import BotStatus, LadderRound
from gameplay.models import Match, MatchStatus
from tests.factories import BotFactory, BotVersionFactory

pytestmark = pytest.mark.django_db

WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def active_bots(count: int, game: str = "duelo"):
    bots = []
    for _ in range(count):
        bot = BotFactory(game=game, status=BotStatus.ACTIVE)
        bot.active_version = BotVersionFactory(bot=bot, status="active")
        bot.save()
        bots.append(bot)
    return bots


@pytest.fixture(autouse=True)
def no_anchors(settings):
    """Pairing among uploaded bots; the anchors are tested in test_ladder_anchors."""
    settings.BOT_LADDER_ANCHORS = ()


@pytest.fixture
def queued(monkeypatch):
    calls: list[list[int]] = []
    monkeypatch.setattr(enqueue, "play_matches", calls.append)
    return calls


def test_round_is_created_once_per_period(queued, django_capture_on_commit_callbacks):
    active_bots(4)
    with django_capture_on_commit_callbacks(execute=True):
        first = ladder.ladder_round_schedule(game="duelo", when=WHEN, duplicate=False)
    assert first is not None and first.match_count == 2
    assert queued == [list(Match.objects.order_by("pk").values_list("pk", flat=True))]
    again = ladder.ladder_round_schedule(
        game="duelo", when=WHEN + timedelta(minutes=1), duplicate=False
    )
    assert again is None
    assert LadderRound.objects.count() == 1
    assert Match.objects.count() == 2
    later = ladder.ladder_round_schedule(
        game="duelo", when=WHEN + timedelta(hours=1), duplicate=False
    )
    assert later is not None and Match.objects.count() == 4


def test_every_active_bot_plays_and_disabled_ones_do_not(queued):
    bots = active_bots(5)
    bots[4].disabled = True
    bots[4].save()
    BotFactory(status=BotStatus.PENDING)  # no valid version: never scheduled
    ladder.ladder_round_schedule(game="duelo", when=WHEN, duplicate=False)
    agents = set()
    for match in Match.objects.all():
        assert match.status == MatchStatus.ACTIVE
        assert match.rated and match.context.startswith("bots:ladder:")
        agents |= {seat.agent for seat in match.seats.all()}
    assert agents == {bot.active_version.agent for bot in bots[:4]}


def test_duplicate_deals_share_the_seed_with_seats_rotated(queued):
    active_bots(2)
    ladder_round = ladder.ladder_round_schedule(game="duelo", when=WHEN, duplicate=True)
    assert ladder_round.duplicate and ladder_round.match_count == 2
    a, b = Match.objects.order_by("pk")
    assert a.seed == b.seed and a.seed is not None
    assert a.state == b.state, "the same deal"
    seats_a = [s.agent for s in a.seats.all()]
    seats_b = [s.agent for s in b.seats.all()]
    assert seats_b == seats_a[::-1]
    assert a.seed_hash != b.seed_hash  # commitments are per match


def test_seats_alternate_between_rounds(queued):
    active_bots(2)
    ladder.ladder_round_schedule(game="duelo", when=WHEN, duplicate=False)
    ladder.ladder_round_schedule(
        game="duelo", when=WHEN + timedelta(minutes=30), duplicate=False
    )
    first, second = Match.objects.order_by("pk")
    assert [s.agent for s in first.seats.all()] == [
        s.agent for s in second.seats.all()
    ][::-1]


def test_fewer_than_two_bots_make_an_empty_round(queued):
    active_bots(1)
    ladder_round = ladder.ladder_round_schedule(game="duelo", when=WHEN)
    assert ladder_round.match_count == 0
    assert not Match.objects.exists()


def test_pairs_follow_ratings(queued, monkeypatch):
    bots = active_bots(4)
    strength = {bots[0].pk: 2000, bots[1].pk: 1000, bots[2].pk: 1990, bots[3].pk: 990}
    monkeypatch.setattr(
        "bots.ratings.pairing_strength", lambda *, bot: float(strength[bot.pk])
    )
    ladder.ladder_round_schedule(game="duelo", when=WHEN, duplicate=False)
    pairs = {frozenset(s.agent for s in m.seats.all()) for m in Match.objects.all()}
    agent = {bot.pk: bot.active_version.agent for bot in bots}
    assert pairs == {
        frozenset({agent[bots[0].pk], agent[bots[2].pk]}),
        frozenset({agent[bots[1].pk], agent[bots[3].pk]}),
    }


@given(
    st.dictionaries(
        st.integers(0, 10_000), st.floats(800, 2400), min_size=2, max_size=40
    ),
    st.integers(0, 2**32),
)
def test_pairings_cover_every_bot_without_self_play(strengths, seed):
    pairs = ladder.ladder_pairings(strengths, rng=random.Random(seed))
    seen = [bot for pair in pairs for bot in pair]
    assert set(seen) == set(strengths)
    assert all(a != b for a, b in pairs)
    assert len(pairs) == (len(strengths) + 1) // 2


def test_ladder_task_schedules_every_game(queued):
    from bots import tasks

    active_bots(2)
    assert tasks.ladder_schedule()["duelo"] == 2
    assert tasks.ladder_schedule() == {}
