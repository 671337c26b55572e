"""The live owner's moves on the event loop (``owner._act_in_loop``,
``gameplay.live.pgasync``): on PostgreSQL the common move is decided, appended
(awaiting one round trip on the loop's own connection) and broadcast without a
database thread; a lost compare-and-set, a broken connection or a listener
that needs the database still end as the thread's path would."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import psycopg
import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test import override_settings

from gameplay import broadcast
from gameplay.errors import StaleVersion
from gameplay.live import copies, owner, pgasync
from gameplay.models import Match, MatchAction, MatchStatus
from gameplay.rules import get_game
from tests.gameplay.conftest import start_match
from tests.gameplay.test_live_owner import legal_for, replayed

pytestmark = pytest.mark.django_db(transaction=True)

NO_LAYER = override_settings(CHANNEL_LAYERS={})


@pytest.fixture
def postgresql() -> Any:
    if connection.vendor != "postgresql":
        pytest.skip("moves append from the event loop on PostgreSQL only")
    with NO_LAYER:
        assert copies.in_loop()
        yield
    pgasync.close_all()


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[broadcast.Messages]:
    """The broadcasts the owner hands to the channel layer, kept."""
    kept: list[broadcast.Messages] = []

    async def send(messages: broadcast.Messages, **kwargs: Any) -> None:
        kept.append(messages)

    monkeypatch.setattr(broadcast, "send_messages", send)
    return kept


async def _held(match: Match) -> copies.LiveMatch:
    live = owner.attach(match.pk)
    await database_sync_to_async(copies.read)(live)
    return live


async def _move(live: copies.LiveMatch, users: list[Any]) -> int:
    """The first legal move of whoever is to act, at the copy's version."""
    current = live.match or await database_sync_to_async(Match.objects.get)(pk=live.pk)
    seat, action = legal_for(current)
    return await owner.act(
        match_pk=live.pk,
        user=users[seat],
        action_id=action,
        expected_version=current.version,
    )


async def _stored(match: Match) -> tuple[Match, list[int]]:
    """The match as committed and its log's versions; its state is checked
    against the deal and the log replayed."""

    def read() -> tuple[Match, list[int]]:
        stored = Match.objects.get(pk=match.pk)
        versions = list(stored.actions.values_list("version", flat=True))
        assert stored.state == replayed(stored)
        return stored, versions

    return await database_sync_to_async(read)()


async def _kill_loop_connection() -> None:
    """End the loop's kept connection's server process, as a database
    restart or an idle timeout does, and wait until it is gone."""
    (conn, _checked_at) = pgasync._pools[0].idle[-1]
    pid = conn.info.backend_pid

    def kill() -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])
            return bool(cursor.fetchone()[0])

    assert await database_sync_to_async(kill)()


async def test_moves_are_made_on_the_loop_and_logged(players, postgresql, sent):
    users = players[:2]
    match = await database_sync_to_async(start_match)(users)
    live = await _held(match)
    for expected in (1, 2, 3):
        assert await _move(live, users) == expected
    assert live.loop_moves == live.fast_moves == 3
    assert live.reads == 1  # the copy, read once
    assert pgasync.opened() == 1  # one connection, kept between moves
    stored, versions = await _stored(match)
    assert versions == [1, 2, 3]
    assert stored.state == live.match.state
    # Each move's frames went out, in order.
    assert [messages[0][1]["version"] for messages in sent] == [1, 2, 3]
    owner.detach(match.pk)


async def test_without_loop_appends_every_move_takes_the_thread(
    players, postgresql, sent
):
    users = players[:2]
    match = await database_sync_to_async(start_match)(users)
    with override_settings(LIVE_LOOP_APPENDS=False):
        live = await _held(match)
        assert await _move(live, users) == 1
    assert live.fast_moves == 1 and live.loop_moves == 0
    owner.detach(match.pk)


async def test_a_compare_and_set_lost_on_the_loop_is_read_and_refused(
    players, postgresql, sent
):
    """Two processes hold the match; the other wrote version 1. This one's
    copy agrees with its client's stale move, the loop's append is refused,
    the thread reads and the fresh match refuses it: nothing written, and
    the next move is the loop's again."""
    users = players[:2]
    match = await database_sync_to_async(start_match)(users)
    live = await _held(match)
    other = copies.LiveMatch(pk=match.pk)
    await database_sync_to_async(copies.read)(other)
    seat, action = legal_for(live.match)
    await database_sync_to_async(owner.act_sync)(other, users[seat], action, 0)
    with pytest.raises(StaleVersion):
        await owner.act(
            match_pk=match.pk, user=users[seat], action_id=action, expected_version=0
        )
    assert live.reads == 2 and live.match.version == 1
    assert live.loop_moves == 0
    _stored_match, versions = await _stored(match)
    assert versions == [1]
    assert await _move(live, users) == 2
    assert live.loop_moves == 1
    _stored_match, versions = await _stored(match)
    assert versions == [1, 2]
    owner.detach(match.pk)


