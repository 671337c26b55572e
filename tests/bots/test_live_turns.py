"""Uploaded bots seated with people: driven move by move, forfeiting on faults.

Without bubblewrap on the machine these run the bots under the development
override (``BOT_SANDBOX_ALLOW_UNSANDBOXED``): what is tested here is the
driving - the turn announcement, the task, the protocol exchange, forfeits,
clocks and claims. ``test_live_game_in_the_real_sandbox`` repeats the full game
in the sandbox and is marked ``sandbox``.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from bots import live_turns, tasks
from bots.models import BotMatchLog
from gameplay import clocks, frames, services
from gameplay.errors import Forbidden
from gameplay.models import ActionKind, Match, MatchStatus
from gameplay.rules import get_game
from gameplay.services import SeatSpec
from tests.bots import botsrc
from tests.bots.helpers import stored_version
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def unsandboxed(settings):
    settings.BOT_SANDBOX_ALLOW_UNSANDBOXED = True


@pytest.fixture
def person(db):
    return UserFactory(username="person")


def live_match(person, version, *, time_control=None, bot_first=False) -> Match:
    seats = [SeatSpec(user=person), SeatSpec(agent=version.agent, label="Upload")]
    if bot_first:
        seats.reverse()
    match = services.match_create(game="duelo", seats=seats, time_control=time_control)
    return match


def play_as_person(match, person, capture, max_steps=400) -> Match:
    """The person plays first legal moves; the bot's moves must come by themselves."""
    engine = get_game("duelo")
    for _ in range(max_steps):
        match.refresh_from_db()
        if match.is_over:
            return match
        mine = match.seats.get(user=person).number
        actors = engine.actors(match.state)
        assert actors == [mine], "the uploaded bot's turn was left unplayed"
        with capture(execute=True):
            services.match_act(
                match_id=match.pk,
                user=person,
                action_id=engine.legal_action_ids(match.state, mine)[0],
                expected_version=match.version,
            )
    raise AssertionError("the match did not end")


def start(match, capture, *, first: int | None = None) -> Match:
    """Start ``match``; with ``first``, on a deal where that seat moves first."""
    seed = None
    if first is not None:
        engine = get_game(match.game)
        seed = next(
            n
            for n in range(1, 500)
            if engine.actors(engine.setup(match.config, n)) == [first]
        )
    with capture(execute=True):
        services.match_start(match_id=match.pk, seed=seed)
    match.refresh_from_db()
    return match


def test_person_plays_a_whole_game_against_an_uploaded_bot(
    unsandboxed, person, owner, django_capture_on_commit_callbacks
) -> None:
    version = stored_version(owner, botsrc.FIRST_LEGAL, name="first")
    match = start(
        live_match(person, version, bot_first=True), django_capture_on_commit_callbacks
    )
    match = play_as_person(match, person, django_capture_on_commit_callbacks)
    assert match.status == MatchStatus.FINISHED and match.end_reason == "completed"
    bot_moves = match.actions.filter(seat=0)
    assert bot_moves.exists() and all(a.kind == ActionKind.MOVE for a in bot_moves)
    log = BotMatchLog.objects.get(match=match, seat=0)
    assert log.decisions == bot_moves.count() and log.fault == ""
    session = cache.get(live_turns._session_key(match.pk, 0))
    assert session["steps"] == log.decisions, "step numbers carry over"


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        (botsrc.CRASHER, "bot crash"),
        (botsrc.ILLEGAL, "bot illegal_action"),
        (botsrc.GARBAGE, "bot malformed_output"),
        (botsrc.NO_HELLO, "bot crash"),
    ],
)
def test_a_failing_bot_forfeits(
    unsandboxed, person, owner, django_capture_on_commit_callbacks, source, reason
) -> None:
    version = stored_version(owner, source, name="bad")
    match = start(
        live_match(person, version, bot_first=True), django_capture_on_commit_callbacks
    )
    match = play_as_person(match, person, django_capture_on_commit_callbacks)
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == reason
    assert match.result is not None
    assert match.result["winners"] == [1], "the person wins"
    log = BotMatchLog.objects.get(match=match, seat=0)
    assert log.fault == reason.removeprefix("bot ")


def test_a_slow_bot_times_out_on_a_later_decision_and_forfeits(
    unsandboxed, fast_time, person, owner, django_capture_on_commit_callbacks
) -> None:
    """SLEEPER sleeps from its second decision on: the step count carried over
    between fresh processes, and the per-move limit plus bank held."""
    version = stored_version(owner, botsrc.SLEEPER, name="slow")
    match = start(
        live_match(person, version, bot_first=True), django_capture_on_commit_callbacks
    )
    match = play_as_person(match, person, django_capture_on_commit_callbacks)
    assert match.end_reason == "bot timeout"
    assert BotMatchLog.objects.get(match=match, seat=0).fault == "timeout"


