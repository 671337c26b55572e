"""The analysis button (result screen and replay) and the replay's panel."""

from __future__ import annotations

import pytest
from django.urls import reverse

from analysis.models import MatchAnalysis
from tests.gameplay.conftest import play_to_end, start_match

pytestmark = pytest.mark.django_db


def test_the_button_queues_once_and_opens_the_replay(
    players, client, django_capture_on_commit_callbacks
) -> None:
    match = start_match(players[:2])
    url = reverse("analysis:request", args=[match.public_id])
    assert client.post(url).status_code == 302  # sign in first
    assert not MatchAnalysis.objects.exists()
    client.force_login(players[0])
    in_play = client.post(url, follow=True)
    assert "once the match has ended" in in_play.content.decode()
    assert not MatchAnalysis.objects.exists()
    assert client.get(url).status_code == 405  # a GET changes nothing

    play_to_end(match, players[:2])
    with django_capture_on_commit_callbacks() as queued:
        done = client.post(url)
    assert done.status_code == 302
    assert done["Location"] == reverse("gameplay:replay", args=[match.public_id])
    assert len(queued) == 1 and MatchAnalysis.objects.count() == 1
    page = client.get(done["Location"]).content.decode()
    assert 'id="analysis-panel"' in page
    assert f'action="{url}"' in page
    assert f"/api/matches/{match.public_id}/analysis/" in page


def test_the_result_screen_offers_the_button(players, client) -> None:
    match = start_match(players[:2])
    play_to_end(match, players[:2])
    client.force_login(players[0])
    page = client.get(reverse("gameplay:match", args=[match.public_id]))
    url = reverse("analysis:request", args=[match.public_id])
    assert f'analysisUrl: "{url}"' in page.content.decode()


def test_the_profile_shows_accuracy_over_analysed_games(players, client) -> None:
    from analysis import services

    match = start_match(players[:2])
    play_to_end(match, players[:2])
    profile = reverse("accounts:profile", args=["p0"])
    assert "Analysed games" not in client.get(profile).content.decode()
    row = services.analysis_run(analysis_id=services.analysis_request(match=match).pk)
    assert row.result is not None
    mine = row.result["summary"]["0"]
    page = client.get(profile).content.decode()
    assert "Analysed games" in page
    assert f"{round(mine['mean_loss'] * 100)}%" in page
