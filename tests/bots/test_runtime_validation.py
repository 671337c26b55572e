"""Validation of compiled runtimes: the build, its errors on the owner's page."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from bots import services
from bots.models import VersionStatus
from tests.bots.helpers import assert_validates_to
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).resolve().parents[2] / "bots" / "examples"
BROKEN_C = b'#define GAME "duelo"\nint main(void) { return missing_name; }\n'


@pytest.mark.sandbox
def test_compile_error_fails_the_version_and_shows_only_to_the_owner(
    owner, client, fast_time
):
    version = services.bot_create(
        owner=owner,
        game="duelo",
        name="broken-c",
        description="",
        source_public=True,
        filename="bot.c",
        data=BROKEN_C,
    )
    assert_validates_to(version.pk, "failed")
    version.refresh_from_db()
    assert version.status == VersionStatus.FAILED
    assert version.status_detail.startswith("Compile error: main.c does not compile")
    build = version.validation_report["build"]
    assert build["ok"] is False and "missing_name" in build["output"]
    assert version.validation_report["games"] == []  # nothing was played

    url = reverse("bots:detail", args=[version.bot_id])
    client.force_login(owner)
    page = client.get(url).content.decode()
    assert "Compiler messages" in page and "missing_name" in page
    assert "C (zig cc" in page  # the version's runtime
    assert 'id="runtime-wasm"' in page  # every runtime's limits, for the owner
    api = client.get(f"/api/bots/{version.bot_id}/").json()
    assert api["versions"][0]["runtime"] == "c"
    assert "missing_name" in api["versions"][0]["validation_report"]["build"]["output"]
    client.force_login(UserFactory())
    page = client.get(url).content.decode()
    assert "missing_name" not in page and "Compiler messages" not in page
    api = client.get(f"/api/bots/{version.bot_id}/").json()
    assert api["versions"][0]["runtime"] == "c"
    assert "validation_report" not in api["versions"][0]


@pytest.mark.sandbox
def test_cpp_example_validates_and_activates(owner, fast_time):
    version = services.bot_create(
        owner=owner,
        game="duelo",
        name="cpp",
        description="",
        source_public=False,
        filename="duelo_random.cpp",
        data=(EXAMPLES / "duelo_random.cpp").read_bytes(),
    )
    assert_validates_to(version.pk, "active")
    version.refresh_from_db()
    assert version.validation_report["build"]["ok"] is True
    assert all(not game["fault"] for game in version.validation_report["games"])


def test_upload_page_lists_every_runtime_with_its_limits(owner, client):
    client.force_login(owner)
    page = client.get(reverse("bots:new")).content.decode()
    for name, words in (
        ("python", "main.py"),
        ("javascript", "JavaScript heap"),
        ("c", "compiling: 90 s"),
        ("cpp", "main.cpp"),
        ("wasm", "fuel"),
    ):
        assert f'id="runtime-{name}"' in page
        assert words in page


@pytest.mark.sandbox
def test_data_is_wiped_with_a_new_version_unless_kept(
    owner, fast_time, django_capture_on_commit_callbacks
):
    from bots.storage import bot_data_dir
    from tests.bots.botsrc import FIRST_LEGAL

    def upload(keep: bool, n: int) -> None:
        version = services.bot_version_upload(
            bot_id=bot_id,
            user=owner,
            filename="main.py",
            data=FIRST_LEGAL + f"# v{n}\n".encode(),
            keep_data=keep,
        )
        with django_capture_on_commit_callbacks(execute=True):
            assert_validates_to(version.pk, "active")

    first = services.bot_create(
        owner=owner,
        game="duelo",
        name="learner",
        description="",
        source_public=False,
        filename="main.py",
        data=FIRST_LEGAL,
    )
    bot_id = first.bot_id
    with django_capture_on_commit_callbacks(execute=True):
        assert_validates_to(first.pk, "active")
    kept = bot_data_dir(bot_id)
    kept.mkdir(parents=True, exist_ok=True)  # debut games may have made it
    (kept / "book").write_text("learned")
    upload(True, 2)
    assert (kept / "book").read_text() == "learned"
    upload(False, 3)
    assert not (kept / "book").exists()


@pytest.mark.parametrize(
    ("filename", "data"),
    [
        ("bot.js", b'const GAME = "duelo";\n'),
        ("bot.c", BROKEN_C),
        ("bot.cpp", b"int main() {}\n"),
        ("bot.wasm", b"\0asm\x01\0\0\0"),
    ],
)
def test_every_runtime_is_refused_without_a_sandbox(owner, media_root, filename, data):
    from bots.errors import SandboxRefused
    from bots.models import Bot

    services.sandbox_report(ok=False, reason="bubblewrap not found")
    with pytest.raises(SandboxRefused, match="Nothing was stored"):
        services.bot_create(
            owner=owner,
            game="duelo",
            name="refused",
            description="",
            source_public=False,
            filename=filename,
            data=data,
        )
    assert not Bot.objects.exists()
    assert not any(media_root.iterdir())


def test_owner_is_told_when_the_workers_keep_no_data_directory(
    owner, client, store_active_upload
):
    """A worker whose bots get no data directory says why in its heartbeat;
    the owner reads it on the bot page (nobody else is bothered with it)."""
    from tests.bots.botsrc import FIRST_LEGAL

    version = store_active_upload("duelo", FIRST_LEGAL, "nodata")
    url = f"/bots/{version.bot_id}/"
    client.force_login(owner)
    services.sandbox_report(ok=True, reason="ok", data_dir="")
    assert b'data-testid="no-data-dir"' not in client.get(url).content
    reason = "this host does not let the worker make a user namespace"
    services.sandbox_report(ok=True, reason="ok", data_dir=reason)
    page = client.get(url).content.decode()
    assert 'data-testid="no-data-dir"' in page and reason in page
    client.force_login(UserFactory())
    assert b'data-testid="no-data-dir"' not in client.get(url).content
