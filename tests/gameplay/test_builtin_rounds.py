"""Built-in bots that must choose at once think in parallel at live tables.

Several built-in seats to act (Kung Fu (2019)'s draft picks, cards, dice) make
a round: one ``play_builtin_seat`` task per seat, all on the round's version,
each committing when ready (``services.match_play_builtin_seat``). The tests
run those tasks as a worker would, some in threads with a bot that waits for
the others inside its thought: asked one after another, it would never get
past the wait.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from gameplay import enqueue, services, tasks
from gameplay.models import ActionKind, Match, MatchStatus
from gameplay.rules import bots as rule_bots
from gameplay.rules import get_game
from gameplay.services import SeatSpec, bot_turns
from tests.factories import UserFactory

ENGINE = get_game("kungfu2019")


@pytest.fixture
def queue(not_eager, monkeypatch):
    """What would be queued for the worker: (task, args, countdown)."""
    calls: list[tuple[str, tuple, float | None]] = []
    for task in (tasks.play_builtin_seat, tasks.play_builtin_bots):
        name = task.name.removeprefix("gameplay.")
        monkeypatch.setattr(
            task,
            "apply_async",
            lambda args, countdown=None, name=name: calls.append(
                (name, tuple(args), countdown)
            ),
        )
        monkeypatch.setattr(
            task, "delay", lambda *args, name=name: calls.append((name, args, None))
        )
    return calls


class MeetingBot:
    """Picks the first legal action, but only once every seat of the round is
    thinking too (a barrier inside the thought), recording when it thought.

    ``outside`` is held by whoever touches the database (the test's stand-in
    for separate worker processes on SQLite): the bot lets go of it while it
    waits, so the seats' database work stays one at a time while their
    thoughts overlap.
    """

    name = "meeting"
    barrier: threading.Barrier
    outside: threading.Lock
    thoughts: list[tuple[int, float, float]]

    def choose(self, ctx) -> str:
        import time

        started = time.monotonic()
        if len(ctx.observation.get("actors", [])) == self.barrier.parties:
            self.outside.release()
            try:
                self.barrier.wait()
            finally:
                self.outside.acquire()
        self.thoughts.append((ctx.seat, started, time.monotonic()))
        return ctx.legal_ids[0]


@pytest.fixture
def meeting(monkeypatch):
    MeetingBot.barrier = threading.Barrier(3, timeout=10)
    MeetingBot.outside = threading.Lock()
    MeetingBot.thoughts = []
    monkeypatch.setitem(rule_bots._FACTORIES, "meeting", MeetingBot)
    return MeetingBot


def _bots_match(agent: str, *, seed: int = 7, players: int = 3, person=None):
    seats = [SeatSpec(agent=agent) for _ in range(players)]
    if person is not None:
        seats[0] = SeatSpec(user=person)
    match = services.match_create(
        game="kungfu2019", seats=seats, config={"players": players}
    )
    services.match_start(match_id=match.pk, seed=seed)
    return Match.objects.get(pk=match.pk)


def _seat_tasks(calls) -> list[tuple]:
    found = [args for name, args, _ in calls if name == "play_builtin_seat"]
    calls.clear()
    return found


@pytest.mark.django_db(transaction=True)
def test_the_seats_of_a_round_think_at_the_same_time(queue, meeting) -> None:
    """Three built-in seats draft at once: one task each, run in three threads
    as three worker processes would. Every thought waits for the other two
    (asked in turn, the first would wait forever and the barrier breaks), the
    three intervals overlap, each seat's commit goes in by itself, and only
    the round's last task queues the next round, at the version after it."""
    match = _bots_match("builtin:meeting")
    enqueue.schedule_bot_turns(match_id=match.pk)
    round_one = _seat_tasks(queue)
    assert round_one == [(match.pk, seat, 0) for seat in range(3)]

    errors: list[BaseException] = []

    def worker(args) -> None:
        try:
            with meeting.outside:
                tasks.play_builtin_seat(*args)
        except BaseException as exc:  # reported by the test below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(a,)) for a in round_one]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert sorted(seat for seat, _, _ in meeting.thoughts) == [0, 1, 2]
    latest_start = max(start for _, start, _ in meeting.thoughts)
    earliest_end = min(end for _, _, end in meeting.thoughts)
    assert latest_start < earliest_end, "the three thoughts overlap in time"
    match.refresh_from_db()
    assert match.version == 3
    moves = list(match.actions.order_by("version").values_list("seat", "kind"))
    assert sorted(moves) == [(s, ActionKind.MOVE) for s in range(3)]
    # The next round (the second pick) was queued once, by the last task.
    assert _seat_tasks(queue) == [(match.pk, seat, 3) for seat in range(3)]


@pytest.mark.django_db
def test_a_round_is_queued_once_and_waits_for_its_last_seat(queue) -> None:
    """While a round is being thought nothing else is queued for its seats,
    not even for a seat that has committed and must choose again; a second
    look at the same version queues nothing either."""
    match = _bots_match("builtin:random")
    enqueue.schedule_bot_turns(match_id=match.pk)
    assert _seat_tasks(queue) == [(match.pk, s, 0) for s in range(3)]
    enqueue.schedule_bot_turns(match_id=match.pk)
    assert queue == []
    assert tasks.play_builtin_seat(match.pk, 1, 0) is True
    tasks.play_builtin_seat(match.pk, 0, 0)
    assert queue == [], "two seats in: the round is still open"
    assert tasks.play_builtin_seat(match.pk, 2, 0) is True
    assert _seat_tasks(queue) == [(match.pk, s, 3) for s in range(3)]


