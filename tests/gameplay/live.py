"""Helpers for live-play tests through the real match consumer.

Every game's live test does the same things: connect seats and watchers to
``/ws/match/<id>/``, play moves until the match ends while collecting every
frame each socket received, then hold each frame to the engine's observation
of that seat at that version. A game's test only says how it chooses a move
and what extra secret it checks (``play_two_seat_game`` and
``assert_frames_are_each_seats_view``).
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from gameplay import consumers, selectors
from gameplay.models import Match, MatchAction, MatchStatus
from gameplay.routing import websocket_urlpatterns
from gameplay.rules import view_events
from tests.gameplay.conftest import start_match

APP = URLRouter(websocket_urlpatterns)  # type: ignore[arg-type]

# Each socket's last menu, as the page keeps it: a step's frame leaves an
# unchanged menu out and names it by ``legal_digest``.
_held_menus: weakref.WeakKeyDictionary[WebsocketCommunicator, tuple[str, list]] = (
    weakref.WeakKeyDictionary()
)


async def connect(match: Match, user) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(APP, f"/ws/match/{match.public_id}/")
    comm.scope["user"] = user if user is not None else AnonymousUser()  # type: ignore[typeddict-unknown-key]
    connected, _ = await comm.connect()
    assert connected
    return comm


async def receive(
    comm: WebsocketCommunicator, timeout: float = 15, *, raw: bool = False
) -> dict:
    """The next frame. The wait is generous because a frame that never comes fails
    the test either way, while a shared CI machine can stall a commit for seconds
    (seen: a 5 s wait timed out once while another job created a database).

    As the page does, a state frame that left its seat's unchanged menu out
    (docs/protocol/live.md, ``legal_digest``) gets the menu this socket holds
    put back; no frame is lost in these tests, so the held menu must be the
    one named. ``raw``: the frame as sent."""
    try:
        message = await asyncio.wait_for(comm.output_queue.get(), timeout)
    except TimeoutError:
        # Not ``receive_from``: on a timeout it cancels the consumer and awaits
        # it, and a consumer inside channels_redis's receive can take forever to
        # cancel, which turned a missing frame into a hung test.
        if comm.future.done():
            comm.future.result()  # the consumer crashed: raise its error
        raise AssertionError(f"no frame within {timeout} s") from None
    assert message["type"] == "websocket.send", message
    frame = json.loads(message["text"])
    if frame.get("type") == "state" and "legal_digest" in frame:
        held = _held_menus.get(comm)
        if "legal" in frame:
            _held_menus[comm] = (frame["legal_digest"], frame["legal"])
        elif not raw:
            assert held is not None and held[0] == frame["legal_digest"], (
                "a frame left out a menu this socket does not hold"
            )
            frame["legal"] = held[1]
    return frame


async def next_reply(comm: WebsocketCommunicator, frames: list | None = None) -> dict:
    """The next ack or error, skipping state frames (presence changes send some);
    frames passed over are kept in ``frames`` when given."""
    while True:
        frame = await receive(comm)
        if frame["type"] in ("ack", "error"):
            return frame
        if frames is not None:
            frames.append(frame)


async def wait_for_version(
    comm, version: int, frames: list, *, raw: bool = False
) -> dict:
    while True:
        frame = await receive(comm, raw=raw)
        frames.append(frame)
        if frame["type"] == "state" and frame["version"] >= version:
            return frame


@database_sync_to_async
def db_start(users, **kwargs) -> Match:
    return start_match(users, **kwargs)


@database_sync_to_async
def db_match(match_id: int) -> Match:
    return Match.objects.prefetch_related("seats").get(pk=match_id)


@database_sync_to_async
def db_state_at(match: Match, version: int) -> dict:
    return selectors.state_at(match=match, version=version)


@database_sync_to_async
def db_events_at(match: Match, version: int) -> list:
    action = MatchAction.objects.filter(match=match, version=version).first()
    return action.events if action else []


@dataclass
class PlayedGame:
    """A game played to the end over sockets: what every socket received."""

    final: Match
    last: list[dict]  # each seat's last state frame
    # "0", "1": the seats; "spec": a signed-in spectator; "anon": anonymous.
    frames: dict[str, list[dict]] = field(default_factory=dict)


async def play_two_seat_game(
    match: Match,
    users: list,
    spectator_user,
    *,
    choose: Callable[[list[dict]], str],
    max_moves: int,
) -> PlayedGame:
    """Both seats, a spectator and an anonymous watcher connect; the acting seat
    plays ``choose(legal)`` until the match is over. Every frame is kept.

    The seats play at machine speed, far above the socket's frame rate limit
    (``gameplay.consumers.RATE_PER_SECOND``, which is for people and scripts on
    the real site): the limit is lifted for this game. On PostgreSQL a move
    takes a few milliseconds, so a long game used to run out of tokens and the
    refused move was only noticed as a frame that never came."""
    with mock.patch.multiple(consumers, RATE_PER_SECOND=1e9, RATE_BURST=1e9):
        return await _play_two_seat_game(
            match, users, spectator_user, choose=choose, max_moves=max_moves
        )


async def _play_two_seat_game(
    match: Match,
    users: list,
    spectator_user,
    *,
    choose: Callable[[list[dict]], str],
    max_moves: int,
) -> PlayedGame:
    seats = [await connect(match, users[0]), await connect(match, users[1])]
    spectator = await connect(match, spectator_user)
    anonymous = await connect(match, None)
    frames: dict[str, list] = {"0": [], "1": [], "spec": [], "anon": []}
    current = [
        await wait_for_version(c, 0, frames[str(i)]) for i, c in enumerate(seats)
    ]
    await wait_for_version(spectator, 0, frames["spec"])
    await wait_for_version(anonymous, 0, frames["anon"])
    version = 0
    while current[0]["status"] == MatchStatus.ACTIVE:
        actor = current[0]["actors"][0]
        legal = current[actor]["legal"]
        assert legal, "the acting seat must be offered its legal actions"
        assert current[1 - actor]["legal"] == []
        await seats[actor].send_json_to(
            {"type": "act", "action": choose(legal), "version": version}
        )
        # The actor's answer first: a refusal fails here with its reason, where
        # waiting on the other seats for a version that never comes would hang.
        reply = await next_reply(seats[actor], frames[str(actor)])
        assert reply["type"] == "ack", f"move {version + 1} refused: {reply}"
        version += 1
        current = [
            await wait_for_version(c, version, frames[str(i)])
            for i, c in enumerate(seats)
        ]
        await wait_for_version(spectator, version, frames["spec"])
        await wait_for_version(anonymous, version, frames["anon"])
        assert version < max_moves
    for comm in [*seats, spectator, anonymous]:
        await comm.disconnect()
    return PlayedGame(final=await db_match(match.pk), last=current, frames=frames)


async def assert_frames_are_each_seats_view(
    game: PlayedGame,
    engine,
    extra: Callable[[dict, dict, int | None], Any] | None = None,
) -> None:
    """Every state frame anyone received before the end is exactly what the
    engine lets that seat know at that version: its view, its events, no legal
    actions and no hand for watchers. ``extra(frame, state, seat)`` adds a
    game's own secrecy check."""
    for who, received in game.frames.items():
        seat = int(who) if who in ("0", "1") else None
        for frame in received:
            if frame["type"] != "state":
                continue
            if frame["status"] == MatchStatus.FINISHED:
                continue  # after the end everything may be revealed
            state = await db_state_at(game.final, frame["version"])
            assert frame["seat"] == seat
            assert frame["view"] == engine.observe(state, seat)
            events = await db_events_at(game.final, frame["version"])
            if frame["events"]:
                assert frame["events"] == view_events(events, seat)
            if seat is None:
                assert frame["legal"] == []
                assert frame["view"]["hand"] is None
            if extra is not None:
                extra(frame, state, seat)
