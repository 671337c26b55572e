"""Helpers for match tests: seated players and a driver that plays legal moves."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from gameplay import services
from gameplay.models import Match
from gameplay.rules import get_game
from gameplay.services import SeatSpec
from tests.factories import UserFactory


@pytest.fixture
def players(db):
    return [UserFactory(username=f"p{i}") for i in range(8)]


def start_match(users, *, game="duelo", config=None, **kwargs) -> Match:
    match = services.match_create(
        game=game,
        seats=[SeatSpec(user=user) for user in users],
        config=config or {},
        **kwargs,
    )
    return services.match_start(match_id=match.pk)


def api_for(user) -> APIClient:
    """An API client signed in as ``user`` (anonymous for None)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def first_legal(match: Match) -> tuple[int, str]:
    """The seat to act and its first legal action id."""
    match.refresh_from_db()
    engine = get_game(match.game)
    seat = engine.actors(match.state)[0]
    return seat, engine.legal_action_ids(match.state, seat)[0]


@pytest.fixture
def no_live_memory():
    """The test starts as a process that has broadcast nothing yet: no menu
    remembered as sent (``broadcast._menus``, ``frames._seat_menus``), no
    seats' part kept (``broadcast._seat_parts``)."""
    from gameplay import broadcast, frames

    broadcast._menus.clear()
    broadcast._seat_parts.clear()
    frames._seat_menus.clear()
    yield
    broadcast._menus.clear()
    broadcast._seat_parts.clear()
    frames._seat_menus.clear()


def held(match_id: int) -> Match:
    """The match with its seats and their users prefetched, as a live
    broadcast holds it."""
    from django.db.models import Prefetch

    from gameplay.models import Seat

    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    return Match.objects.prefetch_related(seats).get(pk=match_id)


def step_in_memory(match: Match, rnd: random.Random) -> tuple[list, dict]:
    """One applied intent of a random seat of a real-time table, put on
    ``match`` in memory (never a pass, nor a claim: a claim's pause would stop
    the table until its timer); the events and the step's description."""
    engine = get_game(match.game)
    seats = match.seats.count()
    for _ in range(200):
        seat = rnd.randrange(seats)
        ids = [
            i
            for i in engine.legal_action_ids(match.state, seat)
            if i != "pass" and not i.startswith("claim:")
        ]
        if not ids:
            continue
        state, events = engine.apply(match.state, seat, rnd.choice(ids))
        if state is not match.state:
            match.state, match.version = state, match.version + 1
            return events, {"kind": "move", "seat": seat}
    raise AssertionError("no seat could act")


def play_to_end(match: Match, users, max_steps: int = 2000) -> int:
    steps = 0
    while steps < max_steps:
        match.refresh_from_db()
        if match.is_over:
            return steps
        seat, action = first_legal(match)
        services.match_act(
            match_id=match.pk,
            user=users[seat],
            action_id=action,
            expected_version=match.version,
        )
        steps += 1
    raise AssertionError("game did not end")


@pytest.fixture
def not_eager():
    """Tasks go to a queue, as under a real worker (tests run them eagerly)."""
    from config.celery import app

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = saved