async def test_a_connection_dropped_between_moves_fails_one_move_then_reopens(
    players, postgresql, sent
):
    """Within the second it is trusted, a connection the database dropped
    fails the move that meets it (it may have committed: not retried), the
    copy is dropped; the next moves read and open a new connection."""
    users = players[:2]
    match = await database_sync_to_async(start_match)(users)
    live = await _held(match)
    assert await _move(live, users) == 1
    await _kill_loop_connection()
    with pytest.raises(psycopg.OperationalError):
        await _move(live, users)
    assert live.match is None  # whether it committed is for a read to say
    assert not pgasync._pools[0].idle  # the broken one is not kept
    assert await _move(live, users) == 2  # on the thread: it reads first
    assert await _move(live, users) == 3  # on the loop, a new connection
    assert live.loop_moves == 2 and pgasync.opened() == 2
    _stored_match, versions = await _stored(match)
    assert versions == [1, 2, 3]
    owner.detach(match.pk)


async def test_an_idle_connection_found_dead_is_replaced_before_the_move(
    players, postgresql, sent, monkeypatch
):
    users = players[:2]
    match = await database_sync_to_async(start_match)(users)
    live = await _held(match)
    assert await _move(live, users) == 1
    monkeypatch.setattr(pgasync, "HEALTH_CHECK_EVERY_S", 0.0)  # idle too long
    await _kill_loop_connection()
    assert await _move(live, users) == 2
    assert live.loop_moves == 2 and pgasync.opened() == 2
    _stored_match, versions = await _stored(match)
    assert versions == [1, 2]
    owner.detach(match.pk)


async def test_a_listener_that_needs_the_database_runs_on_a_thread(
    players, postgresql, sent, monkeypatch
):
    """The broadcast is built on the loop; a listener that queries the
    database (Django refuses that on the loop) has the whole broadcast built
    again on a thread, its messages included."""
    users = players[:2]
    match = await database_sync_to_async(start_match)(users)
    ran_on: list[str] = []

    def listener(m: Match) -> broadcast.Messages:
        logged = MatchAction.objects.filter(match_id=m.pk).count()
        ran_on.append(threading.current_thread().name)
        return [("listener", {"type": "test.logged", "logged": logged})]

    monkeypatch.setattr(broadcast, "_listeners", [*broadcast._listeners, listener])
    live = await _held(match)
    assert await _move(live, users) == 1
    assert live.loop_moves == 1
    assert ran_on and ran_on[0].startswith("live-db")
    (messages,) = sent
    assert messages[0][1]["version"] == 1
    assert ("listener", {"type": "test.logged", "logged": 1}) in messages
    owner.detach(match.pk)


async def test_a_game_played_to_its_end_on_the_loop(players, postgresql, sent):
    """Every move but the last is the loop's; the last is decided there and
    written with its finish on the thread."""
    users = players[:2]
    match = await database_sync_to_async(start_match)(users)
    live = await _held(match)
    engine = get_game("duelo")
    moves = 0
    while live.match is not None and engine.actors(live.match.state):
        moves += 1
        assert await _move(live, users) == moves
        assert live.match is not None
        if live.match.status != MatchStatus.ACTIVE:
            break
    assert live.match is not None and live.match.status == MatchStatus.FINISHED
    assert live.fast_moves == moves and live.loop_moves == moves - 1
    assert live.finishes == 1 and live.reads == 1
    stored, versions = await _stored(match)
    assert stored.status == MatchStatus.FINISHED and stored.result
    assert versions == list(range(1, moves + 1))
    owner.detach(match.pk)


async def test_a_move_cancelled_with_its_statement_out_leaves_no_connection(
    players, postgresql, sent
):
    """The socket's task is cancelled while its append waits for the row
    lock: the statement is cancelled in the server (it never commits behind
    the next move's read), the connection (in an unknown state) is closed,
    not kept, the copy dropped; the next moves read and the log stays
    whole."""
    users = players[:2]
    match = await database_sync_to_async(start_match)(users)
    live = await _held(match)
    assert await _move(live, users) == 1
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    blocker = await psycopg.AsyncConnection.connect(**params)
    try:
        await blocker.execute(
            "SELECT 1 FROM gameplay_match WHERE id = %s FOR UPDATE", [match.pk]
        )
        moving = asyncio.ensure_future(_move(live, users))
        waiting = 0
        while not waiting:  # until the append waits for the row lock
            cursor = await blocker.execute(
                "SELECT count(*) FROM pg_locks WHERE NOT granted AND pid IN "
                "(SELECT pid FROM pg_stat_activity "
                "WHERE datname = current_database())"
            )
            (waiting,) = await cursor.fetchone()
        moving.cancel()
        with pytest.raises(asyncio.CancelledError):
            await moving
        assert live.match is None
        assert not pgasync._pools[0].idle
        # The server cancelled the statement before the cancel came back: it
        # no longer waits for the lock, so it cannot commit once the lock goes.
        cursor = await blocker.execute(
            "SELECT count(*) FROM pg_locks WHERE NOT granted AND pid IN "
            "(SELECT pid FROM pg_stat_activity "
            "WHERE datname = current_database())"
        )
        assert await cursor.fetchone() == (0,)
    finally:
        await blocker.rollback()
        await blocker.close()
    version = await _move(live, users)  # the thread reads first
    assert await _move(live, users) == version + 1  # the loop, a new connection
    _stored_match, versions = await _stored(match)
    assert versions == list(range(1, version + 2))
    owner.detach(match.pk)
