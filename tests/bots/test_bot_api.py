"""The bot account API: accounts and tokens, scopes, streams, moves, throttling."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bots import connected
from bots.models import BotAccount, BotToken
from gameplay import lobby
from gameplay.models import Match, MatchStatus
from gameplay.rules import get_game, view_events
from gameplay.services import SeatSpec, match_act, match_create, match_start
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clean_cache")]


@pytest.fixture(autouse=True)
def short_streams(settings):
    """Streams end after a moment here (the server's default is minutes)."""
    settings.BOT_API_STREAM_SECONDS = 0.4
    settings.BOT_API_POLL_SECONDS = 0.05
    settings.BOT_API_EVENT_POLL_SECONDS = 0.05


@pytest.fixture
def account(owner):
    return connected.bot_account_create(owner=owner, name="Robo", game="duelo")


def bot_client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


async def _collect(response) -> list[bytes]:
    return [chunk async for chunk in response.streaming_content]


def lines(response) -> list[dict]:
    """The NDJSON lines of a stream (it ends: ``short_streams``)."""
    assert response["Content-Type"] == "application/x-ndjson"
    body = b"".join(async_to_sync(_collect)(response)).decode()
    return [json.loads(line) for line in body.splitlines() if line.strip()]


def started_match(bot_user, person) -> Match:
    match = match_create(
        game="duelo", seats=[SeatSpec(user=bot_user), SeatSpec(user=person)]
    )
    return match_start(match_id=match.pk)


# --- accounts and tokens ---------------------------------------------------------


def test_a_person_turns_their_api_token_into_a_bot_account_token(owner) -> None:
    client = APIClient()
    key = Token.objects.create(user=owner).key
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    answer = client.post(
        reverse("api-bot-accounts"),
        {"name": "Crane", "game": "duelo", "scopes": ["read"]},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["token"].startswith("kfb_") and body["scopes"] == ["read"]
    account = BotAccount.objects.get(pk=body["account"]["id"])
    assert account.owner == owner and account.user.username == "Crane"
    # At a table it is named as a bot.
    assert account.user.public_name == "Crane [bot]"
    assert not account.user.has_usable_password()
    # Only a digest is stored; the key is never readable again.
    stored = BotToken.objects.get(account=account)
    assert body["token"] not in stored.key_sha256
    assert (
        client.get(reverse("api-bot-accounts")).json()["results"][0]["tokens"][0][
            "prefix"
        ]
        == body["token"][:10]
    )


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"name": "x", "game": "duelo"}, "3 to 30"),
        ({"name": "bad name", "game": "duelo"}, "letters, digits"),
        ({"name": "Crane", "game": "chess"}, "Unknown game"),
        ({"name": "author", "game": "duelo"}, "taken"),
        ({"name": "Crane", "game": "duelo", "scopes": ["admin"]}, "admin"),
    ],
)
def test_bad_account_requests_are_refused_and_make_nothing(owner, body, detail) -> None:
    client = APIClient()
    client.force_authenticate(owner)
    answer = client.post(reverse("api-bot-accounts"), body, format="json")
    assert answer.status_code == 400
    assert detail in answer.json()["detail"]
    assert not BotAccount.objects.exists()


def test_a_bot_token_opens_only_the_bot_api(account) -> None:
    client = bot_client(account.key)
    # The owner's endpoints and every other API refuse it as a credential.
    assert client.get(reverse("api-bot-accounts")).status_code == 401
    assert client.post(reverse("api-bot-accounts"), {}).status_code == 401
    assert client.post(reverse("api-bots"), {}).status_code == 401
    assert (
        bot_client("kfb_nonsense").get(reverse("api-bot-event-stream")).json()["code"]
        == "authentication_failed"
    )


def test_scopes_are_enforced(owner, account) -> None:
    reader = connected.bot_token_issue(
        owner=owner, account_id=account.token.account_id, scopes=["read"]
    )
    player = connected.bot_token_issue(
        owner=owner, account_id=account.token.account_id, scopes=["play"]
    )
    match = started_match(account.token.account.user, UserFactory())
    act = reverse("api-bot-game-act", args=[match.public_id])
    denied = bot_client(reader.key).post(act, {"action": "x", "version": 0})
    assert denied.status_code == 403 and "'play'" in denied.json()["detail"]
    stream = reverse("api-bot-game-stream", args=[match.public_id])
    assert bot_client(player.key).get(stream).status_code == 403
    assert bot_client(reader.key).get(stream).status_code == 200


