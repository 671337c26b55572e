"""Chat checks, mutes, chat off and blocks through the services and pages."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from community import selectors, services
from community.errors import ChatRefused, NotAvailable, RateLimited
from gameplay import lobby
from gameplay.errors import BadRequest
from gameplay.models import Challenge, Match
from tests.gameplay.conftest import start_match

pytestmark = pytest.mark.django_db


def texts(match: Match, user) -> list[str]:
    return [m["text"] for m in selectors.match_chat(match=match, user=user)]


def test_lines_are_cleaned_limited_and_filtered(players, settings):
    match = start_match(players[:2])
    line = services.chat_post(
        user=players[0],
        match_id=match.pk,
        channel="table",
        text="  hi\u202e\u200b  <script>x</script>\n there ",
    )
    # Control and format characters gone, HTML kept as plain text to escape.
    assert line.body == "hi <script>x</script> there"
    with pytest.raises(ChatRefused, match="at most"):
        services.chat_post(
            user=players[0], match_id=match.pk, channel="table", text="x" * 301
        )
    with pytest.raises(ChatRefused, match="empty"):
        services.chat_post(
            user=players[0], match_id=match.pk, channel="table", text=" \u200b "
        )
    with pytest.raises(ChatRefused):
        services.chat_post(user=players[0], match_id=match.pk, channel="table", text=5)
    settings.COMMUNITY_WORD_FILTER = ["darn"]
    filtered = services.chat_post(
        user=players[1], match_id=match.pk, channel="table", text="Darn it, darned"
    )
    assert filtered.body == "**** it, darned"


def test_a_repeated_line_is_a_flood(players):
    match = start_match(players[:2])
    services.chat_post(user=players[0], match_id=match.pk, channel="table", text="gg")
    with pytest.raises(RateLimited):
        services.chat_post(
            user=players[0], match_id=match.pk, channel="table", text="gg"
        )


def test_mute_hides_earlier_lines_for_the_muter_only(players):
    match = start_match(players[:3])
    services.chat_post(user=players[0], match_id=match.pk, channel="table", text="a")
    services.chat_post(user=players[2], match_id=match.pk, channel="table", text="b")
    services.mute_set(user=players[1], target=players[0], muted=True)
    assert texts(match, players[1]) == ["b"]
    assert texts(match, players[2]) == ["a", "b"]
    services.mute_set(user=players[1], target=players[0], muted=False)
    assert texts(match, players[1]) == ["a", "b"]


def test_chat_off_at_one_table_or_everywhere(players):
    match, other = start_match(players[:2]), start_match(players[:2])
    for m in (match, other):
        services.chat_post(
            user=players[0], match_id=m.pk, channel="table", text=f"hi {m.pk}"
        )
    services.chat_switch(user=players[1], off=True, match_id=match.pk)
    assert texts(match, players[1]) == []
    assert texts(other, players[1]) == [f"hi {other.pk}"]
    services.chat_switch(user=players[1], off=True)
    assert texts(other, players[1]) == []
    services.chat_switch(user=players[1], off=False)
    services.chat_switch(user=players[1], off=False, match_id=match.pk)
    assert texts(match, players[1]) == [f"hi {match.pk}"]


def test_private_lines_stay_between_two_seats(players):
    match = start_match(players[:4], game="kungfu2009")
    services.chat_post(
        user=players[0], match_id=match.pk, channel="private", to_seat=1, text="deal?"
    )
    assert texts(match, players[0]) == ["deal?"]
    assert texts(match, players[1]) == ["deal?"]
    assert texts(match, players[2]) == []
    assert texts(match, players[7]) == []  # a spectator
    assert texts(match, None) == []  # signed out
    for bad in (0, 9, "1", True, None):
        with pytest.raises(ChatRefused):
            services.chat_post(
                user=players[0],
                match_id=match.pk,
                channel="private",
                to_seat=bad,
                text=f"x{bad}",
            )


def test_a_block_refuses_every_route_and_says_only_not_available(players):
    blocker, blocked, other = players[0], players[1], players[2]
    services.block_set(user=blocker, target=blocked, blocked=True)
    # Challenges, both ways.
    for one, two in ((blocked, blocker), (blocker, blocked)):
        with pytest.raises(BadRequest) as refused:
            lobby.challenge_create(challenger=one, challenged=two, game="duelo")
        assert "not available" in str(refused.value)
        assert "block" not in str(refused.value)
    assert not Challenge.objects.exists()
    lobby.challenge_create(challenger=other, challenged=blocker, game="duelo")
    # A table the blocker opened.
    table = lobby.table_create(host=blocker, game="duelo", players=3)
    with pytest.raises(BadRequest, match="not available"):
        lobby.table_join(match_id=table.pk, user=blocked)
    lobby.table_join(match_id=table.pk, user=other)
    # Private messages, both ways; and the blocker no longer reads them.
    match = start_match([blocker, blocked, other, players[3]], game="kungfu2009")
    for author, seat in ((blocked, 0), (blocker, 1)):
        with pytest.raises(NotAvailable):
            services.chat_post(
                user=author,
                match_id=match.pk,
                channel="private",
                to_seat=seat,
                text="hello",
            )
    services.chat_post(user=blocked, match_id=match.pk, channel="table", text="hey")
    assert texts(match, blocker) == []  # a block mutes too
    # Unblocked, they may meet again.
    services.block_set(user=blocker, target=blocked, blocked=False)
    lobby.challenge_create(challenger=blocked, challenged=blocker, game="duelo")


def test_endpoints_refuse_bad_input_and_strangers(client, players):
    match = start_match(players[:2])
    mute_url = reverse("community:mute", args=[players[1].username])
    assert client.post(mute_url, {"muted": "1"}).status_code == 302  # sign in
    client.force_login(players[0])
    post = lambda url, body: client.post(  # noqa: E731
        url, json.dumps(body), content_type="application/json"
    )
    assert post(mute_url, {"muted": "maybe"}).status_code == 400
    assert post(mute_url, {"muted": True}).json() == {"muted": True}
    own = reverse("community:block", args=[players[0].username])
    assert post(own, {"blocked": True}).status_code == 400
    nobody = reverse("community:block", args=["nobody-here"])
    assert post(nobody, {"blocked": True}).status_code == 404
    switch = reverse("community:chat_switch")
    assert post(switch, {"off": True, "match": str(match.public_id)}).json() == {
        "off": True
    }
    assert post(switch, {"off": True, "match": "not-a-uuid"}).status_code == 400
    history = client.get(reverse("community:match_chat", args=[match.public_id]))
    assert history.json()["chat_off"] is True
    assert client.get(mute_url).status_code == 405


def test_profile_buttons_block_and_report_without_javascript(client, players):
    from community.models import Block, Report

    profile = reverse("accounts:profile", args=[players[1].username])
    client.force_login(players[0])
    page = client.get(profile).content.decode()
    assert ">Block<" in page and ">Mute<" in page
    back = client.post(
        reverse("community:block", args=[players[1].username]),
        {"blocked": "true", "next": profile},
    )
    assert back.status_code == 302 and back.url == profile
    assert Block.objects.filter(blocker=players[0], blocked=players[1]).exists()
    assert ">Unblock<" in client.get(profile).content.decode()
    # The blocked user's view of the blocker's profile says nothing of it.
    client.force_login(players[1])
    theirs = client.get(
        reverse("accounts:profile", args=[players[0].username])
    ).content.decode()
    assert ">Block<" in theirs and "Unblock" not in theirs
    away = client.post(
        reverse("community:report"),
        {
            "username": players[0].username,
            "reason": "spam",
            "next": "https://evil.test/",
        },
    )
    assert away.status_code == 302 and away.url == "/"
    assert Report.objects.get().target == players[0]
    own = client.get(
        reverse("accounts:profile", args=[players[1].username])
    ).content.decode()
    assert "Your standing" in own


def test_system_lines_mark_the_start_and_the_end_once(
    players, django_capture_on_commit_callbacks
):
    from community.models import ChatMessage
    from gameplay import services as match_services

    with django_capture_on_commit_callbacks(execute=True):
        match = start_match(players[:2])
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_resign(match_id=match.pk, user=players[0])
    # The outbox may announce the end again: still one line.
    from community.receivers import on_match_finished

    on_match_finished(None, match_id=match.pk)
    lines = ChatMessage.objects.filter(match=match)
    assert [(m.author, m.body) for m in lines] == [
        (None, "The game has begun."),
        (None, "The game is over: P0 resigned."),
    ]
    shown = selectors.match_chat(match=match, user=players[5])
    assert all(m["system"] for m in shown) and len(shown) == 2


def test_a_spectator_of_a_rated_game_reads_system_lines_only(players):
    match = start_match(players[:2], rated=True)
    services.chat_system(match_id=match.pk, text="The game has begun.")
    services.chat_post(user=players[0], match_id=match.pk, channel="table", text="hi")
    assert texts(match, players[5]) == ["The game has begun."]


def test_seat_lines_tell_joins_leaves_and_a_resignation_at_three(
    players, django_capture_on_commit_callbacks
):
    from community.models import ChatMessage
    from gameplay import services as match_services

    with django_capture_on_commit_callbacks(execute=True):
        table = lobby.table_create(host=players[0], game="kungfu2009", players=3)
        lobby.table_join(match_id=table.pk, user=players[1])
        lobby.table_leave(match_id=table.pk, user=players[1])
        lobby.table_join(match_id=table.pk, user=players[1])
        lobby.table_join(match_id=table.pk, user=players[2])
    table.refresh_from_db()
    assert table.status == "active"
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_resign(match_id=table.pk, user=players[1])
    table.refresh_from_db()
    assert table.status == "active"  # two people and a bot play on
    lines = ChatMessage.objects.filter(match=table).order_by("created_at", "pk")
    assert [(m.author, m.body) for m in lines] == [
        (None, "P1 took seat 2."),
        (None, "P1 left seat 2."),
        (None, "P1 took seat 2."),
        (None, "P2 took seat 3."),
        (None, "The game has begun."),
        (None, "P1 resigned; a bot plays their seat on."),
    ]
    # Everyone reads them, a spectator too: they say nothing secret.
    assert len(selectors.match_chat(match=table, user=players[5])) == 6
    # The last person but one resigns: the game ends, naming who ended it.
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_resign(match_id=table.pk, user=players[2])
    table.refresh_from_db()
    assert table.is_over
    last = ChatMessage.objects.filter(match=table).order_by("-created_at", "-pk")[0]
    assert last.body == "The game is over: P2 resigned."


@pytest.mark.parametrize(
    ("reason", "said"),
    [
        ("time forfeit", "Ann's clock ran out; a bot plays their seat on."),
        ("abandoned", "Ann left the game; a bot plays their seat on."),
    ],
)
def test_seat_line_words(reason, said):
    from community.receivers import seat_line

    line = seat_line(change="forfeited", reason=reason, name="Ann", seat_number=0)
    assert line == said
