"""Real-time intents on the live owner's fast path (issue 13 §3): a Kung Fu
(2009) intent from a socket is checked against the process's copy, appended
with its timers in one compare-and-set (``store.append``) and broadcast
from memory, never through ``services.match_act``; the timers' check is armed
only when the earliest due time changes; every guarantee of
``gameplay.live.owner`` holds (ack after commit, nothing lost when the process
dies between commit and broadcast, pause refusals, bots on ticks).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings

from gameplay import broadcast, clocks, enqueue, services, tasks
from gameplay.errors import IllegalMove
from gameplay.live import owner
from gameplay.models import ActionKind, Match, MatchAction
from gameplay.rules import TimedGame, get_game
from tests.gameplay.test_kungfu2009_live import FOUR, table

NO_LAYER = override_settings(CHANNEL_LAYERS={})
_GAME = get_game("kungfu2009")
assert isinstance(_GAME, TimedGame)
ENGINE: TimedGame = _GAME


def replayed(match: Match) -> dict:
    """The state rebuilt from the deal and the log alone."""
    assert match.seed is not None
    state = ENGINE.setup(match.config, match.seed)
    for action in match.actions.order_by("version"):
        state, _ = ENGINE.apply(state, action.seat, action.action_id)
    return state


def expected_timers(match: Match) -> set[str]:
    return {timer["key"] for timer in ENGINE.timers(match.state)}


@pytest.fixture
def no_match_act(monkeypatch):
    """Fail the test if anything takes the locked general path."""
    calls = []

    def refuse(**kwargs):
        calls.append(kwargs)
        raise AssertionError("a real-time intent went through services.match_act")

    monkeypatch.setattr(services, "match_act", refuse)
    return calls


@pytest.fixture
def armed(settings, monkeypatch):
    """Outside eager mode, with the countdowns recorded instead of queued."""
    from django.core.cache import cache

    cache.clear()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued: list[tuple[tuple, float]] = []
    monkeypatch.setattr(
        tasks.apply_timers,
        "apply_async",
        lambda args, countdown: queued.append((args, countdown)),
    )
    return queued


@pytest.mark.django_db
def test_real_time_intents_take_the_fast_path_with_their_timers(players, no_match_act):
    users = players[:4]
    with NO_LAYER:
        match = table(users, FOUR)
        live = owner.LiveMatch(pk=match.pk)
        intents = [
            (0, "move:0:4"),
            (1, "to:0"),
            (1, "give:T"),
            (1, "want:D"),
            (1, "send"),
            (2, "to:all"),
            (2, "give:M"),
            (2, "send"),
            (3, "decline:2"),
            (0, "pass"),  # changes nothing: answered, not logged
        ]
        version = 0
        for seat, action in intents:
            # Chosen at version 0: in real time arrival order decides.
            applied = owner.act_sync(live, users[seat], action, 0)
            if action != "pass":
                version += 1
            assert applied.version == version
        assert live.reads == 1 and live.fast_moves == 9 and not no_match_act
        stored = Match.objects.get(pk=match.pk)
        assert stored.version == 9 and stored.state == replayed(stored)
        assert list(stored.actions.values_list("version", flat=True)) == list(
            range(1, 10)
        )
        # The timers went into the same writes: the engine's keys, with the
        # due time of the step that first listed each.
        assert set(stored.timers) == expected_timers(stored)
        assert stored.timers == live.match.timers
        sent = MatchAction.objects.get(match=stored, version=5)
        decline = stored.timers["decline:1:0"]
        due = sent.created_at + timedelta(seconds=20)
        assert decline["due"] == due.isoformat() and decline["seat"] == 0
        # Seat 3 declined the offer to all; seats 0 and 1 still owe an answer.
        assert {k for k in stored.timers if k.startswith("decline:2:")} == {
            "decline:2:0",
            "decline:2:1",
        }


@pytest.mark.django_db
def test_the_timer_check_is_armed_only_when_the_earliest_due_time_changes(
    players, armed, no_match_act
):
    users = players[:4]
    with NO_LAYER:
        match = table(users, FOUR)
        live = owner.LiveMatch(pk=match.pk)
        owner.act_sync(live, users[3], "move:0:4", None)
        assert len(armed) == 1  # the table's time limit, the only timer
        (_, due), _ = armed[0]
        assert due == live.match.timers["end"]["due"]
        # Steps that leave the earliest due time where it was arm nothing.
        for action in ("move:1:2", "move:2:3", "move:0:1"):
            owner.act_sync(live, users[3], action, None)
        assert len(armed) == 1 and live.timer_arms == 1
        # An offer being built is dropped after 30 s: a new earliest due time.
        owner.act_sync(live, users[1], "to:0", None)
        assert len(armed) == 2
        draft = next(t for k, t in live.match.timers.items() if k.startswith("cancel:"))
        assert armed[1][0] == (match.pk, draft["due"]) and armed[1][1] <= 30.1
        # Each step of the draft is a new key (30 s from that step): re-armed.
        owner.act_sync(live, users[1], "give:T", None)
        assert len(armed) == 3
        # Back to the time limit alone: its check is already armed (one per
        # due time, across processes), so nothing is queued again.
        owner.act_sync(live, users[1], "cancel", None)
        assert set(live.match.timers) == {"end"}
        assert len(armed) == 3 and live.timer_arms == 4
        # A claim pauses the table: its 2 s check comes first.
        owner.act_sync(live, users[0], "claim:easy", None)
        check = live.match.timers["check:0:easy"]["due"]
        assert armed[-1][0] == (match.pk, check) and armed[-1][1] <= 2.1
        assert not no_match_act


@pytest.mark.django_db
def test_a_pause_refuses_trades_and_queues_claims_on_the_fast_path(
    players, no_match_act
):
    users = players[:4]
    with NO_LAYER:
        match = table(users, FOUR)
        live = owner.LiveMatch(pk=match.pk)
        assert owner.act_sync(live, users[0], "claim:easy", 0).version == 1
        # Nobody is in ``actors`` during the pause: the engine alone decides,
        # with the same reason ``services.match_act`` gives.
        with pytest.raises(IllegalMove, match="paused while seat 0's KUNG FU"):
            owner.act_sync(live, users[1], "to:2", 1)
        stored = Match.objects.get(pk=match.pk)
        assert stored.version == 1 and stored.state["drafts"][1] is None
        assert live.reads == 2  # a refusal by the copy is confirmed by a read
        # A second claim during the pause waits its turn (arrival order).
        assert owner.act_sync(live, users[1], "claim:easy", 0).version == 2
        stored.refresh_from_db()
        assert [c["seat"] for c in stored.state["claims"]] == [0, 1]
        assert "check:0:easy" in stored.timers and not no_match_act
        # The table's check (the worker, under the row lock) scores the first
        # claim and checks the next: the copy, behind, refuses with the first
        # claim's reason, the read with the second's.
        services.match_apply_timers(
            match_id=match.pk, now=stored.turn_started_at + timedelta(seconds=2.1)
        )
        stored.refresh_from_db()
        step = MatchAction.objects.get(match=stored, version=3)
        assert step.kind == ActionKind.TABLE and step.action_id == "check"
        with pytest.raises(IllegalMove, match="paused while seat 1's KUNG FU"):
            owner.act_sync(live, users[2], "to:3", None)
        assert live.reads == 3 and live.match.version == 3


@pytest.mark.django_db
def test_a_crash_between_commit_and_broadcast_loses_nothing(
    players, armed, monkeypatch
):
    """The step is committed with its timers before anything else: the mover
    gets its version although the broadcast and the timer check fail (the
    process died, the broker is away), and beat's sweep applies the timer
    from the committed row."""
    users = players[:4]
    with NO_LAYER:
        match = table(users, FOUR)
        live = owner.LiveMatch(pk=match.pk)

        def die(**kwargs):
            raise ConnectionError("the process is going down")

        monkeypatch.setattr(broadcast, "match_messages", die)
        monkeypatch.setattr(enqueue, "arm_timer_check", die)
        applied = owner.act_sync(live, users[0], "claim:easy", 0)
        assert applied.version == 1 and applied.messages == []
        assert live.match is None and armed == []  # the copy is dropped
        stored = Match.objects.get(pk=match.pk)
        assert stored.version == 1 and stored.state["phase"] == "paused"
        assert "check:0:easy" in stored.timers  # written with the step
        later = stored.turn_started_at + timedelta(seconds=2.1)
        assert clocks.matches_with_timers_due(now=later) == [match.pk]
        done = services.match_apply_timers(match_id=match.pk, now=later)
        assert done == ["timer check:0:easy: check"]
        stored.refresh_from_db()
        assert stored.state["phase"] == "play" and stored.state == replayed(stored)


@pytest.mark.django_db
def test_a_lost_compare_and_set_writes_nothing_and_decides_again(players):
    """Another writer moved the match (an intent over the API): the stale
    copy's write is refused whole, timers included, and the intent is judged
    again on a fresh read; the other writer's timers are kept as it set them."""
    users = players[:4]
    with NO_LAYER:
        match = table(users, FOUR)
        live = owner.LiveMatch(pk=match.pk)
        owner.act_sync(live, users[0], "move:0:4", 0)
        services.match_act(match_id=match.pk, user=users[3], action_id="to:all")
        assert live.match.version == 1  # the copy has not heard of it
        assert owner.act_sync(live, users[1], "to:2", 1).version == 3
        assert live.reads == 2 and live.fast_moves == 2
        stored = Match.objects.get(pk=match.pk)
        assert stored.state == replayed(stored)
        assert list(stored.actions.values_list("seat", flat=True)) == [0, 3, 1]
        assert set(stored.timers) == expected_timers(stored)
        drafted = MatchAction.objects.get(match=stored, version=2).created_at
        (mine,) = [t for k, t in stored.timers.items() if k.startswith("cancel:3:")]
        assert mine["due"] == (drafted + timedelta(seconds=30)).isoformat()


