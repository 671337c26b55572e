"""Server timers fired by the live owner (issue 13 §3): an offer left
unanswered is declined, a draft dropped, a claim checked by the web process
that holds the table, against its copy, in one compare-and-set
(``store.append``), broadcast from memory; the worker's check is
the backstop and finds nothing left to do; a step that would end the match,
or a copy behind another writer, is left to the locked service or decided
again on fresh data, so no timer step is ever applied twice.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings
from django.utils import timezone

from gameplay import services
from gameplay.live import copies, owner, timers
from gameplay.models import ActionKind, Match, MatchStatus
from tests.gameplay.test_kungfu2009_fastpath import replayed
from tests.gameplay.test_kungfu2009_live import FOUR, table
from tests.waiting import wait_until_async

NO_LAYER = override_settings(CHANNEL_LAYERS={})


def offer_to_seat_0(live: owner.LiveMatch, users) -> None:
    """Seat 1 offers a Tiger for a Dragon to seat 0 (who owes an answer)."""
    for action in ("to:0", "give:T", "want:D", "send"):
        owner.act_sync(live, users[1], action, None)


def due_now(live: owner.LiveMatch, *keys: str, in_db: bool = False) -> None:
    """Make the copy's timers ``keys`` due a second ago (and the row's too)."""
    past = (timezone.now() - timedelta(seconds=1)).isoformat()
    assert live.match is not None
    for key in keys:
        live.match.timers[key]["due"] = past
    if in_db:
        Match.objects.filter(pk=live.pk).update(timers=live.match.timers)


def decline_keys(live: owner.LiveMatch) -> list[str]:
    assert live.match is not None
    return [k for k in live.match.timers if k.startswith("decline:")]


@pytest.mark.django_db
def test_the_owner_declines_an_unanswered_offer_from_its_copy(players):
    users = players[:4]
    with NO_LAYER:
        match = table(users, FOUR)
        live = owner.LiveMatch(pk=match.pk)
        offer_to_seat_0(live, users)
        (key,) = decline_keys(live)
        action = live.match.timers[key]["action"]
        version, reads = live.match.version, live.reads
        due_now(live, key)
        applied = timers.apply_due(live)
        assert applied.version == 1 and live.timer_steps == 1
        assert live.reads == reads  # from the copy: no read
        stored = Match.objects.get(pk=match.pk)
        assert stored.version == version + 1 == live.match.version
        step = stored.actions.get(version=stored.version)
        assert (step.kind, step.seat) == (ActionKind.TIMEOUT, 0)
        assert step.action_id == action and action.startswith("decline:")
        assert stored.state == replayed(stored) == live.match.state
        assert key not in stored.timers and stored.timers == live.match.timers
        # Every seat hears of it, from memory, with the step's events.
        ((_, message), *_) = applied.messages
        assert message["version"] == stored.version
        assert set(message["frames"]) == {"0", "1", "2", "3"}
        # The worker's check, the backstop, finds nothing left to do.
        assert services.match_apply_timers(match_id=match.pk) == []
        assert Match.objects.get(pk=match.pk).version == stored.version


@pytest.mark.django_db
def test_timers_not_due_yet_change_nothing(players):
    users = players[:4]
    with NO_LAYER:
        match = table(users, FOUR)
        live = owner.LiveMatch(pk=match.pk)
        offer_to_seat_0(live, users)
        version = live.match.version
        assert timers.apply_due(live).version == 0
        assert Match.objects.get(pk=match.pk).version == version


@pytest.mark.django_db
def test_several_due_timers_are_one_round_trip_of_several_versions(players):
    users = players[:4]
    with NO_LAYER:
        match = table(users, FOUR)
        live = owner.LiveMatch(pk=match.pk)
        # An offer to all: each other seat owes an answer (three timers).
        for action in ("to:all", "give:T", "send"):
            owner.act_sync(live, users[1], action, None)
        keys = decline_keys(live)
        assert len(keys) == 3
        version = live.match.version
        due_now(live, *keys)
        assert timers.apply_due(live).version == 3
        stored = Match.objects.get(pk=match.pk)
        assert stored.version == version + 3
        logged = list(stored.actions.filter(version__gt=version).order_by("version"))
        assert [a.kind for a in logged] == [ActionKind.TIMEOUT] * 3
        assert sorted(a.seat for a in logged) == [0, 2, 3]
        assert stored.state == replayed(stored)


@pytest.mark.django_db
def test_a_timer_step_that_ends_the_match_is_left_to_the_locked_service(players):
    users = players[:4]
    with NO_LAYER:
        match = table(users, FOUR)
        live = owner.LiveMatch(pk=match.pk)
        owner.act_sync(live, users[0], "move:0:4", None)
        due_now(live, "end", in_db=True)  # the table's time limit is reached
        timers.apply_due(live)
        stored = Match.objects.get(pk=match.pk)
        assert stored.status == MatchStatus.FINISHED and stored.result
        last = stored.actions.get(version=stored.version)
        assert (last.kind, last.seat) == (ActionKind.TABLE, None)
        assert live.match is None and live.timer_steps == 0  # read again next time


@pytest.mark.django_db
def test_a_copy_behind_the_worker_never_applies_a_timer_twice(players):
    users = players[:4]
    with NO_LAYER:
        match = table(users, FOUR)
        live = owner.LiveMatch(pk=match.pk)
        offer_to_seat_0(live, users)
        (key,) = decline_keys(live)
        due_now(live, key, in_db=True)
        # The worker's backstop got there first (this process was slow).
        assert len(services.match_apply_timers(match_id=match.pk)) == 1
        version = Match.objects.get(pk=match.pk).version
        # The owner's compare-and-set is refused; it reads and finds none due.
        assert timers.apply_due(live).version == 0
        stored = Match.objects.get(pk=match.pk)
        assert stored.version == version and live.match.version == version
        assert stored.actions.filter(kind=ActionKind.TIMEOUT).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_loop_fires_the_timers_at_their_due_time(players, monkeypatch):
    handed: list = []
    monkeypatch.setattr(copies, "arm_soon", lambda live, due: handed.append(due))
    users = players[:4]
    with NO_LAYER:
        match = await database_sync_to_async(table)(users, FOUR)
        live = owner.attach(match.pk)
        try:
            await database_sync_to_async(offer_to_seat_0)(live, users)
            (key,) = decline_keys(live)
            version = live.match.version
            soon = timezone.now() + timedelta(seconds=0.2)
            live.match.timers[key]["due"] = soon.isoformat()
            timers.fire_at(live, soon)
            assert live.fire_due == soon
            # The step is counted on a database thread, and the next firing
            # armed back on the loop after the broadcast: wait for both.
            await wait_until_async(
                lambda: live.timer_steps and live.fire_handle is not None,
                timeout=5.0,
                interval=0.05,
                message="the owner to fire the timer it holds and arm the next",
            )
            assert live.timer_steps == 1
            # The next earliest due time (the table's time limit) is next.
            end = live.match.timers["end"]["due"]
            assert live.fire_due.isoformat() == end
            stored = await database_sync_to_async(Match.objects.get)(pk=match.pk)
            assert stored.version == version + 1
            assert not handed  # the owner fires them: no worker check armed
        finally:
            owner.detach(match.pk)
        # Let go: nothing left scheduled here; the worker's check takes over.
        assert live.fire_handle is None
        assert [due.isoformat() for due in handed] == [end]
