"""End to end through the real tasks (eager): upload -> validation -> active,
and a ladder round -> sandboxed matches -> results -> Elo via league."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from bots import ladder, ratings
from bots.models import Bot, BotMatchLog, BotStatus, VersionStatus
from gameplay.models import Match, MatchStatus
from tests.bots.botsrc import CRASHER, FIRST_LEGAL
from tests.bots.helpers import stored_version
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.sandbox]


def test_api_upload_is_validated_by_the_task_and_becomes_active(
    owner, fast_time, django_capture_on_commit_callbacks
):
    api = APIClient()
    api.force_authenticate(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/api/bots/",
            {
                "name": "e2e",
                "game": "duelo",
                "file": SimpleUploadedFile("b.py", FIRST_LEGAL),
            },
            format="multipart",
        )
    assert response.status_code == 201
    bot = Bot.objects.get(pk=response.json()["id"])
    assert bot.status == BotStatus.ACTIVE
    assert bot.active_version.status == VersionStatus.ACTIVE
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            f"/api/bots/{bot.pk}/versions/",
            {"file": SimpleUploadedFile("v2.py", CRASHER)},
            format="multipart",
        )
    assert response.status_code == 201
    logs = api.get(f"/api/bots/{bot.pk}/logs/").json()
    failed = logs["versions"][0]
    assert failed["status"] == "failed"
    assert "about to crash" in failed["validation_stderr"]
    bot.refresh_from_db()
    assert bot.active_version.number == 1, "a failed version does not replace v1"


def test_a_ladder_round_is_played_and_rated(
    owner, fast_time, settings, django_capture_on_commit_callbacks
):
    pytest.importorskip("league.ratings.services")
    settings.BOT_LADDER_ANCHORS = ()  # two bots, one pairing (anchors: below)
    first = stored_version(owner, FIRST_LEGAL, name="first")
    second = stored_version(UserFactory(), FIRST_LEGAL + b"\n", name="second")
    with django_capture_on_commit_callbacks(execute=True):
        ladder_round = ladder.ladder_round_schedule(game="duelo", duplicate=True)
    assert ladder_round.match_count == 2
    matches = list(Match.objects.filter(context__startswith=ladder_round.context))
    assert len(matches) == 2
    assert all(m.status == MatchStatus.FINISHED for m in matches)
    assert matches[0].seed == matches[1].seed
    assert BotMatchLog.objects.filter(match__in=matches).count() == 4
    for version in (first, second):
        assert ratings.bot_rating(bot=version.bot) is not None


def test_a_new_bot_debuts_against_the_anchor_and_it_stays_fixed(
    owner, fast_time, settings, django_capture_on_commit_callbacks
):
    """The debut games are played by the runner like ladder games; the anchor
    (here only the random bot) is played in-process and keeps its rating."""
    pytest.importorskip("league.ratings.services")
    from gameplay.rules import game_meta
    from league.models import Rating
    from league.participants import participant_for_builtin

    settings.BOT_LADDER_ANCHORS = ("random",)
    version = stored_version(owner, FIRST_LEGAL, name="debutant")
    with django_capture_on_commit_callbacks(execute=True):
        ids = ladder.bot_debut_schedule(version_id=version.pk)
    matches = list(Match.objects.filter(pk__in=ids))
    assert len(matches) == 2
    assert all(m.status == MatchStatus.FINISHED for m in matches)
    assert ratings.bot_rating(bot=version.bot) is not None
    anchor = Rating.objects.get(participant=participant_for_builtin("random"))
    assert anchor.rating == game_meta(version.bot.game).anchors["random"]
    assert anchor.games == 2
