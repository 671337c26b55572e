"""The worker-side runner with real sandboxed bots: clean and faulty matches.

Every fault forfeits the faulty bot with its reason, the result is stored, no
bot process survives, and the same worker goes on to play the next match.
"""

from __future__ import annotations

import pytest

from bots import services
from bots.models import BotMatchLog
from gameplay.models import Match, MatchStatus
from gameplay.selectors import match_replay
from tests.bots.botsrc import (
    CHATTY,
    CRASHER,
    FIRST_LEGAL,
    GARBAGE,
    ILLEGAL,
    LONG_LINE,
    NO_HELLO,
    SLEEPER,
)
from tests.bots.helpers import bot_match, stored_version, survivors_of
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.sandbox]


@pytest.fixture
def good(owner):
    return stored_version(owner, FIRST_LEGAL, name="good")


@pytest.fixture(autouse=True)
def survivors(monkeypatch):
    """Right after each bot is closed, list what is left of it (must be
    nothing): ``survivors_of`` its slot uid."""
    from bots import conf
    from bots.protocol.match import ProcessAgent

    left: list[int] = []
    original = ProcessAgent.close
    lock_dir = conf.sandbox_config().lock_dir

    def close(self):
        original(self)
        proc = self.process.process if self.process is not None else None
        if proc is not None and proc.host_uid is not None:
            left.extend(survivors_of(proc.host_uid, lock_dir))
        if proc is not None and proc.popen.poll() is None:
            left.append(proc.pid)  # bwrap itself still running

    monkeypatch.setattr(ProcessAgent, "close", close)
    return left


