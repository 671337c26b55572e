"""Notification services and the receivers of gameplay's and league's announcements.

Frames pushed to players' sockets are captured at ``notifications.live.push``
(the socket itself is tested in test_player_socket.py over the real layer).
"""

from __future__ import annotations

import json

import pytest
from django.core import mail

from gameplay import broadcast, lobby, services
from league.models import Pairing, PairingStatus
from league.tournaments import services as ts
from notifications import live, receivers, sockets
from notifications import services as ns
from notifications.models import Notification, NotificationKind
from tests.factories import UserFactory
from tests.gameplay.conftest import first_legal, start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def pushed(monkeypatch):
    """Every frame pushed to a player's socket, as (user id, frame)."""
    frames: list[tuple[int, dict]] = []

    def capture(messages):
        for group, message in messages:
            frames.append((int(group.split(".")[1]), json.loads(message["text"])))

    async def capture_broadcast(layer, messages):
        capture([(g, m) for g, m in messages if g.startswith("player.")])

    monkeypatch.setattr(live, "push", capture)
    # Turn frames ride along with the match's own broadcast (a listener).
    monkeypatch.setattr(broadcast, "_send_all", capture_broadcast)
    # Every player has a player socket open (``sockets``; see the test of
    # players without one below).
    monkeypatch.setattr(sockets, "is_listening", lambda user_id: True)
    return frames


def of_type(frames, kind):
    return [(user, frame) for user, frame in frames if frame["type"] == kind]


def test_match_start_takes_both_players_there_and_notes_it(
    players, pushed, django_capture_on_commit_callbacks
):
    a, b = players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        challenge = lobby.challenge_create(challenger=a, challenged=b, game="duelo")
    with django_capture_on_commit_callbacks(execute=True):
        match = lobby.challenge_accept(challenge_id=challenge.pk, user=b)
    started = of_type(pushed, "match_started")
    assert sorted(user for user, _ in started) == sorted([a.pk, b.pk])
    for _user, frame in started:
        assert frame["url"] == f"/matches/{match.public_id}/"
        assert frame["match"] == str(match.public_id)
    for user in (a, b):
        note = Notification.objects.get(user=user, kind=NotificationKind.GAME_STARTED)
        assert note.url == f"/matches/{match.public_id}/"
    # The challenge itself was a notification for b only.
    challenge_note = Notification.objects.get(kind=NotificationKind.CHALLENGE)
    assert challenge_note.user == b
    assert a.public_name in challenge_note.title
    assert challenge_note.url == "/games/duelo/#challenges"


def test_announcement_comes_only_after_commit(players, pushed):
    a, b = players[:2]
    start_match([a, b])  # the test transaction never commits
    assert of_type(pushed, "match_started") == []
    assert not Notification.objects.exists()


def test_every_start_path_announces(
    players, pushed, django_capture_on_commit_callbacks
):
    """A table filling, a host starting early and quick play all use one path."""
    a, b, c, d, e = players[:5]
    with django_capture_on_commit_callbacks(execute=True):
        table = lobby.table_create(host=a, game="duelo", players=2)
        lobby.table_join(match_id=table.pk, user=b)
    with django_capture_on_commit_callbacks(execute=True):
        early = lobby.table_create(host=c, game="duelo", players=3)
        lobby.table_fill_with_bot(match_id=early.pk, user=c, bot="random")
        lobby.table_start(match_id=early.pk, user=c)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.queue_join(user=d, game="duelo")
        paired = lobby.queue_join(user=e, game="duelo")
    started = {(u, f["match"]) for u, f in of_type(pushed, "match_started")}
    assert started == {
        (a.pk, str(table.public_id)),
        (b.pk, str(table.public_id)),
        (c.pk, str(early.public_id)),
        (d.pk, str(paired.public_id)),
        (e.pk, str(paired.public_id)),
    }


def test_receivers_are_idempotent(players, pushed, django_capture_on_commit_callbacks):
    a, b = players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match([a, b])
    receivers.on_match_started(sender=None, match_id=match.pk)
    assert Notification.objects.filter(kind=NotificationKind.GAME_STARTED).count() == 2


