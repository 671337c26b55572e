"""The analysis API: never for a match in play, stored once, per-seat views."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from analysis import services
from analysis.models import AnalysisStatus, MatchAnalysis
from tests.gameplay.conftest import play_to_end, start_match

pytestmark = pytest.mark.django_db


def api_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _finished(players):
    match = start_match(players[:2])
    play_to_end(match, players[:2])
    match.refresh_from_db()
    return match


def test_no_analysis_of_a_match_in_play(players, django_capture_on_commit_callbacks):
    match = start_match(players[:2])
    url = f"/api/matches/{match.public_id}/analysis/"
    for user in (None, players[0], players[1]):
        got = api_for(user).get(url)
        assert got.status_code == 403
        assert got.json()["code"] == "not_finished"
        assert "once the match has ended" in got.json()["detail"]
    with django_capture_on_commit_callbacks() as queued:
        asked = api_for(players[0]).post(url)
    assert asked.status_code == 403 and asked.json()["code"] == "not_finished"
    assert queued == [] and not MatchAnalysis.objects.exists()


def test_request_queue_run_and_read(players, django_capture_on_commit_callbacks):
    match = _finished(players)
    url = f"/api/matches/{match.public_id}/analysis/"
    assert api_for(None).get(url).json()["status"] == "none"
    assert api_for(None).post(url).status_code in (401, 403)  # sign in to ask
    with django_capture_on_commit_callbacks() as queued:
        asked = api_for(players[0]).post(url)
    assert asked.status_code == 202 and asked.json()["status"] == "queued"
    assert len(queued) == 1
    with django_capture_on_commit_callbacks() as again:
        api_for(players[1]).post(url)
    assert again == [] and MatchAnalysis.objects.count() == 1  # stored once

    row = MatchAnalysis.objects.get()
    row.iterations = 16  # a small budget keeps the test quick
    row.save()
    services.analysis_run(analysis_id=row.pk)
    full = api_for(None).get(url).json()
    assert full["status"] == AnalysisStatus.DONE
    assert full["progress"]["done"] == full["progress"]["total"] > 0
    decisions = full["analysis"]["decisions"]
    assert len(decisions) == match.version
    searched = [d for d in decisions if d["grade"] != "only"]
    assert searched, "a game of Duelo has real choices"
    for d in searched:
        assert d["best"] in {m["id"] for m in d["menu"]}
        assert d["loss"] >= 0
    for d in decisions:
        if len(d["menu"]) == 1:
            assert d["grade"] == "only" and d["loss"] == 0
        # The fields a page words each action from (docs/i18n.md).
        assert d["taken_action"]["type"] == d["taken"].split(":")[0]
        assert all(m["action"]["type"] == m["id"].split(":")[0] for m in d["menu"])

    seat0 = api_for(None).get(url + "?perspective=seat:0").json()["analysis"]
    for d in seat0["decisions"]:
        assert ("menu" in d) == (d["seat"] == 0) == ("taken_action" in d)
        assert "value" in d and "grade" in d  # the graph keeps every point
    assert seat0["summary"]["1"]["worst"] == []
    spectator = api_for(None).get(url + "?perspective=spectator").json()["analysis"]
    assert all("menu" not in d for d in spectator["decisions"])
    assert all("taken_action" not in d for d in spectator["decisions"])
    assert api_for(None).get(url + "?perspective=seat:7").status_code == 400


def test_run_is_deterministic_and_idempotent(players) -> None:
    match = _finished(players)
    row = services.analysis_request(match=match)
    row.iterations = 12
    row.save()
    first = services.analysis_run(analysis_id=row.pk).result
    MatchAnalysis.objects.filter(pk=row.pk).update(status=AnalysisStatus.QUEUED)
    second = services.analysis_run(analysis_id=row.pk).result
    assert first == second


def test_openapi_schema_has_the_endpoint(client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    path = schema["paths"]["/api/matches/{public_id}/analysis/"]
    assert set(path) >= {"get", "post"}


def test_the_real_time_game_gets_its_claim_review(players) -> None:
    from datetime import timedelta

    from gameplay import services as match_services
    from tests.gameplay.test_kungfu2009_live import FOUR, act, table

    match = table(players, FOUR, minutes=1)
    with pytest.raises(Exception, match="once the match has ended"):
        services.analysis_request(match=match)
    act(match, players[0], "claim:easy")
    match.refresh_from_db()
    match_services.match_apply_timers(
        match_id=match.pk, now=match.turn_started_at + timedelta(seconds=61)
    )
    match.refresh_from_db()
    assert match.status == "finished"
    row = services.analysis_run(analysis_id=services.analysis_request(match=match).pk)
    assert row.status == AnalysisStatus.DONE, row.error
    body = api_for(None).get(f"/api/matches/{match.public_id}/analysis/").json()
    review = body["analysis"]["review"]
    assert body["analysis"]["kind"] == "review"
    assert set(review["summary"]) == {"0", "1", "2", "3"}
    # Seat 0 claimed the easy combination at once: neither missed nor wrong.
    assert review["summary"]["0"]["wrong_claims"] == 0
    assert not any(m["seat"] == 0 for m in review["missed_claims"])


@pytest.mark.parametrize(
    ("game", "config"),
    [("kungfu2013", {"life": 5}), ("kungfu2019", {"draft": False})],
)
def test_every_turn_based_game_is_analysed(players, game, config) -> None:
    """Kung Fu (2013) and (2019) through the same request, task and API as
    Duelo: every logged decision has a point, every searched one its menu."""
    match = start_match(players[:2], game=game, config=config)
    play_to_end(match, players[:2])
    match.refresh_from_db()
    assert match.status == "finished"
    row = services.analysis_run(analysis_id=services.analysis_request(match=match).pk)
    assert row.status == AnalysisStatus.DONE, row.error
    body = api_for(None).get(f"/api/matches/{match.public_id}/analysis/").json()
    analysis = body["analysis"]
    assert body["game"] == game and analysis["kind"] == "search"
    decisions = analysis["decisions"]
    seated = match.actions.exclude(seat=None).count()
    assert len(decisions) == seated > 0
    searched = [d for d in decisions if d["grade"] != "only"]
    assert searched, f"a game of {game} has real choices"
    for d in searched:
        assert d["best"] in {m["id"] for m in d["menu"]}
        assert 0 <= d["value"] <= 1 and d["loss"] >= 0
    assert set(analysis["summary"]) == {"0", "1"}
