"""'Your move' away from the site (issue 30 §3): e-mail and browser push for
correspondence games, once per move, the digest, one-click unsubscribe.

Push is mocked at pywebpush's boundary (``notifications.webpush.webpush``);
e-mail goes to Django's locmem outbox; time moves by passing ``now=``.
"""

from __future__ import annotations

import base64
import json
import os
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from pywebpush import WebPushException

from accounts.models import YourMoveEmail
from gameplay import broadcast, services
from gameplay.models import Match
from notifications import live, reminders, sockets, unsubscribe, webpush
from notifications.models import (
    Notification,
    NotificationKind,
    PushSubscription,
    TurnReminder,
)
from tests.gameplay.conftest import first_legal, start_match

pytestmark = pytest.mark.django_db

# A correspondence game's time control: a day per move.
CORRESPONDENCE = {"days": 1}


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def subscribe(user, name="phone"):
    return webpush.push_subscription_save(
        user=user,
        endpoint=f"https://push.example.com/send/{user.pk}-{name}",
        keys={"p256dh": b64(b"\x04" + os.urandom(64)), "auth": b64(os.urandom(16))},
        device=name,
    )


@pytest.fixture
def quiet(monkeypatch):
    """No channel layer: frames to pages are dropped (test_services checks them)."""
    monkeypatch.setattr(live, "push", lambda messages: None)

    async def drop(layer, messages):
        return None

    monkeypatch.setattr(broadcast, "_send_all", drop)
    monkeypatch.setattr(sockets, "is_listening", lambda user_id: False)


@pytest.fixture
def pushes(monkeypatch):
    """Every call of pywebpush's ``webpush``: (endpoint, payload)."""
    calls: list[tuple[str, dict]] = []

    def fake_webpush(*, subscription_info, data, vapid_private_key, **kwargs):
        assert vapid_private_key  # signed with the server's key
        assert kwargs["vapid_claims"]["sub"].startswith("mailto:")
        calls.append((subscription_info["endpoint"], json.loads(data)))

    monkeypatch.setattr(webpush, "webpush", fake_webpush)
    return calls


def move(match: Match, users, capture) -> int:
    """The seat to act plays its first legal action at the table (connected
    while it plays, as a person is) and leaves; returns the seat."""
    seat, action = first_legal(match)
    user = users[seat]
    services.seat_connected(match_id=match.pk, user=user, announce=False)
    with capture(execute=True):
        services.match_act(match_id=match.pk, user=user, action_id=action)
    services.seat_disconnected(match_id=match.pk, user=user, announce=False)
    match.refresh_from_db()
    return seat


def to_move(match: Match) -> int:
    return first_legal(match)[0]


def play_until_turn_of(match, users, seat, capture):
    """Moves until ``seat`` is to act after someone else moved."""
    for _ in range(20):
        mover = move(match, users, capture)
        if mover != seat and to_move(match) == seat:
            return
    raise AssertionError("the seat never came to move")


def your_move_mails(user=None):
    return [
        m
        for m in mail.outbox
        if "your move" in m.subject and (user is None or m.to == [user.email])
    ]


def quiet_player(user):
    """A player who wants neither e-mail nor push (the other side's news)."""
    user.your_move_email = YourMoveEmail.OFF
    user.your_move_push = False
    user.save()


