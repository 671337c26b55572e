"""Uploaded bots of a real-time game at live tables, next to people and
built-in bots (``bots.realtime_tables``): one sandboxed process per seat for the
match, asked on the wall clock's ticks, its intents through the services
everyone's go through; faults forfeit (the takeover bot plays on), a lost
lease stops the driver before it acts, a resumed driver starts fresh
processes, the end stops every process, no sandbox forfeits the seats.

Ticks are played by calling the table's ``tick`` (and gameplay's
``match_realtime_bots_tick`` for the built-in seats), timers by
``match_apply_timers`` at the tick's wall time, so a test is a wall-clock
match without the waiting.
"""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from bots import realtime_tables, services, tasks
from bots.directory import SeatableBots
from bots.models import BotMatchLog
from bots.storage import version_dir
from gameplay import services as gs
from gameplay.errors import MatchError
from gameplay.frames import seats_public
from gameplay.models import MatchStatus
from gameplay.rules import get_game, view_events
from gameplay.rules.ticks import PASS
from gameplay.selectors import match_replay
from tests.bots.botsrc import realtime_crasher, realtime_misbehaver, realtime_passer
from tests.factories import UserFactory
from tests.waiting import wait_until

# Lease and queue keys are named by match pk, which a rolled-back test database
# hands out again: a key left by an earlier test must not reach this one.
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.sandbox,
    pytest.mark.usefixtures("clean_cache"),
]

GAME = "kungfu2009"
ENGINE = get_game(GAME)
EXAMPLE = Path(__file__).resolve().parents[2] / "bots/examples/kungfu2009_collector.py"


@pytest.fixture
def store(store_active_upload):
    """Store an active upload for the game (no validation run)."""
    return lambda source, name: store_active_upload(GAME, source, name)


def live_table(person, *agents: str):
    """A started table: the person in seat 0, then the given agents."""
    match = gs.match_create(
        game=GAME,
        seats=[
            gs.SeatSpec(user=person),
            *[gs.SeatSpec(agent=a, label=a) for a in agents],
        ],
        config={},
    )
    return gs.match_start(match_id=match.pk)


def at_tick(match, tick: int):
    return match.started_at + timedelta(seconds=tick)


def person_acts(match, person, rng: random.Random) -> bool:
    """The person sends one intent from the menu now (real time: no version)."""
    match.refresh_from_db()
    if match.status != MatchStatus.ACTIVE:
        return False
    seat = match.seats.get(user=person).number
    options = [a for a in ENGINE.legal_action_ids(match.state, seat) if a != PASS]
    if not options:
        return False
    try:
        gs.match_act(match_id=match.pk, user=person, action_id=rng.choice(options))
    except MatchError:
        return False  # refused (stale): changes nothing, as for the bots
    return True


def play(table, match, person, ticks: range, rng: random.Random) -> int:
    """Wall-clock ticks: the uploaded seats, the built-in seats, the person,
    the table's timers due by then. Returns the last tick played."""
    tick = ticks.start
    for tick in ticks:
        if table.tick(tick) is None:
            break
        gs.match_realtime_bots_tick(match_id=match.pk, tick=tick)
        if tick % 3 == 0:
            person_acts(match, person, rng)
        gs.match_apply_timers(match_id=match.pk, now=at_tick(match, tick))
    return tick


