"""The operator's automatic analysis of rated tournament games.

``ANALYSIS_AUTO_TOURNAMENTS`` on: a finished rated game whose context a
tournament kind claims (``tournament:``, ``arena:``) is queued for analysis on
the ``analysis`` queue when gameplay announces its finish, once per match and
analysis version; off (the default), or any other game, nothing is queued.
"""

from __future__ import annotations

import pytest
from celery.app.task import Task

from analysis import services as analysis_services
from analysis.models import AnalysisStatus, MatchAnalysis
from gameplay import services
from gameplay.models import Match, MatchStatus
from gameplay.rules.analysis import ANALYSIS_VERSION
from tests.gameplay.conftest import play_to_end, start_match

pytestmark = pytest.mark.django_db

AUTO = "analysis.auto_analyse_match"
RUN = "analysis.analyse_match"


@pytest.fixture
def queued(monkeypatch) -> list[str]:
    names: list[str] = []

    def record(self, *args, **kwargs):
        names.append(self.name)

    monkeypatch.setattr(Task, "apply_async", record)
    return names


def _marked_finished(players, *, rated: bool, context: str) -> Match:
    match = services.match_create(
        game="duelo",
        seats=[services.SeatSpec(user=u) for u in players[:2]],
        rated=rated,
        context=context,
    )
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    return match


def test_the_task_runs_on_the_analysis_queue() -> None:
    from celery import current_app

    router = current_app.amqp.router
    assert router.route({}, AUTO)["queue"].name == "analysis"
    assert router.route({}, RUN)["queue"].name == "analysis"


@pytest.mark.parametrize(
    ("rated", "context", "auto"),
    [
        (True, "tournament:3:9", True),
        (True, "arena:2:5", True),
        (False, "tournament:3:9", False),  # a casual tournament: not rated
        (True, "", False),  # rated, but no tournament
        (True, "league:4", False),
    ],
)
def test_only_rated_tournament_games_are_queued(
    players, queued, settings, rated, context, auto
) -> None:
    settings.ANALYSIS_AUTO_TOURNAMENTS = True
    match = _marked_finished(players, rated=rated, context=context)
    assert services.match_announce_finished(match_id=match.pk) is True
    assert (AUTO in queued) is auto


def test_switch_off_queues_nothing(players, queued, settings) -> None:
    settings.ANALYSIS_AUTO_TOURNAMENTS = False
    match = _marked_finished(players, rated=True, context="tournament:3:9")
    assert services.match_announce_finished(match_id=match.pk) is True
    assert AUTO not in queued
    # The task itself re-reads the switch: a task queued before it was turned
    # off stores nothing.
    assert analysis_services.analysis_auto(match_id=match.pk) == "off"
    assert not MatchAnalysis.objects.exists()


def test_a_finished_rated_tournament_game_is_analysed_once(
    players, settings, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    settings.ANALYSIS_AUTO_TOURNAMENTS = True
    assert settings.CELERY_TASK_ALWAYS_EAGER  # the tasks run here, in order
    match = start_match(players[:2], rated=True, context="tournament:3:9")
    # Never before the end: the task finds a match in play and stores nothing.
    assert analysis_services.analysis_auto(match_id=match.pk) == "skipped"
    assert not MatchAnalysis.objects.exists()
    play_to_end(match, players[:2])
    with django_capture_on_commit_callbacks(execute=True):
        services.match_announce_finished(match_id=match.pk)
    row = MatchAnalysis.objects.get(match=match)
    assert row.version == ANALYSIS_VERSION
    assert row.status == AnalysisStatus.DONE, row.error
    assert row.iterations == settings.ANALYSIS_ITERATIONS
    assert row.result is not None and row.result["decisions"], "decisions analysed"
    assert row.done_steps == row.total_steps > 0
    finished_at = row.finished_at

    # A repeated announcement (gameplay's outbox retries) or task: nothing new.
    Match.objects.filter(pk=match.pk).update(finish_announced_at=None)
    names: list[str] = []
    monkeypatch.setattr(
        Task, "apply_async", lambda task, *a, **k: names.append(task.name)
    )
    services.match_announce_finished(match_id=match.pk)
    assert AUTO in names  # the receiver does not read the database
    with django_capture_on_commit_callbacks(execute=True) as again:
        assert analysis_services.analysis_auto(match_id=match.pk) == "done"
    assert again == [] and RUN not in names
    row.refresh_from_db()
    assert MatchAnalysis.objects.filter(match=match).count() == 1
    assert row.finished_at == finished_at


def test_casual_games_are_left_to_the_players(players, settings) -> None:
    settings.ANALYSIS_AUTO_TOURNAMENTS = True
    casual = _marked_finished(players, rated=False, context="tournament:3:9")
    plain = _marked_finished(players, rated=True, context="")
    assert analysis_services.analysis_auto(match_id=casual.pk) == "skipped"
    assert analysis_services.analysis_auto(match_id=plain.pk) == "skipped"
    assert analysis_services.analysis_auto(match_id=10**9) == "skipped"
    assert not MatchAnalysis.objects.exists()