def test_turn_frames_follow_the_move_and_absent_players_get_your_move(
    players, pushed, django_capture_on_commit_callbacks
):
    a, b = players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match([a, b])
    users = [a, b]
    seat, action = first_legal(match)
    mover, waiter = users[seat], users[1 - seat]
    pushed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.match_act(match_id=match.pk, user=mover, action_id=action)
    turns = {user: frame for user, frame in of_type(pushed, "turn")}
    match.refresh_from_db()
    next_seat, _ = first_legal(match)
    for index, user in enumerate(users):
        assert turns[user.pk]["version"] == 1
        assert turns[user.pk]["your_move"] is (index == next_seat)
    # Nobody is connected to the table: whoever is to move now is told once.
    to_move = users[next_seat]
    notes = Notification.objects.filter(kind=NotificationKind.YOUR_MOVE)
    assert [n.user for n in notes] == [to_move]
    assert of_type(pushed, "notification")[0][0] == to_move.pk
    # Still unread: a rebroadcast (a presence change) creates no second one.
    broadcast.match_changed(match_id=match.pk)
    assert notes.count() == 1
    assert waiter  # the other player got no "your move"


def test_turn_frames_only_for_players_with_a_player_socket_open(
    players, pushed, monkeypatch, django_capture_on_commit_callbacks
):
    a, b = players[:2]
    monkeypatch.undo()  # the real ``sockets.is_listening``, but still captured
    monkeypatch.setattr(live, "push", lambda messages: None)
    captured: list[str] = []

    async def capture_broadcast(layer, messages):
        captured.extend(g for g, _ in messages)

    monkeypatch.setattr(broadcast, "_send_all", capture_broadcast)
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match([a, b])
    monkeypatch.setattr(sockets, "_local", {a.pk: 1})  # a's page is open here
    sockets.forget_snapshot()
    seat, action = first_legal(match)
    captured.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.match_act(match_id=match.pk, user=[a, b][seat], action_id=action)
    players_told = [g for g in captured if g.startswith("player.")]
    # b listens nowhere: no turn frame for b (a "your move" notification still
    # reaches b's group if it is b's move: b is away from the table).
    assert f"player.{a.pk}" in players_told
    note = Notification.objects.filter(kind=NotificationKind.YOUR_MOVE).first()
    if note is None or note.user_id != b.pk:
        assert f"player.{b.pk}" not in players_told
    else:
        assert players_told.count(f"player.{b.pk}") == 1  # the notification only
    # Nobody listening anywhere: no player frames at all, the notification
    # is still written.
    monkeypatch.setattr(sockets, "_local", {})
    sockets.forget_snapshot()
    match.refresh_from_db()
    seat, action = first_legal(match)
    captured.clear()
    notes_before = Notification.objects.filter(kind=NotificationKind.YOUR_MOVE).count()
    with django_capture_on_commit_callbacks(execute=True):
        services.match_act(match_id=match.pk, user=[a, b][seat], action_id=action)
    turn_groups = [g for g in captured if g.startswith("player.")]
    notes_after = Notification.objects.filter(kind=NotificationKind.YOUR_MOVE).count()
    assert len(turn_groups) == notes_after - notes_before


def test_no_your_move_for_a_player_at_the_table(
    players, pushed, django_capture_on_commit_callbacks
):
    a, b = players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match([a, b])
    for user in (a, b):
        services.seat_connected(match_id=match.pk, user=user)
    seat, action = first_legal(match)
    with django_capture_on_commit_callbacks(execute=True):
        services.match_act(match_id=match.pk, user=[a, b][seat], action_id=action)
    assert not Notification.objects.filter(kind=NotificationKind.YOUR_MOVE).exists()


def test_finished_match_says_nobody_is_to_move(
    players, pushed, django_capture_on_commit_callbacks
):
    a, b = players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match([a, b])
    pushed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.match_resign(match_id=match.pk, user=a)
    turns = of_type(pushed, "turn")
    assert {u for u, _ in turns} == {a.pk, b.pk}
    assert all(f["status"] == "finished" and not f["your_move"] for _, f in turns)


def _tournament(organiser, entrants, **kwargs):
    t = ts.tournament_create(
        by=organiser, name="Spring Open", game="duelo", format="round_robin", **kwargs
    )
    for user in entrants:
        ts.tournament_enter(tournament=t, user=user)
    return t


