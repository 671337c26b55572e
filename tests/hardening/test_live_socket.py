"""The live socket under hostile input and hostile origins (issue 10, sections 1-3).

These go through ``config.asgi.application`` (origin check, session auth, the
router with its catch-all) where the handshake matters, and through the match
router directly where only frames do.
"""

from __future__ import annotations

import json
import logging

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import override_settings

from config.routing import websocket_urlpatterns
from gameplay import services
from gameplay.models import Match, Seat
from tests.factories import UserFactory
from tests.gameplay.conftest import start_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# Channels' stubs want their own URLPattern type (config/asgi.py).
ROUTER = URLRouter(websocket_urlpatterns)  # type: ignore[arg-type]


@pytest.fixture
def players(db):
    return [UserFactory(username=f"ws{i}") for i in range(4)]


async def connect(path: str, user=None) -> tuple[WebsocketCommunicator, bool]:
    comm = WebsocketCommunicator(ROUTER, path)
    # The scope's user, as AuthMiddlewareStack sets it (not in the stubs).
    user = user if user is not None else AnonymousUser()
    comm.scope["user"] = user  # type: ignore[typeddict-unknown-key]
    connected, _ = await comm.connect(timeout=10)  # a shared, busy machine
    return comm, connected


async def receive(comm, timeout: float = 5) -> dict:
    return json.loads(await comm.receive_from(timeout=timeout))


async def next_of(comm, kinds: tuple[str, ...], timeout: float = 5) -> dict:
    while True:
        frame = await receive(comm, timeout)
        if frame["type"] in kinds:
            return frame


@database_sync_to_async
def db_start(users) -> Match:
    return start_match(users)


@database_sync_to_async
def db_seat(match: Match, number: int) -> Seat:
    return Seat.objects.get(match=match, number=number)


# --- bad frames get an error frame; the connection and presence survive ------------


@pytest.mark.parametrize(
    "text",
    [
        "[" * 3800,  # the 3.8 KB frame that killed the connection (RecursionError)
        '{"type": "act", "action": ' + "[" * 2000 + "]" * 2000 + "}",
        '{"type": "sync", "version": ' + "[" * 1500 + "]" * 1500 + "}",
        '{"type": "act", "action": {"a": 1}, "version": "x"}',
        '{"type": "claim", "claim": [[[]]]}',
    ],
)
async def test_hostile_frames_get_an_error_and_keep_the_seat_connected(players, text):
    match = await db_start(players[:2])
    comm, connected = await connect(f"/ws/match/{match.public_id}/", players[0])
    assert connected
    await next_of(comm, ("state",))
    await comm.send_to(text_data=text)
    error = await next_of(comm, ("error",))
    assert error["code"] in ("malformed", "bad_request", "server_error", "forbidden")
    await comm.send_to(text_data=json.dumps({"type": "ping", "request_id": 7}))
    assert (await next_of(comm, ("pong",)))["request_id"] == 7
    assert (await db_seat(match, 0)).connected == 1
    await comm.disconnect()
    assert (await db_seat(match, 0)).connected == 0


# Versions and request ids the server would echo: a number the frame encoder
# cannot carry (2**64 and more: "Integer exceeds 64-bit range") was answered
# server_error with a traceback at ERROR, 20 times a second for anyone.
@pytest.mark.parametrize(
    "frame",
    [
        {"type": "sync", "version": 2**64},
        {"type": "sync", "version": 2**53},
        {"type": "sync", "version": 10**400},
        {"type": "sync", "version": -1},
        {"type": "sync", "version": 1.5},
        {"type": "sync", "version": "3"},
        {"type": "sync", "version": True},
        {"type": "act", "action": "card:1", "version": 2**64},
        {"type": "act", "action": "card:1", "version": -1},
    ],
)
async def test_out_of_range_versions_are_malformed_and_log_nothing(
    players, frame, caplog
):
    match = await db_start(players[:2])
    comm, connected = await connect(f"/ws/match/{match.public_id}/", players[0])
    assert connected
    await next_of(comm, ("state",))
    caplog.clear()
    await comm.send_to(text_data=json.dumps({**frame, "request_id": 9}))
    error = await next_of(comm, ("error",))
    assert error["code"] == "malformed", error
    assert error["request_id"] == 9
    assert "version" in error["message"]
    # Nothing above INFO for bad input.
    assert [r for r in caplog.records if r.levelno > logging.INFO] == []
    await comm.disconnect()


