"""Pages: the navigation badges on every page, the notifications list, mark read,
the profile opt-out, and the home page's "your games"."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from gameplay import lobby
from notifications import receivers, sockets
from notifications.models import Notification, NotificationKind
from notifications.services import Draft, notifications_create
from tests.factories import UserFactory
from tests.gameplay.conftest import first_legal, start_match

pytestmark = pytest.mark.django_db


def note(user, key="k1", **kwargs):
    defaults = {
        "user_id": user.pk,
        "kind": NotificationKind.CHALLENGE,
        "key": key,
        "title": f"Title {key}",
        "url": "/games/",
    }
    defaults.update(kwargs)
    return notifications_create(drafts=[Draft(**defaults)])[0]


def badge(html: str, element_id: str) -> str | None:
    found = re.search(rf'id="{element_id}"[^>]*>([^<]*)<', html)
    return found.group(1) if found else None


def test_anonymous_pages_have_no_player_socket(client):
    html = client.get("/").content.decode()
    assert "player-socket.js" not in html
    assert 'id="nav-turns"' not in html


def test_every_page_shows_the_your_move_badge_and_unread_count(client, players):
    a, b = players[:2]
    match = start_match([a, b])
    seat, _ = first_legal(match)
    mover = [a, b][seat]
    note(mover)
    client.force_login(mover)
    for url in ["/", reverse("gameplay:games"), reverse("league:list")]:
        html = client.get(url).content.decode()
        assert "player-socket.js" in html and 'data-ws-path="/ws/me/"' in html
        turns = re.search(r'<a id="nav-turns"[^>]*>', html).group(0)
        assert "hidden" not in turns
        assert str(match.public_id) in turns
        assert re.search(r"data-count>1<", html)
        assert badge(html, "nav-unread") == "1"
    client.force_login([a, b][1 - seat])
    html = client.get("/").content.decode()
    turns = re.search(r'<a id="nav-turns"[^>]*>', html).group(0)
    assert "hidden" in turns
    assert re.search(r"data-count>0<", html)


def test_a_real_time_table_is_never_waiting_for_your_move(client, players, monkeypatch):
    """Everyone may act at every moment at a real-time table: no "your move"
    badge for it, on the engine's realtime flag (the control flips the flag)."""
    from gameplay.rules import get_game
    from gameplay.services import SeatSpec, match_create, match_start

    a, b, c = players[:3]
    match = match_create(
        game="kungfu2009", seats=[SeatSpec(user=u) for u in (a, b, c)], config={}
    )
    match_start(match_id=match.pk)
    client.force_login(a)
    html = client.get("/").content.decode()
    turns = re.search(r'<a id="nav-turns"[^>]*>', html).group(0)
    assert "hidden" in turns and str(match.public_id) not in turns
    assert reverse("gameplay:match", args=[match.public_id]) in html
    assert "In play" in html and "Your move</span>" not in html
    lobby_page = client.get(reverse("gameplay:game_detail", args=["kungfu2009"]))
    row = re.search(
        rf'<li data-match="{match.public_id}".*?</li>', lobby_page.content.decode()
    ).group(0)
    assert "In play" in row and "to move" not in row
    # Nobody is told of turns on each intent: a row says "In play" until the end.
    monkeypatch.setattr(sockets, "is_listening", lambda user_id: True)
    match.refresh_from_db()
    assert receivers.turn_messages(match) == []
    monkeypatch.setattr(get_game("kungfu2009"), "realtime", False)
    html = client.get("/").content.decode()
    turns = re.search(r'<a id="nav-turns"[^>]*>', html).group(0)
    assert "hidden" not in turns and str(match.public_id) in turns
    assert receivers.turn_messages(match)  # the control: frames with turns