def test_clean_match_between_two_uploaded_bots(owner, good, survivors):
    other = stored_version(owner, CHATTY, name="chatty")
    match = bot_match(good.agent, other.agent)
    outcome = services.bot_match_play(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == "completed"
    assert outcome.faults == {}
    assert match.version == outcome.steps == match.actions.count()
    logs = {log.seat: log for log in BotMatchLog.objects.filter(match=match)}
    assert set(logs) == {0, 1}
    assert all(log.decisions > 0 and not log.fault for log in logs.values())
    assert "thinking about step 1" in logs[1].stderr
    replay = match_replay(match=match)
    assert len(replay["steps"]) == match.version + 1
    assert survivors == []
    # Idempotent: a finished match is not played again.
    assert services.bot_match_play(match_id=match.pk) is None


@pytest.mark.parametrize(
    ("source", "reason", "detail"),
    [
        (GARBAGE, "malformed_output", "not JSON"),
        (ILLEGAL, "illegal_action", "card:99"),
        (SLEEPER, "timeout", "deadline"),
        (CRASHER, "crash", "exit code 3"),
        (NO_HELLO, "crash", "exit code 0"),
        (LONG_LINE, "line_too_long", "exceeds"),
    ],
)
def test_faulty_bot_forfeits_and_the_worker_carries_on(
    owner, good, fast_time, survivors, source, reason, detail
):
    bad = stored_version(owner, source, name="bad")
    match = bot_match(bad.agent, good.agent)
    outcome = services.bot_match_play(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == f"bot {reason}"
    assert match.result["placements"] == [2, 1]
    assert match.result["forfeited"] == [0]
    assert outcome.faults == {0: reason}
    log = BotMatchLog.objects.get(match=match, seat=0)
    assert log.fault == reason
    assert detail in log.fault_detail
    if source is CRASHER:
        assert "about to crash" in log.stderr
    assert survivors == []
    # The same worker plays the next match normally.
    follow_up = bot_match(good.agent, good.agent)
    services.bot_match_play(match_id=follow_up.pk)
    follow_up.refresh_from_db()
    assert follow_up.end_reason == "completed"


def test_three_players_a_crash_lets_the_takeover_bot_play_on(owner, good):
    crasher = stored_version(owner, CRASHER, name="crasher")
    other = stored_version(owner, FIRST_LEGAL + b"\n", name="other")
    match = bot_match(good.agent, crasher.agent, other.agent)
    services.bot_match_play(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == "completed"
    assert match.result["forfeited"] == [1]
    assert match.result["placements"][1] == 3
    seat = match.seats.get(number=1)
    assert seat.forfeited and seat.replaced_by_bot
    assert BotMatchLog.objects.get(match=match, seat=1).fault == "crash"


def test_uploaded_bot_against_a_builtin_seat(good):
    match = bot_match("builtin:random", good.agent)
    outcome = services.bot_match_play(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert outcome.faults == {}, BotMatchLog.objects.get(match=match).fault_detail
    assert {a.seat for a in match.actions.all()} == {0, 1}
    assert BotMatchLog.objects.get(match=match).seat == 1


def test_disabled_bot_forfeits_before_the_first_move(owner, good):
    other = stored_version(owner, CHATTY, name="chatty")
    services.bot_set_disabled(
        bot_id=other.bot_id, staff=UserFactory(is_staff=True), disabled=True
    )
    match = bot_match(good.agent, other.agent)
    assert services.bot_match_play(match_id=match.pk) is None
    match.refresh_from_db()
    assert match.end_reason == "bot disabled"
    assert match.result["placements"] == [1, 2]


def test_a_version_whose_files_are_gone_forfeits(owner, good):
    from bots.storage import remove_tree, version_dir

    lost = stored_version(owner, CHATTY, name="lost")
    remove_tree(version_dir(lost))
    assert not version_dir(lost).exists()
    match = bot_match(lost.agent, good.agent)
    assert services.bot_match_play(match_id=match.pk) is None
    match.refresh_from_db()
    assert match.end_reason == "bot version missing"
    follow_up = bot_match(good.agent, good.agent)
    services.bot_match_play(match_id=follow_up.pk)
    follow_up.refresh_from_db()
    assert follow_up.end_reason == "completed"


def test_matches_with_people_are_refused(good):
    from bots.errors import BotError
    from gameplay.services import SeatSpec, match_create

    match = match_create(
        game="duelo",
        seats=[SeatSpec(user=UserFactory()), SeatSpec(agent=good.agent)],
        config={},
    )
    with pytest.raises(BotError, match="all bots"):
        services.bot_match_play(match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.WAITING


LEARNER = b"""
import os
import time

import kungfu_bot

GAME = "duelo"
PATH = "/home/bot/data/matches"

seen = int(open(PATH).read()) if os.path.exists(PATH) else 0
kungfu_bot.log(f"matches before this one: {seen}")


def over(_game_over):
    # Some thought after the game (within the 1 s a finished bot is given),
    # then the file written whole: to a new name, renamed over the old.
    time.sleep(0.4)
    with open(PATH + ".new", "w") as fh:
        fh.write(str(seen + 1))
    os.replace(PATH + ".new", PATH)


kungfu_bot.run(lambda turn: turn.legal_ids[0], on_game_over=over)
"""


def test_a_bots_data_directory_is_kept_from_one_server_match_to_the_next(
    owner, survivors
):
    """The ladder's runner gives an uploaded bot its data directory: what it
    writes in one match it reads in the next; the other bot's is its own."""
    from bots.storage import bot_data_dir

    learner = stored_version(owner, LEARNER, name="learner")
    other = stored_version(owner, LEARNER, name="rival")
    for number in (1, 2):
        match = bot_match(learner.agent, "builtin:random")
        outcome = services.bot_match_play(match_id=match.pk)
        log = BotMatchLog.objects.get(match=match, seat=0)
        assert outcome.faults == {}, log.stderr
        assert f"matches before this one: {number - 1}" in log.stderr
        assert (bot_data_dir(learner.bot_id) / "matches").read_text() == str(number)
    assert not (bot_data_dir(other.bot_id) / "matches").exists()
    assert survivors == []
