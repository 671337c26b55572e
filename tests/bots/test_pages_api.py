"""Pages and API: uploads, lists, the bot page, owner-only logs, staff switch."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from bots import enqueue, services
from bots.models import Bot, BotMatchLog, BotVersion
from tests.bots.botsrc import FIRST_LEGAL, zip_bytes
from tests.bots.helpers import bot_match, stored_version
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


@pytest.fixture(autouse=True)
def no_validation(monkeypatch):
    monkeypatch.setattr(enqueue, "validation", lambda pk: None)


@pytest.fixture
def bot_with_log(owner):
    """An active bot with one finished match whose log holds a secret in stderr."""
    from gameplay.services import match_forfeit, match_start

    version = stored_version(owner, FIRST_LEGAL, name="logged")
    match = bot_match(version.agent, "builtin:random")
    match_start(match_id=match.pk)
    match_forfeit(match_id=match.pk, seat_number=0, reason="bot crash")
    BotMatchLog.objects.create(
        version=version, match=match, seat=0, fault="crash", stderr="SECRET-TRACE"
    )
    return version.bot


def test_the_owner_reads_refused_intents_in_their_language(client, bot_with_log):
    """The logs page words a refused intent from its code and params in the
    owner's language; a row kept before the params were stored (a text that
    names the move) keeps the engine's English detail, never a bare
    placeholder; the API gives programs the code, params and English detail."""
    owner = bot_with_log.owner
    owner.language = "de"
    owner.save(update_fields=["language"])
    BotMatchLog.objects.filter(version__bot=bot_with_log).update(
        refused_count=3,
        refused=[
            [4, "play:9", "play:9 is not legal", "not_legal", {"action": "play:9"}],
            [5, "zz", "no such action zz", "malformed_action"],
            [6, "yy", "gone stale"],
        ],
    )
    client.force_login(owner)
    page = client.get(reverse("bots:logs", args=[bot_with_log.pk])).content.decode()
    assert "Dieser Zug (play:9) ist jetzt nicht erlaubt." in page
    assert "play:9 is not legal" not in page
    assert "no such action zz" in page and "gone stale" in page
    assert "%(action)s" not in page
    [log] = client.get(f"/api/bots/{bot_with_log.pk}/logs/").json()["matches"]
    assert log["refused"][0] == {
        "tick": 4,
        "action": "play:9",
        "code": "not_legal",
        "params": {"action": "play:9"},
        "reason": "play:9 is not legal",
    }
    assert log["refused"][2]["code"] is None and log["refused"][2]["params"] == {}


def upload(name="web", data=FIRST_LEGAL, filename="bot.py", game="duelo"):
    return {
        "name": name,
        "game": game,
        "description": "",
        "file": SimpleUploadedFile(filename, data),
    }


def test_bot_list_shows_builtins_and_uploaded_bots(client, bot_with_log):
    page = client.get(reverse("bots:list")).content.decode()
    for strength in ("Beginner", "Intermediate", "Strong"):
        assert strength in page
    # Readable names, never the raw seat-agent id.
    assert "ISMCTS bot" in page and "Heuristic bot" in page
    assert "builtin:" not in page
    assert bot_with_log.name in page
    assert client.get(reverse("bots:list") + "?game=duelo").status_code == 200
    assert client.get(reverse("bots:list") + "?game=chess").status_code == 404
    owner_page = client.get(reverse("bots:owner", args=["author"])).content.decode()
    assert bot_with_log.name in owner_page


def test_web_upload_creates_bot_and_redirects(client, owner):
    client.force_login(owner)
    response = client.post(reverse("bots:new"), upload())
    bot = Bot.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("bots:detail", args=[bot.pk])
    page = client.get(response.url).content.decode()
    assert "Validating" in page and "Upload version" in page


@pytest.mark.parametrize(
    ("filename", "data", "message"),
    [
        ("big.py", b"#" * (1024 * 1024 + 5), "at most 1 MiB"),
        ("bot.zip", zip_bytes({"helper.py": "x = 1"}), "no main.py"),
        ("bot.py", b'GAME = "kungfu2013"\nprint(1)\n', "declares GAME"),
        ("bot.zip", b"PK\x03\x04 not really", "cannot be read"),
    ],
)
def test_web_upload_errors_are_clear_and_store_nothing(
    client, owner, filename, data, message
):
    client.force_login(owner)
    response = client.post(reverse("bots:new"), upload(filename=filename, data=data))
    assert response.status_code == 200
    assert message in response.content.decode().replace("&quot;", '"')
    assert not Bot.objects.exists() and not BotVersion.objects.exists()


def test_upload_page_refuses_without_sandbox(client, owner):
    services.sandbox_report(ok=False, reason="bubblewrap not found")
    client.force_login(owner)
    page = client.get(reverse("bots:new")).content.decode()
    assert "Bot uploads are closed: bubblewrap not found" in page
    response = client.post(reverse("bots:new"), upload())
    assert "Bot uploads are closed" in response.content.decode()
    assert not Bot.objects.exists()


def test_logs_are_for_the_owner_only(client, bot_with_log, owner):
    logs_url = reverse("bots:logs", args=[bot_with_log.pk])
    detail_url = reverse("bots:detail", args=[bot_with_log.pk])
    assert "SECRET-TRACE" not in client.get(detail_url).content.decode()
    assert client.get(logs_url).status_code == 302  # sign in first
    client.force_login(UserFactory())
    assert client.get(logs_url).status_code == 403
    assert "Logs and stderr" not in client.get(detail_url).content.decode()
    client.force_login(owner)
    assert "SECRET-TRACE" in client.get(logs_url).content.decode()
    assert "Logs and stderr" in client.get(detail_url).content.decode()


def test_bot_page_shows_counts_and_replay_links(client, bot_with_log):
    page = client.get(reverse("bots:detail", args=[bot_with_log.pk])).content.decode()
    assert "Crashes: <strong>1</strong>" in page
    match = BotMatchLog.objects.get().match
    assert reverse("gameplay:replay", args=[match.public_id]) in page


def test_unlabelled_bot_seats_show_the_bot_name(client, owner):
    from gameplay.services import SeatSpec, match_create, match_forfeit, match_start

    mine = stored_version(owner, FIRST_LEGAL, name="mine")
    rival = stored_version(UserFactory(), FIRST_LEGAL, name="rival")
    match = match_create(
        game="duelo",
        seats=[SeatSpec(agent=mine.agent), SeatSpec(agent=rival.agent)],
        config={},
    )
    match_start(match_id=match.pk)
    match_forfeit(match_id=match.pk, seat_number=1, reason="bot crash")
    page = client.get(reverse("bots:detail", args=[mine.bot_id])).content.decode()
    assert "rival v1" in page


def test_private_source_is_hidden_public_source_readable(client, owner):
    version = stored_version(owner, FIRST_LEGAL, name="src")
    url = reverse("bots:source", args=[version.bot_id, version.number])
    assert client.get(url).status_code == 403
    Bot.objects.filter(pk=version.bot_id).update(source_public=True)
    page = client.get(url).content.decode()
    assert "kungfu_bot.run" in page
    assert client.get(url + "?file=../../etc/passwd").status_code == 404


def test_staff_disable_from_the_page(client, bot_with_log, owner):
    url = reverse("bots:disable", args=[bot_with_log.pk])
    client.force_login(owner)
    client.post(url, {"disabled": "1", "reason": "mine"})
    bot_with_log.refresh_from_db()
    assert not bot_with_log.disabled
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    detail = client.get(reverse("bots:detail", args=[bot_with_log.pk])).content
    assert b"Disable this bot" in detail
    client.post(url, {"disabled": "1", "reason": "abuse"})
    bot_with_log.refresh_from_db()
    assert bot_with_log.disabled and bot_with_log.disabled_reason == "abuse"


def test_owner_settings_and_retire(client, owner):
    version = stored_version(owner, FIRST_LEGAL, name="set")
    client.force_login(owner)
    url = reverse("bots:settings", args=[version.bot_id])
    client.post(url, {"description": "greedy", "source_public": "on"})
    bot = Bot.objects.get(pk=version.bot_id)
    assert bot.description == "greedy" and bot.source_public
    client.post(url, {"retire": "1"})
    bot.refresh_from_db()
    assert bot.status == "retired"


# --- API -----------------------------------------------------------------------


@pytest.fixture
def api():
    return APIClient()


def test_api_index_lists_bots(api):
    index = api.get("/api/").json()
    assert index["bots"].endswith("/api/bots/")
    assert index["builtin-bots"].endswith("/api/bots/builtin/")


def test_api_upload_multipart_and_detail(api, owner):
    assert api.post("/api/bots/", upload(), format="multipart").status_code == 401
    api.force_authenticate(owner)
    response = api.post("/api/bots/", upload(name="apibot"), format="multipart")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["name"] == "apibot" and body["version"]["status"] == "validating"
    detail = api.get(f"/api/bots/{body['id']}/").json()
    assert detail["versions"][0]["sha256"] == body["version"]["sha256"]
    listed = api.get("/api/bots/?game=duelo&owner=author").json()["results"]
    assert [b["name"] for b in listed] == ["apibot"]
    version = api.post(
        f"/api/bots/{body['id']}/versions/",
        {"file": SimpleUploadedFile("v2.py", FIRST_LEGAL + b"\n")},
        format="multipart",
    )
    assert version.status_code == 201 and version.json()["number"] == 2


def test_api_upload_errors(api, owner):
    api.force_authenticate(owner)
    response = api.post(
        "/api/bots/",
        upload(data=zip_bytes({"main.py": "x", "../up": "1"}), filename="b.zip"),
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "upload_refused"
    assert "'..'" in response.json()["detail"]
    response = api.post("/api/bots/", upload(game="chess"), format="multipart")
    assert response.status_code == 400 and "chess" in response.json()["detail"]
    assert not Bot.objects.exists()


def test_api_wrong_game_version_refused(api, owner):
    version = stored_version(owner, FIRST_LEGAL, name="g")
    api.force_authenticate(owner)
    response = api.post(
        f"/api/bots/{version.bot_id}/versions/",
        {"file": SimpleUploadedFile("v.py", FIRST_LEGAL), "game": "kungfu2013"},
        format="multipart",
    )
    assert response.status_code == 400
    assert BotVersion.objects.count() == 1


def test_api_logs_owner_only_and_staff_disable(api, bot_with_log, owner):
    url = f"/api/bots/{bot_with_log.pk}/logs/"
    assert api.get(url).status_code in (401, 403)
    api.force_authenticate(UserFactory())
    assert api.get(url).status_code == 403
    detail = api.get(f"/api/bots/{bot_with_log.pk}/").json()
    assert "status_detail" not in detail["versions"][0]
    disable = f"/api/bots/{bot_with_log.pk}/disable/"
    assert api.post(disable, {"disabled": True}).status_code == 403
    api.force_authenticate(owner)
    logs = api.get(url).json()
    assert logs["matches"][0]["stderr"] == "SECRET-TRACE"
    api.force_authenticate(UserFactory(is_staff=True))
    response = api.post(disable, {"disabled": True, "reason": "abuse"})
    assert response.status_code == 200 and response.json()["disabled"] is True


def test_api_builtin_bots(api):
    results = api.get("/api/bots/builtin/").json()["results"]
    assert {"name": "random", "agent": "builtin:random", "strength": "Beginner"} in (
        results
    )
