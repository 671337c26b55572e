"""Seat frames leave out a menu the seat already holds (``broadcast.match_messages``).

Every step of a real-time table used to send each of eight seats its whole
~30-entry menu although most menus had not changed. Now a broadcast frame
carries ``legal`` only when that seat's menu differs (by ``legal_digest``)
from the one this process sent it at the version before; it always names the
menu by digest, and every frame a socket asks for (connect, ``sync``) carries
it in full. These tests hold the server to that; the client's side is in
``tests/frontend/live-client.test.js``.
"""

from __future__ import annotations

import json
import random

import pytest

from gameplay import broadcast, frames
from gameplay.models import Match
from gameplay.rules import get_game
from tests.gameplay.conftest import held, start_match, step_in_memory
from tests.gameplay.live import connect, receive, wait_for_version

GAME = "kungfu2009"
ENGINE = get_game(GAME)


pytestmark = pytest.mark.usefixtures("no_live_memory")


def frames_of(match: Match, **kwargs) -> dict[int, dict]:
    (_, message), *_ = broadcast.match_messages(match=match, **kwargs)
    return {
        int(seat): json.loads(broadcast.frame_for(message, int(seat)))
        for seat in message["frames"]
    }


def menu(state: dict, seat: int) -> list[dict]:
    return ENGINE.legal_actions(state, seat) if seat in ENGINE.actors(state) else []


@pytest.mark.django_db
def test_a_step_sends_only_the_menus_it_changed_and_names_every_menu(players):
    match = held(start_match(players, game=GAME).pk)
    before = frames_of(match)
    assert all(f["legal"] == menu(match.state, s) for s, f in before.items())
    assert all(f["legal"] for f in before.values()), "everyone may act at the start"
    rnd = random.Random(7)
    omitted = sent = 0
    for _ in range(12):
        events, step = step_in_memory(match, rnd)
        after = frames_of(match, events=events, step=step)
        for seat, frame in after.items():
            now = menu(match.state, seat)
            assert frame["legal_digest"] == frames.menu_digest(now)
            if now and now == before[seat]["legal"]:
                assert "legal" not in frame, f"seat {seat}'s unchanged menu was sent"
                assert frame["legal_digest"] == before[seat]["legal_digest"]
                frame["legal"] = before[seat]["legal"]  # what the client keeps
                omitted += 1
            else:
                assert frame["legal"] == now
                sent += 1
        before = after
    # Most seats' menus stay as they were when one seat acts.
    assert omitted > sent > 0


@pytest.mark.django_db
def test_a_step_builds_again_only_the_menus_whose_key_changed(players, monkeypatch):
    # ``frames.seat_menu``: the engine's ``menu_key`` names what a seat's menu
    # reads; a seat whose key is unchanged gets the menu built before, and
    # every frame is byte for byte the one a fresh build gives.
    match = held(start_match(players, game=GAME).pk)
    built: list[int] = []
    real = ENGINE.legal_actions

    def counted(state, seat):
        built.append(seat)
        return real(state, seat)

    monkeypatch.setattr(ENGINE, "legal_actions", counted)
    base = frames.frame_base(match=match)

    def encoded(**kwargs) -> dict[int, str]:
        return {
            s: broadcast.encode(
                frames.seat_frame(match=match, seat=s, base=base, **kwargs)
            )
            for s in range(8)
        }

    encoded()
    assert sorted(built) == list(range(8))  # the first frames build every menu
    rnd = random.Random(11)
    reused = rebuilt = 0
    for _ in range(15):
        events, step = step_in_memory(match, rnd)
        keys_before = dict(frames._seat_menus)
        built.clear()
        warm = encoded(events=events, step=step)
        for seat in range(8):
            slot = (GAME, match.pk, seat)
            if ENGINE.menu_key(match.state, seat) == keys_before[slot][0]:
                assert seat not in built
                reused += 1
            else:
                assert seat in built
                rebuilt += 1
        frames._seat_menus.clear()
        assert encoded(events=events, step=step) == warm  # what a cold build sends
    assert reused > rebuilt > 0