def test_a_revoked_token_stops_at_once(owner, account) -> None:
    client = bot_client(account.key)
    assert client.get(reverse("api-bot-event-stream")).status_code == 200
    other = APIClient()
    other.force_authenticate(UserFactory())
    assert (
        other.post(reverse("api-bot-token-revoke", args=[account.token.pk])).status_code
        == 404
    )
    owner_client = APIClient()
    owner_client.force_authenticate(owner)
    assert (
        owner_client.post(
            reverse("api-bot-token-revoke", args=[account.token.pk])
        ).status_code
        == 200
    )
    assert client.get(reverse("api-bot-event-stream")).status_code == 401


def test_requests_are_throttled_per_token(settings, owner, account) -> None:
    settings.BOT_API_THROTTLE = "3/min"
    other = connected.bot_token_issue(owner=owner, account_id=account.token.account_id)
    client = bot_client(account.key)
    url = reverse("api-bot-game-act", args=["00000000-0000-0000-0000-000000000000"])
    codes = [
        client.post(url, {"action": "a", "version": 0}).status_code for _ in "abcd"
    ]
    assert codes == [404, 404, 404, 429]
    refused = client.post(url, {"action": "a", "version": 0})
    assert refused.json()["code"] == "throttled" and "Retry-After" in refused
    # Another token has its own budget.
    assert (
        bot_client(other.key).post(url, {"action": "a", "version": 0}).status_code
        == 404
    )


# --- the event stream -------------------------------------------------------------


def test_event_stream_tells_challenges_seats_and_game_starts(account) -> None:
    bot_user = account.token.account.user
    person = UserFactory()
    challenge = lobby.challenge_create(
        challenger=person, challenged=bot_user, game="duelo"
    )
    waiting = match_create(game="duelo", seats=[SeatSpec(user=bot_user), SeatSpec()])
    match = started_match(bot_user, person)
    account_id = account.token.account_id
    assert not connected.bot_account_online(account_id=account_id)
    got = lines(bot_client(account.key).get(reverse("api-bot-event-stream")))
    assert got[0] == {
        "type": "hello",
        "account": "Robo",
        "game": "duelo",
        "scopes": ["read", "play"],
        "online": True,
    }
    by_type = {line["type"]: line for line in got[1:]}
    assert by_type["challenge"]["id"] == challenge.pk
    assert by_type["challenge"]["from"] == person.username
    assert by_type["seat"]["match"] == str(waiting.public_id)
    assert by_type["gameStart"]["match"] == str(match.public_id)
    assert by_type["gameStart"]["seat"] == 0
    # A play token's stream is the bot's presence: it is online now.
    assert connected.bot_account_online(account_id=account_id)
    assert [a.pk for a in connected.online_accounts(game="duelo")] == [account_id]


def test_event_stream_tells_a_game_end_once_it_saw_the_start(account) -> None:
    bot_user = account.token.account.user
    person = UserFactory()
    match = started_match(bot_user, person)
    cursor = connected.EventCursor()
    acc = account.token.account
    assert [e["type"] for e in connected.event_poll(account=acc, cursor=cursor)] == [
        "gameStart"
    ]
    assert connected.event_poll(account=acc, cursor=cursor) == []
    from gameplay.services import match_resign

    match_resign(match_id=match.pk, user=person)
    [end] = connected.event_poll(account=acc, cursor=cursor)
    assert end["type"] == "gameFinish" and end["placement"] == 1


def test_a_read_token_does_not_make_the_bot_online(owner, account) -> None:
    reader = connected.bot_token_issue(
        owner=owner, account_id=account.token.account_id, scopes=["read"]
    )
    got = lines(bot_client(reader.key).get(reverse("api-bot-event-stream")))
    assert got[0]["online"] is False
    assert not connected.bot_account_online(account_id=account.token.account_id)


# --- a game's stream and moves ------------------------------------------------


