"""Presence expires by itself: a web process that dies stops vouching for seats.

``Seat.connected`` is only lowered by ``disconnect``, which a killed process
never runs; these tests leave the count up (as the dead process would) and age
``seen_at`` past PRESENCE_TTL instead.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from gameplay import clocks, frames, presence, services
from gameplay.models import Match, MatchStatus, Seat
from gameplay.routing import websocket_urlpatterns
from tests.gameplay.conftest import start_match
from tests.waiting import wait_until_async


def _kill_process_of(match: Match, number: int, *, ago: timedelta) -> Seat:
    """The seat as a killed web process leaves it: counted, last vouched ``ago``."""
    seat = match.seats.get(number=number)
    seat.connected = 1
    seat.seen_at = timezone.now() - ago
    seat.disconnected_at = None
    seat.save()
    return seat


def test_a_seat_nobody_vouches_for_turns_absent_and_is_claimable(players):
    match = start_match(players[:2])
    for user in players[:2]:
        services.seat_connected(match_id=match.pk, user=user)
    ttl = clocks.presence_ttl()
    seat = _kill_process_of(match, 1, ago=ttl + timedelta(seconds=1))
    match = Match.objects.prefetch_related("seats").get(pk=match.pk)
    frame_seat = frames.seats_public(match=match)[1]
    assert frame_seat["connected"] is False
    claimable = clocks.absent_until_claimable(match=match, seat=seat)
    assert claimable == seat.seen_at + timedelta(seconds=clocks.GRACE_SECONDS)
    # Still inside the grace period (counted from the last refresh): refused.
    with pytest.raises(Exception, match="away"):
        services.match_claim(match_id=match.pk, user=players[0], claim="win")
    _kill_process_of(match, 1, ago=timedelta(seconds=clocks.GRACE_SECONDS + 1))
    services.match_claim(match_id=match.pk, user=players[0], claim="win")
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.result["winners"] == [0]


def test_a_fresh_seat_is_present_and_cannot_be_claimed(players):
    match = start_match(players[:2])
    for user in players[:2]:
        services.seat_connected(match_id=match.pk, user=user)
    seat = match.seats.get(number=1)
    assert clocks.seat_is_present(seat)
    assert clocks.absent_until_claimable(match=match, seat=seat) is None
    assert services.seats_sweep_absent() == 0


def test_sweep_writes_off_a_dead_process_and_hands_the_seat_to_a_bot(players):
    match = start_match(players[:3])
    for user in players[:3]:
        services.seat_connected(match_id=match.pk, user=user)
    ttl = clocks.presence_ttl()
    dead = _kill_process_of(match, 2, ago=ttl + timedelta(seconds=2))
    assert services.seats_sweep_absent() == 1
    dead.refresh_from_db()
    assert dead.connected == 0
    assert dead.disconnected_at == dead.seen_at  # absent since its last refresh
    assert not dead.replaced_by_bot
    # The armed grace check may be lost (broker away): the sweep runs it when due.
    later = dead.seen_at + timedelta(seconds=clocks.GRACE_SECONDS + 1)
    assert services.seats_sweep_absent(now=later) == 1
    dead.refresh_from_db()
    assert dead.replaced_by_bot and dead.forfeit_reason == "left"
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE


def test_a_reconnect_after_a_dead_process_restarts_the_count(players):
    match = start_match(players[:2])
    seat = _kill_process_of(match, 1, ago=timedelta(hours=1))
    seat.connected = 3  # three tabs were on the killed process
    seat.save()
    services.seat_connected(match_id=match.pk, user=players[1])
    seat.refresh_from_db()
    assert seat.connected == 1
    services.seat_disconnected(match_id=match.pk, user=players[1])
    seat.refresh_from_db()
    assert seat.connected == 0 and seat.disconnected_at is not None


def test_a_stalled_process_that_refreshes_again_revives_its_seats(players):
    match = start_match(players[:2])
    seat = _kill_process_of(match, 1, ago=timedelta(minutes=5))
    services.seats_sweep_absent()
    seat.refresh_from_db()
    assert seat.connected == 0
    assert services.seats_seen(seat_ids=[seat.pk]) == [match.pk]
    seat.refresh_from_db()
    assert seat.connected == 1 and seat.disconnected_at is None
    assert clocks.seat_is_present(seat)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_each_socket_is_vouched_for_and_beaten_the_version(players, settings):
    settings.PRESENCE_TTL = 0.3  # refresh every 0.1 s
    match = await database_sync_to_async(start_match)(players[:2])
    old = timezone.now() - timedelta(minutes=5)
    comm = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/match/{match.public_id}/"
    )
    comm.scope["user"] = players[0]
    assert (await comm.connect())[0]
    await database_sync_to_async(Seat.objects.filter(match=match, number=0).update)(
        seen_at=old
    )
    beat = None
    for _ in range(50):
        frame = json.loads(await comm.receive_from(timeout=5))
        if frame["type"] == "beat":
            beat = frame
            break
    assert beat == {"type": "beat", "version": 0}
    seat = await database_sync_to_async(Seat.objects.get)(match=match, number=0)
    assert seat.seen_at > old and seat.connected == 1
    await comm.disconnect()
    # The loop stops once its last socket is gone.
    loop = asyncio.get_running_loop()
    await wait_until_async(
        lambda: not presence._sockets.get(loop),
        timeout=10,
        interval=0.01,
        message="the presence loop to let its last socket go",
    )