def test_a_person_an_uploaded_bot_and_a_builtin_bot_play_to_the_end(store):
    """The required table: the example bot (it trades and claims) in the
    sandbox, a built-in heuristic, a person; played on ticks until the engine
    or the time limit ends it; every process stopped after."""
    version = store(EXAMPLE.read_bytes(), "collector")
    person = UserFactory()
    match = live_table(person, version.agent, "builtin:heuristic", "builtin:random")
    assert realtime_tables.needs_driver(match)
    table = realtime_tables.LiveRealtimeTable(match_id=match.pk)
    assert table.open()
    held = table.seats[1]
    rng = random.Random(2009)
    try:
        last = play(table, match, person, range(1, 900), rng)
        match.refresh_from_db()
        if not match.is_over:  # time is up: the table's end step scores it
            gs.match_apply_timers(
                match_id=match.pk, now=match.started_at + timedelta(hours=2)
            )
        match.refresh_from_db()
        assert match.status == MatchStatus.FINISHED
        assert table.tick(last + 1) is None
    finally:
        table.close()
    assert table.seats == {}
    assert held.agent.process is not None and held.agent.process.exit_status is not None
    actions = list(match.actions.order_by("version"))
    mine = [a for a in actions if a.seat == 1]
    assert len(mine) >= 5, "the uploaded bot's intents went in"
    kinds = {a.action_id.split(":")[0] for a in mine}
    assert kinds & {"offer", "give", "accept", "want", "send", "claim", "fit"}, kinds
    assert {a.seat for a in actions} >= {0, 1, 2}
    log = BotMatchLog.objects.get(match=match, seat=1)
    assert log.fault == "" and log.decisions >= 20
    assert not match.seats.get(number=1).forfeited
    replay = match_replay(match=match, perspective="full")
    assert replay["steps"][-1]["view"] == ENGINE.observe(match.state, None)


def test_a_refused_intent_at_a_live_table_keeps_the_engines_code():
    """What the seat's next ``act.refused`` says: the engine's code and params
    (an offer nobody made) beside its English detail."""
    person = UserFactory()
    match = live_table(person, "builtin:heuristic", "builtin:heuristic")
    refused: list[gs.RefusedIntent] = []
    applied = gs.match_system_intents(
        match_id=match.pk, moves=[gs.SystemMove(1, "accept:9")], refused=refused
    )
    assert applied == 0
    assert refused == [
        gs.RefusedIntent(
            seat=1,
            action_id="accept:9",
            code="offer_never_made",
            params={"offer": 9},
            reason="offer 9 was never made",
        )
    ]


def test_the_first_act_tells_the_tick_the_events_and_refused_intents(store):
    # A bot that only passes: the collector claims at tick 5 when the deal
    # hands it a combination, and the claim's check leaves tick 6 unasked.
    version = store(realtime_passer(game=GAME), "passer")
    person = UserFactory()
    match = live_table(person, version.agent, "builtin:heuristic")
    table = realtime_tables.LiveRealtimeTable(match_id=match.pk)
    assert table.open()
    sent = []
    agent = table.seats[1].agent
    original = agent.process.request

    def spy(message):
        sent.append(message)
        return original(message)

    agent.process.request = spy
    try:
        # A refusal the engine reported in the previous tick is told once.
        table._note_refused(
            4,
            gs.RefusedIntent(
                seat=1,
                action_id="accept:9",
                code="offer_never_made",
                params={"offer": 9},
                reason="offer 9 was never made",
            ),
        )
        report = table.tick(5)
        assert report is not None and 1 in report.asked
        report = table.tick(6)
    finally:
        table.close()
    first, second = sent
    assert first["tick"] == 5 and second["tick"] == 6
    assert first["refused"] == [
        {
            "tick": 4,
            "action": "accept:9",
            "code": "offer_never_made",
            "params": {"offer": 9},
            "reason": "offer 9 was never made",
        }
    ]
    assert second["refused"] == []
    assert first["legal"][0]["id"] == PASS
    assert first["step"] == 1 and second["step"] == 2


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        (realtime_crasher(game=GAME, tick=3), "crash"),
        (realtime_misbehaver(game=GAME, tick=3, fault="hang"), "timeout"),
        (realtime_misbehaver(game=GAME, tick=3, fault="flood"), "line_too_long"),
        (realtime_misbehaver(game=GAME, tick=3, fault="illegal"), "illegal_action"),
    ],
    ids=["crash", "hang", "flood", "illegal"],
)
def test_a_faulty_bot_forfeits_and_the_takeover_bot_plays_on(
    store, fast_time, source, reason
):
    version = store(source, "faulty")
    person = UserFactory()
    match = live_table(person, version.agent, "builtin:heuristic")
    table = realtime_tables.LiveRealtimeTable(match_id=match.pk)
    assert table.open()
    agent = table.seats[1].agent
    try:
        faults = {}
        for tick in range(1, 6):
            report = table.tick(tick)
            if report is None:
                break
            faults.update(report.faults)
        assert faults == {1: reason}
        assert table.seats == {}  # the process is stopped at the fault
        assert agent.process.exit_status is not None
        assert table.tick(7) is None  # nothing left to drive
    finally:
        table.close()
    match.refresh_from_db()
    seat = match.seats.get(number=1)
    assert match.status == MatchStatus.ACTIVE  # three seats: the table plays on
    assert seat.forfeited and seat.replaced_by_bot
    assert seat.forfeit_reason == f"bot {reason}"
    assert not realtime_tables.needs_driver(match)
    # The takeover bot acts for the seat on the built-in bots' ticks.
    before = match.actions.filter(seat=1).count()
    for tick in range(8, 60):
        gs.match_realtime_bots_tick(match_id=match.pk, tick=tick)
        gs.match_apply_timers(match_id=match.pk, now=at_tick(match, tick))
    assert match.actions.filter(seat=1).count() > before
    # The live frame names the reason (the live log's line about the seat).
    seats = seats_public(match=match)
    assert seats[1]["forfeit_reason"] == f"bot {reason}"
    assert seats[1]["replaced_by_bot"] is True
    log = BotMatchLog.objects.get(match=match, seat=1)
    assert log.fault == reason