def test_game_stream_is_the_seats_view_and_nothing_more(account) -> None:
    bot_user = account.token.account.user
    person = UserFactory()
    match = started_match(bot_user, person)
    engine = get_game("duelo")
    # The person moves first if it is their turn, so the bot has events to read.
    if 1 in engine.actors(match.state):
        legal = engine.legal_actions(match.state, 1)
        match_act(match_id=match.pk, user=person, action_id=legal[0]["id"])
        match.refresh_from_db()
    client = bot_client(account.key)
    got = lines(client.get(reverse("api-bot-game-stream", args=[match.public_id])))
    full, state = got[0], got[1]
    assert full["type"] == "gameFull" and full["seat"] == 0 and full["players"] == 2
    assert full["rules_version"] == engine.rules_version
    assert state["type"] == "gameState" and state["version"] == match.version
    assert state["view"] == json.loads(json.dumps(engine.observe(match.state, 0)))
    assert state["view"] != json.loads(json.dumps(engine.observe(match.state, 1)))
    assert state["legal"] == json.loads(
        json.dumps(engine.legal_actions(match.state, 0))
    )
    # Every event as the bot's seat may see it (the deal's private parts of the
    # other seat are not in it).
    steps = match.actions.order_by("version")
    assert [e["events"] for e in state["events"]] == [
        json.loads(json.dumps(view_events(step.events, 0))) for step in steps
    ]
    assert "seed" not in json.dumps(full)


def test_game_stream_resumes_after_the_last_version(account) -> None:
    bot_user = account.token.account.user
    person = UserFactory()
    match = started_match(bot_user, person)
    last = match.version
    client = bot_client(account.key)
    url = reverse("api-bot-game-stream", args=[match.public_id])
    resumed = lines(client.get(url, {"version": last}))
    assert resumed[1]["events"] == []
    assert client.get(url, {"version": "-1"}).json()["code"] == "bot_error"


def test_a_game_played_through_the_api_to_the_end(account) -> None:
    bot_user = account.token.account.user
    person = UserFactory()
    match = started_match(bot_user, person)
    engine = get_game("duelo")
    client = bot_client(account.key)
    act = reverse("api-bot-game-act", args=[match.public_id])
    for _ in range(500):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        actors = engine.actors(match.state)
        if 0 in actors:
            legal = engine.legal_actions(match.state, 0)
            answer = client.post(
                act, {"action": legal[-1]["id"], "version": match.version}
            )
            assert answer.status_code == 200, answer.json()
            assert answer.json()["version"] == match.version + 1
        else:
            legal = engine.legal_actions(match.state, actors[0])
            match_act(match_id=match.pk, user=person, action_id=legal[0]["id"])
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    got = lines(client.get(reverse("api-bot-game-stream", args=[match.public_id])))
    assert got[-1]["type"] == "gameEnd"
    assert sorted(p["placement"] for p in got[-1]["placements"]) == [1, 2]


def test_moves_are_refused_by_the_move_rule(account) -> None:
    bot_user = account.token.account.user
    person = UserFactory()
    match = started_match(bot_user, person)
    engine = get_game("duelo")
    client = bot_client(account.key)
    act = reverse("api-bot-game-act", args=[match.public_id])
    if 0 not in engine.actors(match.state):
        refused = client.post(act, {"action": "x", "version": match.version})
        assert refused.json()["code"] == "not_your_turn"
    # The person plays until the bot is to act (a Duelo turn may be two steps).
    for _ in range(200):
        if 0 in engine.actors(match.state):
            break
        assert match.status == MatchStatus.ACTIVE
        legal = engine.legal_actions(match.state, 1)
        match_act(match_id=match.pk, user=person, action_id=legal[0]["id"])
        match.refresh_from_db()
    version = match.version
    stale = client.post(act, {"action": "x", "version": version + 5})
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_version")
    illegal = client.post(act, {"action": "no-such-card", "version": version})
    assert illegal.json()["code"] == "illegal_action"
    missing = client.post(act, {"action": "x"})
    assert missing.json()["code"] == "invalid"
    match.refresh_from_db()
    assert match.version == version
    # Another match (not the bot's) is not found, whatever exists there.
    other = started_match(UserFactory(), person)
    elsewhere = reverse("api-bot-game-act", args=[other.public_id])
    assert client.post(elsewhere, {"action": "x", "version": 0}).status_code == 404
    assert (
        client.get(reverse("api-bot-game-stream", args=[other.public_id])).status_code
        == 404
    )
    assert (
        client.get(reverse("api-bot-game-stream", args=["not-a-uuid"])).status_code
        == 404
    )


