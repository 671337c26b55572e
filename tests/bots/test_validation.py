"""Validation: a new version plays the random bot before it becomes active."""

from __future__ import annotations

import pytest

from bots import services
from bots.models import BotStatus, BotVersion, VersionStatus
from bots.sandbox import SandboxStatus
from tests.bots.botsrc import CRASHER, FIRST_LEGAL, ILLEGAL
from tests.bots.helpers import assert_validates_to, stored_version

pytestmark = pytest.mark.django_db


@pytest.mark.sandbox
def test_good_version_becomes_active_and_retires_the_previous(owner, fast_time):
    first = stored_version(owner, FIRST_LEGAL, name="v", active=False)
    assert_validates_to(first.pk, "active")
    first.refresh_from_db()
    bot = first.bot
    bot.refresh_from_db()
    assert bot.status == BotStatus.ACTIVE and bot.active_version_id == first.pk
    games = first.validation_report["games"]
    assert len(games) == 2 and [g["seat"] for g in games] == [0, 1]
    assert all(g["decisions"] > 0 and not g["fault"] for g in games)
    assert "against the random bot" in first.status_detail

    second = services.bot_version_upload(
        bot_id=bot.pk, user=owner, filename="v2.py", data=FIRST_LEGAL + b"# v2\n"
    )
    assert_validates_to(second.pk, "active")
    first.refresh_from_db()
    bot.refresh_from_db()
    assert first.status == VersionStatus.RETIRED
    assert bot.active_version_id == second.pk
    # Idempotent: validating again changes nothing.
    assert_validates_to(second.pk, "active")


@pytest.mark.sandbox
@pytest.mark.parametrize(
    ("source", "words"), [(CRASHER, "crash"), (ILLEGAL, "illegal action")]
)
def test_failing_version_shows_reason_and_stderr(owner, fast_time, source, words):
    version = stored_version(owner, source, name="bad", active=False)
    assert_validates_to(version.pk, "failed")
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED
    assert version.status_detail.startswith("Game 1 (seat 0) was forfeited: " + words)
    if source is CRASHER:
        assert "about to crash" in version.validation_stderr
    version.bot.refresh_from_db()
    assert version.bot.status == BotStatus.PENDING
    assert version.bot.active_version is None


def test_without_a_sandbox_the_version_waits_with_the_reason(owner, monkeypatch):
    version = stored_version(owner, FIRST_LEGAL, name="w", active=False)
    monkeypatch.setattr(
        services,
        "sandbox_available",
        lambda config: SandboxStatus(ok=False, reason="bubblewrap not found"),
    )
    assert_validates_to(version.pk, "validating")
    version.refresh_from_db()
    assert version.status == VersionStatus.VALIDATING
    assert "bubblewrap not found" in version.status_detail
    # The verdict is shared with the web processes: new uploads are refused.
    ok, reason = services.sandbox_gate()
    assert not ok and reason == "bubblewrap not found"


def test_validation_task_is_routed_to_the_bots_queue(settings):
    from celery import current_app

    router = current_app.amqp.router
    for name in ("bots.validate_version", "bots.play_match", "bots.ladder_schedule"):
        assert router.route({}, name)["queue"].name == "bots"
    assert BotVersion.objects.count() == 0