def test_without_a_sandbox_the_seats_are_forfeited_never_run(store, monkeypatch):
    from bots.protocol import transport
    from bots.sandbox import SandboxStatus

    version = store(EXAMPLE.read_bytes(), "collector")
    person = UserFactory()
    match = live_table(person, version.agent, "builtin:heuristic")
    monkeypatch.setattr(
        transport,
        "sandbox_available",
        lambda config: SandboxStatus(ok=False, reason="no bwrap"),
    )

    def never(*args, **kwargs):
        raise AssertionError("an uploaded bot was run without the sandbox")

    monkeypatch.setattr(transport, "spawn_unsandboxed", never)
    monkeypatch.setattr(transport, "spawn_sandboxed", never)
    report = realtime_tables.live_realtime_drive(
        match_id=match.pk, sleep=lambda s: None
    )
    assert report.stopped == "nothing to drive"
    seat = match.seats.get(number=1)
    assert seat.forfeited and seat.forfeit_reason == realtime_tables.NO_SANDBOX
    assert seat.replaced_by_bot


def test_a_driver_that_lost_its_lease_stops_before_acting(store):
    version = store(EXAMPLE.read_bytes(), "collector")
    person = UserFactory()
    match = live_table(person, version.agent, "builtin:heuristic")
    held = {"yes": True}
    table = realtime_tables.LiveRealtimeTable(
        match_id=match.pk, still_held=lambda: held["yes"]
    )
    assert table.open()
    agent = table.seats[1].agent
    intent = next(a for a in ENGINE.legal_action_ids(match.state, 1) if a != PASS)
    agent.decide = lambda *a, **k: intent  # always has an intent to send
    try:
        held["yes"] = False
        version_before = match.version
        with pytest.raises(realtime_tables.LeaseLost):
            table.tick(1)
        match.refresh_from_db()
        assert match.version == version_before
    finally:
        table.close()


