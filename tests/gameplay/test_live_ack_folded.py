"""An act's ack folded into its state frame (``"ack": "state"``,
docs/protocol/live.md): one frame for the mover's socket instead of two."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gameplay import broadcast
from gameplay.consumers import MatchConsumer
from tests.gameplay.live import connect, db_start, receive


async def _until_version(sock, version: int, seen: list[dict[str, Any]]) -> dict:
    """The first state frame of ``version`` or later; the frames before it
    are kept in ``seen``."""
    while True:
        frame = await receive(sock)
        if frame["type"] == "state" and frame["version"] >= version:
            return frame
        seen.append(frame)


async def _until_pong(sock, seen: list[dict[str, Any]]) -> None:
    await sock.send_json_to({"type": "ping"})
    while (frame := await receive(sock))["type"] != "pong":
        seen.append(frame)


@pytest.mark.django_db(transaction=True)
async def test_the_mover_gets_one_frame_that_is_also_its_ack(players):
    users = players[:2]
    match = await db_start(users)
    socks = [await connect(match, users[0]), await connect(match, users[1])]
    first = [await receive(s) for s in socks]
    actor = first[0]["actors"][0]
    # A second tab of the mover's seat: the same seat's frame, never the ack.
    other_tab = await connect(match, users[actor])
    await receive(other_tab)
    legal = first[actor]["legal"][0]["id"]
    await socks[actor].send_json_to(
        {
            "type": "act",
            "action": legal,
            "version": 0,
            "request_id": "r1",
            "ack": "state",
        }
    )
    before: list[dict[str, Any]] = []
    frame = await _until_version(socks[actor], 1, before)
    assert frame["version"] == 1
    assert frame["ack"] is True and frame["request_id"] == "r1"
    await _until_pong(socks[actor], before)
    # No separate ack, before or after the frame.
    assert [f for f in before if f["type"] != "state"] == []
    latest = {actor: frame}
    for number, sock in ((actor, other_tab), (1 - actor, socks[1 - actor])):
        seen: list[dict[str, Any]] = []
        plain = await _until_version(sock, 1, seen)
        assert plain["version"] == 1 and "ack" not in plain
        assert [f for f in seen if f["type"] != "state"] == []
        latest.setdefault(number, plain)
    # Without asking, the ack comes as its own frame, as before.
    mover = frame["actors"][0]
    mover_sock = socks[mover]
    await mover_sock.send_json_to(
        {
            "type": "act",
            "action": latest[mover]["legal"][0]["id"],
            "version": 1,
            "request_id": 7,
        }
    )
    replies: list[dict[str, Any]] = []
    state = await _until_version(mover_sock, 2, replies)
    await _until_pong(mover_sock, replies)
    assert "ack" not in state
    assert [f for f in replies if f["type"] == "ack"] == [
        {"type": "ack", "version": 2, "request_id": 7}
    ]
    for sock in (*socks, other_tab):
        await sock.disconnect()


def test_with_ack_adds_the_ack_to_an_encoded_frame():
    text = broadcast.encode({"type": "state", "version": 5, "seats": []})
    for request_id in ("a1", 12, None):
        assert json.loads(broadcast.with_ack(text, request_id)) == {
            "ack": True,
            "request_id": request_id,
            "type": "state",
            "version": 5,
            "seats": [],
        }


async def test_an_ack_whose_frame_did_not_come_goes_out_on_its_own():
    """A socket holds its acks until the frame of their version; an older
    one still waiting (not expected) goes out alone first, and a frame with
    nothing to send carries none."""
    consumer = MatchConsumer()
    sent: list[dict[str, Any]] = []

    async def record(frame: dict[str, Any]) -> None:
        sent.append(frame)

    consumer._send = record
    consumer.folded_acks = {4: "a", 5: "b", 6: "c"}
    text = await consumer._fold_acks(5, '{"type":"state","version":5}')
    assert sent == [{"type": "ack", "version": 4, "request_id": "a"}]
    assert json.loads(text) == {
        "ack": True,
        "request_id": "b",
        "type": "state",
        "version": 5,
    }
    assert consumer.folded_acks == {6: "c"}
    assert await consumer._fold_acks(6, "") == ""
    assert sent[-1] == {"type": "ack", "version": 6, "request_id": "c"}
    assert consumer.folded_acks == {}