def test_round_paired_notifies_and_emails_once_per_player(
    players, pushed, django_capture_on_commit_callbacks
):
    organiser = UserFactory()
    a, b, c = players[:3]
    for user in (a, b, c):
        user.email = f"{user.username}@example.com"
        user.save()
    c.email_tournament_rounds = False
    c.save()
    t = _tournament(organiser, [a, b, c])
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    notes = Notification.objects.filter(kind=NotificationKind.ROUND_PAIRED)
    assert sorted(n.user.username for n in notes) == ["p0", "p1", "p2"]
    bodies = {n.user_id: n.body for n in notes}
    bye = [u for u in (a, b, c) if "bye" in bodies[u.pk]]
    assert len(bye) == 1  # three players: one sits out each round
    playing = [u for u in (a, b, c) if u not in bye]
    assert playing[1].public_name in bodies[playing[0].pk]
    assert all(n.url == f"/tournaments/{t.slug}/" for n in notes)
    assert all(n.title == "Round 1 of Spring Open is paired" for n in notes)
    # E-mail: only to those who did not opt out, through the mail backend.
    sent_to = sorted(m.to[0] for m in mail.outbox)
    assert sent_to == sorted(f"{u.username}@example.com" for u in (a, b))
    assert f"/tournaments/{t.slug}/" in mail.outbox[0].body
    assert "/notifications/unsubscribe/" in mail.outbox[0].body  # one click
    # The task is idempotent: running it again sends nothing.
    note = notes.get(user=a)
    assert ns.notification_send_email(notification_id=note.pk) is False
    assert len(mail.outbox) == 2
    # The announcement repeated (a redelivery) adds nothing either.
    receivers.on_round_paired(sender=None, round_id=t.rounds.get().pk)
    assert notes.count() == 3 and len(mail.outbox) == 2
    # And the round's games started for the two who play.
    started = {u for u, _ in of_type(pushed, "match_started")}
    assert started == {u.pk for u in playing}


def test_email_failure_releases_the_claim_for_a_retry(players, monkeypatch):
    user = players[0]
    user.email = "p0@example.com"
    user.save()
    [note] = ns.notifications_create(
        drafts=[
            ns.Draft(
                user_id=user.pk,
                kind=NotificationKind.ROUND_PAIRED,
                key="round_paired:x",
                title="Round 1 of X is paired",
            )
        ]
    )

    def broken(**kwargs):
        raise OSError("mail server down")

    monkeypatch.setattr("notifications.services.send_mail", broken)
    with pytest.raises(OSError):
        ns.notification_send_email(notification_id=note.pk)
    note.refresh_from_db()
    assert note.emailed_at is None
    monkeypatch.undo()
    assert ns.notification_send_email(notification_id=note.pk) is True
    assert len(mail.outbox) == 1


def test_opting_out_after_queueing_sends_nothing(players):
    user = players[0]
    user.email = "p0@example.com"
    user.email_tournament_rounds = False
    user.save()
    [note] = ns.notifications_create(
        drafts=[
            ns.Draft(
                user_id=user.pk,
                kind=NotificationKind.ROUND_PAIRED,
                key="round_paired:y",
                title="Round 1 of Y is paired",
            )
        ]
    )
    assert ns.notification_send_email(notification_id=note.pk) is False
    assert mail.outbox == []


def test_unknown_kind_is_refused(players):
    with pytest.raises(ValueError):
        ns.notifications_create(
            drafts=[ns.Draft(user_id=players[0].pk, kind="spam", key="x", title="x")]
        )


def test_tournament_pairing_matches_exist(players, django_capture_on_commit_callbacks):
    organiser = UserFactory()
    t = _tournament(organiser, players[:2])
    with django_capture_on_commit_callbacks(execute=True):
        ts.tournament_start(tournament=t, by=organiser)
    assert Pairing.objects.filter(tournament=t, status=PairingStatus.PLAYING).count()


def test_waiting_tables_send_no_turn_frames(
    players, pushed, django_capture_on_commit_callbacks
):
    host, guest = players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        table = lobby.table_create(host=host, game="duelo", players=3)
        lobby.table_join(match_id=table.pk, user=guest)
    assert of_type(pushed, "turn") == []