def test_one_driver_per_table_and_a_lapsed_lease_is_picked_up(
    store, monkeypatch, settings
):
    """The task's lease keeps a second driver out; when the holder's worker
    dies its lease lapses and beat's pick-up queues a fresh driver, which
    starts new processes told every event since the deal and carries on the
    bank and step count."""
    from django.core.cache import cache

    version = store(EXAMPLE.read_bytes(), "collector")
    person = UserFactory()
    match = live_table(person, version.agent, "builtin:heuristic")
    key = f"{tasks.LIVE_RT_LOCK_PREFIX}{match.pk}"
    cache.set(key, "a-living-worker", timeout=30)
    assert tasks.live_realtime.apply(args=(match.pk,)).get() == "already driven"
    queued: list[int] = []
    monkeypatch.setattr(tasks.live_realtime, "delay", queued.append)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(tasks, "sandbox_available", lambda config: _ok())
    assert tasks.pick_up_matches() == 0 and queued == []  # held: left alone
    tasks.on_uploaded_bot_turn(match_id=match.pk)
    assert queued == []
    # The worker died: nobody renews the lease; it lapses.
    first = realtime_tables.LiveRealtimeTable(match_id=match.pk)
    assert first.open()
    for tick in range(1, 6):
        first.tick(tick)
        gs.match_realtime_bots_tick(match_id=match.pk, tick=tick)
        gs.match_apply_timers(match_id=match.pk, now=at_tick(match, tick + 5))
    steps = first.seats[1].agent.step
    first.close()  # (a dead worker's sandbox dies with it)
    cache.delete(key)
    assert tasks.pick_up_matches() == 1 and queued == [match.pk]
    # Queued once: another change before the driver starts queues nothing.
    tasks.on_uploaded_bot_turn(match_id=match.pk)
    assert queued == [match.pk]
    resumed = realtime_tables.LiveRealtimeTable(match_id=match.pk)
    assert resumed.open()
    try:
        sent = []
        agent = resumed.seats[1].agent
        original = agent.process.request
        agent.process.request = lambda m: sent.append(m) or original(m)
        for tick in range(6, 30):
            gs.match_apply_timers(match_id=match.pk, now=at_tick(match, tick + 5))
            resumed.tick(tick)
            if sent:
                break
    finally:
        resumed.close()
    assert sent[0]["step"] == steps + 1  # the match's step count carried on
    # Told every event since the deal (a fresh process has no memory).
    assert sent[0]["version"] >= 1
    told = [
        e
        for a in match.actions.filter(version__lte=sent[0]["version"]).order_by(
            "version"
        )
        for e in a.events
    ]
    assert sent[0]["events"] == view_events(told, 1)


def _ok():
    from bots.sandbox import SandboxStatus

    return SandboxStatus(ok=True, reason="ok")


def test_the_driver_loop_plays_wall_clock_ticks_and_stops_at_the_end(store, settings):
    settings.REALTIME_BOT_TICK = 0.1
    version = store(EXAMPLE.read_bytes(), "collector")
    person = UserFactory()
    match = live_table(person, version.agent, "builtin:heuristic")
    report = realtime_tables.live_realtime_drive(match_id=match.pk, max_ticks=8)
    assert report.ticks == 8 and report.stopped == "tick limit"
    # Asked at each tick but the ones a claim's check paused (no timers here).
    assert 1 <= BotMatchLog.objects.get(match=match, seat=1).decisions <= 8
    gs.match_apply_timers(match_id=match.pk, now=match.started_at + timedelta(hours=2))
    match.refresh_from_db()
    assert match.is_over
    report = realtime_tables.live_realtime_drive(match_id=match.pk, max_ticks=8)
    assert report.ticks == 0 and report.stopped == "nothing to drive"


def test_a_real_time_bot_is_offered_to_tables_and_challenges(
    store, monkeypatch, django_capture_on_commit_callbacks
):
    from bots.services import sandbox_report

    version = store(EXAMPLE.read_bytes(), "collector")
    sandbox_report(ok=True, reason="test worker")
    bot = version.bot
    bot.refresh_from_db()
    assert services.live_seat(bot=bot) == (version.agent, f"{bot.name} v1")
    assert [v for v, _ in SeatableBots().seatable(GAME)] == [f"upload:{bot.pk}"]
    queued: list[int] = []
    monkeypatch.setattr(
        tasks, "queue_live_realtime", lambda match_id: queued.append(match_id)
    )
    monkeypatch.setattr(
        tasks.live_move, "delay", lambda pk: pytest.fail("per decision")
    )
    with django_capture_on_commit_callbacks(execute=True):
        match = services.bot_challenge(user=UserFactory(), bot_id=bot.pk)
    assert match.status == MatchStatus.ACTIVE
    assert [s.agent for s in match.seats.order_by("number")] == [
        "",
        version.agent,
        services.CHALLENGE_FILLER,
    ]
    assert queued and set(queued) == {match.pk}
    # No sandbox: nobody offers the bot.
    sandbox_report(ok=False, reason="no bwrap")
    assert services.live_seat(bot=bot) is None
    assert SeatableBots().seatable(GAME) == []


