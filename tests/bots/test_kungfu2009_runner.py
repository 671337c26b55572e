"""Stored bot matches of a real-time game (Kung Fu (2009)) played by the worker.

``bot_match_play`` runs the match on the virtual clock: the uploaded bot in the
sandbox and the built-in seats are asked at every tick, the applied intents
and the table's steps are the match's actions (so the replay rebuilds the
final state), refused intents are kept in the bot's match log, and a fault
forfeits as in the other games.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bots import services
from bots.models import BotMatchLog, BotVersion, VersionStatus
from gameplay.models import ActionKind, Match, MatchStatus
from gameplay.rules import get_game
from gameplay.selectors import match_replay
from gameplay.services import SeatSpec, match_create
from tests.bots.botsrc import realtime_crasher
from tests.bots.helpers import assert_validates_to

pytestmark = [pytest.mark.django_db, pytest.mark.sandbox]

GAME = "kungfu2009"
EXAMPLE = Path(__file__).resolve().parents[2] / "bots/examples/kungfu2009_collector.py"
CRASH_AT_TICK_5 = realtime_crasher(game=GAME, tick=5)


@pytest.fixture
def store(store_active_upload):
    """Store an upload for this game (whether or not the platform offers it)."""
    return lambda source, name: store_active_upload(GAME, source, name)


def a_match(agents: list[str]) -> Match:
    return match_create(
        game=GAME,
        seats=[SeatSpec(agent=agent, label=agent) for agent in agents],
        config={},
        context="bots:test",
    )


def assert_replays(match: Match) -> None:
    """The stored actions alone rebuild the final state, step by step."""
    replay = match_replay(match=match, perspective="full")
    engine = get_game(GAME)
    assert replay["steps"][-1]["view"] == engine.observe(match.state, None)
    assert len(replay["steps"]) == match.version + 1


def test_an_uploaded_bot_and_builtins_play_a_stored_match(store):
    version = store(EXAMPLE.read_bytes(), "collector")
    agents = ["builtin:heuristic"] * 4
    mine = random.randrange(4)
    agents[mine] = version.agent
    match = a_match(agents)
    outcome = services.bot_match_play(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.end_reason == "completed"
    assert match.state["phase"] == "over"
    assert outcome.ticks > 0 and outcome.faults == {}
    actions = list(match.actions.order_by("version"))
    assert len(actions) == match.version
    assert "pass" not in {a.action_id for a in actions}
    table = [a for a in actions if a.seat is None]
    assert all(a.kind == ActionKind.TABLE for a in table)
    assert {a.action_id for a in table} <= {"check", "end"}
    # Every seat acted, the uploaded one among them.
    assert {a.seat for a in actions} >= {0, 1, 2, 3}
    assert_replays(match)
    log = BotMatchLog.objects.get(match=match, seat=mine)
    assert log.fault == "" and log.decisions > 20
    assert log.refused_count == len(
        [r for r in outcome.refused if r[1] == mine]
    ) and len(log.refused) == min(log.refused_count, 50)
    assert sorted(match.result["placements"]) == sorted(
        get_game(GAME).result(match.state)["placements"]
    )
    # A finished match is left alone.
    assert services.bot_match_play(match_id=match.pk) is None


def test_a_crashing_bot_forfeits_and_the_match_goes_on(store):
    crash = store(CRASH_AT_TICK_5, "crash")
    example = store(EXAMPLE.read_bytes(), "collector")
    match = a_match([crash.agent, example.agent, "builtin:heuristic", "builtin:random"])
    outcome = services.bot_match_play(match_id=match.pk)
    match.refresh_from_db()
    assert outcome.faults == {0: "crash"}
    assert match.status == MatchStatus.FINISHED
    assert match.end_reason == "completed"  # four players: the table played on
    seat = match.seats.get(number=0)
    assert (
        seat.forfeited and seat.replaced_by_bot and seat.forfeit_reason == "bot crash"
    )
    assert match.result["placements"][0] == 4
    assert BotMatchLog.objects.get(match=match, seat=0).fault == "crash"
    assert BotMatchLog.objects.get(match=match, seat=1).fault == ""
    assert_replays(match)


def test_the_example_bot_validates_at_the_smallest_table(store, fast_time):
    version = store(EXAMPLE.read_bytes(), "validated")
    BotVersion.objects.filter(pk=version.pk).update(status=VersionStatus.VALIDATING)
    assert_validates_to(version.pk, "active")
    version.refresh_from_db()
    games = version.validation_report["games"]
    assert [g["seat"] for g in games] == [0, 1]  # three seats, two random bots
    assert all(g["decisions"] > 0 and not g["fault"] for g in games)
    assert all(g["placement"] in (1, 2, 3) for g in games)
