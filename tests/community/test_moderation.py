"""Reports with their evidence, and staff actions through the moderation page."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from community import moderation, services
from community.errors import ChatRefused, CommunityError
from community.models import Report, Sanction
from gameplay import lobby
from gameplay.errors import Forbidden
from tests.gameplay.conftest import start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(players):
    staff = players[7]
    staff.groups.add(Group.objects.get(name="moderator"))
    return staff


def test_a_reported_line_keeps_the_lines_around_it(players):
    match = start_match(players[:2])
    for i in range(3):
        services.chat_post(
            user=players[i % 2], match_id=match.pk, channel="table", text=f"l{i}"
        )
    bad = services.chat_post(
        user=players[0], match_id=match.pk, channel="table", text="you idiot"
    )
    report = moderation.report_create(
        reporter=players[1], reason="abuse", note="rude", message_id=bad.pk
    )
    assert report.target == players[0]
    assert [m["text"] for m in report.evidence["lines"]] == [
        "l0",
        "l1",
        "l2",
        "you idiot",
    ]
    assert report.evidence["match"]["game"] == "duelo"
    # Editing the line later changes nothing the moderators read.
    bad.body = "sorry"
    bad.save()
    report.refresh_from_db()
    assert report.evidence["reported"]["text"] == "you idiot"


def test_nobody_reports_a_line_they_cannot_read(players):
    match = start_match(players[:4], game="kungfu2009")
    secret = services.chat_post(
        user=players[0], match_id=match.pk, channel="private", to_seat=1, text="x"
    )
    for outsider in (players[2], players[6]):
        with pytest.raises(CommunityError, match="no such message"):
            moderation.report_create(
                reporter=outsider, reason="abuse", message_id=secret.pk
            )
    with pytest.raises(CommunityError, match="reason"):
        moderation.report_create(
            reporter=players[1], reason="boring", message_id=secret.pk
        )


def test_only_moderators_act_and_each_action_is_logged(players, moderator):
    with pytest.raises(CommunityError):
        moderation.sanction_apply(
            moderator=players[1], user=players[0], kind="warn", reason="x"
        )
    with pytest.raises(CommunityError, match="reason"):
        moderation.sanction_apply(
            moderator=moderator, user=players[0], kind="warn", reason="  "
        )
    with pytest.raises(CommunityError, match="minutes"):
        moderation.sanction_apply(
            moderator=moderator, user=players[0], kind="mute", reason="spam"
        )
    assert not Sanction.objects.exists()
    match = start_match(players[:2])
    moderation.sanction_apply(
        moderator=moderator, user=players[0], kind="mute", reason="spam", minutes=30
    )
    with pytest.raises(ChatRefused, match="muted"):
        services.chat_post(
            user=players[0], match_id=match.pk, channel="table", text="hi"
        )
    moderation.sanction_apply(
        moderator=moderator,
        user=players[0],
        kind="suspend",
        reason="sandbagging",
        minutes=60,
    )
    with pytest.raises(Forbidden, match="suspended"):
        lobby.table_create(host=players[0], game="duelo", players=2, rated=True)
    lobby.table_create(host=players[0], game="duelo", players=2, rated=False)
    with pytest.raises(Forbidden):
        lobby.challenge_create(
            challenger=players[0], challenged=players[1], game="duelo", rated=True
        )
    moderation.sanction_apply(
        moderator=moderator, user=players[2], kind="ban", reason="cheating"
    )
    players[2].refresh_from_db()
    assert not players[2].is_active
    logged = Sanction.objects.filter(user=players[0]).order_by("created_at")
    assert [(s.kind, s.moderator, s.reason) for s in logged] == [
        ("mute", moderator, "spam"),
        ("suspend", moderator, "sandbagging"),
    ]


def test_the_moderation_pages_are_for_staff_only(client, players, moderator):
    match = start_match(players[:2])
    line = services.chat_post(
        user=players[0], match_id=match.pk, channel="table", text="<b>spam</b>"
    )
    client.force_login(players[1])
    made = client.post(
        reverse("community:report"),
        json.dumps({"message": line.pk, "reason": "spam", "note": "<i>again</i>"}),
        content_type="application/json",
    )
    assert made.status_code == 201
    assert client.get(reverse("community:moderation")).status_code == 403
    assert (
        client.post(
            reverse("community:moderation_act"),
            {"username": players[0].username, "kind": "ban", "reason": "x"},
        ).status_code
        == 403
    )
    client.force_login(moderator)
    queue = client.get(reverse("community:moderation")).content.decode()
    assert "&lt;b&gt;spam&lt;/b&gt;" in queue and "<b>spam" not in queue
    assert "&lt;i&gt;again" in queue
    report = Report.objects.get()
    client.post(
        reverse("community:moderation_act"),
        {
            "username": players[0].username,
            "report": report.pk,
            "kind": "mute",
            "minutes": "15",
            "reason": "flooding the table",
        },
    )
    report.refresh_from_db()
    assert report.status == "closed" and report.closed_by == moderator
    history = client.get(
        reverse("community:moderation_user", args=[players[0].username])
    ).content.decode()
    assert "flooding the table" in history
    client.force_login(players[0])
    standing = client.get(reverse("community:standing")).content.decode()
    assert "Muted in chat" in standing and "flooding the table" in standing


def test_a_moderator_removes_one_line_for_everyone_and_it_is_logged(
    client, players, moderator
):
    from community import selectors
    from community.models import ChatMessage

    match = start_match(players[:2])
    kept = services.chat_post(
        user=players[0], match_id=match.pk, channel="table", text="good luck"
    )
    rude = services.chat_post(
        user=players[0], match_id=match.pk, channel="table", text="you idiot"
    )
    report = moderation.report_create(
        reporter=players[1], reason="abuse", message_id=rude.pk
    )
    url = reverse("community:moderation_remove_line", args=[rude.pk])
    # Strangers and players: 403, nothing changes.
    assert client.post(url, {"reason": "insult"}).status_code == 403
    client.force_login(players[1])
    assert client.post(url, {"reason": "insult"}).status_code == 403
    rude.refresh_from_db()
    assert not rude.removed
    client.force_login(moderator)
    # Bad input: a clear 400, nothing changes.
    no_reason = client.post(
        url, json.dumps({"reason": " "}), content_type="application/json"
    )
    assert no_reason.status_code == 400 and "reason" in no_reason.json()["detail"]
    missing = client.post(
        reverse("community:moderation_remove_line", args=[999999]),
        json.dumps({"reason": "x"}),
        content_type="application/json",
    )
    assert missing.status_code == 400
    done = client.post(
        url,
        json.dumps({"reason": "insult", "report": report.pk}),
        content_type="application/json",
    )
    assert done.status_code == 200 and done.json() == {"removed": rude.pk}
    again = client.post(
        url, json.dumps({"reason": "insult"}), content_type="application/json"
    )
    assert again.status_code == 400
    # Gone from every history; kept (marked) as evidence.
    for reader in (players[0], players[1], players[5]):
        texts = [m["text"] for m in selectors.match_chat(match=match, user=reader)]
        assert "you idiot" not in texts and "good luck" in texts
    assert ChatMessage.objects.get(pk=rude.pk).removed
    kept.refresh_from_db()
    assert not kept.removed
    # The log: who, why, which line, the report; shown to the author.
    logged = Sanction.objects.get(kind="remove")
    assert (logged.user, logged.moderator, logged.reason, logged.message) == (
        players[0],
        moderator,
        "insult",
        rude,
    )
    assert logged.report == report
    history = client.get(
        reverse("community:moderation_user", args=[players[0].username])
    ).content.decode()
    assert "Chat line removed" in history and "you idiot" in history
    queue = client.get(reverse("community:moderation")).content.decode()
    assert "The reported line is removed." in queue
    client.force_login(players[0])
    standing = client.get(reverse("community:standing")).content.decode()
    assert "Chat line removed" in standing and "insult" in standing
    assert "in force" not in standing


def test_line_removal_is_not_a_user_action_and_needs_a_moderator(players, moderator):
    match = start_match(players[:2])
    line = services.chat_post(
        user=players[0], match_id=match.pk, channel="table", text="hello"
    )
    with pytest.raises(CommunityError):
        moderation.line_remove(moderator=players[1], message_id=line.pk, reason="x")
    with pytest.raises(CommunityError):
        moderation.sanction_apply(
            moderator=moderator, user=players[0], kind="remove", reason="x"
        )
    system = services.chat_system(match_id=match.pk, text="The game has begun.")
    with pytest.raises(CommunityError, match="system"):
        moderation.line_remove(moderator=moderator, message_id=system.pk, reason="x")