HOLDER = """
import json, sys, time, django
django.setup()
from bots import conf
from bots.protocol.transport import BotProcess
from bots.tasks import LIVE_RT_LOCK_PREFIX, MatchLease
lease = MatchLease(
    int(sys.argv[1]), "dying-worker", seconds=float(sys.argv[2]),
    prefix=LIVE_RT_LOCK_PREFIX,
)
assert lease.acquire()
bot = BotProcess.start(
    sys.argv[3], config=conf.sandbox_config(), time_control=conf.time_control()
)
assert bot.handshake(json.loads(sys.argv[4])) == {"ready": True}
print("held", bot.process.popen.pid, flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as status:
            return "\nState:\tZ" not in status.read()
    except FileNotFoundError:
        return False


def test_a_killed_worker_takes_its_bots_along_and_another_resumes(
    store, monkeypatch, settings
):
    """The worker holding a live table (here a separate process holding the
    lease and the seat's sandboxed bot) is SIGKILLed: the bot dies with it,
    the lease lapses, beat's pick-up queues a fresh driver, which plays."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time

    from django.conf import settings as django_settings
    from django.core.cache import cache

    from bots.protocol.match import MatchPlayer, ProcessAgent

    version = store(EXAMPLE.read_bytes(), "collector")
    person = UserFactory()
    match = live_table(person, version.agent, "builtin:heuristic")
    hello = MatchPlayer(
        game=ENGINE,
        state=match.state,
        agents={1: ProcessAgent(version_dir(version), seat=1, label="x")},
        host=None,
        config=match.config,
    ).hello(1)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "REDIS_URL": django_settings.REDIS_URL,  # this session's Redis
        "MEDIA_ROOT": django_settings.MEDIA_ROOT,
    }
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            HOLDER,
            str(match.pk),
            "2.0",
            str(version_dir(version)),
            json.dumps(hello),
        ],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    queued: list[int] = []
    monkeypatch.setattr(tasks.live_realtime, "delay", queued.append)
    monkeypatch.setattr(tasks, "sandbox_available", lambda config: _ok())
    settings.CELERY_TASK_ALWAYS_EAGER = False
    try:
        word, pid = holder.stdout.readline().split()
        assert word == "held" and _alive(int(pid))
        time.sleep(2.5)  # beyond the lease: the holder's renewals keep it
        key = f"{tasks.LIVE_RT_LOCK_PREFIX}{match.pk}"
        assert cache.get(key) == "dying-worker"
        assert tasks.pick_up_matches() == 0 and queued == []
        os.kill(holder.pid, signal.SIGKILL)  # the worker dies mid-match
        holder.wait(timeout=10)
        killed_at = time.monotonic()
        wait_until(
            lambda: not _alive(int(pid)),
            timeout=30,
            interval=0.1,
            message="the bot to die with its worker",
        )
        wait_until(
            lambda: tasks.pick_up_matches(),
            timeout=30 - (time.monotonic() - killed_at),
            message="the lease to lapse",
        )
        assert queued == [match.pk]
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    # The fresh driver (a short run of it: three wall-clock ticks of 0.1 s).
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.REALTIME_BOT_TICK = 0.1
    drive = realtime_tables.live_realtime_drive
    monkeypatch.setattr(
        realtime_tables,
        "live_realtime_drive",
        lambda **kwargs: drive(**kwargs, max_ticks=3),
    )
    result = tasks.live_realtime.apply(args=(match.pk,)).get()
    assert result.startswith("3 ticks") and result.endswith("tick limit"), result
    # Asked at each tick but the ones a claim's check paused (no timers here).
    assert 1 <= BotMatchLog.objects.get(match=match, seat=1).decisions <= 3
    assert cache.get(key) is None  # released at the end of the run