def test_home_lists_your_games_with_whose_move(client, players):
    a, b, c = players[:3]
    match = start_match([a, b])
    table = lobby.table_create(host=a, game="duelo", players=3)
    seat, _ = first_legal(match)
    client.force_login(a)
    html = client.get("/").content.decode()
    assert 'id="your-games"' in html
    assert reverse("gameplay:match", args=[match.public_id]) in html
    assert reverse("gameplay:match", args=[table.public_id]) in html
    assert ("Your move" if seat == 0 else f"{b.public_name} to move") in html
    assert "Waiting for players" in html
    client.force_login(c)
    html = client.get("/").content.decode()
    assert "No games in progress" in html


def test_list_and_mark_read(client):
    user, other = UserFactory(), UserFactory()
    first, second = note(user, "a"), note(user, "b")
    foreign = note(other, "c")
    client.force_login(user)
    html = client.get(reverse("notifications:list")).content.decode()
    assert "Title a" in html and "Title b" in html and "Title c" not in html
    response = client.post(
        reverse("notifications:mark_read"),
        {"id": [first.pk, foreign.pk]},
        HTTP_ACCEPT="application/json",
    )
    assert response.json() == {"marked": 1, "unread": 1}
    foreign.refresh_from_db()
    assert foreign.read_at is None  # someone else's id matches nothing
    response = client.post(
        reverse("notifications:mark_read"), {"all": "1", "next": "/games/"}
    )
    assert response.status_code == 302 and response["Location"] == "/games/"
    second.refresh_from_db()
    assert second.is_read
    bad = client.post(reverse("notifications:mark_read"), {"id": "x"})
    assert bad.status_code == 400
    evil = client.post(
        reverse("notifications:mark_read"), {"all": "1", "next": "https://evil.test/"}
    )
    assert evil["Location"] == reverse("notifications:list")


def test_opening_a_notification_marks_it_read_and_follows_it(client):
    user, other = UserFactory(), UserFactory()
    item = note(user, url="/games/")
    client.force_login(other)
    assert client.get(reverse("notifications:open", args=[item.pk])).status_code == 404
    client.force_login(user)
    response = client.get(reverse("notifications:open", args=[item.pk]))
    assert response.status_code == 302 and response["Location"] == "/games/"
    item.refresh_from_db()
    assert item.is_read


def test_notification_pages_need_sign_in(client):
    assert client.get(reverse("notifications:list")).status_code == 302
    response = client.post(reverse("notifications:mark_read"), {"all": 1})
    assert response.status_code == 302


def test_profile_edit_has_the_tournament_email_opt_out(client):
    user = UserFactory(email="mei@example.com")
    assert user.email_tournament_rounds
    client.force_login(user)
    html = client.get(reverse("accounts:profile_edit")).content.decode()
    assert "email_tournament_rounds" in html
    client.post(
        reverse("accounts:profile_edit"),
        {"display_name": "Mei", "email": "mei@example.com"},
    )
    user.refresh_from_db()
    assert user.display_name == "Mei"
    assert not user.email_tournament_rounds


def test_unread_badge_counts_only_unread(client):
    user = UserFactory()
    note(user, "a")
    read = note(user, "b")
    Notification.objects.filter(pk=read.pk).update(read_at="2026-01-01T00:00Z")
    client.force_login(user)
    assert badge(client.get("/").content.decode(), "nav-unread") == "1"


def test_waiting_table_and_quick_play_pages_follow_sockets_not_reloads(client, players):
    host, guest = players[:2]
    table = lobby.table_create(host=host, game="duelo", players=3)
    client.force_login(host)
    url = reverse("gameplay:match", args=[table.public_id])
    html = client.get(url).content.decode()
    assert "location.reload" not in html
    assert f'data-ws-path="/ws/table/{table.public_id}/"' in html
    assert 'id="table-seats"' in html
    lobby.queue_join(user=guest, game="duelo")
    client.force_login(guest)
    html = client.get(reverse("gameplay:game_detail", args=["duelo"])).content.decode()
    assert "Leave the queue" in html
    assert "location.reload" not in html
    assert "player-socket.js" in html