def test_the_bot_accepts_and_declines_challenges(account) -> None:
    bot_user = account.token.account.user
    person = UserFactory()
    client = bot_client(account.key)
    first = lobby.challenge_create(challenger=person, challenged=bot_user, game="duelo")
    answer = client.post(reverse("api-bot-challenge-answer", args=[first.pk, "accept"]))
    assert answer.status_code == 200 and answer.json()["status"] == "active"
    second = lobby.challenge_create(
        challenger=UserFactory(), challenged=bot_user, game="duelo"
    )
    declined = client.post(
        reverse("api-bot-challenge-answer", args=[second.pk, "decline"])
    )
    assert declined.json()["status"] == "declined"
    # Someone else's challenge is not the bot's to answer.
    third = lobby.challenge_create(
        challenger=person, challenged=UserFactory(), game="duelo"
    )
    refused = client.post(
        reverse("api-bot-challenge-answer", args=[third.pk, "accept"])
    )
    assert refused.status_code == 403


# --- the ladder -------------------------------------------------------------------


def test_online_connected_bots_are_seated_on_the_ladder(
    monkeypatch, owner, account, django_capture_on_commit_callbacks
) -> None:
    from datetime import UTC, datetime

    from bots import enqueue, ladder

    queued: list[list[int]] = []
    monkeypatch.setattr(enqueue, "play_matches", queued.append)
    when = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    offline = connected.bot_account_create(owner=owner, name="Sleepy", game="duelo")
    connected.bot_account_seen(account_id=account.token.account_id)
    bot_user = account.token.account.user
    with django_capture_on_commit_callbacks(execute=True):
        ladder.ladder_round_schedule(game="duelo", when=when, duplicate=True)
    matches = list(Match.objects.filter(seats__user=bot_user))
    # Paired with each anchor (two of them), one deal with the seats rotated.
    assert len(matches) == 2
    for match in matches:
        seats = list(match.seats.order_by("number"))
        assert {s.agent for s in seats if s.user_id is None} <= {
            "builtin:random",
            "builtin:heuristic",
        }
        assert match.rated and match.status == MatchStatus.ACTIVE
        # Played live on the match's clock, not by a bots worker in one go.
        assert match.time_control == {"per_move": 30}
    assert queued == [[]]  # no match for a bots worker to play whole
    assert not Match.objects.filter(seats__user=offline.token.account.user).exists()
    # A bot that goes offline is seated no more.
    connected.bot_account_gone(account_id=account.token.account_id)
    later = datetime(2026, 11, 29, 13, 0, tzinfo=UTC)
    ladder.ladder_round_schedule(game="duelo", when=later, duplicate=True)
    assert Match.objects.filter(seats__user=bot_user).count() == 2


# --- the connected bots page -----------------------------------------------------


def test_the_page_makes_a_bot_and_shows_its_key_once(client, owner) -> None:
    client.force_login(owner)
    url = reverse("bots:connected")
    made = client.post(url, {"name": "Heron", "game": "duelo", "scopes": ["play"]})
    assert made.status_code == 200
    token = BotToken.objects.get(account__user__username="Heron")
    key = made.context["issued"].key
    assert key.encode() in made.content and token.scopes == ["play"]
    again = client.get(url)
    assert key.encode() not in again.content and token.prefix.encode() in again.content
    # Bad input: refused with the reason, nothing made.
    taken = client.post(url, {"name": "Heron", "game": "duelo", "scopes": ["read"]})
    assert taken.status_code == 400 and b"is taken" in taken.content
    empty = client.post(url, {"name": "Egret", "game": "duelo"})
    assert empty.status_code == 400
    assert BotAccount.objects.count() == 1


def test_only_the_owner_issues_and_revokes_tokens_on_the_page(client, account) -> None:
    client.force_login(UserFactory())
    account_id = account.token.account_id
    client.post(
        reverse("bots:connected_token_new", args=[account_id]), {"scopes": ["read"]}
    )
    client.post(reverse("bots:connected_token_revoke", args=[account.token.pk]))
    assert BotToken.objects.filter(account_id=account_id).count() == 1
    assert BotToken.objects.get(account_id=account_id).revoked_at is None


def test_open_streams_per_token_are_capped(settings, account) -> None:
    from bots import bot_api

    settings.BOT_API_STREAMS_PER_TOKEN = 1
    client = bot_client(account.key)
    url = reverse("api-bot-event-stream")
    # A finished stream is counted out: another may open.
    assert lines(client.get(url))[0]["type"] == "hello"
    assert lines(client.get(url))[0]["type"] == "hello"
    bot_api._stream_opened(account.token.pk)  # one still open elsewhere
    refused = client.get(url)
    assert (refused.status_code, refused.json()["code"]) == (429, "too_many_streams")
    bot_api._stream_closed(account.token.pk)
    assert client.get(url).status_code == 200