def test_disabled_bot_forfeits_its_live_game(
    unsandboxed, person, owner, django_capture_on_commit_callbacks
) -> None:
    version = stored_version(owner, botsrc.FIRST_LEGAL, name="off")
    version.bot.disabled = True
    version.bot.save()
    match = start(
        live_match(person, version, bot_first=True), django_capture_on_commit_callbacks
    )
    match = play_as_person(match, person, django_capture_on_commit_callbacks)
    assert match.end_reason == "bot disabled"


def test_all_bot_matches_are_left_to_the_bot_runner(
    unsandboxed, owner, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    queued: list[int] = []
    monkeypatch.setattr(tasks.live_move, "delay", queued.append)
    monkeypatch.setattr(tasks.play_match, "delay", lambda pk: None)
    version = stored_version(owner, botsrc.FIRST_LEGAL, name="solo")
    match = services.match_create(
        game="duelo",
        seats=[SeatSpec(agent=version.agent), SeatSpec(agent="builtin:random")],
    )
    start(match, django_capture_on_commit_callbacks)
    assert queued == []
    assert live_turns.bot_live_turns(match_id=match.pk) == []


def test_turn_announcement_queues_the_live_task(
    person, owner, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    queued: list[int] = []
    monkeypatch.setattr(tasks.live_move, "delay", queued.append)
    version = stored_version(owner, botsrc.FIRST_LEGAL, name="q")
    match = start(
        live_match(person, version, bot_first=True),
        django_capture_on_commit_callbacks,
        first=0,
    )
    assert queued == [match.pk]


def test_a_bot_that_never_moves_can_be_claimed_against(
    person, owner, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """No bots worker at all: the person is not stuck at the table."""
    monkeypatch.setattr(tasks.live_move, "delay", lambda pk: None)
    version = stored_version(owner, botsrc.FIRST_LEGAL, name="gone")
    match = start(
        live_match(person, version, bot_first=True),
        django_capture_on_commit_callbacks,
        first=0,
    )
    with pytest.raises(Forbidden):
        services.match_claim(match_id=match.pk, user=person, claim="win")
    started = timezone.now() - timedelta(seconds=clocks.GRACE_SECONDS + 1)
    Match.objects.filter(pk=match.pk).update(turn_started_at=started)
    # The table's "Claim win" countdown runs to the instant the server accepts.
    seats = frames.seats_public(match=Match.objects.get(pk=match.pk))
    bot_seat = next(s for s in seats if s["number"] == 0)
    expected = started + timedelta(seconds=clocks.GRACE_SECONDS)
    assert bot_seat["claimable_at"] == expected.isoformat()
    services.match_claim(match_id=match.pk, user=person, claim="win")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result is not None
    assert match.result["winners"] == [1] and match.end_reason == "abandoned"


def test_a_bot_that_is_not_to_move_cannot_be_claimed_against(
    person, owner, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    monkeypatch.setattr(tasks.live_move, "delay", lambda pk: None)
    version = stored_version(owner, botsrc.FIRST_LEGAL, name="waiting")
    match = start(
        live_match(person, version), django_capture_on_commit_callbacks, first=0
    )
    Match.objects.filter(pk=match.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=clocks.GRACE_SECONDS + 1)
    )
    seats = frames.seats_public(match=Match.objects.get(pk=match.pk))
    assert all(s["claimable_at"] is None for s in seats if s["is_bot"])
    with pytest.raises(Forbidden):
        services.match_claim(match_id=match.pk, user=person, claim="win")


def test_uploaded_bot_seats_are_subject_to_clocks(
    person, owner, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    monkeypatch.setattr(tasks.live_move, "delay", lambda pk: None)
    version = stored_version(owner, botsrc.FIRST_LEGAL, name="clocked")
    match = live_match(person, version, bot_first=True, time_control={"per_move": 5})
    match = start(match, django_capture_on_commit_callbacks, first=0)
    done = services.match_expire_clocks(
        match_id=match.pk, now=timezone.now() + timedelta(seconds=6)
    )
    assert done and done[0].startswith("seat 0: timeout")
    assert match.actions.get().kind == ActionKind.TIMEOUT


@pytest.mark.sandbox
def test_live_game_in_the_real_sandbox(
    person, owner, django_capture_on_commit_callbacks
) -> None:
    version = stored_version(owner, botsrc.FIRST_LEGAL, name="boxed")
    match = start(
        live_match(person, version, bot_first=True), django_capture_on_commit_callbacks
    )
    match = play_as_person(match, person, django_capture_on_commit_callbacks)
    assert match.end_reason == "completed"
    assert BotMatchLog.objects.get(match=match, seat=0).fault == ""