@pytest.mark.django_db
def test_built_in_bots_keep_their_ticks_and_uploaded_bots_take_the_full_path(
    players, armed, monkeypatch
):
    users = players[:4]
    ticks = []
    monkeypatch.setattr(
        enqueue, "schedule_realtime_bots", lambda match: ticks.append(match.pk)
    )
    with NO_LAYER:
        match = table(users, FOUR, agents={2: "builtin:heuristic"})
        live = owner.LiveMatch(pk=match.pk)
        owner.act_sync(live, users[0], "move:0:4", 0)
        owner.act_sync(live, users[1], "to:0", 0)
        # On the fast path, and each step keeps the bots' tick chain alive.
        assert live.fast_moves == 2 and ticks == [match.pk, match.pk]
        # The bot's intents still go in on its tick, next to the people's.
        assert services.match_realtime_bots_tick(match_id=match.pk, tick=1)

        # An uploaded bot's turn is announced after each commit by the
        # services: such a table keeps the general path.
        other = table(players[4:8], FOUR)
        other.seats.filter(number=3).update(agent="bot:example", user=None)
        calls = []
        real = services.match_act

        def counted(**kwargs):
            calls.append(kwargs["action_id"])
            return real(**kwargs)

        monkeypatch.setattr(services, "match_act", counted)
        live = owner.LiveMatch(pk=other.pk)
        assert owner.act_sync(live, players[4], "move:0:4", 0).version == 1
        assert calls == ["move:0:4"] and live.fast_moves == 0
