"""Bot output reaches the database safely on every backend.

PostgreSQL refuses NUL in text columns and in jsonb strings, and psycopg cannot
encode lone surrogates; a bot controls its stderr and its JSON completely. Run
these on PostgreSQL too (``DATABASE_URL=postgres://...``): there a NUL that got
through fails the insert, and the match's logs (or the validation) would be lost.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DataError

from bots import services
from bots.models import BotMatchLog, BotVersion, VersionStatus
from bots.protocol.transport import storable_text
from tests.bots.helpers import assert_validates_to, bot_match, stored_version

pytestmark = pytest.mark.django_db

#: Writes a NUL, undecodable bytes and a lone surrogate to stderr (at start and
#: on every turn: in a match it may never get a turn), then plays.
NOISY = b"""
import sys
import kungfu_bot

sys.stderr.buffer.write(b"starting nul:\\x00\\n")
sys.stderr.flush()

def choose(turn):
    sys.stderr.buffer.write(b"nul:\\x00 bad:\\xff\\xfe")
    sys.stderr.buffer.write(b" surrogate:\\xed\\xa0\\x80 end\\n")
    sys.stderr.flush()
    return turn.legal_ids[0]

kungfu_bot.run(choose)
"""

#: Crashes with a NUL in its stderr (the fault path stores stderr too).
NOISY_CRASH = b"""
import sys
import kungfu_bot

def choose(turn):
    sys.stderr.buffer.write(b"dying\\x00\\x00 now\\n")
    sys.stderr.flush()
    raise SystemExit(4)

kungfu_bot.run(choose)
"""


def test_storable_text_keeps_what_it_can() -> None:
    assert storable_text("plain\ttext\n") == "plain\ttext\n"
    assert storable_text("a\x00b") == "a\u2400b"
    assert storable_text("lone \ud800 surrogate") == "lone \\ud800 surrogate"
    assert "\x00" not in storable_text("\x00" * 10)


@pytest.mark.sandbox
def test_nul_in_stderr_is_stored_after_validation(owner, fast_time) -> None:
    version = stored_version(owner, NOISY, name="noisy", active=False)
    assert_validates_to(version.pk, "active")
    version.refresh_from_db()
    assert "nul:\u2400 bad:" in version.validation_stderr
    assert "\x00" not in version.validation_stderr


@pytest.mark.sandbox
def test_nul_in_stderr_of_a_crash_fails_the_version_not_sticks(
    owner, fast_time
) -> None:
    version = stored_version(owner, NOISY_CRASH, name="crashy", active=False)
    assert_validates_to(version.pk, "failed")
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED
    assert "dying\u2400\u2400 now" in version.validation_stderr


@pytest.mark.sandbox
def test_nul_in_stderr_keeps_the_match_logs(owner, fast_time) -> None:
    noisy = stored_version(owner, NOISY, name="noisy")
    crashy = stored_version(owner, NOISY_CRASH, name="crashy")
    match = bot_match(noisy.agent, crashy.agent)
    services.bot_match_play(match_id=match.pk)
    logs = {log.version_id: log for log in BotMatchLog.objects.filter(match=match)}
    assert set(logs) == {noisy.pk, crashy.pk}
    assert "nul:\u2400" in logs[noisy.pk].stderr
    assert logs[crashy.pk].fault == "crash"
    assert "dying\u2400\u2400" in logs[crashy.pk].stderr


def test_a_validation_that_cannot_be_stored_fails_instead_of_sticking(
    owner, monkeypatch
) -> None:
    """Whatever goes wrong after the games (here the database refuses the row),
    the version ends failed with a reason; it never stays "validating" for the
    heartbeat to re-queue forever."""
    version = stored_version(owner, b"print('x')\n", name="v", active=False)
    monkeypatch.setattr(
        services,
        "sandbox_available",
        lambda config: type("S", (), {"ok": True, "reason": "test"})(),
    )

    def games(*args):
        return {"games": [], "opponent": "builtin:random"}, "", ""

    monkeypatch.setattr(services, "_play_validation_games", games)
    original = BotVersion.save
    calls: list[Any] = []

    def refuse_once(self, *args, **kwargs):
        if not calls:
            calls.append(1)
            raise DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(BotVersion, "save", refuse_once)
    assert_validates_to(version.pk, "failed")
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED
    assert "could not be stored" in version.status_detail


def test_a_validation_that_breaks_fails_instead_of_sticking(owner, monkeypatch) -> None:
    version = stored_version(owner, b"print('x')\n", name="v", active=False)
    monkeypatch.setattr(
        services,
        "sandbox_available",
        lambda config: type("S", (), {"ok": True, "reason": "test"})(),
    )

    def broken(*args):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(services, "_play_validation_games", broken)
    assert_validates_to(version.pk, "failed")
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED
    assert "RecursionError" in version.status_detail


def test_a_live_seat_log_adds_up_over_its_processes(owner) -> None:
    """At a live table a seat runs in one process a decision (or a fresh one
    after a worker died); each adds to the one log, its bot text made storable."""
    from bots.protocol.seat_log import SeatLog
    from bots.seats import add_to_match_log

    version = stored_version(owner, b"print('x')\n", name="live")
    match = bot_match(version.agent, "builtin:random")
    first = SeatLog(seat=0, agent=version.agent, decisions=2, stderr="a\x00b\n")
    first.note_refused(3, "move:1", "stale", "not_legal", {"action": "move:1"})
    second = SeatLog(
        seat=0,
        agent=version.agent,
        decisions=1,
        fault="crash",
        fault_detail="died \ud800",
        stderr="c\n",
    )
    for log in (first, second):
        add_to_match_log(match_id=match.pk, seat=0, version=version, log=log)
    row = BotMatchLog.objects.get(match=match, seat=0)
    assert row.decisions == 3 and row.refused_count == 1
    assert row.refused == [[3, "move:1", "stale", "not_legal", {"action": "move:1"}]]
    assert row.stderr == "a\u2400b\nc\n"
    assert row.fault == "crash" and row.fault_detail == storable_text("died \ud800")