@pytest.mark.django_db
def test_a_second_task_for_the_same_seat_and_round_changes_nothing(queue) -> None:
    """A redelivered task (or the sweep's) for a seat whose commit is in is
    refused by the stale-version rule: the seat commits once per round."""
    match = _bots_match("builtin:random")
    assert tasks.play_builtin_seat(match.pk, 0, 0) is True
    assert tasks.play_builtin_seat(match.pk, 1, 0) is True
    assert tasks.play_builtin_seat(match.pk, 0, 0) is False
    match.refresh_from_db()
    assert match.version == 2
    assert match.actions.filter(seat=0).count() == 1
    assert ENGINE.actors(match.state) == [2]


def _play_rounds_in_order(match_id: int, calls, order) -> None:
    """Run what is queued, each round's seats in ``order`` (a worker's luck)."""
    for _ in range(2000):
        if not calls:
            return
        round_tasks = [args for name, args, _ in calls if name == "play_builtin_seat"]
        singles = [args for name, args, _ in calls if name == "play_builtin_bots"]
        calls.clear()
        for args in order(round_tasks):
            tasks.play_builtin_seat(*args)
        for args in singles:
            tasks.play_builtin_bots(*args)
    raise AssertionError("the match did not end")


@pytest.mark.django_db
@pytest.mark.parametrize("order", ["seat order", "reverse"])
def test_rounds_in_any_order_play_the_match_one_batch_plays(queue, order) -> None:
    """Same seed, heuristic bots: a match whose rounds are thought by one
    task per seat, finishing in seat order or in reverse, is the match of one
    batch per round (the service the bot runner uses): every seat thinks on
    its round's state with its round's seed, wherever it runs."""
    by_batch = _bots_match("builtin:heuristic")
    for _ in range(100):  # each call plays until a round; a match takes a few
        if not services.match_play_builtin_bots(match_id=by_batch.pk):
            break
    by_batch.refresh_from_db()
    assert by_batch.status == MatchStatus.FINISHED

    by_rounds = _bots_match("builtin:heuristic")
    enqueue.schedule_bot_turns(match_id=by_rounds.pk)
    arrange = (lambda ts: ts) if order == "seat order" else (lambda ts: ts[::-1])
    _play_rounds_in_order(by_rounds.pk, queue, arrange)
    by_rounds.refresh_from_db()
    assert by_rounds.status == MatchStatus.FINISHED
    assert by_rounds.state == by_batch.state
    assert by_rounds.result == by_batch.result
    moves = sorted(by_rounds.actions.values_list("seat", "action_id"))
    assert moves == sorted(by_batch.actions.values_list("seat", "action_id"))


@pytest.mark.django_db(transaction=True)
def test_eager_mode_plays_rounds_to_the_end(monkeypatch) -> None:
    """Tests and the demo seeding run tasks in-process, each commit's hook
    right after it: a match of three built-in bots finishes from its start,
    one round of seat tasks after another, never one batch of several seats
    (and a game's worth of rounds does not nest on the stack)."""
    commits: list[int] = []
    batches: list[int] = []
    real_commit, real_many = (
        services.match_system_commit,
        services.match_system_act_many,
    )

    def commit(**kwargs):
        commits.append(kwargs["seat_number"])
        return real_commit(**kwargs)

    def many(**kwargs):
        batches.append(len(kwargs["moves"]))
        return real_many(**kwargs)

    monkeypatch.setattr(bot_turns, "match_system_commit", commit)
    monkeypatch.setattr(bot_turns, "match_system_act_many", many)
    match = services.match_create(
        game="kungfu2019",
        seats=[SeatSpec(agent="builtin:random") for _ in range(3)],
        config={"players": 3},
    )
    services.match_start(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert len(commits) > 30 and set(commits) == {0, 1, 2}
    assert all(size == 1 for size in batches)
    assert len(commits) + len(batches) == match.version


@pytest.mark.django_db
def test_a_round_waits_for_the_pace_at_a_table_with_a_person(queue, settings):
    """BOT_MOVE_DELAY: the round's tasks are queued with the table's pace
    (each commits when its thought is ready after it)."""
    settings.BOT_MOVE_DELAY = 1.0
    person = UserFactory()
    match = _bots_match("builtin:random", person=person)
    enqueue.schedule_bot_turns(match_id=match.pk)
    assert [(args, countdown) for _, args, countdown in queue] == [
        ((match.pk, 1, 0), pytest.approx(1.0, abs=0.5)),
        ((match.pk, 2, 0), pytest.approx(1.0, abs=0.5)),
    ]


@pytest.mark.django_db
def test_a_bots_only_round_waits_for_the_bots_only_delay(queue, settings) -> None:
    settings.BOTS_ONLY_MOVE_DELAY = 2.0
    match = _bots_match("builtin:random")
    enqueue.schedule_bot_turns(match_id=match.pk)
    assert queue == [("play_builtin_seat", (match.pk, s, 0), 2.0) for s in range(3)]