@pytest.mark.parametrize("request_id", [2**64, -(2**64), 10**400, 1.5, True])
async def test_request_ids_a_frame_cannot_carry_are_not_echoed(
    players, request_id, caplog
):
    match = await db_start(players[:2])
    comm, connected = await connect(f"/ws/match/{match.public_id}/", players[0])
    assert connected
    await next_of(comm, ("state",))
    caplog.clear()
    text = json.dumps({"type": "ping", "request_id": request_id})
    await comm.send_to(text_data=text)
    assert (await next_of(comm, ("pong", "error"))) == {
        "type": "pong",
        "request_id": None,
    }
    assert [r for r in caplog.records if r.levelno > logging.INFO] == []
    await comm.disconnect()


async def test_the_largest_version_a_frame_carries_is_a_plain_resume(players):
    """Control: 2**53 - 1 is in range; a version past the match's sends the
    state and no error."""
    match = await db_start(players[:2])
    comm, connected = await connect(f"/ws/match/{match.public_id}/", players[0])
    assert connected
    await next_of(comm, ("state",))
    await comm.send_to(text_data=json.dumps({"type": "sync", "version": 2**53 - 1}))
    assert (await next_of(comm, ("state", "error")))["type"] == "state"
    await comm.disconnect()


# --- handshakes: unknown paths, malformed and unknown match ids --------------------


async def test_unknown_paths_are_refused_cleanly():
    for path in ("/ws/nothing/", "/ws/match/", "/", "/ws/match/a/b/c/"):
        comm, connected = await connect(path)
        assert not connected, path
        await comm.disconnect()


@pytest.mark.parametrize(
    "public_id", ["not-a-uuid", "1" * 300, "00000000-0000-0000-0000-000000000000"]
)
async def test_malformed_or_unknown_match_ids_get_the_4404_close(public_id):
    comm, connected = await connect(f"/ws/match/{public_id}/")
    assert connected
    assert await comm.receive_output(timeout=5) == {
        "type": "websocket.close",
        "code": 4404,
    }


# --- a seat that resigned gets the spectator view on its socket --------------------


async def test_a_resigned_seat_receives_only_spectator_frames(players):
    match = await db_start(players[:3])
    leaver, connected = await connect(f"/ws/match/{match.public_id}/", players[0])
    assert connected
    assert (await next_of(leaver, ("state",)))["seat"] == 0
    await leaver.send_to(text_data=json.dumps({"type": "resign"}))
    # The bot plays seat 0 from now on; every frame the old owner gets is public.
    frames = []
    while not await leaver.receive_nothing(timeout=1.5):
        frame = await receive(leaver)
        if frame["type"] == "state":
            frames.append(frame)
    # Frames from before the resignation (a presence update) may still arrive.
    while frames and not frames[0]["seats"][0]["forfeited"]:
        frames.pop(0)
    assert frames, "the leaver should still follow the game"
    assert all(f["seat"] is None for f in frames)
    assert all(f["legal"] == [] for f in frames)
    assert all(
        f["view"]["hand"] is None for f in frames[1:] if f["view"] is not None
    ), "no seat's hand after resigning"
    await leaver.send_to(text_data=json.dumps({"type": "sync", "version": 0}))
    history = await next_of(leaver, ("history",))
    spectator, _ = await connect(f"/ws/match/{match.public_id}/")
    await next_of(spectator, ("state",))
    await spectator.send_to(text_data=json.dumps({"type": "sync", "version": 0}))
    public = await next_of(spectator, ("history",))
    assert history["steps"] == public["steps"][: len(history["steps"])]
    await spectator.disconnect()
    state = await next_of(leaver, ("state",))
    assert state["seat"] is None
    await leaver.disconnect()


