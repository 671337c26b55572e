"""A step sends no frame to the seats it changed nothing for.

``broadcast.match_messages``: at a Kung Fu (2009) table of eight every
intent used to send all eight seats a frame, though most intents
(rearranging one's hand, building an offer) change only the mover's view:
each frame was a socket write, a quarter of the web process's CPU. Now the
live owner's step leaves a seat out when its view, menu, timers and the
seats' part are what it was last sent and the step's events are, for it,
only another seat's quiet ones; the seat's next frame names the version of
its last frame (``since``). What each client then holds must still be, at
every version, exactly a fresh build of its frame. The client's side is in
``tests/frontend/live-client.test.js``.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from config.channel_layer import PUBLISH_IF_SHARED
from gameplay import broadcast, consumers, frames, presence
from gameplay.models import Match
from gameplay.rules import get_game, view_events
from gameplay.rules.kungfu2009 import KungFu2009Game
from tests.gameplay.conftest import held, start_match, step_in_memory
from tests.gameplay.live import connect, receive, wait_for_version

GAME = "kungfu2009"
ENGINE = get_game(GAME)
QUIET_EVENTS = KungFu2009Game.quiet_events
# What a client's table shows of a frame (not the step's own fields).
SHOWN = ("view", "actors", "legal", "legal_digest", "timers", "seats", "status")

pytestmark = pytest.mark.usefixtures("no_live_memory")


def message_of(match: Match, **kwargs) -> dict:
    (_, message), *_ = broadcast.match_messages(match=match, **kwargs)
    return message


@pytest.mark.django_db
def test_quiet_steps_skip_unchanged_seats_and_every_client_stays_exact(players):
    match = held(start_match(players, game=GAME).pk)
    message = message_of(match)  # the connect's frames
    clients = {s: json.loads(broadcast.frame_for(message, s)) for s in range(8)}
    last_sent = dict.fromkeys(range(8), match.version)
    spectator = json.loads(broadcast.frame_for(message, None))
    spectator_sent = match.version
    rnd = random.Random(11)
    skipped = sent = spectator_skipped = 0
    for _ in range(150):
        events, step = step_in_memory(match, rnd)
        message = message_of(match, events=events, step=step, quiet=True)
        for seat in range(8):
            text = broadcast.frame_for(message, seat)
            fresh = frames.seat_frame(match=match, seat=seat, events=events, step=step)
            if not text:
                skipped += 1
                assert seat != step["seat"], "the mover always gets its frame"
                assert all(
                    e["type"] in QUIET_EVENTS and not e["private"]
                    for e in view_events(events, seat)
                )
            else:
                sent += 1
                frame = json.loads(text)
                if "legal" not in frame:  # the client keeps its menu
                    assert clients[seat]["legal_digest"] == frame["legal_digest"]
                    frame["legal"] = clients[seat]["legal"]
                assert frame.get("since", match.version - 1) == last_sent[seat]
                assert frame["events"] == json.loads(
                    broadcast.encode_json(view_events(events, seat))
                )
                clients[seat] = frame
                last_sent[seat] = match.version
            # What the client shows is a fresh build's, sent or not.
            expected = json.loads(broadcast.encode(fresh))
            for key in SHOWN:
                assert clients[seat][key] == expected[key], (seat, key)
        # The spectators likewise: nothing when no other seat was sent anything.
        text = broadcast.frame_for(message, None)
        # Other web processes get a step only when they hold sockets of the
        # match (the channel layer's join makes that safe for every step).
        assert message[PUBLISH_IF_SHARED] is True
        if not text:
            spectator_skipped += 1
            others = [broadcast.frame_for(message, s) for s in range(8)]
            assert [s for s in range(8) if others[s]] == [step["seat"]]
        else:
            frame = json.loads(text)
            assert frame.get("since", match.version - 1) == spectator_sent
            spectator, spectator_sent = frame, match.version
        fresh = frames.spectator_frame(match=match, events=events, step=step)
        expected = json.loads(broadcast.encode(fresh))
        for key in SHOWN:
            if key not in ("legal_digest",):
                assert spectator.get(key) == expected.get(key), ("spectator", key)
    # Most seats are left out of most steps (every step writes a frame to
    # the mover only, plus those whose view it changed).
    assert skipped > sent > 150
    assert 150 > spectator_skipped > 50


@pytest.mark.django_db
def test_without_quiet_or_after_another_process_every_seat_gets_its_frame(players):
    match = held(start_match(players, game=GAME).pk)
    message_of(match)
    rnd = random.Random(5)

    def empty_entries(**kwargs) -> int:
        """Seats left out of the next quiet step (the steps before it, not
        quiet, broadcast as the owner does)."""
        while True:
            events, step = step_in_memory(match, rnd)
            if all(e["type"] in QUIET_EVENTS for e in events):
                break
            message_of(match, events=events, step=step, quiet=True)
        message = message_of(match, events=events, step=step, **kwargs)
        return sum(1 for text in message["frames"].values() if not text)

    assert empty_entries(quiet=True) == 7
    # The services' broadcasts (bots, the API, table steps) send everyone.
    assert empty_entries() == 0
    # Another process's message may have replaced what the clients hold.
    assert empty_entries(quiet=True) == 7
    broadcast.heard(match.pk, {"origin": "another", "version": match.version})
    assert empty_entries(quiet=True) == 0
    assert empty_entries(quiet=True) == 7
    # Our own messages change nothing.
    broadcast.heard(match.pk, {"origin": broadcast.ORIGIN, "version": match.version})
    assert empty_entries(quiet=True) == 7


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_over_the_socket_a_quiet_step_sends_the_others_nothing_and_beats_agree(
    players, monkeypatch
):
    from channels.db import database_sync_to_async

    # Which consumers were woken for which versions: a socket whose seat a
    # step sends nothing is not even woken (the channel layer's hook).
    woken: list[tuple[int | None, int]] = []
    real = consumers.MatchConsumer.match_frames

    async def counted(self, event):
        woken.append((self.seat_number, event["version"]))
        await real(self, event)

    monkeypatch.setattr(consumers.MatchConsumer, "match_frames", counted)
    match = await database_sync_to_async(start_match)(players, game=GAME)
    mover, watcher = await connect(match, players[0]), await connect(match, players[1])
    hello = await wait_for_version(watcher, 0, [])
    # A spectator is sent nothing for it either (the public view is unchanged).
    spectator = await connect(match, None)
    await wait_for_version(spectator, 0, [])
    hand = (await wait_for_version(mover, 0, []))["view"]["hand"]
    # Seat 0 rearranges its hand: nothing seat 1 sees changes.
    await mover.send_json_to({"type": "act", "action": "move:0:1", "version": 0})
    got: list = []
    while not any(f["type"] == "state" and f["version"] == 1 for f in got):
        got.append(await receive(mover))
    await asyncio.sleep(0.2)  # the watcher's socket has had the broadcast
    await presence.beat_once()
    while True:
        frame = await receive(watcher)
        # (Presence frames of the connects, at version 0, may come first.)
        assert frame.get("version") == 0, "a quiet step sent seat 1 a frame"
        if frame["type"] == "beat":
            break
    assert (0, 1) in woken and (1, 1) not in woken and (None, 1) not in woken
    # The beat names the version seat 1 was last sent: nothing is missing.
    assert frame["version"] == hello["version"] == 0
    while (seen := await receive(spectator))["type"] != "beat":
        assert seen.get("version") == 0, "a quiet step sent the spectator a frame"
    assert seen["version"] == 0
    # Seat 0 starts an offer to seat 1 (quiet), then sends it: seat 1's
    # frame names the last version it was sent.
    for action in ("to:1", f"give:{hand[0]}"):
        await mover.send_json_to({"type": "act", "action": action, "version": 0})
    await mover.send_json_to({"type": "act", "action": "send", "version": 0})
    frame = await wait_for_version(watcher, 1, [])
    assert frame["version"] == 4 and frame["since"] == 0
    assert frame["step"] == {"kind": "move", "seat": 0}
    public = await wait_for_version(spectator, 1, [])
    assert public["version"] == 4 and public["since"] == 0
    assert public["seat"] is None and public["step"] == {"kind": "move", "seat": 0}
    for comm in (mover, watcher, spectator):
        await comm.disconnect()
