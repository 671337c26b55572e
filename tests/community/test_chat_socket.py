"""Chat over the match socket: who reads which line, live."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from community import services
from gameplay.models import Match
from tests.gameplay.live import connect, db_start, receive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def chat_frames(comm, wait: float = 1.0) -> list[dict]:
    """Every chat frame (and chat answer) that arrives within ``wait`` seconds."""
    got: list[dict] = []
    while True:
        try:
            frame = await receive(comm, timeout=wait, raw=True)
        except AssertionError:
            return got
        if frame["type"].startswith("chat"):
            got.append(frame)


async def say(comm, **frame) -> None:
    await comm.send_json_to({"type": "chat", "request_id": "r1", **frame})


@database_sync_to_async
def finish(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(status="finished")


async def test_rated_players_chat_is_hidden_from_spectators_and_apart(players):
    match = await db_start(players[:2], rated=True)
    one, two, watcher = (
        await connect(match, players[0]),
        await connect(match, players[1]),
        await connect(match, players[5]),
    )
    await say(one, channel="table", text="good luck <b>you</b>")
    await say(watcher, channel="spectators", text="seat 1 holds a kick")
    # A spectator cannot write to the players' chat.
    await watcher.send_json_to(
        {"type": "chat", "channel": "table", "text": "psst", "request_id": "x"}
    )
    got_one, got_two, got_watcher = await asyncio.gather(
        chat_frames(one), chat_frames(two), chat_frames(watcher)
    )
    lines = [f["message"]["text"] for f in got_two if f["type"] == "chat"]
    assert lines == ["good luck <b>you</b>"]  # kept as text, escaped by the page
    assert [f["type"] for f in got_one] == ["chat_ok", "chat"]
    watcher_lines = [f["message"]["text"] for f in got_watcher if f["type"] == "chat"]
    assert watcher_lines == ["seat 1 holds a kick"]
    refused = [f for f in got_watcher if f["type"] == "chat_error"]
    assert refused and refused[0]["request_id"] == "x"
    for comm in (one, two, watcher):
        await comm.disconnect()


async def test_spectators_read_the_players_chat_once_the_match_ends(players):
    from community import selectors

    match = await db_start(players[:2], rated=True)
    await database_sync_to_async(services.chat_post)(
        user=players[0], match_id=match.pk, channel="table", text="gg soon"
    )
    read = database_sync_to_async(
        lambda: [
            m["text"]
            for m in selectors.match_chat(
                match=Match.objects.get(pk=match.pk), user=players[6]
            )
            if not m["system"]
        ]
    )
    assert await read() == []
    await finish(match)
    assert await read() == ["gg soon"]


async def test_casual_tables_show_the_players_chat_to_spectators(players):
    match = await db_start(players[:2], rated=False)
    watcher = await connect(match, players[5])
    await database_sync_to_async(services.chat_post)(
        user=players[0], match_id=match.pk, channel="table", text="hello all"
    )
    got = await chat_frames(watcher)
    assert [f["message"]["text"] for f in got] == ["hello all"]
    await watcher.disconnect()


async def test_private_message_between_two_seats_of_a_2009_table(players):
    match = await db_start(players[:4], game="kungfu2009")
    socks = [await connect(match, p) for p in players[:4]]
    watcher = await connect(match, players[6])
    await say(socks[0], channel="private", to_seat=2, text="trade me a fist")
    got = await asyncio.gather(*(chat_frames(s) for s in [*socks, watcher]))
    texts = [[f["message"]["text"] for f in g if f["type"] == "chat"] for g in got]
    assert texts == [["trade me a fist"], [], ["trade me a fist"], [], []]
    for comm in [*socks, watcher]:
        await comm.disconnect()


async def test_no_private_messages_where_the_game_has_none(players):
    match = await db_start(players[:2])
    one = await connect(match, players[0])
    await say(one, channel="private", to_seat=1, text="psst")
    got = await chat_frames(one)
    assert [f["type"] for f in got] == ["chat_error"]
    assert "private" in got[0]["message"]
    await one.disconnect()


async def test_a_refusal_on_the_socket_speaks_the_writers_language(players):
    """A socket has no locale middleware: the writer's profile language words
    the refusal (issue 32)."""
    writer = players[0]
    writer.language = "de"
    await database_sync_to_async(writer.save)()
    match = await db_start(players[:2])
    one = await connect(match, writer)
    await say(one, channel="private", to_seat=1, text="psst")
    got = await chat_frames(one)
    assert [f["type"] for f in got] == ["chat_error"]
    assert got[0]["message"] == "dieses Spiel hat keine privaten Nachrichten"
    await one.disconnect()


async def test_muted_author_disappears_live_for_the_muter_only(players):
    match = await db_start(players[:3], game="duelo")
    socks = [await connect(match, p) for p in players[:3]]
    await database_sync_to_async(services.mute_set)(
        user=players[1], target=players[0], muted=True
    )
    await say(socks[0], channel="table", text="spam spam")
    got = await asyncio.gather(*(chat_frames(s) for s in socks))
    texts = [[f["message"]["text"] for f in g if f["type"] == "chat"] for g in got]
    assert texts == [["spam spam"], [], ["spam spam"]]
    for comm in socks:
        await comm.disconnect()


async def test_flood_is_refused(players):
    match = await db_start(players[:2])
    one = await connect(match, players[0])
    for i in range(services.RATE_MESSAGES + 2):
        await say(one, channel="table", text=f"line {i}")
    got = await chat_frames(one)
    codes = [f.get("code") for f in got if f["type"] == "chat_error"]
    assert codes == ["chat_rate_limited", "chat_rate_limited"]
    await one.disconnect()


async def test_a_removed_line_leaves_every_socket(players):
    from django.contrib.auth.models import Permission

    from community import moderation

    match = await db_start(players[:2])
    one, two, watcher = (
        await connect(match, players[0]),
        await connect(match, players[1]),
        await connect(match, players[5]),
    )
    line = await database_sync_to_async(services.chat_post)(
        user=players[0], match_id=match.pk, channel="table", text="rude"
    )
    await asyncio.gather(chat_frames(one), chat_frames(two), chat_frames(watcher))

    def remove() -> None:
        players[7].user_permissions.add(
            Permission.objects.get(
                codename="moderate", content_type__app_label="community"
            )
        )
        moderation.line_remove(moderator=players[7], message_id=line.pk, reason="rude")

    await database_sync_to_async(remove)()
    for got in await asyncio.gather(
        chat_frames(one), chat_frames(two), chat_frames(watcher)
    ):
        assert got == [{"type": "chat_removed", "id": line.pk}]
