"""E-mails and notifications speak the recipient's language (issue 32 §1).

A worker has no request: what it sends is written in the recipient's
``User.language`` (English when they chose none). A notification another
person's action causes is stored in its recipient's language, not in the
language of the request that caused it.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import translation

from accounts.models import YourMoveEmail
from gameplay import broadcast, lobby, services
from league.tournaments import services as ts
from notifications import live, reminders, sockets
from notifications.models import Notification, NotificationKind
from notifications.services import notification_send_email
from tests.factories import UserFactory
from tests.gameplay.conftest import first_legal, start_match

pytestmark = pytest.mark.django_db

# Chinese punctuation is full width (ruff's RUF001 would read it as a typo).
LP, RP, COLON = (
    "\N{FULLWIDTH LEFT PARENTHESIS}",
    "\N{FULLWIDTH RIGHT PARENTHESIS}",
    "\N{FULLWIDTH COLON}",
)


@pytest.fixture
def quiet(monkeypatch):
    """No channel layer; nobody has a socket open (they are away)."""
    monkeypatch.setattr(live, "push", lambda messages: None)

    async def drop(layer, messages):
        return None

    monkeypatch.setattr(broadcast, "_send_all", drop)
    monkeypatch.setattr(sockets, "is_listening", lambda user_id: False)


def _play_until_turn_of(match, users, seat, capture) -> None:
    """Each mover acts at the table and leaves, until ``seat`` is to act."""
    for _ in range(20):
        mover, action = first_legal(match)
        user = users[mover]
        services.seat_connected(match_id=match.pk, user=user, announce=False)
        with capture(execute=True):
            services.match_act(match_id=match.pk, user=user, action_id=action)
        services.seat_disconnected(match_id=match.pk, user=user, announce=False)
        match.refresh_from_db()
        if mover != seat and first_legal(match)[0] == seat:
            return
    raise AssertionError("the seat never came to move")


def test_a_german_player_gets_a_german_your_move_email_from_the_worker(
    players, quiet, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    ana, bruno = players[:2]
    ana.language = "de"
    ana.email = "ana@example.com"
    ana.save()
    bruno.your_move_email = YourMoveEmail.OFF
    bruno.your_move_push = False
    bruno.save()
    with capture(execute=True):
        match = start_match([ana, bruno], time_control={"days": 1})
    users = [ana, bruno]
    seat = 0
    # The opponent plays in Portuguese: their requests' language must not
    # reach Ana's e-mail or her stored notification.
    with translation.override("pt-br"):
        _play_until_turn_of(match, users, seat, capture)
    # The e-mail went from the task (eager in tests), as a worker sends it.
    [email] = [m for m in mail.outbox if m.to == [ana.email]]
    assert email.subject == (
        f"Kung Fu Arena: du bist am Zug in Duelo: Kung Fu gegen {bruno.public_name}"
    )
    assert email.body.startswith(f"Hallo {ana.public_name},")
    assert "Zeit für diesen Zug:" in email.body
    assert "Diese E-Mails abbestellen" in email.body
    assert "your move" not in email.body.lower()
    note = Notification.objects.get(user=ana, kind=NotificationKind.YOUR_MOVE)
    assert note.title == "Du bist am Zug in Duelo: Kung Fu"
    assert note.body == f"Gegen {bruno.public_name}."


def test_the_digest_is_written_in_the_players_language(
    players, quiet, settings, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    capture = django_capture_on_commit_callbacks
    settings.YOUR_MOVE_DIGEST_HOUR = 8
    me, other = players[:2]
    me.language = "pl"
    me.email = "me@example.com"
    me.your_move_email = YourMoveEmail.DIGEST
    me.save()
    other.your_move_email = YourMoveEmail.OFF
    other.your_move_push = False
    other.save()
    with capture(execute=True):
        match = start_match([other, me], time_control={"days": 1})
    _play_until_turn_of(match, [other, me], 1, capture)
    now = timezone.now() + timedelta(days=1, hours=1)
    with translation.override("de"):  # whatever the worker's own language
        assert reminders.turn_reminders_sweep(now=now)["digests"] == 1
    [digest] = [m for m in mail.outbox if m.to == [me.email]]
    assert digest.subject == "Kung Fu Arena: twój ruch w 1 partii"
    assert "1 partia korespondencyjna czeka na twój ruch:" in digest.body
    assert f"Duelo: Kung Fu przeciwko: {other.public_name}" in digest.body


def test_round_notifications_and_emails_follow_each_recipients_language(
    players, quiet, django_capture_on_commit_callbacks
):
    organiser = UserFactory()
    a, b = players[:2]
    a.language, a.email, a.time_zone = "zh-hant", "a@example.com", "Asia/Taipei"
    b.language, b.email = "", "b@example.com"  # none chosen: English
    a.save()
    b.save()
    t = ts.tournament_create(
        by=organiser, name="Spring Open", game="duelo", format="round_robin"
    )
    for user in (a, b):
        ts.tournament_enter(tournament=t, user=user)
    with translation.override("de"), django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    notes = {n.user_id: n for n in Notification.objects.filter(kind="round_paired")}
    assert notes[a.pk].title == "Spring Open 第 1 輪已完成配對"
    assert notes[a.pk].body.startswith(f"你的對手是 {b.public_name}{LP}第 1 桌{RP}。")
    assert "CST" in notes[a.pk].body  # Taipei's time, not the server's
    assert notes[b.pk].title == "Round 1 of Spring Open is paired"
    mails = {m.to[0]: m for m in mail.outbox}
    assert (
        mails[a.email].subject == f"Kung Fu Arena{COLON}Spring Open 第 1 輪已完成配對"
    )
    assert mails[a.email].body.startswith(f"{a.public_name} 你好{COLON}")
    assert "停止接收" in mails[a.email].body
    assert mails[b.email].body.startswith(f"Hello {b.public_name},")
    # The task again (a redelivery) sends nothing, in any language.
    assert notification_send_email(notification_id=notes[a.pk].pk) is False


def test_a_challenge_is_announced_in_the_challenged_players_language(
    players, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(live, "push", lambda messages: None)
    a, b = players[:2]
    b.language = "pt-br"
    b.save()
    with translation.override("de"), django_capture_on_commit_callbacks(execute=True):
        lobby.challenge_create(challenger=a, challenged=b, game="duelo", rated=True)
    note = Notification.objects.get(user=b, kind=NotificationKind.CHALLENGE)
    assert note.title == f"{a.public_name} desafia você para Duelo: Kung Fu"
    assert note.body.startswith("Uma partida ranqueada")
