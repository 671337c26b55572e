"""The bell counts what needs attention (issue 26 §4, docs/notifications.md).

A game a person started alone against bots brings no notice; news of a game
stops counting once its player opens the game or the game ends, and a
challenge's once it is answered.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from gameplay import lobby, services
from gameplay.services import SeatSpec
from notifications import live
from notifications.models import Notification, NotificationKind
from notifications.services import Draft, notifications_create, unread_count
from tests.gameplay.conftest import start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def pushed(monkeypatch):
    frames: list[tuple[int, dict]] = []

    def capture(messages):
        for group, message in messages:
            frames.append((int(group.split(".")[1]), json.loads(message["text"])))

    monkeypatch.setattr(live, "push", capture)
    return frames


def test_playing_a_bot_brings_no_notice_but_the_page_still_goes(
    players, pushed, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = lobby.play_bot(user=players[0], game="duelo", bot="random")
    started = [f for u, f in pushed if f["type"] == "match_started"]
    assert [f["match"] for f in started] == [str(match.public_id)]
    assert not Notification.objects.filter(user=players[0]).exists()
    assert unread_count(user_id=players[0].pk) == 0


def test_a_competition_game_against_a_bot_is_told(
    players, django_capture_on_commit_callbacks
):
    # The person moves first: a bot that moved first could end a Duelo round
    # (and so the game, whose end settles its news) with its one move.
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_create(
            game="duelo",
            seats=[SeatSpec(user=players[0]), SeatSpec(agent="builtin:random")],
            config={"start": 0},
            private_options=True,
            context="league:1",
        )
        services.match_start(match_id=match.pk)
    note = Notification.objects.get(user=players[0], kind=NotificationKind.GAME_STARTED)
    assert note.read_at is None


def _news(user, match, *keys):
    return notifications_create(
        drafts=[
            Draft(user_id=user.pk, kind=kind, key=key, title="t") for kind, key in keys
        ],
        push=False,
    )


def test_opening_the_game_settles_its_news_and_nothing_else(
    players, pushed, client, django_capture_on_commit_callbacks
):
    a, b = players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match([a, b])
    with django_capture_on_commit_callbacks(execute=True):
        other = start_match([a, players[2]])
    _news(a, match, (NotificationKind.YOUR_MOVE, f"your_move:{match.pk}:3"))
    _news(a, other, (NotificationKind.YOUR_MOVE, f"your_move:{other.pk}:1"))
    assert unread_count(user_id=a.pk) == 4  # two games started, two moves
    pushed.clear()
    client.force_login(a)
    with django_capture_on_commit_callbacks(execute=True):
        client.get(reverse("gameplay:match", args=[match.public_id]))
    # The other game's news still waits; the pages learn the new count.
    assert unread_count(user_id=a.pk) == 2
    assert set(
        Notification.objects.filter(user=a, read_at__isnull=True).values_list(
            "key", flat=True
        )
    ) == {f"game_started:{other.pk}", f"your_move:{other.pk}:1"}
    assert (a.pk, {"type": "unread", "count": 2}) in pushed
    # A spectator opening the game settles nothing of theirs.
    client.force_login(players[3])
    _news(players[3], match, (NotificationKind.CHALLENGE, "challenge:999"))
    client.get(reverse("gameplay:match", args=[match.public_id]))
    assert unread_count(user_id=players[3].pk) == 1


def test_the_end_of_a_game_settles_its_news_for_every_player(
    players, django_capture_on_commit_callbacks
):
    a, b = players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        match = start_match([a, b])
    assert unread_count(user_id=a.pk) == unread_count(user_id=b.pk) == 1
    with django_capture_on_commit_callbacks(execute=True):
        services.match_resign(match_id=match.pk, user=a)
    assert unread_count(user_id=a.pk) == unread_count(user_id=b.pk) == 0


def test_an_answered_challenge_stops_counting(
    players, django_capture_on_commit_callbacks
):
    a, b = players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        challenge = lobby.challenge_create(challenger=a, challenged=b, game="duelo")
    assert unread_count(user_id=b.pk) == 1
    with django_capture_on_commit_callbacks(execute=True):
        lobby.challenge_decline(challenge_id=challenge.pk, user=b)
    assert unread_count(user_id=b.pk) == 0
    with django_capture_on_commit_callbacks(execute=True):
        again = lobby.challenge_create(challenger=a, challenged=b, game="duelo")
    with django_capture_on_commit_callbacks(execute=True):
        lobby.challenge_decline(challenge_id=again.pk, user=a)  # withdrawn
    assert unread_count(user_id=b.pk) == 0


def test_one_players_news_settles_by_key_and_literal_prefix(
    players, pushed, django_capture_on_commit_callbacks
):
    """A socket's connect settles its player's news with one hand-written
    UPDATE: the keys exactly, the prefix literally (its ``_`` matches only
    itself, as the ORM's ``startswith`` escapes it), unread news
    of that player only, and the pages learn the new count."""
    from notifications.services import notifications_resolve

    a, b = players[:2]
    keys = [
        "game_started:7",
        "your_move:7:1",
        "your_move:7:2",
        "yourXmove:7:3",  # "_" is no wildcard
        "your_move:70:1",  # another game
        "challenge:7",
    ]
    notifications_create(
        drafts=[
            Draft(user_id=user.pk, kind=NotificationKind.YOUR_MOVE, key=key, title="t")
            for user in (a, b)
            for key in keys
        ],
        push=False,
    )
    Notification.objects.filter(user=a, key="your_move:7:2").update(
        read_at="2026-01-01T00:00:00Z"
    )
    pushed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        changed = notifications_resolve(
            user_ids=[a.pk], keys=("game_started:7",), prefix="your_move:7:"
        )
    assert changed == 2  # game_started:7 and your_move:7:1 (7:2 was read)
    unread = set(
        Notification.objects.filter(user=a, read_at__isnull=True).values_list(
            "key", flat=True
        )
    )
    assert unread == {"yourXmove:7:3", "your_move:70:1", "challenge:7"}
    assert unread_count(user_id=b.pk) == len(keys)  # the other player's stay
    assert pushed == [(a.pk, {"type": "unread", "count": 3})]
    # Nothing left to settle: no UPDATE counted, no push.
    pushed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert (
            notifications_resolve(user_ids=[a.pk], keys=(), prefix="your_move:7:") == 0
        )
    assert pushed == []