# --- origin: scheme, host and port must all match ----------------------------------


def _app():
    from config.asgi import application

    return application


async def handshake(origin: str | None, *, host="arena.example", scheme="ws") -> bool:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    # An unknown match: accepted (then closed 4404) only past the origin check.
    comm = WebsocketCommunicator(
        _app(), "/ws/match/00000000-0000-0000-0000-000000000000/", headers=headers
    )
    comm.scope["scheme"] = scheme
    connected, _ = await comm.connect(timeout=10)
    await comm.disconnect()
    return connected


@override_settings(ALLOWED_HOSTS=["arena.example"], CSRF_TRUSTED_ORIGINS=[])
@pytest.mark.parametrize(
    "origin, scheme, host, allowed",
    [
        ("http://arena.example", "ws", "arena.example", True),
        ("https://arena.example", "wss", "arena.example", True),
        ("https://arena.example:443", "wss", "arena.example", True),
        ("http://arena.example:8000", "ws", "arena.example:8000", True),
        # Host-only checks accepted all of these:
        ("http://arena.example", "wss", "arena.example", False),
        ("https://arena.example", "ws", "arena.example", False),
        ("http://arena.example:8001", "ws", "arena.example:8000", False),
        ("http://arena.example:8000", "ws", "arena.example", False),
        ("http://evil.example", "ws", "arena.example", False),
        ("http://arena.example.evil.example", "ws", "arena.example", False),
        ("http://arena.example", "ws", "evil.example", False),
        ("null", "ws", "arena.example", False),
        (None, "ws", "arena.example", False),
    ],
)
async def test_origin_must_match_scheme_host_and_port(origin, scheme, host, allowed):
    assert await handshake(origin, host=host, scheme=scheme) is allowed


@override_settings(
    ALLOWED_HOSTS=["arena.example"],
    CSRF_TRUSTED_ORIGINS=["https://play.arena.example"],
)
async def test_trusted_origins_are_accepted_exactly():
    assert await handshake("https://play.arena.example", scheme="wss")
    assert not await handshake("http://play.arena.example", scheme="wss")
    assert not await handshake("https://play.arena.example:8443", scheme="wss")


async def test_frames_for_an_active_match_survive_a_resign_sync(players):
    """Control: a seat still playing gets its own seat frames after sync."""
    match = await db_start(players[:2])
    comm, _ = await connect(f"/ws/match/{match.public_id}/", players[1])
    await next_of(comm, ("state",))
    await comm.send_to(text_data=json.dumps({"type": "sync", "version": 0}))
    await next_of(comm, ("history",))
    assert (await next_of(comm, ("state",)))["seat"] == 1
    await comm.disconnect()
    await database_sync_to_async(services.match_abort)(match_id=match.pk, user=None)


# --- the other sockets: the player socket and the table watch ----------------------


@database_sync_to_async
def db_waiting_table(host) -> Match:
    from gameplay import lobby

    return lobby.table_create(host=host, game="duelo", players=3)


@pytest.mark.parametrize("text", ["[" * 1000, '{"type": ' + "[" * 900 + "]" * 900])
async def test_the_player_and_table_sockets_survive_deep_frames(players, text):
    table = await db_waiting_table(players[0])
    for path in ("/ws/me/", f"/ws/table/{table.public_id}/"):
        comm, connected = await connect(path, players[0])
        assert connected, path
        while not await comm.receive_nothing(timeout=0.3):
            await comm.receive_from()  # hello / state frames
        await comm.send_to(text_data=text)
        assert (await receive(comm))["type"] == "error", path
        await comm.send_to(text_data=json.dumps({"type": "ping"}))
        assert (await next_of(comm, ("pong",)))["type"] == "pong", path
        await comm.disconnect()
