"""The bot runner thinks built-in seats that choose at once in parallel processes.

A Kung Fu (2019) bot match with two built-in seats and one uploaded bot (run
under the development override, like ``test_live_turns_simultaneous.py``: what is
tested is the driving). The built-in bot here thinks long (its class says so)
and, whenever both built-in seats must choose, waits inside its thought for
the other one (a barrier shared by the runner's forked workers): thought one
after another, as before, the first seat would wait alone and the barrier
break, failing the match. When the uploaded bot chooses at the same time, the
built-in one also waits until the uploaded bot has been asked: asked after
the built-in seats, as before, it never would be.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.synchronize import Barrier, Event

import pytest

from bots import services
from bots.models import BotMatchLog
from bots.protocol.match import ProcessAgent
from gameplay import services as gameplay_services
from gameplay.models import MatchStatus
from gameplay.rules import bots as rule_bots
from gameplay.services import SeatSpec, bot_turns
from tests.bots import botsrc
from tests.bots.helpers import stored_version

pytestmark = pytest.mark.django_db

#: Set before the runner's pool forks, so its workers inherit them.
_BARRIER: Barrier | None = None
_UPLOAD_ASKED: Event | None = None
BUILTIN_SEATS = {0, 1}
UPLOADED_SEAT = 2


class MeetingBot:
    name = "meeting"
    thinks_long = True

    def choose(self, ctx) -> str:
        actors = set(ctx.observation.get("actors", []))
        assert _BARRIER is not None and _UPLOAD_ASKED is not None
        if actors >= BUILTIN_SEATS:
            _BARRIER.wait()
        if UPLOADED_SEAT in actors and not _UPLOAD_ASKED.wait(20):
            raise AssertionError("the uploaded bot was not asked meanwhile")
        return ctx.legal_ids[0]


def test_builtin_seats_choosing_at_once_think_in_parallel(
    settings, owner, monkeypatch
) -> None:
    global _BARRIER, _UPLOAD_ASKED
    settings.BOT_SANDBOX_ALLOW_UNSANDBOXED = True
    fork = multiprocessing.get_context("fork")
    _BARRIER, _UPLOAD_ASKED = fork.Barrier(2, timeout=20), fork.Event()
    real_decide = ProcessAgent.decide

    def decide(self, *args, **kwargs):
        _UPLOAD_ASKED.set()
        return real_decide(self, *args, **kwargs)

    monkeypatch.setattr(ProcessAgent, "decide", decide)
    monkeypatch.setitem(rule_bots._FACTORIES, "meeting", MeetingBot)
    # Two processes even where the machine has one core: parallel is the point.
    monkeypatch.setattr("gameplay.bot_thinking.os.cpu_count", lambda: 2)
    batches: list[list[int]] = []
    real = gameplay_services.match_system_act_many

    def recording(*, match_id, moves, expected_version):
        batches.append([m.seat for m in moves])
        return real(match_id=match_id, moves=moves, expected_version=expected_version)

    monkeypatch.setattr(bot_turns, "match_system_act_many", recording)
    upload = stored_version(owner, botsrc.FIRST_LEGAL, name="first")
    match = gameplay_services.match_create(
        game="kungfu2019",
        seats=[
            SeatSpec(agent="builtin:meeting"),
            SeatSpec(agent="builtin:meeting"),
            SeatSpec(agent=upload.agent, label="Upload"),
        ],
        config={"players": 3},
        context="test",
    )
    try:
        outcome = services.bot_match_play(match_id=match.pk)
    finally:
        _BARRIER = _UPLOAD_ASKED = None
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == "completed"
    assert outcome is not None and outcome.faults == {}
    together = [seats for seats in batches if set(seats) == BUILTIN_SEATS]
    assert len(together) > 10, "both built-in seats chose at once, many times"
    log = BotMatchLog.objects.get(match=match, seat=2)
    assert log.fault == "" and log.decisions > 10
