"""A game's lobby chat: last lines on load, newer ones by poll, same limits."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from community import moderation, services

pytestmark = pytest.mark.django_db


def test_lobby_lines_load_poll_and_respect_mutes(client, players):
    url = reverse("community:lobby_chat", args=["duelo"])
    client.force_login(players[0])
    for text in ("anyone for duelo?", "<script>alert(1)</script>"):
        made = client.post(
            url, json.dumps({"text": text}), content_type="application/json"
        )
        assert made.status_code == 201
    services.lobby_chat_post(user=players[1], game="kungfu2013", text="other game")
    client.logout()
    lines = client.get(url).json()["messages"]
    assert [m["text"] for m in lines] == [
        "anyone for duelo?",
        "<script>alert(1)</script>",
    ]
    newer = client.get(url, {"after": lines[0]["id"]}).json()["messages"]
    assert [m["text"] for m in newer] == ["<script>alert(1)</script>"]
    # Signed out: no writing; bad input: a clear refusal, nothing stored.
    assert client.post(url, {"text": "hi"}).status_code == 403
    client.force_login(players[2])
    services.mute_set(user=players[2], target=players[0], muted=True)
    assert client.get(url).json()["messages"] == []
    bad = client.post(url, json.dumps({"text": ""}), content_type="application/json")
    assert bad.status_code == 400 and bad.json()["code"] == "chat_refused"
    nowhere = reverse("community:lobby_chat", args=["chess"])
    assert (
        client.post(
            nowhere, json.dumps({"text": "hi"}), content_type="application/json"
        ).status_code
        == 400
    )


def test_a_lobby_line_can_be_reported_with_the_lines_around_it(players):
    services.lobby_chat_post(user=players[0], game="duelo", text="hello")
    rude = services.lobby_chat_post(user=players[1], game="duelo", text="noob")
    report = moderation.report_create(
        reporter=players[0], reason="abuse", message_id=rude.pk
    )
    assert report.target == players[1]
    assert [m["text"] for m in report.evidence["lines"]] == ["hello", "noob"]
