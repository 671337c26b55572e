"""Bot services: creating bots and versions, limits, the sandbox gate, staff."""

from __future__ import annotations

import os
import stat

import pytest

from bots import enqueue, services
from bots.errors import BotForbidden, SandboxRefused, UploadRefused
from bots.models import Bot, BotStatus, BotVersion, VersionStatus
from tests.bots.botsrc import FIRST_LEGAL, zip_bytes
from tests.factories import BotFactory, UserFactory

pytestmark = pytest.mark.django_db


def create(owner, name="alpha", data=FIRST_LEGAL, filename="bot.py", game="duelo"):
    return services.bot_create(
        owner=owner, game=game, name=name, filename=filename, data=data
    )


def test_create_stores_read_only_files_and_queues_validation(
    owner, media_root, django_capture_on_commit_callbacks, monkeypatch
):
    queued = []
    monkeypatch.setattr(enqueue, "validation", queued.append)
    with django_capture_on_commit_callbacks(execute=True):
        version = create(owner)
    assert version.number == 1
    assert version.status == VersionStatus.VALIDATING
    assert version.bot.status == BotStatus.PENDING
    assert queued == [version.pk]
    root = media_root / "bots" / str(version.pk)
    assert (root / "main.py").read_bytes() == FIRST_LEGAL
    assert (root / "kungfu_bot.py").exists(), "the SDK is placed beside main.py"
    mode = os.stat(root / "main.py").st_mode
    assert not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    assert not os.stat(root).st_mode & stat.S_IWUSR


def test_versions_are_numbered_per_bot(owner, monkeypatch):
    monkeypatch.setattr(enqueue, "validation", lambda pk: None)
    first = create(owner)
    second = services.bot_version_upload(
        bot_id=first.bot_id, user=owner, filename="v2.py", data=FIRST_LEGAL + b"\n"
    )
    assert (first.number, second.number) == (1, 2)
    assert first.sha256 != second.sha256


def test_per_owner_limit(owner, settings):
    settings.BOT_MAX_PER_OWNER = 2
    create(owner, "a")
    create(owner, "b")
    with pytest.raises(UploadRefused, match="the limit is 2"):
        create(owner, "c")
    assert Bot.objects.filter(owner=owner).count() == 2


def test_retired_bots_do_not_count_towards_the_limit(owner, settings):
    settings.BOT_MAX_PER_OWNER = 1
    version = create(owner, "a")
    services.bot_update(bot_id=version.bot_id, user=owner, retired=True)
    create(owner, "b")


@pytest.mark.parametrize(
    ("filename", "data", "message"),
    [
        ("big.py", b"#" * (1024 * 1024 + 1), "at most 1 MiB"),
        ("bot.zip", zip_bytes({"x.py": "pass"}), "no main.py"),
        ("bot.zip", zip_bytes({"main.py": "pass", "../x": "1"}), "'..'"),
        ("bot.py", b'GAME = "kungfu2013"\n', 'declares GAME = "kungfu2013"'),
    ],
)
def test_refused_uploads_store_nothing(owner, media_root, filename, data, message):
    with pytest.raises(UploadRefused, match=message):
        create(owner, filename=filename, data=data)
    assert not Bot.objects.exists()
    assert not BotVersion.objects.exists()
    assert not (media_root / "bots").exists() or not any(
        (media_root / "bots").iterdir()
    )


def test_unknown_game_refused(owner):
    with pytest.raises(UploadRefused, match="no game 'chess'"):
        create(owner, game="chess")


def test_version_for_another_game_refused(owner):
    version = create(owner)
    with pytest.raises(UploadRefused, match="This is a duelo bot"):
        services.bot_version_upload(
            bot_id=version.bot_id,
            user=owner,
            filename="x.py",
            data=FIRST_LEGAL,
            game="kungfu2013",
        )


def test_only_the_owner_uploads_versions(owner):
    version = create(owner)
    with pytest.raises(BotForbidden):
        services.bot_version_upload(
            bot_id=version.bot_id, user=UserFactory(), filename="x.py", data=FIRST_LEGAL
        )


def test_duplicate_name_refused(owner):
    create(owner, "Same")
    with pytest.raises(UploadRefused, match="already have"):
        create(owner, "same")


def test_uploads_refused_when_a_worker_reports_no_sandbox(owner, media_root):
    services.sandbox_report(ok=False, reason="bubblewrap not found at /usr/bin/bwrap")
    with pytest.raises(SandboxRefused, match="bubblewrap not found") as info:
        create(owner)
    assert "Nothing was stored" in str(info.value)
    assert not Bot.objects.exists()


def test_dev_override_opens_uploads(owner, settings):
    services.sandbox_report(ok=False, reason="no bwrap")
    settings.BOT_SANDBOX_ALLOW_UNSANDBOXED = True
    assert create(owner).pk


def test_staff_disable_and_enable():
    bot = BotFactory()
    staff = UserFactory(is_staff=True)
    with pytest.raises(BotForbidden):
        services.bot_set_disabled(bot_id=bot.pk, staff=bot.owner, disabled=True)
    services.bot_set_disabled(
        bot_id=bot.pk, staff=staff, disabled=True, reason="hogs the CPU"
    )
    bot.refresh_from_db()
    assert bot.disabled and bot.disabled_reason == "hogs the CPU"
    services.bot_set_disabled(bot_id=bot.pk, staff=staff, disabled=False)
    bot.refresh_from_db()
    assert not bot.disabled and bot.disabled_reason == ""