def test_an_engine_without_a_menu_key_builds_every_menu(monkeypatch):
    class Engine:
        def legal_actions(self, state, seat):
            return [{"id": f"x:{seat}:{state['n']}"}]

    match = Match(pk=5, game="no_such_game", state={"n": 1})
    for _ in range(2):
        legal, digest = frames.seat_menu(engine=Engine(), match=match, seat=0)
        assert legal == [{"id": "x:0:1"}] and digest == frames.menu_digest(legal)
    assert not frames._seat_menus


def test_the_kept_seat_menus_are_bounded(monkeypatch):
    monkeypatch.setattr(frames, "SEAT_MENUS_KEPT", 3)
    state = ENGINE.setup({"players": 4}, 3)
    for pk in (1, 2):
        for seat in range(4):
            match = Match(pk=pk, game=GAME, state=state)
            frames.seat_menu(engine=ENGINE, match=match, seat=seat)
    assert list(frames._seat_menus) == [(GAME, 2, 1), (GAME, 2, 2), (GAME, 2, 3)]


@pytest.mark.django_db
def test_after_a_gap_another_writer_or_the_end_every_menu_is_sent_in_full(players):
    match = held(start_match(players, game=GAME).pk)
    frames_of(match)
    # A frame that is not a step's (presence, seats) carries every menu.
    again = frames_of(match, reread=True)
    assert all(f["legal"] == menu(match.state, s) for s, f in again.items())
    # This process did not build the version before (another process wrote
    # it, or a broadcast was lost on the way): everything in full.
    match.version += 2
    gap = frames_of(match, events=[], step=None)
    assert all(f["legal"] == menu(match.state, s) for s, f in gap.items())
    broadcast._menus.clear()  # a process that has broadcast nothing
    match.version += 1
    assert all("legal" in f for f in frames_of(match, events=[]).values())
    # A finished match is forgotten.
    broadcast._remember_sent(match, None)
    assert match.pk not in broadcast._menus


@pytest.mark.django_db
def test_the_kept_menus_are_bounded(players, monkeypatch):
    monkeypatch.setattr(broadcast, "MENUS_KEPT", 2)
    match = held(start_match(players, game=GAME).pk)
    for pk in (10**9, 10**9 + 1):
        broadcast._menus[pk] = (0, {})
    frames_of(match)
    assert list(broadcast._menus) == [10**9 + 1, match.pk]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_over_the_socket_a_held_menu_is_left_out_and_sync_sends_it_again(
    players,
):
    from channels.db import database_sync_to_async

    match = await database_sync_to_async(start_match)(players, game=GAME)
    mover, watcher = await connect(match, players[0]), await connect(match, players[1])
    await wait_for_version(watcher, 0, [])
    hello = await wait_for_version(mover, 0, [])
    assert hello["legal"] and hello["legal_digest"]
    # Seat 0 rearranges its hand in a way that leaves its menu as it was.
    state = match.state
    action = next(
        a["id"]
        for a in hello["legal"]
        if a["id"].startswith("move:")
        and menu(ENGINE.apply(state, 0, a["id"])[0], 0) == hello["legal"]
    )
    await mover.send_json_to({"type": "act", "action": action, "version": 0})
    acked = frame = None
    while acked is None or frame is None:  # the frame may come before the ack
        got = await receive(mover, raw=True)
        if got["type"] == "ack":
            acked = got
        elif got["type"] == "state" and got["version"] == 1:
            frame = got
    fresh = await database_sync_to_async(held)(match.pk)
    assert menu(fresh.state, 0) == hello["legal"]
    assert "legal" not in frame
    assert frame["legal_digest"] == hello["legal_digest"]
    # A client that lost the frame holding its menu asks for the state: the
    # answer carries the whole menu.
    await mover.send_json_to({"type": "sync", "version": 1})
    for _ in range(10):  # a presence frame may come first; never wait for ever
        answer = await receive(mover)
        if answer["type"] == "state":
            break
    assert answer["version"] == 1 and answer["legal"] == hello["legal"]
    assert answer["legal_digest"] == hello["legal_digest"]
    for comm in (mover, watcher):
        await comm.disconnect()