def test_email_and_push_once_per_move_and_not_after_unsubscribing(
    players, quiet, pushes, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    users = players[:2]
    with capture(execute=True):
        match = start_match(users, time_control=CORRESPONDENCE)
    first = to_move(match)
    waiter = 1 - first
    subscribe(users[waiter])
    quiet_player(users[first])
    play_until_turn_of(match, users, waiter, capture)
    # The waiter is away: one push to their browser, one e-mail.
    assert [endpoint for endpoint, _ in pushes] == [
        f"https://push.example.com/send/{users[waiter].pk}-phone"
    ]
    payload = pushes[0][1]
    assert payload["title"] == "Your move in Duelo: Kung Fu"
    assert payload["url"].endswith(f"/matches/{match.public_id}/")
    assert "left" in payload["body"]
    [email] = your_move_mails()
    assert email.to == [users[waiter].email]
    assert f"/matches/{match.public_id}/" in email.body
    assert "left" in email.body
    # Broadcasts repeated while they stay away (presence, a rebroadcast) and a
    # second delivery of the task add nothing.
    broadcast.match_changed(match_id=match.pk)
    [reminder] = TurnReminder.objects.filter(user=users[waiter])
    reminders.turn_reminder_deliver(reminder_id=reminder.pk)
    reminders.turn_reminders_sweep(now=timezone.now() + timedelta(days=1))
    assert len(pushes) == 1 and len(your_move_mails()) == 1
    # The waiter moves; when the move is theirs again, the push comes at
    # once, but the game's e-mail waits for the period (one per game).
    play_until_turn_of(match, users, waiter, capture)
    assert len(pushes) == 2 and len(your_move_mails()) == 1
    pending = TurnReminder.objects.filter(user=users[waiter], emailed_at=None).get()
    assert pending.email_due_at >= timezone.now() + timedelta(hours=5)
    reminders.turn_reminders_sweep(now=timezone.now() + timedelta(hours=1))
    assert len(your_move_mails()) == 1
    reminders.turn_reminders_sweep(now=pending.email_due_at)
    assert len(your_move_mails()) == 2
    # One click on the link in the e-mail, not signed in: no more e-mails.
    link = re.search(r"(/notifications/unsubscribe/\S+/)", email.body).group(1)
    page = __import__("django.test").test.Client().get(link)
    assert page.status_code == 200
    assert "no more" in page.content.decode()
    users[waiter].refresh_from_db()
    assert users[waiter].your_move_email == YourMoveEmail.OFF
    assert email.extra_headers["List-Unsubscribe"] == f"<http://testserver{link}>" or (
        link in email.extra_headers["List-Unsubscribe"]
    )
    play_until_turn_of(match, users, waiter, capture)
    reminders.turn_reminders_sweep(now=timezone.now() + timedelta(days=2))
    assert len(your_move_mails()) == 2
    assert len(pushes) == 3  # push is its own setting, still on
    # Push turned off on the profile: nothing is pushed either.
    users[waiter].your_move_push = False
    users[waiter].save()
    play_until_turn_of(match, users, waiter, capture)
    reminders.turn_reminders_sweep(now=timezone.now() + timedelta(days=3))
    assert len(pushes) == 3 and len(your_move_mails()) == 2


def test_nothing_for_a_player_at_the_table_or_a_game_without_deadline(
    players, quiet, pushes, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    users = players[:2]
    for user in users:
        subscribe(user)
    with capture(execute=True):
        untimed = start_match(users)
    move(untimed, users, capture)
    with capture(execute=True):
        timed = start_match(users, time_control=CORRESPONDENCE)
    for user in users:
        services.seat_connected(match_id=timed.pk, user=user)
    move(timed, users, capture)
    assert pushes == [] and your_move_mails() == []
    assert not TurnReminder.objects.exists()


def test_a_move_made_before_the_email_is_due_sends_none(
    players, quiet, pushes, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    users = players[:2]
    with capture(execute=True):
        match = start_match(users, time_control=CORRESPONDENCE)
    waiter = 1 - to_move(match)
    users[waiter].your_move_email = YourMoveEmail.DIGEST
    users[waiter].save()
    quiet_player(users[1 - waiter])
    play_until_turn_of(match, users, waiter, capture)
    [reminder] = TurnReminder.objects.filter(user=users[waiter])
    assert your_move_mails() == []
    # The waiter plays before the digest hour.
    play_until_turn_of(match, users, 1 - waiter, capture)
    reminders.turn_reminders_sweep(now=reminder.email_due_at)
    assert your_move_mails() == []
    reminder.refresh_from_db()
    assert reminder.emailed_at is not None and not reminder.email_sent


def test_digest_lists_every_waiting_game_by_urgency_once(
    players, quiet, pushes, django_capture_on_commit_callbacks, settings
):
    capture = django_capture_on_commit_callbacks
    settings.YOUR_MOVE_DIGEST_HOUR = 8
    me, *others = players[:3]
    me.your_move_email = YourMoveEmail.DIGEST
    me.time_zone = "Asia/Tokyo"
    me.save()
    matches = []
    for other in others:
        quiet_player(other)
        with capture(execute=True):
            match = start_match([other, me], time_control=CORRESPONDENCE)
        users = [other, me]
        play_until_turn_of(match, users, 1, capture)
        matches.append(match)
    # The second game's clock started earlier: less time left, listed first.
    Match.objects.filter(pk=matches[1].pk).update(
        turn_started_at=timezone.now() - timedelta(minutes=40)
    )
    due = TurnReminder.objects.filter(user=me).values_list("email_due_at", flat=True)
    assert len(set(due)) == 1
    [due_at] = set(due)
    assert due_at.astimezone(timezone.get_fixed_timezone(9 * 60)).hour == 8
    assert your_move_mails() == []  # nothing before the digest hour
    reminders.turn_reminders_sweep(now=due_at - timedelta(minutes=1))
    assert your_move_mails() == []
    stats = reminders.turn_reminders_sweep(now=due_at)
    assert stats["digests"] == 1
    [digest] = your_move_mails()
    assert digest.subject == "Kung Fu Arena: your move in 2 games"
    body = digest.body
    first = body.index(f"/matches/{matches[1].public_id}/")
    second = body.index(f"/matches/{matches[0].public_id}/")
    assert first < second
    assert "unsubscribe" in body
    reminders.turn_reminders_sweep(now=due_at + timedelta(hours=1))
    assert len(your_move_mails()) == 1
    # A month on, the reminders done are forgotten.
    assert TurnReminder.objects.filter(user=me).count() == 2
    stats = reminders.turn_reminders_sweep(now=due_at + timedelta(days=31))
    assert stats["forgotten"] == 2 and not TurnReminder.objects.exists()


def test_expired_push_subscriptions_are_removed(
    players, quiet, monkeypatch, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    users = players[:2]
    gone, alive = subscribe(users[0], "old"), subscribe(users[0], "new")
    quiet_player(users[1])

    class Answer:
        def __init__(self, status):
            self.status_code = status
            self.text = ""

    tried = []

    def fake_webpush(*, subscription_info, **kwargs):
        tried.append(subscription_info["endpoint"])
        if subscription_info["endpoint"] == gone.endpoint:
            raise WebPushException("Push failed: 410 Gone", response=Answer(410))
        if subscription_info["endpoint"].endswith("-new"):
            raise WebPushException("Push failed: 503", response=Answer(503))

    monkeypatch.setattr(webpush, "webpush", fake_webpush)
    with capture(execute=True):
        match = start_match(users, time_control=CORRESPONDENCE)
    play_until_turn_of(match, users, 0, capture)
    assert sorted(tried) == sorted([gone.endpoint, alive.endpoint])
    # 410: the browser dropped it, the row goes; 503: kept for the next move.
    assert list(PushSubscription.objects.filter(user=users[0])) == [alive]


def test_site_notices_are_a_setting_too(
    players, quiet, pushes, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    users = players[:2]
    with capture(execute=True):
        match = start_match(users, time_control=CORRESPONDENCE)
    waiter = 1 - to_move(match)
    users[waiter].your_move_site = False
    users[waiter].save()
    play_until_turn_of(match, users, waiter, capture)
    notes = Notification.objects.filter(kind=NotificationKind.YOUR_MOVE)
    assert not notes.filter(user=users[waiter]).exists()
    assert len(your_move_mails(users[waiter])) == 1  # e-mail is another channel


def test_unsubscribe_link_needs_no_sign_in_and_refuses_forgeries(players, client):
    user = players[0]
    token = unsubscribe.unsubscribe_token(user=user, topic=unsubscribe.YOUR_MOVE)
    url = f"/notifications/unsubscribe/{token}/"
    # A changed link is refused and changes nothing.
    assert client.get(url.replace(token, token[:-2] + "xx")).status_code == 400
    assert client.get("/notifications/unsubscribe/nonsense/").status_code == 400
    user.refresh_from_db()
    assert user.your_move_email == YourMoveEmail.EACH
    # A mail client's RFC 8058 one-click POST (no CSRF token, no session).
    answer = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    user.refresh_from_db()
    assert user.your_move_email == YourMoveEmail.OFF
    # The page's undo.
    client.post(url, {"action": "resubscribe"})
    user.refresh_from_db()
    assert user.your_move_email == YourMoveEmail.EACH
    # The tournament-round list has its own link.
    rounds = unsubscribe.unsubscribe_token(user=user, topic=unsubscribe.ROUNDS)
    client.get(f"/notifications/unsubscribe/{rounds}/")
    user.refresh_from_db()
    assert not user.email_tournament_rounds
    assert user.your_move_email == YourMoveEmail.EACH


def test_a_real_web_push_request_is_signed_and_encrypted(players, monkeypatch):
    """pywebpush itself (not mocked) with the configured VAPID pair: the
    request it would send to the push service, caught at ``requests.post``;
    a 410 answer removes the subscription."""
    import pywebpush
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    browser_key = ec.generate_private_key(ec.SECP256R1())
    point = browser_key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    subscription = webpush.push_subscription_save(
        user=players[0],
        endpoint="https://push.example.com/send/real",
        keys={"p256dh": b64(point), "auth": b64(os.urandom(16))},
    )
    sent = []

    class Answer:
        def __init__(self, status):
            self.status_code = status
            self.reason = ""
            self.text = ""
            self.headers = {}

    def post(url, *, timeout, data, headers):
        sent.append((url, data, headers))
        return Answer(201 if len(sent) == 1 else 410)

    monkeypatch.setattr(pywebpush.requests, "post", post)
    payload = {"title": "Your move", "url": "/matches/x/"}
    outcome = webpush.push_send(
        subscription=subscription, payload=payload, ttl=timedelta(hours=3)
    )
    assert outcome == webpush.SENT
    url, body, headers = sent[0]
    assert url == subscription.endpoint
    assert headers["ttl"] == str(3 * 3600)
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=")
    from django.conf import settings

    assert settings.VAPID_PUBLIC_KEY in headers["authorization"]
    assert b"Your move" not in body  # encrypted for that browser alone
    assert webpush.push_send(
        subscription=subscription, payload=payload, ttl=timedelta(days=60)
    ) == (webpush.GONE)
    assert sent[1][2]["ttl"] == str(28 * 86400)  # the push services' limit
    assert not PushSubscription.objects.exists()


def test_simultaneous_choices_remind_each_seat_of_its_own_decision(
    players, quiet, pushes, django_capture_on_commit_callbacks
):
    """Kung Fu (2019): both seats choose at once, each on its own clock; a
    commit by one reminds the other (away) once for the decision it owes."""
    from gameplay.rules import get_game

    capture = django_capture_on_commit_callbacks
    users = players[:2]
    for user in users:
        subscribe(user)
    with capture(execute=True):
        match = start_match(users, game="kungfu2019", time_control=CORRESPONDENCE)
    engine = get_game("kungfu2019")
    assert engine.actors(match.state) == [0, 1]

    def commit(seat):
        match.refresh_from_db()
        action = engine.legal_action_ids(match.state, seat)[0]
        user = users[seat]
        services.seat_connected(match_id=match.pk, user=user, announce=False)
        with capture(execute=True):
            services.match_act(match_id=match.pk, user=user, action_id=action)
        services.seat_disconnected(match_id=match.pk, user=user, announce=False)
        match.refresh_from_db()

    def pushed_to(user):
        return [p for e, p in pushes if e.endswith(f"/{user.pk}-phone")]

    commit(0)
    # Seat 1 still owes its choice (hidden: the push names no card).
    assert engine.actors(match.state) == [1]
    assert len(pushed_to(users[1])) == 1 and pushed_to(users[0]) == []
    assert TurnReminder.objects.filter(user=users[1]).count() == 1
    commit(1)
    # Both choose again: seat 0, away, is reminded of its new decision once.
    assert engine.actors(match.state) == [0, 1]
    assert len(pushed_to(users[0])) == 1 and len(pushed_to(users[1])) == 1
    # Seat 1 left the table owing its new choice: reminded once too, however
    # often the table is broadcast.
    for _ in range(2):
        with capture(execute=True):
            broadcast.match_changed(match_id=match.pk)
    assert len(pushed_to(users[1])) == 2 and len(pushed_to(users[0])) == 1
